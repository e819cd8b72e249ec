"""Playing against the computer (issue 32, "in the product"): a game created against the
computer has its other seat taken at once; the computer's decisions are played by the job
(app/services/computer.py) through the same service as a person's, each kept in the log as
the computer's, from what its side may read alone; on a real server it answers within
seconds, by itself."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import httpx
import pytest
from app_support import ADMIN, bearer, listed
from fastapi.testclient import TestClient
from live_server import LiveServer, server_env
from sqlalchemy import text

from app import store
from app.services import computer
from engine.games.pacific_battles import leaks


def play_human(client: TestClient | httpx.Client, gid: str, token: str, moves: int) -> int:
    """The person's side plays ``moves`` legal commands when it is its turn; how many it played."""
    played = 0
    for _ in range(moves):
        legal = client.get(f"/api/games/{gid}/legal", headers=bearer(token)).json()
        if not legal["your_turn"]:
            break
        cmd = next((c for c in listed(legal) if c["type"] == "end_phase"), None) \
            or next(c for c in listed(legal) if c["type"] != "undo")
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(token), json={**cmd, "expected_seq": legal["seq"]})
        assert r.status_code == 200, r.text
        played += 1
    return played


def computer_commands(client: TestClient | httpx.Client, gid: str) -> list[dict[str, Any]]:
    exported = client.get(f"/api/admin/games/{gid}/export", auth=ADMIN).json()
    return [e["command"] for e in exported["events"] if (e.get("command") or {}).get("by", "").startswith("computer")]


@pytest.mark.parametrize(("game", "scenario", "side", "level"), [("first_blood", "campaign", "IJ", "greedy"),
                                                                ("pacific_battles", "short", "Allied", "random")])
def test_a_game_against_the_computer_is_played_by_the_job_through_the_same_service(
        client: TestClient, game: str, scenario: str, side: str, level: str) -> None:
    r = client.post("/api/games", json={"game": game, "scenario": scenario, "side": side, "name": "Alice",
                                        "computer": level})
    assert r.status_code == 201, r.text
    made = r.json()
    gid, token = made["game_id"], made["token"]
    assert made["invite_url"] is None  # nobody to invite
    app = client.app
    for _ in range(6):  # the person and the computer take turns
        moved = play_human(client, gid, token, 200)
        done = computer.play_due(app.state.db.sessions, app.state.games, app.state.settings.secret_key)
        if moved == 0 and done == 0:
            break
    by_computer = computer_commands(client, gid)
    assert by_computer and all(c["by"] == f"computer:{level}" for c in by_computer)
    assert client.post(f"/api/admin/games/{gid}/verify", auth=ADMIN).json()["ok"] is True
    # the seat's page names the opponent; nobody may act for the computer's side
    page = client.get("/").text
    assert f"against Computer ({level})" in page
    # the logs mark the computer's lines as its, and only those (the board's, the log page)
    client.post(f"/games/{gid}/seat", data={"token": token})
    board = client.get(f"/games/{gid}").text
    log = board.split('id="log"', 1)[1].split("</ol>", 1)[0]
    lines = re.findall(r"<li [^>]*>(.*?)</li>", log, re.S)
    marked = [t for t in lines if "(the computer)" in t]
    assert marked and len(marked) < len(lines)
    # only what the computer did: no automatic step of the person's side (a marker drawn) is marked
    items = {e["seq"] + 1: e for e in client.get(f"/api/games/{gid}/log", params={"limit": 1000},
                                                 headers=bearer(token)).json()["items"]}
    # nor a new turn or phase that its command began (a step of nobody's)
    for n in re.findall(r'<li [^>]*value="(\d+)"[^>]*>(?:(?!</li>).)*\(the computer\)', log, re.S):
        assert items[int(n)]["side"] not in (side, None), items[int(n)]
    story = client.get(f"/games/{gid}/log", params={"offset": 0, "limit": 1000}).text
    assert story.count('<span class="muted small by-computer">(the computer)</span>') >= len(marked)
    mine = client.get(f"/api/games/{gid}/log", params={"limit": 1000}, headers=bearer(token)).json()["items"]
    assert {e["by"] for e in mine} == {None, f"computer:{level}"}  # the API's log says who sent each command
    own_text = next(e["text"] for e in mine if e.get("actor") == side and e.get("text"))
    assert any(own_text in t and "(the computer)" not in t for t in re.findall(r"<li [^>]*>.*?</li>", story, re.S))


