"""Signing in on another device with a one-time link sent by e-mail (a real SMTP
server, aiosmtpd): the browser then lists the player's games and plays their seats.
On SQLite and on PostgreSQL."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from app_support import ADMIN
from fastapi.testclient import TestClient
from mail_support import Inbox, smtp_server
from race_support import at_once
from sqlalchemy import event, func, select, update

from app.config import Settings
from app.mail import deliver_due
from app.main import create_app
from app.models import SigninLink, utcnow
from app.security import hash_token

ALICE = "alice@example.org"


@pytest.fixture
def site(settings: Settings) -> Iterator[tuple[TestClient, Inbox]]:
    with smtp_server() as (url, inbox):
        app = create_app(settings.model_copy(update={"smtp_url": url}))
        with TestClient(app) as client:
            yield client, inbox


def deliver(client: TestClient) -> None:
    s = client.app.state.settings
    deliver_due(client.app.state.db.sessions, s.smtp_url, s.mail_from, now=utcnow() + timedelta(seconds=1),
                composers={"signin": client.app.state.signin.compose})


def alices_game(client: TestClient) -> str:
    """A game Alice (US, with her address) created and Bob joined."""
    created = client.post("/api/games", json={"side": "US", "name": "Alice", "email": ALICE, "title": "Tuesdays"})
    gid = created.json()["game_id"]
    client.post(f"/api/games/{gid}/join", json={"token": created.json()["invite_url"].split("token=")[1],
                                                "name": "Bob"})
    client.cookies.clear()
    return gid


def mailed_link(client: TestClient, inbox: Inbox, email: str = ALICE) -> str:
    page = client.post("/signin", data={"email": email})
    assert page.status_code == 200 and "a sign-in link is on its way" in page.text
    deliver(client)
    assert inbox.messages, "no mail"
    body = inbox.messages[-1].get_content()
    return re.search(r"http://testserver/signin#token=([\w-]+)", body).group(1)


def test_a_mailed_link_signs_a_new_device_in_and_it_lists_and_plays_the_seats(site: Any) -> None:
    client, inbox = site
    gid = alices_game(client)
    token = mailed_link(client, inbox)
    assert inbox.messages[0]["To"] == ALICE and inbox.messages[0]["Subject"] == "Your sign-in link"
    phone = TestClient(client.app)  # another device: no cookie of the game
    assert 'id="token-form"' in phone.get("/signin").text  # the page posts the link's secret itself
    r = phone.post("/signin/complete", data={"token": token}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/"
    assert r.headers["set-cookie"].startswith("player=") and "HttpOnly" in r.headers["set-cookie"]
    home = phone.get("/").text
    assert f"Signed in as <strong>{ALICE}</strong>" in home and f'href="/games/{gid}"' in home and "Tuesdays" in home
    board = phone.get(f"/games/{gid}").text
    assert re.search(r'class="you"><span class="label">You</span> <strong>US</strong>', board)
    legal = phone.get(f"/games/{gid}/board", params={"seq": 0})
    assert legal.status_code == 200
    placed = phone.post(f"/games/{gid}/click", data={"seq": "3", "hex": "1210", "unit": "", "select": "us-1-1"})
    assert placed.status_code == 200 and 'role="alert"' not in placed.text
    assert client.get(f"/api/games/{gid}/legal").json()["seq"] > 3  # the command was appended
    # the outbox never held the link
    assert token not in str(client.get("/api/admin/outbox", auth=ADMIN).json())


def test_a_link_works_once_and_not_after_half_an_hour(site: Any) -> None:
    client, inbox = site
    alices_game(client)
    token = mailed_link(client, inbox)
    other = TestClient(client.app)
    assert other.post("/signin/complete", data={"token": token}, follow_redirects=False).status_code == 303
    again = TestClient(client.app).post("/signin/complete", data={"token": token}, headers={"Accept": "text/html"})
    assert again.status_code == 403 and "works once" in again.text
    late = mailed_link(client, inbox)
    with client.app.state.db.sessions() as s:
        s.execute(update(SigninLink).where(SigninLink.used_at.is_(None))
                  .values(expires_at=utcnow() - timedelta(seconds=1)))
        s.commit()
    assert TestClient(client.app).post("/signin/complete", data={"token": late}).status_code == 403


def test_a_link_used_on_several_devices_at_once_signs_in_one(site: Any) -> None:
    client, inbox = site
    alices_game(client)
    token = mailed_link(client, inbox)
    devices = [TestClient(client.app) for _ in range(6)]
    codes = at_once(6, lambda i: devices[i].post("/signin/complete", data={"token": token},
                                                 follow_redirects=False).status_code)
    assert sorted(codes) == [303] + [403] * 5


def test_nobody_learns_whose_address_is_known(site: Any) -> None:
    client, inbox = site
    alices_game(client)
    unknown = client.post("/signin", data={"email": "stranger@example.com"})
    known = client.post("/signin", data={"email": ALICE})
    assert unknown.status_code == known.status_code == 200
    assert unknown.text.replace("stranger@example.com", "X") == known.text.replace(ALICE, "X")
    deliver(client)
    assert [m["To"] for m in inbox.messages] == [ALICE]
    assert client.post("/signin", data={"email": "no address"}).status_code == 422


def test_a_known_and_an_unknown_address_take_the_same_path(site: Any) -> None:
    """The same statements for both (so the same time): the link is made only as the mail
    is sent, and only for an address with seats."""
    client, _inbox = site
    alices_game(client)
    statements: list[str] = []
    listen = lambda *args: statements.append(args[2])  # noqa: E731 - (conn, cursor, statement, ...)
    event.listen(client.app.state.db.engine, "before_cursor_execute", listen)
    try:
        runs = []
        for email in ("stranger@example.com", ALICE):
            statements.clear()
            assert client.post("/signin", data={"email": email}).status_code == 200
            runs.append(list(statements))
    finally:
        event.remove(client.app.state.db.engine, "before_cursor_execute", listen)
    assert runs[0] == runs[1] and runs[0], runs
    with client.app.state.db.sessions() as s:
        assert s.scalar(select(func.count()).select_from(SigninLink)) == 0


def test_no_usable_secret_rests_in_the_outbox(site: Any, settings: Settings) -> None:
    """Held (no SMTP server) or sent, a sign-in mail's row holds no link: neither the admins'
    outbox nor a backup of the database opens a seat."""
    client, inbox = site
    alices_game(client)
    token = mailed_link(client, inbox)  # sent: the link went out by mail only
    with TestClient(create_app(settings.model_copy(update={"smtp_url": ""}))) as held:  # no SMTP server
        held.post("/signin", data={"email": ALICE})
        deliver_due(held.app.state.db.sessions, "", "x@y", now=utcnow() + timedelta(seconds=1),
                    composers={"signin": held.app.state.signin.compose})
        rows = held.get("/api/admin/outbox", auth=ADMIN).json()["items"]
    assert sorted(m["status"] for m in rows if m["kind"] == "signin") == ["held", "sent"]
    words = set(re.findall(r"[\w-]{20,}", str(rows)))
    with client.app.state.db.sessions() as s:
        hashes = set(s.scalars(select(SigninLink.token_hash)))
    assert len(hashes) == 1 and hash_token(token) in hashes
    assert not {hash_token(w) for w in words} & hashes  # nothing there is a link's secret


def test_signing_out_ends_the_session(site: Any) -> None:
    client, inbox = site
    gid = alices_game(client)
    phone = TestClient(client.app)
    phone.post("/signin/complete", data={"token": mailed_link(client, inbox)})
    assert f'href="/games/{gid}"' in phone.get("/").text
    cookie = phone.cookies.get("player")
    phone.post("/signout")
    assert f'href="/games/{gid}"' not in phone.get("/").text
    thief = TestClient(client.app)
    thief.cookies.set("player", cookie)  # the old cookie opens nothing any more
    page = thief.get(f"/games/{gid}").text
    assert re.search(r'class="you"><span class="label">You</span> <strong>spectator</strong>', page)


def test_asking_for_links_is_limited(site: Any) -> None:
    client, _inbox = site
    alices_game(client)
    codes = [client.post("/signin", data={"email": ALICE}).status_code for _ in range(7)]
    assert codes[:5] == [200] * 5 and codes[-1] == 429


def test_a_signed_in_browser_sets_its_notices_without_the_private_link(site: Any) -> None:
    """Signed in by e-mail, the board has no private link to show, but the same settings:
    the e-mail address and the webhook."""
    client, inbox = site
    gid = alices_game(client)
    token = mailed_link(client, inbox)
    phone = TestClient(client.app)
    phone.post("/signin/complete", data={"token": token}, follow_redirects=False)
    board = phone.get(f"/games/{gid}").text
    assert 'id="private-link"' not in board and 'id="notices"' in board
    notices = board.split('id="notices"', 1)[1].split("</details>", 1)[0]
    assert 'action="/games/' + gid + '/seat/email"' in notices and "seat/webhook" in notices
    r = phone.post(f"/games/{gid}/seat/webhook", data={"url": "https://93.184.216.34/api/webhooks/1/abc"},
                   headers={"Origin": "http://testserver"}, follow_redirects=False)
    assert r.status_code == 303
    assert 'value="https://93.184.216.34/api/webhooks/1/abc"' in phone.get(f"/games/{gid}").text
