"""Mail: "your move" when a decision passes to a player who is not watching, "game
over", the outbox admins read when no SMTP server is configured, unsubscribing, and
retries.  A real SMTP server (aiosmtpd) runs in the test; the tests move the clock
given to the delivery job, not the wall.  On SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import random
import re
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from functools import partial
from typing import Any

import httpx
import pytest
from app_support import ADMIN, bearer, drive, listed
from fastapi.testclient import TestClient
from live_server import LiveServer, invitation_token, server_env, set_up_and_hand_over
from mail_support import Inbox, free_port, smtp_server

from app import store
from app.config import Settings
from app.mail import deliver_due
from app.main import create_app
from app.models import Mail, utcnow
from app.services.witness import witness
from engine.core.game import Prompt
from engine.games import get_rules
from engine.games.pacific_battles import leaks

US_MAIL, IJ_MAIL = "alice@example.org", "bob@example.net"


@pytest.fixture
def smtp() -> Iterator[tuple[str, Inbox]]:
    with smtp_server() as server:
        yield server


@pytest.fixture
def mailing(settings: Settings, smtp: tuple[str, Inbox]) -> Iterator[tuple[TestClient, Inbox]]:
    app = create_app(settings.model_copy(update={"smtp_url": smtp[0]}))
    with TestClient(app) as client:
        yield client, smtp[1]


def new_game(client: TestClient, us_mail: str = US_MAIL, ij_mail: str = IJ_MAIL) -> dict[str, str]:
    created = client.post("/api/games", json={"side": "US", "name": "Alice", "email": us_mail}).json()
    joined = client.post(f"/api/games/{created['game_id']}/join",
                         json={"token": created["invite_url"].split("token=")[1], "name": "Bob", "email": ij_mail})
    assert joined.status_code == 200, joined.text
    client.cookies.clear()
    return {"id": created["game_id"], "US": created["token"], "IJ": joined.json()["token"]}


def to_ij_setup(client: TestClient, game: dict[str, str]) -> None:
    """The US sets up all its units: the decision passes to the IJ."""
    drive(client, game, lambda legal: legal["prompt"]["side"] == "IJ")


def deliver(client: TestClient, after_seconds: float) -> int:
    settings = client.app.state.settings
    return deliver_due(client.app.state.db.sessions, settings.smtp_url, settings.mail_from,
                       now=utcnow() + timedelta(seconds=after_seconds))


def outbox(client: TestClient) -> list[dict[str, Any]]:
    return client.get("/api/admin/outbox", auth=ADMIN).json()["items"]


def test_your_move_is_mailed_after_a_minute_to_a_player_who_is_not_watching(mailing: Any) -> None:
    client, inbox = mailing
    game = new_game(client)
    to_ij_setup(client, game)
    mails = outbox(client)
    assert [(m["kind"], m["side"], m["to"], m["status"]) for m in mails] == [("your_move", "IJ", IJ_MAIL, "queued")]
    assert deliver(client, 30) == 0 and inbox.messages == []  # not due yet: the grace is a minute
    assert deliver(client, 61) == 1
    assert len(inbox.messages) == 1
    msg = inbox.messages[0]
    assert msg["To"] == IJ_MAIL and msg["Subject"].startswith("Your move: First Blood: The Guadalcanal Campaign game ")
    body = msg.get_content()
    assert f"http://testserver/games/{game['id']}" in body and "/unsubscribe#token=" in body
    assert game["IJ"] not in msg.as_string() and game["US"] not in msg.as_string()  # no seat secret in a mail
    assert outbox(client)[0]["status"] == "sent"
    assert deliver(client, 3600) == 0 and len(inbox.messages) == 1  # once


def test_no_mail_to_a_player_who_is_watching_the_game(mailing: Any) -> None:
    client, inbox = mailing
    game = new_game(client)
    to_ij_setup(client, game)
    watcher = TestClient(client.app)  # the IJ player's browser, polling the board
    watcher.post(f"/games/{game['id']}/seat", data={"token": game["IJ"]})
    assert watcher.get(f"/games/{game['id']}/poll", params={"seq": 0}).status_code == 200
    assert deliver(client, 61) == 1
    assert inbox.messages == []
    mail = outbox(client)[0]
    assert mail["status"] == "skipped" and "came back to the game" in mail["last_error"]


def test_one_mail_per_handover_and_none_to_a_player_without_an_address(mailing: Any) -> None:
    client, inbox = mailing
    game = new_game(client, us_mail="")
    to_ij_setup(client, game)  # 25 commands, one handover
    drive(client, game, lambda legal: legal["prompt"]["side"] == "US")  # the IJ sets up: back to the US
    mails = outbox(client)
    assert [(m["side"], m["to"]) for m in mails] == [("IJ", IJ_MAIL)]  # the US gave no address


def test_a_stale_mail_is_not_sent_once_the_player_has_acted(mailing: Any) -> None:
    client, inbox = mailing
    game = new_game(client)
    to_ij_setup(client, game)
    legal = client.get(f"/api/games/{game['id']}/legal", headers=bearer(game["IJ"])).json()
    cmd = next(c for c in listed(legal) if c["type"] == "place")
    client.post(f"/api/games/{game['id']}/commands", headers=bearer(game["IJ"]),  # an API client: never "seen"
                json={"type": cmd["type"], "data": cmd["data"], "expected_seq": legal["seq"]})
    deliver(client, 61)
    assert inbox.messages == [] and outbox(client)[0]["last_error"] == "the game has moved on since"


def test_without_smtp_the_mail_waits_in_the_outbox_for_the_admins(client: TestClient) -> None:
    game = new_game(client)
    to_ij_setup(client, game)
    assert deliver(client, 61) == 1
    assert client.get("/api/admin/outbox").status_code == 401
    mail = outbox(client)[0]
    assert mail["status"] == "held" and mail["to"] == IJ_MAIL and "It is your decision (IJ)" in mail["body"]
    page = client.get("/admin/outbox", auth=ADMIN).text
    assert "No SMTP server is configured" in page and IJ_MAIL in page and ">held<" in page
    assert client.get("/admin", auth=ADMIN).text.count('href="/admin/outbox"') == 1


def test_the_unsubscribe_link_stops_the_mails(mailing: Any) -> None:
    client, inbox = mailing
    game = new_game(client)
    to_ij_setup(client, game)
    deliver(client, 61)
    body = inbox.messages[0].get_content()
    key = re.search(r"/unsubscribe#token=(\S+)", body).group(1)
    page = client.get("/unsubscribe").text
    assert 'id="token-form"' in page and 'action="/unsubscribe"' in page  # the page posts the key itself
    forged_key = key[:-1] + ("1" if key.endswith("0") else "0")
    forged = client.post("/unsubscribe", data={"token": forged_key}, headers={"Accept": "text/html"})
    assert forged.status_code == 404
    done = client.post("/unsubscribe", data={"token": key})
    assert done.status_code == 200 and 'id="unsubscribed"' in done.text
    drive(client, game, lambda legal: legal["prompt"]["side"] == "US")
    # the IJ player (unsubscribed) gets nothing more; the US player, who set an address, still does
    assert [m["side"] for m in outbox(client)] == ["US", "IJ"]
    r = client.put(f"/api/games/{game['id']}/seat/email", headers=bearer(game["IJ"]), json={"email": IJ_MAIL})
    assert r.json() == {"email": IJ_MAIL, "notify": True}  # saving the address again turns them back on


def test_addresses_are_checked_and_private(client: TestClient) -> None:
    r = client.post("/api/games", json={"side": "US", "name": "A", "email": "not an address"})
    assert r.status_code == 422 and "is not an e-mail address" in r.json()["detail"]
    game = new_game(client)
    for side in ("US", "IJ"):
        view = client.get(f"/api/games/{game['id']}", headers=bearer(game[side])).text
        assert US_MAIL not in view and IJ_MAIL not in view  # neither view holds an address
    assert client.put(f"/api/games/{game['id']}/seat/email", json={"email": "x@y.org"}).status_code == 401
    r = client.put(f"/api/games/{game['id']}/seat/email", headers=bearer(game["US"]), json={"email": ""})
    assert r.json() == {"email": None, "notify": True}
    # the board's form (the player's own page shows their address; the opponent's does not)
    client.post(f"/games/{game['id']}/seat", data={"token": game["US"]})
    client.post(f"/games/{game['id']}/seat/email", data={"email": "New@Example.ORG"})
    assert 'value="New@example.org"' in client.get(f"/games/{game['id']}").text
    client.cookies.clear()
    client.post(f"/games/{game['id']}/seat", data={"token": game["IJ"]})
    assert "New@example.org" not in client.get(f"/games/{game['id']}").text


def test_game_over_is_mailed_to_both_players(mailing: Any) -> None:
    client, inbox = mailing
    game = new_game(client)
    notices = client.app.state.notices
    with client.app.state.db.sessions() as session:
        notices.after_command(session, game["id"], 99, Prompt("IJ", "x", "x", "x"), Prompt(None, "over", "", ""),
                              {"winner": "US", "reason": "Henderson Field held"})
        session.commit()
    deliver(client, 1)
    assert sorted(m["To"] for m in inbox.messages) == [US_MAIL, IJ_MAIL]
    assert all(m["Subject"].endswith(": US wins") for m in inbox.messages)


def test_a_mail_whose_sender_died_is_sent_once_its_claim_runs_out(mailing: Any) -> None:
    client, inbox = mailing
    game = new_game(client)
    to_ij_setup(client, game)
    with client.app.state.db.sessions() as s:  # a worker claimed it at +61 s, then was killed
        s.query(Mail).update({"status": "sending", "not_before": utcnow() + timedelta(seconds=61 + 600)})
        s.commit()
    assert deliver(client, 120) == 0 and inbox.messages == []  # the claim still holds
    assert deliver(client, 61 + 601) == 1 and [m["To"] for m in inbox.messages] == [IJ_MAIL]


def test_a_failing_smtp_server_is_retried_with_backoff(settings: Settings) -> None:
    app = create_app(settings.model_copy(update={"smtp_url": f"smtp://127.0.0.1:{free_port()}"}))  # nobody there
    with TestClient(app) as client:
        game = new_game(client)
        to_ij_setup(client, game)
        waits = []
        for step in range(6):
            with client.app.state.db.sessions() as s:
                due = s.query(Mail).one().not_before
            assert deliver_due(app.state.db.sessions, app.state.settings.smtp_url, "x@y", now=due) == 1
            with client.app.state.db.sessions() as s:
                mail = s.query(Mail).one()
                waits.append(round((mail.not_before - due).total_seconds() / 60))
                assert mail.attempts == step + 1 and mail.last_error
        assert mail.status == "failed" and waits[:5] == [1, 2, 4, 8, 16]


class SlowFirstRefusal(Inbox):
    """Answers the first mail after a while with a temporary failure; takes the others."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's name
        self.calls += 1
        if self.calls == 1:
            await asyncio.sleep(1.5)
            return "451 try again later"
        return await super().handle_DATA(server, session, envelope)