def test_the_computer_is_offered_only_at_the_levels_a_game_has(client: TestClient) -> None:
    r = client.post("/api/games", json={"game": "pacific_battles", "scenario": "short", "side": "Allied",
                                        "computer": "oracle"})
    assert r.status_code == 422 and "random, greedy, search" in r.text
    r = client.post("/api/games", json={"game": "pacific_battles", "scenario": "short", "side": "Allied",
                                        "computer": "search"})
    assert r.status_code == 201, r.text
    page = client.get("/").text
    assert 'name="computer"' in page and "The computer, greedy" in page and "The computer, searching" in page


def test_on_a_real_server_the_computer_answers_by_itself_within_seconds(database_url: str) -> None:
    env = server_env(database_url, admin_password=ADMIN[1], MAIL_INTERVAL_SECONDS="1", COMPUTER_INTERVAL_SECONDS="0.5")
    with LiveServer(env) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        made = http.post("/api/games", json={"side": "IJ", "name": "Alice", "computer": "greedy"}).json()
        gid, token = made["game_id"], made["token"]
        http.cookies.clear()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # the US (the computer) sets up first: it must do it alone
            if http.get(f"/api/games/{gid}/legal", headers=bearer(token)).json()["your_turn"]:
                break
            time.sleep(0.3)
        else:
            raise AssertionError("the computer did not set up within 30 s")
        assert len(computer_commands(http, gid)) >= 20  # its whole set-up, each command its own


def test_a_real_server_wakes_the_computer_at_the_handover_without_waiting_for_its_look(database_url: str) -> None:
    """The job looks for the computer's decisions only once a minute here: the game's
    creation and then each person's move that leaves the computer a decision wake it at once."""
    env = server_env(database_url, admin_password=ADMIN[1], MAIL_INTERVAL_SECONDS="60", COMPUTER_INTERVAL_SECONDS="60")
    with LiveServer(env) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        time.sleep(1.5)  # (past the jobs' first look at the start)
        made = http.post("/api/games", json={"side": "IJ", "name": "Alice", "computer": "greedy"}).json()
        gid, token = made["game_id"], made["token"]
        http.cookies.clear()

        def my_turn_within(seconds: float) -> bool:
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                if http.get(f"/api/games/{gid}/legal", headers=bearer(token)).json()["your_turn"]:
                    return True
                time.sleep(0.1)
            return False

        assert my_turn_within(20)  # the US (the computer) set up at once, not a minute later
        set_up = len(computer_commands(http, gid))
        assert set_up >= 20
        play_human(http, gid, token, 300)  # the IJ's set-up, to the computer's next decision
        assert my_turn_within(20)
        assert len(computer_commands(http, gid)) > set_up


def test_a_persons_move_that_leaves_the_computer_a_decision_wakes_its_job(client: TestClient) -> None:
    """The worker's service wakes the job (``on_computer_due``) when a command leaves the
    computer deciding, and only then: not for the computer's own moves."""
    woken: list[int] = []
    service = client.app.state.games
    service.on_computer_due = lambda: woken.append(1)
    made = client.post("/api/games", json={"side": "IJ", "name": "Alice", "computer": "random"}).json()
    gid, token = made["game_id"], made["token"]
    assert woken == [1]  # the US (the computer) sets up first
    app = client.app
    assert computer.play_due(app.state.db.sessions, service, app.state.settings.secret_key) > 0
    assert woken == [1]  # its own moves wake nothing
    moves = 0
    while moves < 300:
        legal = client.get(f"/api/games/{gid}/legal", headers=bearer(token)).json()
        assert legal["your_turn"]
        cmd = next(c for c in listed(legal) if c["type"] != "undo")
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(token), json={**cmd, "expected_seq": legal["seq"]})
        assert r.status_code == 200, r.text
        moves += 1
        handed = not client.get(f"/api/games/{gid}/legal", headers=bearer(token)).json()["your_turn"]
        assert woken == [1, 1] if handed else woken == [1], moves
        if handed:
            break
    assert len(woken) == 2


