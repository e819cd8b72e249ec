"""The server hosts Pacific Battles as it hosts First Blood (issue 11): created through
the API with its scenario, both seats taken, commands from the legal list, and every
hidden thing kept from the side that may not know it: the Japanese set-up, their hand
and track, in the view, the legal list, the log and the command answers of the Allies
and of a spectator."""

from __future__ import annotations

from app_support import bearer, listed
from fastapi.testclient import TestClient
from pb_support import SET_UP, new_game


def outputs(client: TestClient, gid: str, token: str | None) -> dict[str, str]:
    headers = bearer(token) if token else {}
    return {
        "view": client.get(f"/api/games/{gid}", headers=headers).text,
        "legal": client.get(f"/api/games/{gid}/legal", headers=headers).text,
        "log": client.get(f"/api/games/{gid}/log", params={"limit": 1000}, headers=headers).text,
    }


def test_a_pacific_battles_game_is_played_through_the_api_and_the_set_up_stays_hidden(client: TestClient) -> None:
    g = new_game(client)
    gid = g["id"]
    view = client.get(f"/api/games/{gid}", headers=bearer(g["Japanese"])).json()
    assert view["game"] == "pacific_battles" and view["phase"] == "japanese_setup"
    assert view["sides"]["Japanese"]["hand"] == ["Banzai!"]  # 25.4d
    answers = []
    for _ in range(len(SET_UP)):
        legal = client.get(f"/api/games/{gid}/legal", headers=bearer(g["Japanese"])).json()
        place = next(c for c in listed(legal) if c["type"] == "place")
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(g["Japanese"]),
                        json={"type": "place", "data": place["data"], "expected_seq": legal["seq"]})
        assert r.status_code == 200, r.text
        answers.append(r.text)
    mine = client.get(f"/api/games/{gid}", headers=bearer(g["Japanese"])).json()
    assert {u["unit"] for u in mine["units"]} == set(SET_UP)

    # The Allies (and a spectator) see three stacks, never what is in them.
    for who, token in (("Allied", g["Allied"]), ("spectator", None)):
        seen = outputs(client, gid, token)
        leaks = [(where, name) for where, text in seen.items() for name in (*SET_UP, "Banzai!") if name in text]
        assert leaks == [], f"{who} reads {leaks}"
    allied = client.get(f"/api/games/{gid}", headers=bearer(g["Allied"])).json()
    assert {s["hex"] for s in allied["stacks"]} == {u["hex"] for u in mine["units"]}
    assert all(s["units"] is None for s in allied["stacks"])
    assert allied["units"] == [] and "hand" not in allied["sides"]["Japanese"]

    # The Japanese end the set-up by word; the Allies may not act for them.
    legal = client.get(f"/api/games/{gid}/legal", headers=bearer(g["Japanese"])).json()
    assert {"type": "end_phase", "data": {}} in [{"type": c["type"], "data": c["data"]} for c in listed(legal)]
    r = client.post(f"/api/games/{gid}/commands", headers=bearer(g["Allied"]),
                    json={"type": "end_phase", "data": {}, "expected_seq": legal["seq"]})
    assert r.status_code in (403, 409), r.text
    r = client.post(f"/api/games/{gid}/commands", headers=bearer(g["Japanese"]),
                    json={"type": "end_phase", "data": {}, "expected_seq": legal["seq"]})
    assert r.status_code == 200, r.text
    for name in SET_UP:
        assert name not in client.get(f"/api/games/{gid}/log", params={"limit": 1000},
                                      headers=bearer(g["Allied"])).text

    # Turn 1 runs on to the secret air allocation (25.2: the US has the initiative); the
    # markers drawn on the way may ask for a decision (Disease, Weather): the first legal one.
    for _ in range(20):
        view = client.get(f"/api/games/{gid}", headers=bearer(g["Allied"])).json()
        if view["phase"] == "air_allocation":
            break
        side = view["prompt"]["side"]
        legal = client.get(f"/api/games/{gid}/legal", headers=bearer(g[side])).json()
        first = next(c for c in listed(legal) if c["type"] != "undo")
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(g[side]),
                        json={"type": first["type"], "data": first["data"], "expected_seq": legal["seq"]})
        assert r.status_code == 200, r.text
    assert view["turn"] == 1 and view["first"] == "Allied" and view["phase"] == "air_allocation"
    assert set(view["prompt"]["sides"]) == {"Allied", "Japanese"}
    for side in ("Allied", "Japanese"):  # both decide now: /legal says so to each, with its commands
        legal = client.get(f"/api/games/{gid}/legal", headers=bearer(g[side])).json()
        assert legal["your_turn"] is True and {c["type"] for c in listed(legal)} >= {"allocate"}, (side, legal)
        assert legal["prompt"]["text"].startswith("Allocate your air missions")
        # too many to list: described by the code that judges it (any split of the Reserve, 16.2)
        (described,) = legal["described"]
        reserve = view["sides"][side]["air"]["reserve"]
        assert described["type"] == "allocate" and described["schema"]["x-sum-at-most"]["value"] == reserve
        assert described["schema"]["properties"]["interdiction"]["enum"][:2] == [0, 2]
    reserve = view["sides"]["Allied"]["air"]["reserve"]  # 5, or 4 after a Weather marker
    assert reserve >= 3
    unlisted = {"superiority": reserve - 3, "interdiction": 2, "recon": 1, "strike": 0}
    assert unlisted not in [c["data"] for c in listed(client.get(f"/api/games/{gid}/legal",
                                                                 headers=bearer(g["Allied"])).json())]
    r = client.post(f"/api/games/{gid}/commands", headers=bearer(g["Allied"]),
                    json={"type": "allocate", "data": {"superiority": reserve - 3, "interdiction": 2, "recon": 1,
                                                       "strike": 0},
                          "expected_seq": view_seq(client, gid, g["Allied"])})
    assert r.status_code == 200, r.text
    japanese = client.get(f"/api/games/{gid}", headers=bearer(g["Japanese"])).json()
    assert japanese["sides"]["Allied"]["air"]["allocation"] == "allocated"
    assert "allocated" not in japanese["sides"]["Allied"]["air"]
    assert '"interdiction": 2' not in client.get(f"/api/games/{gid}/log", params={"limit": 1000},
                                                 headers=bearer(g["Japanese"])).text