def test_a_worker_whose_claim_ran_out_while_sending_writes_nothing_over_the_next(settings: Settings) -> None:
    """Worker A sends so slowly that its claim runs out; worker B takes the mail up and sends
    it.  A's failure, coming last, must not put the mail back in the queue (a second mail)."""
    with smtp_server(SlowFirstRefusal()) as (url, handler):
        app = create_app(settings.model_copy(update={"smtp_url": url}))
        with TestClient(app) as client:
            game = new_game(client)
            to_ij_setup(client, game)
            sessions, first = app.state.db.sessions, utcnow() + timedelta(seconds=61)
            a = threading.Thread(target=deliver_due, args=(sessions, url, "x@y"), kwargs={"now": first})
            a.start()
            for _ in range(200):
                if handler.calls:
                    break
                time.sleep(0.01)
            assert deliver_due(sessions, url, "x@y", now=first + timedelta(minutes=11)) == 1  # B
            a.join()
            (mail,) = outbox(client)
            assert (mail["status"], mail["attempts"]) == ("sent", 0), mail
            assert deliver_due(sessions, url, "x@y", now=first + timedelta(days=1)) == 0
            assert [m["To"] for m in handler.messages] == [IJ_MAIL]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_real_server_sends_the_mail_by_itself(database_url: str, smtp: tuple[str, Inbox], workers: int) -> None:
    """The periodic job in real worker processes: the mail arrives once, with two workers too."""
    url, inbox = smtp
    env = server_env(database_url, SMTP_URL=url, MAIL_GRACE_SECONDS="0", MAIL_INTERVAL_SECONDS="0.3")
    with LiveServer(env, workers=workers) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        created = http.post("/api/games", json={"side": "US", "name": "A", "email": US_MAIL}).json()
        gid = created["game_id"]
        joined = http.post(f"/api/games/{gid}/join", json={"token": invitation_token(created["invite_url"]),
                                                           "name": "B", "email": IJ_MAIL}).json()
        http.cookies.clear()
        assert joined["token"]
        set_up_and_hand_over(http, gid, created["token"])
        for _ in range(100):
            if inbox.messages:
                break
            time.sleep(0.1)
        time.sleep(1.0)  # a second worker would have sent a second copy by now
        assert [m["To"] for m in inbox.messages] == [IJ_MAIL]


