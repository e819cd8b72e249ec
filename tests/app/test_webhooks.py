"""Per-seat webhooks (issue 8): notices POSTed as JSON Discord and Slack accept, from
the outbox with the mails' retries, and never to what only the server can reach.  A real
HTTP server in the test receives them; the tests move the delivery job's clock."""

from __future__ import annotations

import ipaddress
import json
import threading
from collections.abc import Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

import pytest
from app_support import ADMIN, bearer, drive
from fastapi.testclient import TestClient

from app import webhooks
from app.config import Settings
from app.mail import deliver_due
from app.main import create_app
from app.models import utcnow
from app.text import BadText


class Receiver:
    """An HTTP server that keeps what is POSTed to it and answers with ``status``."""

    def __init__(self) -> None:
        self.posts: list[dict[str, Any]] = []
        self.status = 204
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the http.server name)
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.posts.append({"path": self.path, "type": self.headers["Content-Type"],
                                       "host": self.headers["Host"], "json": json.loads(body)})
                self.send_response(receiver.status)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook/abc"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.server.shutdown()


@pytest.fixture
def hooked(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings.model_copy(update={"webhook_allow_private": True}))) as client:
        yield client


def deliver(client: TestClient, after_seconds: float) -> int:
    s = client.app.state.settings
    return deliver_due(client.app.state.db.sessions, s.smtp_url, s.mail_from,
                       now=utcnow() + timedelta(seconds=after_seconds), webhook_private=True)


def new_game(client: TestClient) -> dict[str, str]:
    created = client.post("/api/games", json={"side": "US", "name": "Alice"}).json()
    joined = client.post(f"/api/games/{created['game_id']}/join",
                         json={"token": created["invite_url"].split("token=")[1], "name": "Bob"}).json()
    return {"id": created["game_id"], "US": created["token"], "IJ": joined["token"]}


def test_your_move_and_chat_are_posted_as_discord_and_slack_json(hooked: TestClient, receiver: Receiver) -> None:
    client = hooked
    game = new_game(client)
    r = client.put(f"/api/games/{game['id']}/seat/webhook", headers=bearer(game["IJ"]), json={"url": receiver.url})
    assert r.status_code == 200 and r.json() == {"webhook_url": receiver.url}
    drive(client, game, lambda legal: legal["prompt"]["side"] == "IJ")  # the US sets up: the IJ's move
    assert deliver(client, 30) == 0 and receiver.posts == []  # the grace, as for mails
    assert deliver(client, 61) == 1
    (hit,) = receiver.posts
    assert hit["path"] == "/hook/abc" and hit["type"] == "application/json"
    assert hit["json"]["content"] == hit["json"]["text"]  # Discord reads "content", Slack "text"
    assert hit["json"]["content"].startswith("Your move (IJ) in First Blood: The Guadalcanal Campaign game ")
    assert f"/games/{game['id']}" in hit["json"]["content"]
    assert game["IJ"] not in json.dumps(hit) and game["US"] not in json.dumps(hit)  # no secret in a hook
    client.post(f"/api/games/{game['id']}/chat", headers=bearer(game["US"]), json={"text": "Your turn!"})
    assert deliver(client, 61) == 1
    assert receiver.posts[-1]["json"]["text"].startswith(
        "Alice (US) wrote in First Blood: The Guadalcanal Campaign game ")


def test_a_failing_hook_is_retried_with_backoff_then_given_up(hooked: TestClient, receiver: Receiver) -> None:
    client = hooked
    game = new_game(client)
    client.put(f"/api/games/{game['id']}/seat/webhook", headers=bearer(game["US"]), json={"url": receiver.url})
    client.post(f"/api/games/{game['id']}/chat", headers=bearer(game["IJ"]), json={"text": "hello"})
    receiver.status = 500
    assert deliver(client, 61) == 1
    (hook,) = [m for m in client.get("/api/admin/outbox", auth=ADMIN).json()["items"] if m["kind"] == "hook:chat"]
    assert hook["status"] == "queued" and hook["attempts"] == 1 and "500" in hook["last_error"]
    receiver.status = 204
    assert deliver(client, 61 + 30) == 0  # the next try waits a minute
    assert deliver(client, 61 + 61) == 1
    assert len(receiver.posts) == 2
    (hook,) = [m for m in client.get("/api/admin/outbox", auth=ADMIN).json()["items"] if m["kind"] == "hook:chat"]
    assert hook["status"] == "sent"