def view_seq(client: TestClient, gid: str, token: str) -> int:
    return client.get(f"/api/games/{gid}/legal", headers=bearer(token)).json()["seq"]


def test_an_illegal_pacific_battles_command_names_its_rule_and_changes_nothing(client: TestClient) -> None:
    g = new_game(client)
    gid = g["id"]
    seq = view_seq(client, gid, g["Japanese"])
    r = client.post(f"/api/games/{gid}/commands", headers=bearer(g["Japanese"]),
                    json={"type": "place", "data": {"unit": "81 Inf", "hex": "1648"}, "expected_seq": seq})
    assert r.status_code == 422, r.text
    assert "25.4" in r.text and "Henderson Field" in r.text
    assert view_seq(client, gid, g["Japanese"]) == seq


def test_every_route_of_the_api_answers_for_pacific_battles_without_a_server_error(client: TestClient) -> None:
    """The unit and odds questions First Blood answers: a piece of one's own answers, an
    enemy piece answers as one that does not exist (its id is not the asker's to know),
    and attack odds, which this game shows on its board instead, say that they are not here."""
    g = new_game(client)
    gid = g["id"]
    legal = client.get(f"/api/games/{gid}/legal", headers=bearer(g["Japanese"])).json()
    place = next(c for c in listed(legal) if c["type"] == "place")
    client.post(f"/api/games/{gid}/commands", headers=bearer(g["Japanese"]),
                json={"type": "place", "data": place["data"], "expected_seq": legal["seq"]})
    piece = client.get(f"/api/games/{gid}", headers=bearer(g["Japanese"])).json()["units"][0]["id"]
    own = client.get(f"/api/games/{gid}/units/{piece}/reachable", headers=bearer(g["Japanese"]))
    assert own.status_code == 200 and own.json() == {"unit": piece, "seq": legal["seq"] + 1, "hexes": {}}
    enemy = client.get(f"/api/games/{gid}/units/{piece}/reachable", headers=bearer(g["Allied"]))
    nothing = client.get(f"/api/games/{gid}/units/no-such-piece/reachable", headers=bearer(g["Allied"]))
    assert enemy.status_code == nothing.status_code == 404
    assert enemy.json()["detail"].replace(piece, "X") == nothing.json()["detail"].replace("no-such-piece", "X")
    preview = client.post(f"/api/games/{gid}/attack-preview", headers=bearer(g["Allied"]),
                          json={"targets": ["1529"], "units": []})
    assert preview.status_code == 404 and "has no attack previews" in preview.json()["detail"]