def test_the_computers_input_holds_nothing_its_side_may_not_know(client: TestClient) -> None:
    """The computer playing the Allies of Pacific Battles is given what an Allied player is
    given: the Japanese set-up, hand and track stay hidden from it (searched as the fog tests do)."""
    r = client.post("/api/games", json={"game": "pacific_battles", "scenario": "short", "side": "Japanese",
                                        "name": "Hyakutake", "computer": "random"})
    gid, token = r.json()["game_id"], r.json()["token"]
    play_human(client, gid, token, 40)  # the secret Japanese set-up, and on to the Allies' decision
    service = client.app.state.games
    with client.app.state.db.sessions() as session:
        game = store.get_game(session, gid)
        state = service.state(session, game)
        given = computer.bot_input(session, game, state, "Allied", client.app.state.settings.secret_key)
        hidden = leaks.hidden_things(state, "Allied")
    assert hidden  # there is something to hide
    text = json.dumps([given.view, [e.to_json() for e in given.events], [c.to_json() for c in given.legal]])
    assert leaks.find(hidden, text) == []


def test_one_worker_at_a_time_plays_the_computer(client: TestClient) -> None:
    """On PostgreSQL the job takes an advisory lock on a connection of its own: while another
    worker holds it, this one plays nothing; once it is let go, the computer moves."""
    db = client.app.state.db
    with db.sessions() as session:
        bind = session.get_bind()
    if bind.dialect.name != "postgresql":
        pytest.skip("one process on SQLite: no lock to share")
    made = client.post("/api/games", json={"side": "IJ", "name": "Alice", "computer": "random"}).json()
    with bind.connect() as other_worker:
        assert other_worker.scalar(text("SELECT pg_try_advisory_lock(:k)"), {"k": computer.LOCK_KEY})
        assert computer.play_due(db.sessions, client.app.state.games, client.app.state.settings.secret_key) == 0
        other_worker.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": computer.LOCK_KEY})
    assert computer.play_due(db.sessions, client.app.state.games, client.app.state.settings.secret_key) > 0
    assert computer_commands(client, made["game_id"])
    with bind.connect() as after:  # and it let go of the lock
        assert after.scalar(text("SELECT pg_try_advisory_lock(:k)"), {"k": computer.LOCK_KEY})
        after.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": computer.LOCK_KEY})


def test_a_player_away_hands_the_seat_to_the_computer_and_takes_it_back(client: TestClient) -> None:
    made = client.post("/api/games", json={"side": "US", "name": "Alice", "email": "alice@example.org"}).json()
    gid = made["game_id"]
    joined = client.post(f"/api/games/{gid}/join", json={"token": made["invite_url"].split("token=")[1],
                                                         "name": "Bob"}).json()
    client.cookies.clear()
    us, ij = made["token"], joined["token"]
    url = f"/api/games/{gid}/seat/computer"
    assert client.put(url, headers=bearer(ij), json={"level": "nonsense"}).status_code == 422
    r = client.put(url, headers=bearer(ij), json={"level": "random"})
    assert r.status_code == 200 and r.json()["computer"] == "random"
    told = [m for m in client.get("/api/admin/outbox", auth=ADMIN).json()["items"] if m["to"] == "alice@example.org"]
    assert any("handed their seat to the computer" in m["subject"] for m in told)
    play_human(client, gid, us, 200)  # the US set-up, handed over to the IJ
    app = client.app
    key = app.state.settings.secret_key
    assert computer.play_due(app.state.db.sessions, app.state.games, key) > 0  # the computer plays for the IJ
    assert computer_commands(client, gid)
    # the IJ's board says so at its top, with the way back (not only in the folded private link's card)
    client.post(f"/games/{gid}/seat", data={"token": ij})
    board = client.get(f"/games/{gid}").text
    assert "The computer (random) is playing your seat." in board
    assert board.index('id="computer-seat"') < board.index('id="status"')
    back = re.search(r'<form method="post" action="/games/\w+/seat/computer" class="card computer-seat".*?</form>',
                     board, re.S).group(0)
    assert 'name="level" value=""' in back and "Take my seat back" in back
    assert 'id="computer-seat"' in client.get(f"/games/{gid}/poll", params={"seq": 0}).text  # kept by the updates
    client.cookies.clear()
    client.post(f"/games/{gid}/seat", data={"token": us})
    assert "does not read it" in client.get(f"/games/{gid}/chat").text  # while the computer plays the IJ
    client.cookies.clear()
    r = client.put(url, headers=bearer(ij), json={"level": None})
    assert r.status_code == 200 and r.json()["computer"] is None
    client.post(f"/games/{gid}/seat", data={"token": us})
    chat = client.get(f"/games/{gid}/chat").text
    assert "Message to your opponent" in chat and "/chat/spectators" in chat and "does not read it" not in chat
    client.cookies.clear()
    client.post(f"/games/{gid}/seat", data={"token": ij})
    assert 'id="computer-seat"' not in client.get(f"/games/{gid}").text  # taken back: gone
    client.cookies.clear()
    before = len(computer_commands(client, gid))
    play_human(client, gid, us, 200)
    computer.play_due(app.state.db.sessions, app.state.games, app.state.settings.secret_key)
    assert len(computer_commands(client, gid)) == before  # taken back: the computer plays no more
    assert client.put(url, json={"level": "random"}).status_code == 401  # only the seat's player


