"""Commands decided on the event loop and written without the request threads
(app/fast_commands.py; PostgreSQL's asyncio connections, SQLite's writer thread): the
same answers, byte for byte, as the thread path gives; the same log; and every case the
loop does not take (a refusal, a stale sequence, a replaced secret, a handover to a seat
that wants a notice, a take-back, a write that failed) answered by the thread path as
before; a handover written with the clock a thread writes."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from itertools import pairwise
from typing import Any

import pb_support
import pytest
from app_support import listed, pick
from fastapi.testclient import TestClient
from sqlalchemy import event, select, text, update

from app import store
from app.async_appends import APPLICATION_NAME
from app.config import Settings
from app.main import create_app
from app.models import Game, Mail, Seat, Snapshot, utcnow
from app.security import hash_token
from engine.core.events import Command
from engine.core.game import replay
from engine.games import get_rules
from engine.selfplay import Chooser, choose

PG = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
BOTH = pytest.mark.parametrize("database_url", ["postgresql", "sqlite"], indirect=True)
DICE = "fixed-dice-for-both-games"


@pytest.fixture
def pair(settings: Settings) -> Iterator[tuple[TestClient, TestClient]]:
    """Two servers on one database: one writes commands from the event loop, the other
    (no connections for that) only through threads."""
    fast = create_app(settings.model_copy(update={"fixed_dice_secret": DICE}))
    slow = create_app(settings.model_copy(update={"fixed_dice_secret": DICE, "fast_writes": 0}))
    assert fast.state.appends is not None and slow.state.appends is None
    with TestClient(fast) as f, TestClient(slow) as s:
        yield f, s


def new_game(client: TestClient) -> dict[str, str]:
    body = client.post("/api/games", json={"side": "US", "name": "Alice", "title": "Same <b>game</b>"}).json()
    joined = client.post(f"/api/games/{body['game_id']}/join",
                         json={"token": body["invite_url"].split("token=")[1], "name": "Bob"}).json()
    client.cookies.clear()
    return {"id": body["game_id"], "US": body["token"], "IJ": joined["token"]}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def legal(client: TestClient, game: dict[str, str]) -> tuple[str, dict[str, Any]]:
    side = client.get(f"/api/games/{game['id']}/legal", headers=bearer(game["US"])).json()["prompt"]["side"]
    return side, client.get(f"/api/games/{game['id']}/legal", headers=bearer(game[side])).json()


def post(client: TestClient, game: dict[str, str], side: str, cmd: dict[str, Any], seq: int,
         select: str = "") -> str:
    r = client.post(f"/games/{game['id']}/command", headers=bearer(game[side]),
                    data={"type": cmd["type"], "data": json.dumps(cmd["data"]), "seq": seq, "select": select})
    assert r.status_code == 200, r.text[:500]
    return r.text


def same(answer: str, game: dict[str, str]) -> str:
    """An answer with what differs between two games anyway (their ids, each side's
    secret and the clocks' times) blanked."""
    for name, value in game.items():
        answer = answer.replace(value, "GAME" if name == "id" else f"{name}-SECRET")
    return re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(\+00:00|Z)?", "TIME", answer)


def appends_by_threads(client: TestClient) -> list[str]:
    """The appends the server's thread pool sends (the event loop's, on connections of
    their own, are not among them)."""
    seen: list[str] = []
    engine = client.app.state.db.engine
    append = "WITH" if engine.dialect.name == "postgresql" else "INSERT INTO events"
    event.listen(engine, "before_cursor_execute",
                 lambda _c, _cur, statement, *_rest: seen.append(statement) if statement.startswith(append) else None)
    return seen


@BOTH
def test_the_loop_answers_as_a_thread_does(pair: tuple[TestClient, TestClient]) -> None:
    """The same commands on two games with the same dice, one on each server: every
    answer is the same, and the logs are the same; most commands went through the loop."""
    fast, slow = pair
    games = {fast: new_game(fast), slow: new_game(slow)}
    by_threads = appends_by_threads(fast)
    commands = 0
    for step in range(160):
        (side, now), (side2, now2) = legal(fast, games[fast]), legal(slow, games[slow])
        assert (side, listed(now)) == (side2, listed(now2)), step
        cmd = pick(fast, games[fast]["id"], side, now)
        select = cmd["data"].get("unit", "") if step % 3 == 0 else ""
        answers = [same(post(c, games[c], side, cmd, now["seq"], select), games[c]) for c in (fast, slow)]
        assert answers[0] == answers[1], step
        commands += 1
    logs = [[(e["seq"], e["type"], e["text"]) for e in c.get(f"/api/games/{games[c]['id']}/log?limit=1000",
                                                           headers=bearer(games[c]["US"])).json()["items"]]
            for c in (fast, slow)]
    assert logs[0] == logs[1] and len(logs[0]) > commands
    assert len(by_threads) < commands // 2, (len(by_threads), commands)  # the rest went through the loop


@BOTH
def test_what_the_loop_does_not_take_is_answered_the_same(pair: tuple[TestClient, TestClient]) -> None:
    """A refused command, a stale sequence number, a take-back, and a secret replaced
    since the worker learnt it: the same answers from both servers, nothing written."""
    fast, slow = pair
    games = {fast: new_game(fast), slow: new_game(slow)}
    for c in (fast, slow):  # each server learns the secrets and holds the state
        side, now = legal(c, games[c])
        post(c, games[c], side, pick(c, games[c]["id"], side, now), now["seq"])
    side, now = legal(fast, games[fast])
    refused = {"type": "place", "data": {"unit": "no-such-unit", "hex": "0101"}}
    stale = pick(fast, games[fast]["id"], side, now)
    undo = next(c for c in listed(now) if c["type"] == "undo")
    for cmd, seq, shows in ((refused, now["seq"], 'role="alert"'), (stale, now["seq"] - 1, "The game moved on"),
                            (undo, now["seq"], "<del>")):
        answers = [same(post(c, games[c], side, cmd, seq), games[c]) for c in (fast, slow)]
        assert answers[0] == answers[1], cmd
        assert shows in answers[0], cmd
    # a secret replaced since this worker learnt it (a new link made on another worker):
    # the write refuses it, and the thread path answers as it does for any wrong secret
    gid = games[fast]["id"]
    side, now = legal(fast, games[fast])
    post(fast, games[fast], side, pick(fast, gid, side, now), now["seq"])  # learnt, and the state held
    side, now = legal(fast, games[fast])
    cmd = pick(fast, gid, side, now)
    with fast.app.state.db.sessions() as s:
        s.execute(update(Seat).where(Seat.game_id == gid, Seat.side == side).values(token_hash=hash_token("new")))
        s.commit()
    service = fast.app.state.games  # so the loop takes it, and its write is what refuses it
    assert service.known_seat(gid, games[fast][side]) and service.cache.get(gid, now["seq"]) is not None
    writes = appends_by_threads(fast)
    r = fast.post(f"/games/{gid}/command", headers=bearer(games[fast][side]),
                  data={"type": cmd["type"], "data": json.dumps(cmd["data"]), "seq": now["seq"]})
    assert r.status_code == 403, r.text[:300]
    assert writes == []  # refused by the loop's write, then by the thread's read of the seat
    assert fast.get(f"/api/games/{gid}").json()["seq"] == now["seq"]


def play_to_handover(client: TestClient, game: dict[str, str], to: str, decided: list[str],
                     by_threads: list[str]) -> tuple[dict[str, Any], int]:
    """Commands over the JSON API until one hands the decision to ``to``: that command and
    the log's length it was sent at (``decided`` and ``by_threads`` hold only what was
    decided and written for it)."""
    side, now = legal(client, game)
    service = client.app.state.games
    for _ in range(300):
        cmd = pick(client, game["id"], side, now)
        assert service.known_seat(game["id"], game[side]) and service.cache.get(game["id"], now["seq"]) is not None
        decided.clear()
        by_threads.clear()
        sent = now["seq"]
        r = client.post(f"/api/games/{game['id']}/commands", headers=bearer(game[side]),
                        json={"type": cmd["type"], "data": cmd["data"], "expected_seq": sent})
        assert r.status_code == 200, r.text
        after, now = legal(client, game)
        if after != side and after == to:
            return cmd, sent
        side = after
    raise AssertionError(f"no handover to {to} within 300 commands")


def counted_decisions(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The commands the engine decides on ``client``'s server, as they are decided."""
    service = client.app.state.games
    decided: list[str] = []
    real = service.decide

    def counting(session: Any, head: Any, cmd: Any, *rest: Any, **kw: Any) -> Any:
        decided.append(cmd.type)
        return real(session, head, cmd, *rest, **kw)

    monkeypatch.setattr(service, "decide", counting)
    return decided


def clock_of(client: TestClient, gid: str) -> tuple[Any, ...]:
    """A game's clock as both paths write it: who decides, the vacation added, the note,
    and the time from the decision's start to its deadline."""
    with client.app.state.db.sessions() as s:
        g = s.get(Game, gid)
        assert g is not None and g.decision_since is not None and g.deadline_ts is not None
        return g.decision_side, g.decision_extra, g.clock_noted, g.deadline_ts - int(g.decision_since.timestamp())


@BOTH
def test_a_handover_is_written_on_the_loop_with_the_clock_a_thread_writes(pair: tuple[TestClient, TestClient],
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A command that hands the decision over starts the next side's clock: the loop
    decides it and writes it with that clock (PostgreSQL: in its one statement; SQLite:
    in its transaction), as a thread writes it (the next side's vacation added), and
    nothing goes to a thread."""
    fast, slow = pair
    games = {}
    for c in (fast, slow):
        body = c.post("/api/games", json={"side": "US", "name": "Alice", "move_days": 3, "vacation_days": 7}).json()
        joined = c.post(f"/api/games/{body['game_id']}/join",
                        json={"token": body["invite_url"].split("token=")[1], "name": "Bob"}).json()
        c.cookies.clear()
        games[c] = {"id": body["game_id"], "US": body["token"], "IJ": joined["token"]}
        with c.app.state.db.sessions() as s:  # the IJ player is away for two days
            s.execute(update(Seat).where(Seat.game_id == body["game_id"], Seat.side == "IJ")
                      .values(vacation_until=utcnow() + timedelta(days=2)))
            s.commit()
    decided = counted_decisions(fast, monkeypatch)
    by_threads = appends_by_threads(fast)
    for c in (fast, slow):
        play_to_handover(c, games[c], "IJ", decided, by_threads)
        if c is fast:
            assert decided and set(decided) <= {"place", "end_phase"} and by_threads == [], (decided, by_threads)
    (side, extra, noted, span), (side2, extra2, noted2, span2) = clock_of(fast, games[fast]["id"]), \
        clock_of(slow, games[slow]["id"])
    assert (side, noted) == (side2, noted2) == ("IJ", "")
    assert 2 * 86_400 - 120 < extra <= 2 * 86_400 and abs(extra - extra2) < 60  # the vacation's rest, both ways
    assert span - extra == span2 - extra2 == 3 * 86_400
    assert fast.get(f"/api/games/{games[fast]['id']}", headers=bearer(games[fast]["IJ"])).json()["seq"] == \
        slow.get(f"/api/games/{games[slow]['id']}", headers=bearer(games[slow]["IJ"])).json()["seq"]


@BOTH
def test_a_handover_to_a_seat_that_wants_notices_is_written_by_a_thread_with_them(
        pair: tuple[TestClient, TestClient], monkeypatch: pytest.MonkeyPatch) -> None:
    """A handover to a seat with an address: the loop's statement finds the seat wants
    mail and writes nothing; a thread writes it with the loop's decision and queues the
    mail.  That game's later handovers go to a thread at once."""
    fast, _ = pair
    game = new_game(fast)
    with fast.app.state.db.sessions() as s:
        s.execute(update(Seat).where(Seat.game_id == game["id"], Seat.side == "IJ").values(email="ij@example.com"))
        s.commit()
    appends = fast.app.state.appends
    on_loop: list[int] = []
    real = appends.append

    async def counting(batch: Any, returning: bool) -> Any:
        on_loop.append(batch.expected_seq)
        return await real(batch, returning)

    monkeypatch.setattr(appends, "append", counting)
    decided = counted_decisions(fast, monkeypatch)
    by_threads = appends_by_threads(fast)
    on_loop.clear()
    cmd, sent = play_to_handover(fast, game, "IJ", decided, by_threads)
    assert decided == [cmd["type"]] and len(by_threads) == 1 and on_loop[-1] == sent, (decided, by_threads)
    assert fast.app.state.games.noticed_games.get(game["id"])
    with fast.app.state.db.sessions() as s:
        mails = s.scalars(select(Mail.kind).where(Mail.game_id == game["id"], Mail.side == "IJ")).all()
    assert mails == ["your_move"]
    play_to_handover(fast, game, "US", decided, by_threads)  # (the US seat wants none: ...)
    cmd, sent = play_to_handover(fast, game, "IJ", decided, by_threads)
    assert decided == [cmd["type"]] and len(by_threads) == 1 and sent not in on_loop  # ... known: not tried
    with fast.app.state.db.sessions() as s:
        assert len(s.scalars(select(Mail.id).where(Mail.game_id == game["id"], Mail.side == "IJ")).all()) == 2


def answered_by_a_thread_then_the_loop(client: TestClient, game: dict[str, str], answer: str, sent: int,
                                       by_threads: list[str], logged: str) -> None:
    """A command whose write on the loop failed: answered as usual, written once by a
    thread, the log whole; and the next commands go through the loop again."""
    assert 'role="alert"' not in answer
    assert len(by_threads) == 1 and "the thread path answers" in logged
    log = client.get(f"/api/games/{game['id']}/log?limit=1000", headers=bearer(game["US"])).json()["items"]
    assert [e["seq"] for e in log] == list(range(len(log))) and len(log) > sent
    for _ in range(3):
        side, now = legal(client, game)
        by_threads.clear()
        post(client, game, side, pick(client, game["id"], side, now), now["seq"])
        if not by_threads:
            break
    assert not by_threads


@PG
def test_a_failed_write_on_the_loop_is_answered_by_a_thread(pair: tuple[TestClient, TestClient],
                                                            caplog: pytest.LogCaptureFixture) -> None:
    """The event loop's connections cut by the database (a restart, a failover): the
    command is written by a thread instead, once, and the answer is the usual one."""
    fast, _ = pair
    game = new_game(fast)
    side, now = legal(fast, game)
    post(fast, game, side, pick(fast, game["id"], side, now), now["seq"])  # the secret and the state known
    side, now = legal(fast, game)
    with fast.app.state.db.sessions() as s:
        cut = s.execute(text("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                             "WHERE application_name = :name AND datname = current_database()"),
                        {"name": APPLICATION_NAME}).scalar_one()
    assert cut == fast.app.state.settings.fast_writes
    by_threads = appends_by_threads(fast)
    cmd = pick(fast, game["id"], side, now)
    answer = post(fast, game, side, cmd, now["seq"])
    answered_by_a_thread_then_the_loop(fast, game, answer, now["seq"], by_threads, caplog.text)
    # (the pool replaces what it lost)


@BOTH
def test_a_pacific_battles_board_is_answered_from_the_loop_as_a_thread_does(
        pair: tuple[TestClient, TestClient]) -> None:
    """Pacific Battles' board answers from the written row as First Blood's does: the
    same commands on two games with the same dice, one on each server, give the same
    answers (the log lines added since the page's step, nothing of the other side's
    hidden pieces), the same clocks (the secret allocation's handovers too, where the
    other side's clock runs on) and the same logs, and most commands never reach a thread."""
    fast, slow = pair
    games = {c: pb_support.new_game(c, move_days=2) for c in (fast, slow)}
    by_threads = appends_by_threads(fast)
    choosers = {c: Chooser("fast-pb") for c in (fast, slow)}
    commands = told = 0
    clocks: dict[TestClient, list[tuple[Any, ...]]] = {fast: [], slow: []}
    joint = False
    for step in range(120):
        sides = [pb_legal(c, games[c]) for c in (fast, slow)]
        (side, now), (side2, now2) = sides
        assert (side, listed(now)) == (side2, listed(now2)), step
        for c in (fast, slow):  # each step's clock, and whether its decision began anew
            with c.app.state.db.sessions() as s:
                g = s.get(Game, games[c]["id"])
                assert g is not None and g.decision_since is not None and g.deadline_ts is not None
                clocks[c].append((g.decision_side, g.decision_extra, g.clock_noted,
                                  g.deadline_ts - int(g.decision_since.timestamp()), g.decision_since))
        assert [k[:4] for k in clocks[fast]] == [k[:4] for k in clocks[slow]], step
        assert [a[4] == b[4] for a, b in pairwise(clocks[fast])] == [a[4] == b[4] for a, b in pairwise(clocks[slow])]
        joint = joint or len(now["prompt"]["sides"]) > 1
        if side is None:
            break
        answers = []
        for c in (fast, slow):
            cmds = [Command(x["type"], x["data"]) for x in listed(now) if x["type"] != "undo"]
            cmd = choose(choosers[c], now["prompt"]["kind"] or "", cmds)
            answers.append(same(post(c, games[c], side, {"type": cmd.type, "data": cmd.data}, now["seq"]), games[c]))
        assert answers[0] == answers[1], step
        lines = [int(n) for n in re.findall(r'<li value="(\d+)"', answers[0])]
        assert min(lines, default=now["seq"]) >= now["seq"], (step, lines)  # only the lines the page lacks
        commands += 1
        told += bool(lines)
    logs = [[(e["seq"], e["type"], e["text"]) for e in c.get(f"/api/games/{games[c]['id']}/log?limit=1000",
                                                           headers=bearer(games[c]["Allied"])).json()["items"]]
            for c in (fast, slow)]
    assert logs[0] == logs[1] and len(logs[0]) > commands > 60 and told > commands // 2
    assert len(by_threads) < commands // 2, (len(by_threads), commands)  # the rest went through the loop
    assert joint and len({k[0] for k in clocks[fast]}) == 2  # both clocks ran, a decision made together too


def pb_legal(client: TestClient, game: dict[str, str]) -> tuple[str | None, dict[str, Any]]:
    """The side whose decision it is (one of a secret allocation's two) and its ``/legal``."""
    for side in ("Japanese", "Allied"):
        now = client.get(f"/api/games/{game['id']}/legal", headers=bearer(game[side])).json()
        if now["your_turn"] or now["prompt"]["side"] is None:
            return (side if now["your_turn"] else None), now
    raise AssertionError("nobody's turn")


@BOTH
def test_a_command_passing_a_snapshot_is_written_on_the_loop_and_the_snapshot_after(
        pair: tuple[TestClient, TestClient]) -> None:
    """Its events are all the command must write: the loop writes them and answers, and
    the snapshot of the state after them is stored once the answer is sent."""
    fast, _ = pair
    game = new_game(fast)
    every = fast.app.state.settings.snapshot_every
    by_threads = appends_by_threads(fast)
    side, now = legal(fast, game)
    for _ in range(400):
        cmd = pick(fast, game["id"], side, now)
        by_threads.clear()
        r = fast.post(f"/api/games/{game['id']}/commands", headers=bearer(game[side]),
                      json={"type": cmd["type"], "data": cmd["data"], "expected_seq": now["seq"]})
        assert r.status_code == 200, r.text
        after_side, after = legal(fast, game)
        if after["seq"] // every > now["seq"] // every and after_side == side and not by_threads:
            break
        side, now = after_side, after
    else:
        raise AssertionError("no command on the loop passed a snapshot's place")
    with fast.app.state.db.sessions() as s:
        snap = s.get(Snapshot, game["id"])
        assert snap is not None and snap.seq == after["seq"]
        rules = get_rules("first_blood")
        assert store.snapshot_state(snap) == rules.state_to_json(replay(rules, store.load_events(s, game["id"])))


@PG
def test_a_vacation_committed_while_the_loop_waits_to_hand_over_is_counted(pair: tuple[TestClient, TestClient]) -> None:
    """The vacation a player takes while the opponent's handover to them waits for the
    game's row (a vacation locks it first, docs/concurrency.md): the loop's statement read
    the seats before that commit, so it writes nothing; a thread writes the handover,
    reading the seat after the lock, and the new clock counts the vacation."""
    fast, _ = pair
    body = fast.post("/api/games", json={"side": "US", "name": "Alice", "move_days": 3, "vacation_days": 5}).json()
    joined = fast.post(f"/api/games/{body['game_id']}/join",
                       json={"token": body["invite_url"].split("token=")[1], "name": "Bob"}).json()
    fast.cookies.clear()
    game = {"id": body["game_id"], "US": body["token"], "IJ": joined["token"]}
    service = fast.app.state.games
    by_threads = appends_by_threads(fast)
    for _ in range(300):  # up to the command that hands the decision to the IJ (asked of the engine)
        side, now = legal(fast, game)
        cmd = pick(fast, game["id"], side, now)
        state = service.cache.get(game["id"], now["seq"])
        assert state is not None
        decision = service.decide(None, store.GameHead(game["id"], "first_blood", now["seq"]),
                                  Command(cmd["type"], cmd["data"], side), side, now["seq"], state)
        if decision.handover and decision.after.side == "IJ":
            break
        r = fast.post(f"/api/games/{game['id']}/commands", headers=bearer(game[side]),
                      json={"type": cmd["type"], "data": cmd["data"], "expected_seq": now["seq"]})
        assert r.status_code == 200, r.text
    else:
        raise AssertionError("no handover to the IJ within 300 commands")
    answer: list[Any] = []
    with fast.app.state.db.sessions() as holder:  # the vacation's writes, as clock.take_vacation makes them
        holder.execute(update(Game).where(Game.id == game["id"]).values(decision_extra=Game.decision_extra))
        holder.execute(update(Seat).where(Seat.game_id == game["id"], Seat.side == "IJ")
                       .values(vacation_until=utcnow() + timedelta(days=2), vacation_left=3 * 86_400))
        by_threads.clear()
        sending = threading.Thread(target=lambda: answer.append(fast.post(
            f"/api/games/{game['id']}/commands", headers=bearer(game[side]),
            json={"type": cmd["type"], "data": cmd["data"], "expected_seq": now["seq"]})))
        sending.start()
        time.sleep(1.0)  # the loop's statement waits for the row
        assert answer == []
        holder.commit()
    sending.join(30)
    assert answer and answer[0].status_code == 200, answer
    assert len(by_threads) == 1  # the loop wrote nothing: a thread did
    side_now, extra, _, span = clock_of(fast, game["id"])
    assert side_now == "IJ" and 2 * 86_400 - 120 < extra <= 2 * 86_400 and span - extra == 3 * 86_400


@pytest.mark.parametrize("loop", [True, False], ids=["loop", "threads"])
@BOTH
def test_a_new_dice_period_is_written_on_the_loop_with_its_published_seed(settings: Settings, loop: bool) -> None:
    """A game made now (seed chains): the command that starts a turn's dice period writes
    the last period's open seed into the record.  The loop writes it, the seed's entry in
    the append's one statement; only the first command (it shows both players' entropy)
    goes to a thread.  A server without the loop writes it in that statement too, from a
    thread.  The record then verifies, each side's copy too, as does the admin's replay
    of every decision with its key."""
    from app_support import ADMIN, drive

    from engine.record import verify_record

    with TestClient(create_app(settings if loop else settings.model_copy(update={"fast_writes": 0}))) as fast:
        assert (fast.app.state.appends is not None) is loop
        body = fast.post("/api/games", json={"side": "US", "name": "Alice"}).json()
        joined = fast.post(f"/api/games/{body['game_id']}/join",
                           json={"token": body["invite_url"].split("token=")[1], "name": "Bob"}).json()
        fast.cookies.clear()
        game = {"id": body["game_id"], "US": body["token"], "IJ": joined["token"]}
        by_threads = appends_by_threads(fast)
        drive(fast, game, lambda _legal: fast.get(f"/api/games/{game['id']}").json()["turn"] >= 3, limit=900)
        admin = fast.get(f"/api/games/{game['id']}/export", params={"format": "record"}, auth=ADMIN).json()
        seeds = [i["entry"] for i in admin["entries"] if i.get("entry", {}).get("kind") == "seed"]
        assert [s["period"] for s in seeds] == [1, 2]
        if loop:
            assert len(by_threads) == 1, len(by_threads)  # the first command's: the rest, seeds too, on the loop
        assert verify_record(admin).ok
        for side in ("US", "IJ"):
            mine = fast.get(f"/api/games/{game['id']}/export", params={"format": "record"},
                            headers=bearer(game[side])).json()
            assert verify_record(mine, admin["entries"][-1]["hash"]).ok, side
        verified = fast.post(f"/api/admin/games/{game['id']}/verify", auth=ADMIN).json()
        assert verified["ok"], verified


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_on_sqlite_a_write_that_finds_the_file_locked_is_answered_by_a_thread(
        pair: tuple[TestClient, TestClient], caplog: pytest.LogCaptureFixture) -> None:
    """Another writer holds SQLite's write lock longer than the writer thread waits for it
    (``BUSY_MS``): the command is written by a request thread instead, once it gets the
    lock, and answered as usual; the writer thread takes the next commands again."""
    fast, _ = pair
    game = new_game(fast)
    side, now = legal(fast, game)
    post(fast, game, side, pick(fast, game["id"], side, now), now["seq"])  # the secret and the state known
    side, now = legal(fast, game)
    by_threads = appends_by_threads(fast)
    cmd = pick(fast, game["id"], side, now)
    with fast.app.state.db.engine.connect() as other:
        other.exec_driver_sql("BEGIN IMMEDIATE")  # another writer, with the lock for a second
        threading.Timer(1.0, other.rollback).start()
        began = time.monotonic()
        answer = post(fast, game, side, cmd, now["seq"])
        assert time.monotonic() - began >= 0.9  # it waited for the lock, in a request thread
    answered_by_a_thread_then_the_loop(fast, game, answer, now["seq"], by_threads, caplog.text)