def test_a_removed_hook_gets_nothing(hooked: TestClient, receiver: Receiver) -> None:
    client = hooked
    game = new_game(client)
    client.put(f"/api/games/{game['id']}/seat/webhook", headers=bearer(game["US"]), json={"url": receiver.url})
    client.post(f"/api/games/{game['id']}/chat", headers=bearer(game["IJ"]), json={"text": "hello"})
    assert client.put(f"/api/games/{game['id']}/seat/webhook", headers=bearer(game["US"]),
                      json={"url": ""}).json() == {"webhook_url": None}
    assert deliver(client, 61) == 1 and receiver.posts == []


@pytest.mark.parametrize("url", [
    "http://example.com/hook",  # not https
    "https://127.0.0.1/hook", "https://localhost/hook", "https://10.1.2.3/x", "https://169.254.169.254/latest",
    "https://[::1]/x", "https://user:pw@example.com/x", "ftp://example.com/x", "https://no-such-host.invalid/x",
    "file:///etc/passwd",
    # IPv6 forms that carry an IPv4 address: NAT64, IPv4-compatible, -mapped and -translated, 6to4
    "https://[64:ff9b::10.0.0.1]/x", "https://[64:ff9b::169.254.169.254]/x", "https://[64:ff9b:1::a00:1]/x",
    "https://[::127.0.0.1]/x", "https://[::ffff:127.0.0.1]/x", "https://[::ffff:0:127.0.0.1]/x",
    "https://[::192.168.1.1]/x", "https://[2002:a00:1::]/x", "https://[2002:7f00:1::]/x",
])
def test_a_hook_may_not_point_at_what_only_the_server_reaches(url: str) -> None:
    with pytest.raises(BadText):
        webhooks.check_url(url)


@pytest.mark.parametrize(("address", "public"), [
    ("64:ff9b::808:808", True), ("2002:808:808::", True), ("2606:4700::1111", True), ("8.8.8.8", True),
    ("64:ff9b::a00:1", False), ("::ffff:a9fe:a9fe", False), ("fe80::1", False), ("fc00::1", False),
    ("2001:0:4136:e378:8000:63bf:3fff:fdd2", False),  # Teredo: a tunnel to whatever its server says
])
def test_an_address_carried_in_ipv6_is_judged_by_what_it_reaches(address: str, public: bool) -> None:
    assert webhooks.public(ipaddress.ip_address(address)) is public


def test_a_hook_connects_to_the_very_address_that_was_checked(receiver: Receiver) -> None:
    """No second lookup between the check and the connection (DNS rebinding): the POST goes
    to the address checked, with the URL's host in its Host header (and, over https, its
    certificate checked against that name)."""
    port = receiver.server.server_address[1]
    webhooks.send(urlsplit(f"http://hooks.rebinding.invalid:{port}/hook/abc"), "127.0.0.1", "pinned")
    assert [(p["host"], p["path"], p["json"]["text"]) for p in receiver.posts] == \
        [(f"hooks.rebinding.invalid:{port}", "/hook/abc", "pinned")]


def test_the_api_refuses_a_private_hook_and_changes_nothing(client: TestClient, game: dict[str, str]) -> None:
    r = client.put(f"/api/games/{game['id']}/seat/webhook", headers=bearer(game["US"]),
                   json={"url": "https://127.0.0.1:8000/admin"})
    assert r.status_code == 422 and "not on the public internet" in r.text
    assert client.put(f"/api/games/{game['id']}/seat/webhook", json={"url": ""}).status_code == 401


def test_redirects_are_not_followed(receiver: Receiver) -> None:
    receiver.status = 302  # a hook that answers with a redirect has failed; nothing is fetched elsewhere
    with pytest.raises(OSError):
        webhooks.post(receiver.url, "hello", allow_private=True)


def test_the_board_sets_and_clears_the_hook(hooked: TestClient, receiver: Receiver) -> None:
    client = hooked
    game = new_game(client)
    gid = game["id"]
    client.post(f"/games/{gid}/seat", data={"token": game["US"]}, follow_redirects=False)
    html = client.get(f"/games/{gid}").text
    assert 'action="/games/' + gid + '/seat/webhook"' in html and "webhook (off)" in html
    origin = {"Origin": "http://testserver"}
    r = client.post(f"/games/{gid}/seat/webhook", data={"url": receiver.url}, headers=origin, follow_redirects=False)
    assert r.status_code == 303
    assert "webhook (on)" in client.get(f"/games/{gid}").text
    bad = client.post(f"/games/{gid}/seat/webhook", data={"url": "ftp://x"}, headers=origin, follow_redirects=False)
    assert bad.status_code == 422
    assert "webhook (on)" in client.get(f"/games/{gid}").text  # the refused one changed nothing
    client.post(f"/games/{gid}/seat/webhook", data={"url": ""}, headers=origin)
    assert "webhook (off)" in client.get(f"/games/{gid}").text