def test_nobody_gives_the_computer_more_time_or_claims_the_game_from_it(client: TestClient) -> None:
    """A clock runs while the computer decides (it answers in seconds), but its opponent's
    board offers neither more time for it nor a claim on time: those are for a person."""
    made = client.post("/api/games", json={"side": "IJ", "name": "Alice", "computer": "greedy",
                                           "move_days": 2}).json()
    gid, token = made["game_id"], made["token"]
    client.post(f"/games/{gid}/seat", data={"token": token})
    page = client.get(f"/games/{gid}").text
    assert 'id="clock"' in page and "US to decide by" in page  # the US (the computer) sets up first
    assert "/clock/grant" not in page and "/clock/claim" not in page
    # the chat says nobody reads it there, and offers no agreement the computer cannot give
    assert "the computer plays your opponent&#39;s seat and does not read it" in page
    # said in full under the box, its placeholder short (a narrow panel cut the long one off)
    assert 'placeholder="A note in the chat"' in page and "does not read them.</p>" in page
    assert "Message to your opponent" not in page and "/chat/spectators" not in page
    clock = client.get(f"/api/games/{gid}", headers=bearer(token)).json()["clock"]
    assert clock["deciding_sides"] == ["US"] and clock["people_deciding"] == []


def test_the_admin_replaces_no_link_of_a_seat_only_the_computer_has_played(client: TestClient) -> None:
    """Nobody holds the secret of a seat the computer took when the game was made: the
    admin's page says so and offers no new link for it; a person's seat handed to the
    computer for a while keeps its offer (the player comes back with a link)."""
    made = client.post("/api/games", json={"side": "IJ", "name": "Alice", "computer": "greedy"}).json()
    client.cookies.clear()
    page = client.get(f"/admin/games/{made['game_id']}", auth=ADMIN).text
    assert "US: the computer (greedy) has played this seat since the game was made" in page
    assert "/seats/US/new-link" not in page and "/seats/IJ/new-link" in page
    other = client.post("/api/games", json={"side": "US", "name": "Carol"}).json()
    joined = client.post(f"/api/games/{other['game_id']}/join",
                         json={"token": other["invite_url"].split("token=")[1], "name": "Dave"}).json()
    client.cookies.clear()
    r = client.put(f"/api/games/{other['game_id']}/seat/computer", headers=bearer(joined["token"]),
                   json={"level": "greedy"})
    assert r.status_code == 200
    page = client.get(f"/admin/games/{other['game_id']}", auth=ADMIN).text
    assert "/seats/IJ/new-link" in page and "the computer playing the seat now" in page
    assert "has played this seat since the game was made" not in page


def test_the_computers_seed_is_the_servers_own_for_the_game_and_side(client: TestClient) -> None:
    """Its seed keys its own draws (a mixed air allocation, a set-up of the book): made of
    public things (the game's id, the moment), a player could run the bot and read them."""
    r = client.post("/api/games", json={"side": "US", "name": "Alice", "computer": "greedy"})
    gid, token = r.json()["game_id"], r.json()["token"]
    key = client.app.state.settings.secret_key
    seeds = []
    for moves in (0, 3):
        play_human(client, gid, token, moves)
        with client.app.state.db.sessions() as session:
            game = store.get_game(session, gid)
            state = client.app.state.games.state(session, game)
            seeds.append(computer.bot_input(session, game, state, "IJ", key).seed)
    assert seeds[0] == seeds[1] == computer.bot_seed(key, gid, "IJ")  # one seed for the game's decisions
    assert gid not in seeds[0] and computer.bot_seed(key, gid, "US") != seeds[0]
    assert computer.bot_seed("another server's key", gid, "IJ") != seeds[0]  # not made without the key