def test_a_chat_message_is_mailed_to_an_opponent_who_does_not_read_it(mailing: Any) -> None:
    """One mail per batch of unread messages, after the grace, with the words in it (issue
    8: chat "in the e-mail when it is the reason to come back"); none once read."""
    client, inbox = mailing
    game = new_game(client)
    gid = game["id"]
    for text in ("Shall we start?", "Still there?"):
        r = client.post(f"/api/games/{gid}/chat", headers=bearer(game["US"]), json={"text": text})
        assert r.status_code == 201
    chats = [m for m in outbox(client) if m["kind"] == "chat"]
    assert [(m["side"], m["to"], m["status"]) for m in chats] == [("IJ", IJ_MAIL, "queued")]
    assert deliver(client, 30) == 0
    assert deliver(client, 61) == 1
    (msg,) = inbox.messages
    assert msg["To"] == IJ_MAIL and msg["Subject"].startswith("Message from Alice: ")
    assert "Alice (US) wrote:" in msg.get_content() and "Shall we start?" in msg.get_content()
    # the IJ reads and answers; the US reads the answer before the mail about it is due
    client.put(f"/api/games/{gid}/chat/read", headers=bearer(game["IJ"]))
    client.post(f"/api/games/{gid}/chat", headers=bearer(game["IJ"]), json={"text": "Yes!"})
    client.put(f"/api/games/{gid}/chat/read", headers=bearer(game["US"]))
    assert deliver(client, 61) == 1  # handled: skipped as read
    assert len(inbox.messages) == 1
    skipped = [m for m in outbox(client) if m["kind"] == "chat" and m["side"] == "US"]
    assert [m["status"] for m in skipped] == ["skipped"]


