"""State snapshots are a disposable cache: with ``snapshot_every=25`` a row is
kept per game, and whatever happens to it (or to the in-memory cache) every view
and every decision is the one a full replay of the log gives."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from app_support import ADMIN, Legal, bearer, drive, listed
from fastapi.testclient import TestClient
from sqlalchemy import delete, event, func, select, update

from app import store
from app.async_appends import SNAPSHOT
from app.config import Settings
from app.main import create_app
from app.models import Snapshot
from engine.core.events import Event
from engine.core.game import replay
from engine.games.first_blood.rules import RULES

# --- driving a game through the API -------------------------------------------------

# --- looking behind the API ---------------------------------------------------------------

def snapshot(client: TestClient, gid: str) -> tuple[int, dict[str, Any]] | None:
    with client.app.state.db.sessions() as s:
        snap = s.get(Snapshot, gid)
        return None if snap is None else (snap.seq, store.snapshot_state(snap))


def snapshot_rows(client: TestClient, gid: str) -> int:
    with client.app.state.db.sessions() as s:
        return s.scalar(select(func.count()).select_from(Snapshot).where(Snapshot.game_id == gid))


def stored_events(client: TestClient, gid: str) -> list[Event]:
    with client.app.state.db.sessions() as s:
        return store.load_events(s, gid)


def service_state(client: TestClient, gid: str) -> Any:
    with client.app.state.db.sessions() as s:
        games = client.app.state.games
        return games.state(s, games.get(s, gid))


def clear_cache(client: TestClient) -> None:
    client.app.state.games.cache = type(client.app.state.games.cache)()


def views(client: TestClient, game: dict[str, str]) -> dict[str | None, dict[str, Any]]:
    gid = game["id"]
    out: dict[str | None, dict[str, Any]] = {None: client.get(f"/api/games/{gid}").json()}
    for side in ("US", "IJ"):
        out[side] = client.get(f"/api/games/{gid}", headers=bearer(game[side])).json()
    return out


def unordered(view: dict[str, Any]) -> dict[str, Any]:
    """A view with its legal commands as a set (to compare everything but their order)."""
    return {**view, "legal": sorted(repr(sorted(c.items())) for c in view["legal"])}


def past_a_snapshot(client: TestClient, game: dict[str, str], beyond: int = 50) -> Callable[[Legal], bool]:
    """Until more than ``beyond`` events are stored and some came after the snapshot."""
    def done(legal: Legal) -> bool:
        snap = snapshot(client, game["id"])
        return legal["seq"] > beyond and snap is not None and snap[0] < legal["seq"]
    return done


def on_postgresql(database_url: str) -> bool:
    return database_url.startswith("postgresql")


# --- tests -------------------------------------------------------------------------------------

def test_a_snapshot_is_stored_and_with_the_later_events_is_the_full_replay(client: TestClient,
                                                                          game: dict[str, str]) -> None:
    gid = game["id"]
    assert snapshot(client, gid) is None  # the opening is only a few events
    _, legal = drive(client, game, past_a_snapshot(client, game))
    seq = legal["seq"]
    snap_seq, snap_state = snapshot(client, gid)
    assert snapshot_rows(client, gid) == 1  # one row per game, updated in place
    assert 25 * (seq // 25) <= snap_seq < seq
    events = stored_events(client, gid)
    assert len(events) == seq
    assert snap_state == RULES.state_to_json(replay(RULES, events[:snap_seq]))
    assert snap_state["seq"] == snap_seq

    full = RULES.state_to_json(replay(RULES, events))
    later = replay(RULES, events[snap_seq:], RULES.state_from_json(snap_state))
    assert later.seq == seq
    assert RULES.state_to_json(later) == full
    clear_cache(client)
    assert RULES.state_to_json(service_state(client, gid)) == full  # the service, from the snapshot


def test_clearing_the_cache_gives_the_same_view(client: TestClient, game: dict[str, str], database_url: str,
                                                request: pytest.FixtureRequest) -> None:
    # the first IJ movement: five units in the off-map boxes, the snapshot from the US set-up
    past = past_a_snapshot(client, game, beyond=25)
    _, legal = drive(client, game, lambda legal: past(legal) and legal["prompt"]["kind"] == "ij_movement")
    assert len({c["data"]["unit"] for c in listed(legal) if c["type"] == "move"}) > 1
    before = views(client, game)
    clear_cache(client)
    after = views(client, game)
    for side in before:
        assert unordered(after[side]) == unordered(before[side]), side
    acting = legal["prompt"]["side"]
    one_by_one = client.get(f"/api/games/{game['id']}/legal", params={"form": "list"},
                            headers=bearer(game[acting])).json()["commands"]
    assert after[acting]["legal"]
    assert after[acting]["legal"] == before[acting]["legal"] == one_by_one  # in the same order too
    assert after == before


def test_a_snapshot_ahead_of_the_log_or_deleted_changes_nothing(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    drive(client, game, past_a_snapshot(client, game))
    before = views(client, game)
    # a snapshot ahead of the log is ignored
    with client.app.state.db.sessions() as s:
        s.execute(update(Snapshot).where(Snapshot.game_id == gid).values(seq=before[None]["seq"] + 100))
        s.commit()
    clear_cache(client)
    assert views(client, game) == before
    # and so is a missing one
    with client.app.state.db.sessions() as s:
        s.execute(delete(Snapshot).where(Snapshot.game_id == gid))
        s.commit()
    assert snapshot(client, gid) is None
    clear_cache(client)
    assert views(client, game) == before
    assert RULES.state_to_json(service_state(client, gid)) == RULES.state_to_json(
        replay(RULES, stored_events(client, gid)))
    # play on: the next snapshot comes when the next multiple of 25 is passed
    _, legal = drive(client, game, lambda legal: legal["seq"] >= 25 * (before[None]["seq"] // 25 + 1))
    snap_seq, snap_state = snapshot(client, gid)
    assert 25 * (legal["seq"] // 25) <= snap_seq <= legal["seq"]
    assert snap_state == RULES.state_to_json(replay(RULES, stored_events(client, gid)[:snap_seq]))
    assert client.post(f"/api/admin/games/{gid}/verify", auth=ADMIN).json()["ok"] is True


def test_a_game_continued_from_a_snapshot_still_verifies(client: TestClient, game: dict[str, str],
                                                         database_url: str, request: pytest.FixtureRequest) -> None:
    """As after a restart, or on another worker: the state comes from the snapshot."""
    gid = game["id"]
    _, legal = drive(client, game, past_a_snapshot(client, game))
    start = legal["seq"]
    clear_cache(client)

    # the next arrival of several units is the IJ's on turn 2 (the US gets one unit on turn 1)
    def arrivals_since(legal: Legal) -> bool:
        log = client.get(f"/api/games/{gid}/log", params={"offset": start}).json()["items"]
        return any(i["type"] == "units_arrived" and len(i["data"]["units"]) > 1 for i in log)

    drive(client, game, arrivals_since)
    verdict = client.post(f"/api/admin/games/{gid}/verify", auth=ADMIN).json()
    assert verdict == {"ok": True, "events": client.get(f"/api/games/{gid}").json()["seq"], "bad_seq": None,
                       "message": "the whole log replays exactly"}


def test_an_import_stores_snapshots_too(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    drive(client, game, past_a_snapshot(client, game))
    exported = client.get(f"/api/admin/games/{gid}/export", auth=ADMIN).json()
    r = client.post("/api/games/import", json=exported, auth=ADMIN)
    assert r.status_code == 201, r.text
    new = r.json()["game_id"]
    snap_seq, snap_state = snapshot(client, new)
    n = len(exported["events"])
    assert 25 * (n // 25) <= snap_seq <= n
    assert snap_state == RULES.state_to_json(replay(RULES, stored_events(client, new)[:snap_seq]))
    assert unordered(client.get(f"/api/games/{new}").json()) == unordered(
        {**client.get(f"/api/games/{gid}").json(), "game_id": new})


def test_two_servers_on_one_database_agree(client: TestClient, game: dict[str, str], settings: Settings) -> None:
    """Each process caches states; a cached state is only used for the sequence number it was built at."""
    gid = game["id"]
    with TestClient(create_app(settings)) as other:
        for _ in range(6):
            for c in (client, other):
                legal = c.get(f"/api/games/{gid}/legal", headers=bearer(game["US"])).json()
                r = c.post(f"/api/games/{gid}/commands", headers=bearer(game["US"]),
                           json={**listed(legal)[0], "expected_seq": legal["seq"]})
                assert r.status_code == 200, r.text
                mine = c.get(f"/api/games/{gid}", headers=bearer(game["US"])).json()
                theirs = (other if c is client else client).get(f"/api/games/{gid}",
                                                                headers=bearer(game["US"])).json()
                assert theirs == mine and mine["seq"] == r.json()["seq"]
        # a command based on what one server saw before the other moved on is stale
        legal = client.get(f"/api/games/{gid}/legal", headers=bearer(game["US"])).json()
        assert other.post(f"/api/games/{gid}/commands", headers=bearer(game["US"]),
                          json={**listed(legal)[0], "expected_seq": legal["seq"]}).status_code == 200
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(game["US"]),
                        json={**listed(legal)[1], "expected_seq": legal["seq"]})
        assert r.status_code == 409 and r.json()["current_seq"] > legal["seq"]
    assert client.post(f"/api/admin/games/{gid}/verify", auth=ADMIN).json()["ok"] is True


def test_a_snapshot_replaced_reads_back_whole(client: TestClient, game: dict[str, str]) -> None:
    """The snapshot is written in place by one statement (no read of the old one): the
    row read back through the model has the new state and a usable time."""
    gid = game["id"]
    _, legal = drive(client, game, past_a_snapshot(client, game))
    first_seq, _ = snapshot(client, gid)
    _, legal = drive(client, game, lambda legal: legal["seq"] >= first_seq + 26)
    with client.app.state.db.sessions() as s:
        snap = s.get(Snapshot, gid)
        assert snap.seq > first_seq and snap.updated_at is not None
        assert store.snapshot_state(snap) == RULES.state_to_json(replay(RULES, store.load_events(s, gid)[:snap.seq]))
        assert s.scalar(select(func.count()).select_from(Snapshot).where(Snapshot.game_id == gid)) == 1


def test_storing_a_snapshot_reads_no_snapshot(client: TestClient, game: dict[str, str]) -> None:
    """A command that passes a snapshot point writes the snapshot by one upsert, without
    loading the old one (some 80 KB of JSON) into the session first."""
    gid = game["id"]
    drive(client, game, past_a_snapshot(client, game))  # a row to replace
    first_seq, _ = snapshot(client, gid)
    seen: list[str] = []
    event.listen(client.app.state.db.engine, "before_cursor_execute",
                 lambda _c, _cur, statement, *_rest: seen.append(" ".join(statement.split())))
    drive(client, game, lambda legal: legal["seq"] >= first_seq + 26)
    writes = [s for s in seen if "snapshots" in s]
    assert all(s.startswith("INSERT INTO snapshots") for s in writes), writes
    # (on PostgreSQL a command written from the event loop has its snapshot written there, after
    # its answer, by the same statement: app/fast_commands.py)
    assert " ".join(SNAPSHOT.split()).startswith("INSERT INTO snapshots")
    assert snapshot(client, gid)[0] > first_seq


def test_a_snapshot_of_an_older_state_format_is_dropped_for_the_log(client: TestClient) -> None:
    """A Pacific Battles snapshot of format 1 held its pieces sorted by id, and a state read
    back from it decided unlike the replayed one: such a snapshot is not used."""
    from pb_support import new_game as pb_game

    from engine.games.pacific_battles.rules import RULES as PB

    g = pb_game(client)
    gid = g["id"]
    for _ in range(3):  # the Japanese set-up: three pieces, in the order they were placed
        legal = client.get(f"/api/games/{gid}/legal", headers=bearer(g["Japanese"])).json()
        place = [c for c in listed(legal) if c["type"] == "place"][-1]
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(g["Japanese"]),
                        json={"type": "place", "data": place["data"], "expected_seq": legal["seq"]})
        assert r.status_code == 200, r.text
    events = stored_events(client, gid)
    replayed = replay(PB, events)
    old = PB.state_to_json(replayed)
    old.pop("format")
    old["pieces"] = {k: v for k, *v in sorted(old["pieces"])}  # format 1: sorted by id
    old["off"] = {k: v for k, *v in sorted(old["off"])}
    assert list(old["pieces"]) != [k for k, *_ in PB.state_to_json(replayed)["pieces"]]  # the order differs
    with client.app.state.db.sessions() as s:
        store.save_snapshot(s, gid, len(events), old)
        s.commit()
    service = client.app.state.games
    service.cache = type(service.cache)()  # nothing in memory: the state comes from the database
    with client.app.state.db.sessions() as s:
        state = service.state(s, service.get(s, gid))
    assert list(state.pieces) == list(replayed.pieces)  # the replay's order, not the snapshot's


def test_an_older_snapshot_arriving_late_leaves_the_newer(client: TestClient, game: dict[str, str]) -> None:
    """A snapshot is written after its command's answer (app/fast_commands.py), so one may
    arrive after a later one: the later stays."""
    gid = game["id"]
    drive(client, game, past_a_snapshot(client, game))
    seq, state = snapshot(client, gid)
    older = RULES.state_to_json(replay(RULES, stored_events(client, gid)[:seq - 1]))
    with client.app.state.db.sessions() as s:
        store.save_snapshot(s, gid, seq - 1, older)
        s.commit()
    assert snapshot(client, gid) == (seq, state)
