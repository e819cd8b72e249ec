"""Hidden events never leave the server for a viewer who may not read them (issue 11):
every log output (API log, command answer, log page, board, briefing, moments) for
the other side and for spectators holds only the public stub, while the owner and the
admin read it whole.  First Blood hides nothing, so a hidden event is planted: a US
placement as a game with fog of war would record it."""

from __future__ import annotations

from app_support import ADMIN, bearer, listed
from fastapi.testclient import TestClient

from app import store
from engine.core.events import Command, Event
from engine.core.visibility import hide
from engine.games.first_blood.rules import RULES

SECRET = "SECRET-PLAN-7731"  # in the hidden event's data and log line only
STUB = "US set up a unit in secret"


def plant(client: TestClient, gid: str) -> int:
    """Append the US placement of 1/1 in 0709 as an event only the US may read."""
    service = client.app.state.games
    with client.app.state.db.sessions() as session:
        game = store.get_game(session, gid)
        state = service.state(session, game)
        cmd = Command("place", {"unit": "us-1-1", "to": "0709"}, "US")
        out = RULES.outcome(state, cmd)
        events = [Event(e.type, hide({**e.data, "note": SECRET}, ["US"], public={"text": STUB}), e.side)
                  for e in out.events]
        texts = [f"{t} ({SECRET})" if t else t for t in out.texts]
        store.append(session, game, game.seq, events, texts, "US", cmd, None, None)
        session.commit()
        return game.seq - len(events)


def pages_for(client: TestClient, game: dict[str, str], side: str | None, seq: int) -> dict[str, str]:
    client.cookies.clear()
    if side is not None:
        client.post(f"/games/{game['id']}/seat", data={"token": game[side]}, follow_redirects=False)
    gid = game["id"]
    headers = bearer(game[side]) if side else {}
    out = {
        "api log": client.get(f"/api/games/{gid}/log", params={"limit": 1000}, headers=headers).text,
        "log page": client.get(f"/games/{gid}/log").text,
        "board": client.get(f"/games/{gid}").text,
        "board poll": client.get(f"/games/{gid}/board", params={"seq": 0}).text,
    }
    if side is not None:  # the moments of a running game are for its players
        out["moment"] = client.get(f"/games/{gid}/at/{seq + 1}").text
        out["later moment"] = client.get(f"/games/{gid}/at/{seq + 2}").text
    return out


def test_the_other_side_and_spectators_read_only_the_stub(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    seq = plant(client, gid)
    # the US gives one more command, whose answer carries no hidden event
    legal = client.get(f"/api/games/{gid}/legal", headers=bearer(game["US"])).json()
    place = next(c for c in listed(legal) if c["type"] == "place")
    r = client.post(f"/api/games/{gid}/commands", headers=bearer(game["US"]),
                    json={**place, "expected_seq": legal["seq"]})
    assert r.status_code == 200 and SECRET not in r.text

    for viewer in ("IJ", None):
        seen = pages_for(client, game, viewer, seq)
        leaks = [where for where, text in seen.items() if SECRET in text]
        assert leaks == [], f"{viewer or 'a spectator'} reads the hidden event in: {leaks}"
        assert STUB in seen["api log"] and STUB in seen["log page"], viewer
    items = client.get(f"/api/games/{gid}/log", params={"limit": 1000}, headers=bearer(game["IJ"])).json()["items"]
    (stub,) = [i for i in items if i["seq"] == seq]
    assert (stub["type"], stub["data"], stub["text"]) == ("unit_placed", {"text": STUB}, STUB)

    owner = pages_for(client, game, "US", seq)
    assert SECRET in owner["api log"] and SECRET in owner["log page"] and SECRET in owner["moment"]
    client.cookies.clear()
    assert SECRET in client.get(f"/api/admin/games/{gid}/log", params={"limit": 1000}, auth=ADMIN).text
    assert SECRET in client.get(f"/admin/games/{gid}", auth=ADMIN).text


def test_the_briefing_of_the_other_side_holds_the_stub(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    plant(client, gid)
    client.post(f"/games/{gid}/seat", data={"token": game["IJ"]}, follow_redirects=False)
    card = client.get(f"/games/{gid}").text.split('id="briefing"', 1)[1].split("</details>", 1)[0]
    assert STUB in card and SECRET not in card