def test_a_your_move_mail_witnesses_what_happened_with_the_map_as_the_side_sees_it(mailing: Any) -> None:
    """Issue 36: the mailbox is a witness: the opponent's moves since the player's last one, in
    the log's own lines, the record's head after them, and the map as a PNG (the text complete
    without it)."""
    client, inbox = mailing
    game = new_game(client)
    to_ij_setup(client, game)
    settings = client.app.state.settings
    assert deliver_due(client.app.state.db.sessions, settings.smtp_url, settings.mail_from,
                       now=utcnow() + timedelta(seconds=61),
                       witness=partial(witness, service=client.app.state.games)) == 1
    msg = inbox.messages[0]
    text = msg.get_body(preferencelist=("plain",)).get_content().replace("\r\n", "\n")
    log = client.get(f"/api/games/{game['id']}/log", headers=bearer(game["IJ"]), params={"limit": 500}).json()
    placed = [i["text"] for i in log["items"] if i["type"] == "unit_placed"]
    assert text.startswith("Since your last move:\n") and placed and all(line in text for line in placed)
    head = client.get(f"/api/games/{game['id']}/export", params={"format": "record"}, headers=bearer(game["IJ"])
                      ).json()["entries"][-1]["hash"]
    assert f"The game's record now ends with hash {head}" in text
    [png] = list(msg.iter_attachments())
    assert png.get_content_type() == "image/png" and png.get_filename() == "map.png"
    picture = png.get_content()
    assert picture.startswith(b"\x89PNG\r\n\x1a\n") and len(picture) > 20_000


def test_a_pacific_battles_mail_witnesses_only_what_its_side_may_know(mailing: Any) -> None:
    """The fog holds in the mailbox too: the lines and the picture come from the side's own log
    and view, so its mail names none of the hidden things of the other side."""
    client, inbox = mailing
    created = client.post("/api/games", json={"game": "pacific_battles", "scenario": "short", "side": "Japanese",
                                              "name": "H", "email": US_MAIL}).json()
    joined = client.post(f"/api/games/{created['game_id']}/join", json={
        "token": created["invite_url"].split("token=")[1], "name": "V", "email": IJ_MAIL}).json()
    client.cookies.clear()
    gid, tokens = created["game_id"], {"Japanese": created["token"], "Allied": joined["token"]}
    rng = random.Random(7)
    for _ in range(400):  # random legal commands until a mail to the Allied player is queued
        if any(m["side"] == "Allied" and m["kind"] == "your_move" for m in outbox(client)):
            break
        for token in tokens.values():
            legal = client.get(f"/api/games/{gid}/legal", headers=bearer(token)).json()
            if cmds := listed(legal):
                assert client.post(f"/api/games/{gid}/commands", headers=bearer(token),
                                   json={**rng.choice(cmds), "expected_seq": legal["seq"]}).status_code == 200
                break
    settings = client.app.state.settings
    deliver_due(client.app.state.db.sessions, settings.smtp_url, settings.mail_from,
                now=utcnow() + timedelta(seconds=61), witness=partial(witness, service=client.app.state.games))
    mails = [m for m in inbox.messages if m["To"] == IJ_MAIL]
    assert mails, [m["kind"] for m in outbox(client)]
    text = mails[-1].get_body(preferencelist=("plain",)).get_content()
    assert "Since your last move:" in text and [a.get_filename() for a in mails[-1].iter_attachments()] == ["map.png"]
    rules = get_rules("pacific_battles")
    with client.app.state.db.sessions() as session:
        game = store.game_with_seats(session, gid)
        state = client.app.state.games.state(session, game)
    needles = rules.secrets(state, "Allied")
    assert needles and leaks.find(needles, text) == []
