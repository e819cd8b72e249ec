"""Every read-modify-write raced (docs/concurrency.md): the same request fired from several
threads at once ends as the same requests one after another would, and a write based on a
read that has gone stale changes nothing.  On SQLite and on PostgreSQL."""

from __future__ import annotations

import threading
import time
from datetime import datetime

import pytest
from app_support import ADMIN, bearer, drive, listed
from clock_support import DAY, Clock, clock_of, moved_clock, new_game
from fastapi.testclient import TestClient
from race_support import at_once
from sqlalchemy import select
from sqlalchemy.orm import Session

from app import mail
from app.models import Game, Mail, Seat
from app.services import clock
from app.services.games import SeatChanged

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


def test_a_claim_read_before_a_grant_is_refused_and_writes_nothing(client: TestClient, moved: Clock) -> None:
    game = new_game(client, move_days=1)
    moved.now += 2 * DAY  # the US is late
    service = client.app.state.games
    with client.app.state.db.sessions() as session:
        stale = session.get(Game, game["id"])
        ij = session.scalar(select(Seat).where(Seat.game_id == game["id"], Seat.side == "IJ"))
        assert stale is not None and ij is not None
        seq = stale.seq
        r = client.post(f"/api/games/{game['id']}/clock/grant", headers=bearer(game["IJ"]), json={"days": 3})
        assert r.status_code == 200  # the IJ thought better of it, in another tab
        with pytest.raises(clock.ClockError, match="clock has just changed"):
            service.claim_on_time(session, stale, ij)
    view = client.get(f"/api/games/{game['id']}").json()
    assert view["seq"] == seq and view["result"] is None


# --- seats -----------------------------------------------------------------------------
def test_new_links_at_once_one_is_given_and_it_opens_the_seat(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    answers = at_once(N, lambda _: client.post(f"/api/games/{gid}/seat/new-link", headers=bearer(game["US"])))
    given = [r for r in answers if r.status_code == 200]
    assert len(given) == 1, [r.status_code for r in answers]
    assert {r.status_code for r in answers} - {200} <= {403, 409}  # replaced before it was read, or after
    client.cookies.clear()
    assert client.get(f"/api/games/{gid}/legal", headers=bearer(given[0].json()["token"])).status_code == 200
    assert client.get(f"/api/games/{gid}/legal", headers=bearer(game["US"])).status_code == 403


def test_a_link_replaced_after_the_request_read_it_is_not_replaced_over(client: TestClient,
                                                                         game: dict[str, str]) -> None:
    gid = game["id"]
    with client.app.state.db.sessions() as session:
        stale = session.get(Game, gid)
        assert stale is not None and len(stale.seats) == 2
        issued = client.post(f"/api/admin/games/{gid}/seats/US/new-link", auth=ADMIN)  # the admin, meanwhile
        assert issued.status_code == 200
        with pytest.raises(SeatChanged):
            client.app.state.games.new_seat_link(session, stale, "US")
    assert client.get(f"/api/games/{gid}/legal", headers=bearer(issued.json()["token"])).status_code == 200


def test_a_command_whose_secret_is_replaced_on_its_way_is_not_played(client: TestClient,
                                                                     game: dict[str, str]) -> None:
    gid = game["id"]
    legal = client.get(f"/api/games/{gid}/legal", headers=bearer(game["US"])).json()
    command = listed(legal)[0]
    with client.app.state.db.sessions() as session:
        stale = session.get(Game, gid)
        assert stale is not None
        us = next(s for s in stale.seats if s.side == "US")
        assert client.post(f"/api/admin/games/{gid}/seats/US/new-link", auth=ADMIN).status_code == 200
        with pytest.raises(SeatChanged):
            client.app.state.games.submit(session, stale, "US", command, legal["seq"], us.token_hash)
    assert client.get(f"/api/games/{gid}", headers=bearer(game["IJ"])).json()["seq"] == legal["seq"]


def test_an_address_saved_over_an_unsubscribe_it_had_not_seen_turns_the_mails_on(client: TestClient) -> None:
    game = new_game(client)
    notices = client.app.state.notices
    with client.app.state.db.sessions() as session:
        us = session.scalar(select(Seat).where(Seat.game_id == game["id"], Seat.side == "US"))
        assert us is not None and us.notify
        r = client.post("/unsubscribe", data={"token": notices.unsubscribe_key(game["id"], "US")})  # a mail's link
        assert r.status_code == 200
        client.app.state.games.set_email(session, us, "alice@example.org")  # read before it
    with client.app.state.db.sessions() as session:
        assert session.scalar(select(Seat.notify).where(Seat.game_id == game["id"], Seat.side == "US")) is True


# --- chat ------------------------------------------------------------------------------
def test_chat_posts_at_once_all_land_read_by_their_writer_and_mailed_once(client: TestClient) -> None:
    game = new_game(client)
    gid = game["id"]
    answers = at_once(N, lambda i: client.post(f"/api/games/{gid}/chat", headers=bearer(game["US"]),
                                               json={"text": f"message {i}"}))
    assert [r.status_code for r in answers] == [201] * N, [r.text for r in answers if r.status_code != 201]
    mine = client.get(f"/api/games/{gid}/chat", headers=bearer(game["US"])).json()
    theirs = client.get(f"/api/games/{gid}/chat", headers=bearer(game["IJ"])).json()
    assert len(mine["messages"]) == N and mine["unread"] == 0 and theirs["unread"] == N
    chats = [m for m in client.get("/api/admin/outbox", auth=ADMIN).json()["items"] if m["kind"] == "chat"]
    assert [m["to"] for m in chats] == ["bob@example.net"]  # one mail per batch of unread messages


def test_the_same_mail_queued_by_two_transactions_at_once_is_written_once(client: TestClient) -> None:
    """Two chat posts at once both queue "a message from ..." under one name: neither fails."""
    sessions = client.app.state.db.sessions

    def queue(session: Session) -> None:
        mail.enqueue(session, kind="chat", dedupe="g:chat:IJ:0", to="bob@example.net", subject="s", body="b")

    def second() -> None:  # looks, and writes, while the first has not committed
        with sessions() as session:
            queue(session)
            session.commit()

    with sessions() as first:
        queue(first)
        other = threading.Thread(target=second)
        other.start()
        time.sleep(0.3)
        first.commit()
    other.join(30)
    assert not other.is_alive()
    with sessions() as session:
        assert session.scalars(select(Mail.dedupe)).all() == ["g:chat:IJ:0"]