def test_the_job_looks_only_at_games_where_the_computer_decides_now(client: TestClient) -> None:
    """The job runs every two seconds in every worker: it reads a game only when the sides
    deciding now (``to_move``, written with every append) include a computer seat's,
    alone or in a decision both sides make at once."""
    made = client.post("/api/games", json={"game": "pacific_battles", "scenario": "short", "side": "Allied",
                                           "name": "Alice", "computer": "random"}).json()
    gid = made["game_id"]
    db = client.app.state.db

    def owed_with(to_move: str) -> list[tuple[str, str]]:
        with db.sessions() as session:
            session.execute(text("UPDATE games SET to_move = :m WHERE id = :g"), {"m": to_move, "g": gid})
            session.commit()
            return [(g, s) for g, s, _ in session.execute(computer._OWED) if g == gid]

    assert owed_with("Allied") == []
    assert owed_with("") == []
    assert owed_with("Japanese") == [(gid, "Japanese")]
    assert owed_with("Allied,Japanese") == [(gid, "Japanese")]
    assert owed_with("Japanese,Allied") == [(gid, "Japanese")]
    owed_with("Allied")
    assert computer.play_due(db.sessions, client.app.state.games, client.app.state.settings.secret_key) == 0


def test_a_seat_handed_to_the_computer_on_its_turn_wakes_the_job(client: TestClient) -> None:
    woken: list[int] = []
    client.app.state.games.on_computer_due = lambda: woken.append(1)
    made = client.post("/api/games", json={"side": "US", "name": "Alice", "computer": "random"}).json()
    gid, token = made["game_id"], made["token"]
    assert woken == []  # the US (the person) sets up first
    assert client.get(f"/api/games/{gid}/legal", headers=bearer(token)).json()["your_turn"]
    r = client.put(f"/api/games/{gid}/seat/computer", headers=bearer(token), json={"level": "greedy"})
    assert r.status_code == 200, r.text
    assert woken == [1]
    r = client.put(f"/api/games/{gid}/seat/computer", headers=bearer(token), json={"level": None})
    assert r.status_code == 200 and woken == [1]  # taken back: nothing to wake


@pytest.mark.parametrize(("game", "scenario", "first"), [("first_blood", "campaign", "US"),
                                                         ("pacific_battles", "short", "Japanese")])
def test_a_seat_the_computer_plays_is_not_told_it_is_its_move(client: TestClient, game: str, scenario: str,
                                                              first: str) -> None:
    """While the computer plays a seat, its board only watches: no "(Your move)" in the tab,
    no prompt marked the player's (the icon and the browser's notice follow that mark), no
    commands to give; taken back, they are there again."""
    made = client.post("/api/games", json={"game": game, "scenario": scenario, "side": first,
                                           "name": "Alice"}).json()
    gid, token = made["game_id"], made["token"]
    client.post(f"/api/games/{gid}/join", json={"token": made["invite_url"].split("token=")[1], "name": "Bob"})
    client.cookies.clear()
    client.post(f"/games/{gid}/seat", data={"token": token})

    def board() -> str:
        return client.get(f"/games/{gid}").text

    mine = board()
    assert "<title>(Your move)" in mine and 'class="prompt yours"' in mine and 'hx-post="/games/' in mine
    url = f"/api/games/{gid}/seat/computer"
    assert client.put(url, headers=bearer(token), json={"level": "random"}).status_code == 200
    watched = board()
    assert "is playing your seat" in watched
    assert "(Your move)" not in watched and 'class="prompt yours"' not in watched
    assert 'action="/games/' + gid + '/command"' not in watched and 'name="type" value="end_phase"' not in watched
    assert client.put(url, headers=bearer(token), json={"level": None}).status_code == 200
    assert "<title>(Your move)" in board()
