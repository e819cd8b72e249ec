"""Every read-modify-write raced (docs/concurrency.md): the same request fired from several
threads at once ends as the same requests one after another would, and a write based on a
read that has gone stale changes nothing.  On SQLite and on PostgreSQL."""

from __future__ import annotations

from datetime import datetime

import pytest
from app_support import bearer, drive
from clock_support import DAY, Clock, clock_of, moved_clock, new_game
from fastapi.testclient import TestClient
from race_support import at_once
from sqlalchemy import select

from app.models import Game, Seat
from app.services import clock

N = 8  # requests at once


@pytest.fixture
def moved(client: TestClient) -> Clock:
    return moved_clock(client)


def deadline(client: TestClient, game: dict[str, str]) -> datetime:
    return datetime.fromisoformat(clock_of(client, game)["deadline"])


# --- the clock ------------------------------------------------------------------------
def test_grants_at_once_all_count(client: TestClient, moved: Clock) -> None:
    game = new_game(client, move_days=3)
    before = deadline(client, game)
    codes = at_once(N, lambda _: client.post(f"/api/games/{game['id']}/clock/grant", headers=bearer(game["IJ"]),
                                             json={"days": 1}).status_code)
    assert codes == [200] * N
    assert deadline(client, game) == before + N * DAY


def test_vacations_at_once_one_is_taken_and_the_others_refused(client: TestClient, moved: Clock) -> None:
    game = new_game(client, move_days=3, vacation_days=5)
    before = deadline(client, game)
    answers = at_once(N, lambda _: client.post(f"/api/games/{game['id']}/clock/vacation",
                                               headers=bearer(game["US"]), json={"days": 1}))
    assert sorted(r.status_code for r in answers) == [200] + [409] * (N - 1)
    assert all("on vacation until" in r.text for r in answers if r.status_code == 409)
    k = clock_of(client, game)
    assert k["vacation"]["US"]["days_left"] == 4.0
    assert datetime.fromisoformat(k["deadline"]) == before + DAY


def test_grants_and_a_vacation_at_once_add_up(client: TestClient, moved: Clock) -> None:
    game = new_game(client, move_days=3, vacation_days=5)
    before = deadline(client, game)

    def act(i: int) -> int:
        if i % 2:
            return client.post(f"/api/games/{game['id']}/clock/vacation", headers=bearer(game["US"]),
                               json={"days": 2}).status_code
        return client.post(f"/api/games/{game['id']}/clock/grant", headers=bearer(game["IJ"]),
                           json={"days": 1}).status_code

    codes = at_once(N, act)
    assert codes[::2] == [200] * (N // 2) and sorted(codes[1::2]) == [200] + [409] * (N // 2 - 1)
    assert deadline(client, game) == before + (N // 2) * DAY + 2 * DAY


def test_a_grant_read_before_a_handover_is_refused_not_given_to_the_next_decision(
        client: TestClient, moved: Clock) -> None:
    game = new_game(client, move_days=3)
    with client.app.state.db.sessions() as session:
        stale = session.get(Game, game["id"])
        ij = session.scalar(select(Seat).where(Seat.game_id == game["id"], Seat.side == "IJ"))
        assert stale is not None and ij is not None and stale.decision_side == "US"
        moved.now += DAY
        drive(client, game, lambda legal: legal["prompt"]["side"] == "IJ")  # another request hands over
        with pytest.raises(clock.ClockError, match="just passed to the other side"):
            clock.grant(session, stale, ij, 2, moved.now)
    k = clock_of(client, game)
    assert k["deciding"] == "IJ" and datetime.fromisoformat(k["deadline"]) == moved.now + 3 * DAY


def test_a_vacation_read_before_a_handover_to_that_player_stops_the_new_clock(
        client: TestClient, moved: Clock) -> None:
    game = new_game(client, move_days=3, vacation_days=5)
    with client.app.state.db.sessions() as session:
        stale = session.get(Game, game["id"])
        ij = session.scalar(select(Seat).where(Seat.game_id == game["id"], Seat.side == "IJ"))
        assert stale is not None and ij is not None
        drive(client, game, lambda legal: legal["prompt"]["side"] == "IJ")
        clock.take_vacation(session, stale, ij, 2, moved.now)  # read while the US decided
    k = clock_of(client, game)
    assert k["deciding"] == "IJ" and datetime.fromisoformat(k["deadline"]) == moved.now + 5 * DAY


def test_a_reminder_read_before_a_grant_is_not_noted(client: TestClient, moved: Clock) -> None:
    game = new_game(client, move_days=1)
    late = moved.now + 2 * DAY
    with client.app.state.db.sessions() as session:
        stale = session.get(Game, game["id"])
        assert stale is not None
        end = clock.deadline(stale)
        assert end is not None and late >= end
        r = client.post(f"/api/games/{game['id']}/clock/grant", headers=bearer(game["IJ"]), json={"days": 7})
        assert r.status_code == 200
        assert clock._note(session, client.app.state.notices, stale, "overdue", end) == 0
        session.commit()
    with client.app.state.db.sessions() as session:
        assert session.scalar(select(Game.clock_noted).where(Game.id == game["id"])) == ""
