"""Time control (issue 8, item 4): days per decision and vacation chosen at creation, the
clock of each decision from the log's handovers, a reminder at 80%, a notice when time is
up, and the opponent's claim (written to the log, verified) or grant.  The tests move the
clock the server reads, never the wall.  On SQLite and on PostgreSQL."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from app_support import ADMIN, bearer, drive, listed
from clock_support import DAY, Clock, clock_of, moved_clock, new_game
from fastapi.testclient import TestClient

from app.services import clock, computer


@pytest.fixture
def moved(client: TestClient) -> Clock:
    return moved_clock(client)


def tick(client: TestClient, now: datetime) -> int:
    return clock.tick(client.app.state.db.sessions, client.app.state.notices, now)


def outbox(client: TestClient) -> list[dict[str, Any]]:
    return client.get("/api/admin/outbox", auth=ADMIN).json()["items"]


def test_the_clock_starts_at_the_join_and_at_each_handover(client: TestClient, moved: Clock) -> None:
    game = new_game(client, move_days=3, vacation_days=7)
    k = clock_of(client, game)
    assert (k["days_per_decision"], k["vacation_days"], k["deciding"]) == (3, 7, "US")
    assert datetime.fromisoformat(k["deadline"]) == moved.now + 3 * DAY
    assert k["vacation"] == {"IJ": {"days_left": 7.0, "until": None}, "US": {"days_left": 7.0, "until": None}}
    moved.now += timedelta(hours=5)
    drive(client, game, lambda legal: legal["prompt"]["side"] == "IJ")  # the US sets up: handed over
    k = clock_of(client, game)
    assert k["deciding"] == "IJ" and datetime.fromisoformat(k["deadline"]) == moved.now + 3 * DAY
    assert client.get(f"/api/games/{game['id']}").json()["clock"] == k  # in the view too


def test_no_clock_unless_chosen_and_only_the_listed_choices(client: TestClient) -> None:
    assert clock_of(client, new_game(client)) is None
    for bad in ({"move_days": 4}, {"vacation_days": 3}, {"move_days": 3, "vacation_days": 40}):
        r = client.post("/api/games", json={"side": "US", **bad})
        assert r.status_code == 422, (bad, r.text)


def test_a_reminder_at_80_percent_and_a_notice_when_time_is_up(client: TestClient, moved: Clock) -> None:
    new_game(client, move_days=1)
    start = moved.now
    assert tick(client, start + DAY * 0.79) == 0
    assert tick(client, start + DAY * 0.81) == 1
    assert tick(client, start + DAY * 0.9) == 0  # once per decision
    (reminder,) = [m for m in outbox(client) if m["kind"] == "reminder"]
    assert (reminder["side"], reminder["to"]) == ("US", "alice@example.org")
    assert reminder["subject"].startswith("Reminder: your decision in First Blood")
    assert tick(client, start + DAY + timedelta(seconds=1)) == 1
    (overdue,) = [m for m in outbox(client) if m["kind"] == "overdue"]
    assert (overdue["side"], overdue["to"]) == ("IJ", "bob@example.net")
    assert "US has run out of time" in overdue["subject"] and "claim the game" in overdue["subject"]
    assert tick(client, start + 2 * DAY) == 0


def test_the_opponent_claims_on_time_and_the_log_verifies(client: TestClient, moved: Clock) -> None:
    game = new_game(client, move_days=2)
    gid = game["id"]
    r = client.post(f"/api/games/{gid}/clock/claim", headers=bearer(game["IJ"]))
    assert r.status_code == 409 and "US still has 2 d 0 h" in r.text
    moved.now += 2 * DAY + timedelta(minutes=1)
    r = client.post(f"/api/games/{gid}/clock/claim", headers=bearer(game["US"]))
    assert r.status_code == 409 and "your own decision" in r.text
    seq = client.get(f"/api/games/{gid}").json()["seq"]
    r = client.post(f"/api/games/{gid}/clock/claim", headers=bearer(game["IJ"]))
    assert r.status_code == 200, r.text
    (ended,) = r.json()["events"]
    assert ended["type"] == "game_ended" and ended["data"]["winner"] == "IJ" and ended["seq"] == seq
    view = client.get(f"/api/games/{gid}").json()
    assert view["status"] == "finished" and "claimed the game on time" in view["result"]["reason"]
    assert view["clock"]["deciding"] is None
    assert client.post(f"/api/admin/games/{gid}/verify", auth=ADMIN).json()["ok"] is True
    # a player cannot send the clock's command themselves
    r = client.post(f"/api/games/{gid}/commands", headers=bearer(game["US"]),
                    json={"type": "time_forfeit", "data": {"loser": "IJ"}, "expected_seq": view["seq"]})
    assert r.status_code in (409, 422)


def test_a_player_forfeiting_by_command_is_refused_while_the_game_runs(client: TestClient, moved: Clock) -> None:
    game = new_game(client, move_days=2)
    seq = client.get(f"/api/games/{game['id']}").json()["seq"]
    r = client.post(f"/api/games/{game['id']}/commands", headers=bearer(game["US"]),
                    json={"type": "time_forfeit", "data": {"loser": "IJ"}, "expected_seq": seq})
    assert r.status_code == 422 and "only the server's clock" in r.text
    assert client.get(f"/api/games/{game['id']}").json()["seq"] == seq


def test_more_time_granted_and_vacation_taken_move_the_deadline(client: TestClient, moved: Clock) -> None:
    game = new_game(client, move_days=3, vacation_days=5)
    gid = game["id"]
    start = moved.now
    r = client.post(f"/api/games/{gid}/clock/grant", headers=bearer(game["US"]), json={"days": 1})
    assert r.status_code == 409 and "only your opponent" in r.text
    r = client.post(f"/api/games/{gid}/clock/grant", headers=bearer(game["IJ"]), json={"days": 2})
    assert datetime.fromisoformat(r.json()["clock"]["deadline"]) == start + 5 * DAY
    moved.now += DAY
    r = client.post(f"/api/games/{gid}/clock/vacation", headers=bearer(game["US"]), json={"days": 3})
    k = r.json()["clock"]
    assert datetime.fromisoformat(k["deadline"]) == start + 8 * DAY
    assert k["vacation"]["US"] == {"days_left": 2.0, "until": (moved.now + 3 * DAY).isoformat()}
    r = client.post(f"/api/games/{gid}/clock/vacation", headers=bearer(game["US"]), json={"days": 1})
    assert r.status_code == 409 and "on vacation until" in r.text
    moved.now += 4 * DAY
    r = client.post(f"/api/games/{gid}/clock/vacation", headers=bearer(game["US"]), json={"days": 3})
    assert r.status_code == 409 and "2 vacation day(s) left" in r.text


def test_a_decision_handed_to_a_player_on_vacation_waits_for_their_return(client: TestClient,
                                                                           moved: Clock) -> None:
    game = new_game(client, move_days=1, vacation_days=5)
    r = client.post(f"/api/games/{game['id']}/clock/vacation", headers=bearer(game["IJ"]), json={"days": 2})
    assert r.status_code == 200
    drive(client, game, lambda legal: legal["prompt"]["side"] == "IJ")
    k = clock_of(client, game)
    assert datetime.fromisoformat(k["deadline"]) == moved.now + 3 * DAY  # 2 days away, then 1


def test_the_board_shows_the_clock_and_the_claim_button(client: TestClient, moved: Clock) -> None:
    game = new_game(client, move_days=1)
    gid = game["id"]
    client.post(f"/games/{gid}/seat", data={"token": game["IJ"]}, follow_redirects=False)
    html = client.get(f"/games/{gid}").text
    assert "1 day per decision" in html and 'id="deadline"' in html and "Claim the game on time" not in html
    moved.now += DAY * 2
    html = client.get(f"/games/{gid}").text
    assert "time is up" in html and "Claim the game on time" in html
    r = client.post(f"/games/{gid}/clock/claim", headers={"Origin": "http://testserver"}, follow_redirects=False)
    assert r.status_code == 303
    assert client.get(f"/api/games/{gid}").json()["status"] == "finished"


def test_the_landing_page_offers_the_clock(client: TestClient) -> None:
    page = client.get("/").text
    assert 'name="move_days"' in page and "No time limit" in page and 'name="vacation_days"' in page
    r = client.post("/new", data={"side": "US", "name": "A", "move_days": "7", "vacation_days": "3"},
                    follow_redirects=False)
    gid = r.headers["location"].split("?")[0].rsplit("/", 1)[1]
    assert client.get(f"/api/games/{gid}/clock").json()["clock"]["days_per_decision"] == 7


def test_when_both_decide_at_once_each_clock_runs_from_the_start_and_neither_may_claim(
        client: TestClient, moved: Clock) -> None:
    """Pacific Battles' sealed air allocation (4.1 1c): both decide at once.  The one who
    allocates second has had its time since the allocation began, not since the other's
    answer; while both still owe, neither may claim the game."""
    created = client.post("/api/games", json={"game": "pacific_battles", "scenario": "short", "side": "Japanese",
                                              "name": "Hyakutake", "move_days": 3,
                                              "email": "hyakutake@example.org"}).json()
    gid = created["game_id"]
    joined = client.post(f"/api/games/{gid}/join", json={"token": created["invite_url"].split("token=")[1],
                                                         "name": "Vandegrift",
                                                         "email": "vandegrift@example.net"}).json()
    client.cookies.clear()
    tokens = {"Japanese": created["token"], "Allied": joined["token"]}
    while True:  # the Japanese set-up, then both allocate
        legal = client.get(f"/api/games/{gid}/legal", headers=bearer(tokens["Japanese"])).json()
        commands = listed(legal)
        if legal["prompt"]["sides"] == ["Allied", "Japanese"] or not commands:
            break
        cmd = next((c for c in commands if c["type"] == "place"), commands[0])
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(tokens["Japanese"]),
                        json={"type": cmd["type"], "data": cmd["data"], "expected_seq": legal["seq"]})
        assert r.status_code == 200, r.text
    joint = clock_of(client, {"id": gid})
    assert joint["deciding_sides"] == ["Allied", "Japanese"]  # each side's clock: the same deadline for both
    started = datetime.fromisoformat(joint["since"])
    for side in ("Japanese", "Allied"):  # neither may give the other time: both owe a decision
        r = client.post(f"/api/games/{gid}/clock/grant", headers=bearer(tokens[side]), json={"days": 1})
        assert r.status_code == 409 and "opponent" in r.text, r.text
    assert tick(client, moved.now + timedelta(days=3 * 0.81)) == 1  # both are reminded: each owes its decision
    reminded = {m["to"] for m in outbox(client) if m["kind"] == "reminder" and m["game_id"] == gid}
    assert reminded == {"hyakutake@example.org", "vandegrift@example.net"}
    moved.now += 4 * DAY  # both are late now
    for side in ("Japanese", "Allied"):
        r = client.post(f"/api/games/{gid}/clock/claim", headers=bearer(tokens[side]))
        assert r.status_code == 409 and ("make it first" in r.text or "your own decision" in r.text), r.text
    legal = client.get(f"/api/games/{gid}/legal", headers=bearer(tokens["Allied"])).json()
    alloc = next(c for c in listed(legal) if c["type"] == "allocate")
    r = client.post(f"/api/games/{gid}/commands", headers=bearer(tokens["Allied"]),
                    json={"type": "allocate", "data": alloc["data"], "expected_seq": legal["seq"]})
    assert r.status_code == 200, r.text
    now = clock_of(client, {"id": gid})
    assert now["deciding"] == "Japanese" and now["deciding_sides"] == ["Japanese"]
    assert datetime.fromisoformat(now["since"]) == started  # not a fresh three days from the Allies' answer
    assert now["overdue"] is True
    r = client.post(f"/api/games/{gid}/clock/claim", headers=bearer(tokens["Allied"]))
    assert r.status_code == 200 and r.json()["events"][0]["data"]["winner"] == "Allied", r.text


def test_the_opponent_of_a_late_player_may_let_the_computer_finish_the_game_instead_of_claiming(
        client: TestClient, moved: Clock) -> None:
    game = new_game(client, move_days=1)
    r = client.post(f"/api/games/{game['id']}/clock/computer", headers=bearer(game["IJ"]))
    assert r.status_code == 409  # not before the time is up (as a claim)
    moved.now += 2 * DAY
    r = client.post(f"/api/games/{game['id']}/clock/computer", headers=bearer(game["IJ"]))
    assert r.status_code == 200 and r.json()["side"] == "US" and r.json()["computer"] == "greedy"
    made = computer.play_due(client.app.state.db.sessions, client.app.state.games,
                             client.app.state.settings.secret_key)
    assert made > 0  # the computer plays on for the US, who may take the seat back on their return
    r = client.put(f"/api/games/{game['id']}/seat/computer", headers=bearer(game["US"]), json={"level": None})
    assert r.status_code == 200 and r.json()["computer"] is None
