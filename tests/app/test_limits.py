"""Limits: rates per address and per seat (429 with Retry-After), request body sizes
(413), and paging of the admin list.  Each limit is a setting."""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Iterator

import pytest
from app_support import ADMIN, admin_games, bearer, listed
from fastapi.testclient import TestClient
from race_support import at_once

from app.config import Settings
from app.main import create_app
from app.ratelimit import SHARED, RateLimits


@pytest.fixture
def strict(settings: Settings) -> Iterator[TestClient]:
    """A server with small limits, to reach them quickly."""
    tight = settings.model_copy(update={"rate_limit_create": "3/minute", "rate_limit_auth_failures": "5/minute",
                                        "rate_limit_join": "4/minute", "rate_limit_commands": "2/minute",
                                        "max_body_bytes": 2000, "max_import_bytes": 50_000})
    with TestClient(create_app(tight)) as c:
        yield c


def test_wrong_admin_passwords_are_limited_and_then_even_the_right_one_waits(strict: TestClient) -> None:
    codes = [strict.get("/api/admin/games", auth=("admin", f"guess-{i}")).status_code for i in range(8)]
    assert codes[:5] == [401] * 5 and codes[5:] == [429] * 3
    r = strict.get("/api/admin/games", auth=ADMIN)
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
    assert "too many" in r.json()["detail"] and r.json()["kind"] == "rate_limited"
    assert strict.get("/admin", auth=ADMIN, headers={"accept": "text/html"}).status_code == 429


def test_game_creation_is_limited_per_address(strict: TestClient) -> None:
    codes = [strict.post("/api/games", json={"side": "US"}).status_code for _ in range(3)]
    assert codes == [201, 201, 201]
    r = strict.post("/api/games", json={"side": "US"})
    assert r.status_code == 429 and "Retry-After" in r.headers
    assert strict.post("/new", data={"side": "US"}, follow_redirects=False).status_code == 429
    assert len(admin_games(strict)) == 3


def test_wrong_seat_secrets_are_limited_per_address(strict: TestClient) -> None:
    gid = strict.post("/api/games", json={"side": "US"}).json()["game_id"]
    strict.cookies.clear()
    codes = [strict.get(f"/api/games/{gid}", headers=bearer(f"guess{i}")).status_code for i in range(7)]
    assert codes[:5] == [403] * 5 and codes[5:] == [429, 429]


def test_commands_are_limited_per_seat(strict: TestClient) -> None:
    body = strict.post("/api/games", json={"side": "US"}).json()
    gid, token = body["game_id"], body["token"]
    codes = []
    for _ in range(3):
        legal = strict.get(f"/api/games/{gid}/legal", headers=bearer(token)).json()
        cmd = listed(legal)[0]
        codes.append(strict.post(f"/api/games/{gid}/commands", headers=bearer(token),
                                 json={**cmd, "expected_seq": legal["seq"]}).status_code)
    assert codes == [200, 200, 429]


def test_join_attempts_are_limited_per_address(strict: TestClient) -> None:
    gid = strict.post("/api/games", json={"side": "US"}).json()["game_id"]
    codes = [strict.post(f"/api/games/{gid}/join", json={"token": f"guess{i}"}).status_code for i in range(6)]
    assert codes == [403] * 4 + [429] * 2


def test_rate_limits_can_be_switched_off(settings: Settings) -> None:
    off = settings.model_copy(update={"rate_limit_create": "1/minute", "rate_limit_enabled": False})
    with TestClient(create_app(off)) as c:
        assert [c.post("/api/games", json={"side": "US"}).status_code for _ in range(3)] == [201] * 3


def test_bodies_over_the_limit_are_413_and_change_nothing(strict: TestClient) -> None:
    big = {"side": "US", "name": "x", "options": {f"o{i}": True for i in range(400)}}
    r = strict.post("/api/games", json=big)
    assert r.status_code == 413
    r = strict.post("/new", data={"side": "US", "title": "t" * 3000}, follow_redirects=False)
    assert r.status_code == 413
    # the import has its own, larger limit: a file over the ordinary limit is read ...
    r = strict.post("/api/games/import", json={"format": "x", "pad": "p" * 10_000}, auth=ADMIN)
    assert r.status_code == 422 and "not an export file" in r.json()["detail"]
    # ... one over the import limit is not
    r = strict.post("/api/games/import", json={"format": "x", "pad": "p" * 60_000}, auth=ADMIN)
    assert r.status_code == 413
    # a body sent in chunks without a length is counted as it arrives
    r = strict.post("/api/games", content=iter([b'{"side": "US", "name": "', b"y" * 3000, b'"}']),
                    headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert admin_games(strict) == {}


def test_the_admin_list_pages(client: TestClient) -> None:
    ids = [client.post("/api/games", json={"side": "US"}).json()["game_id"] for _ in range(7)]
    page1 = client.get("/api/admin/games", params={"limit": 3}, auth=ADMIN).json()
    page3 = client.get("/api/admin/games", params={"limit": 3, "offset": 6}, auth=ADMIN).json()
    assert page1["total"] == 7 and len(page1["items"]) == 3 and len(page3["items"]) == 1
    seen = [g["game_id"] for off in (0, 3, 6)
            for g in client.get("/api/admin/games", params={"limit": 3, "offset": off}, auth=ADMIN).json()["items"]]
    assert sorted(seen) == sorted(ids)  # every game once
    assert seen[0] == ids[-1]  # the newest first
    assert client.get("/api/admin/games", params={"limit": 501}, auth=ADMIN).status_code == 422


def test_the_admin_page_pages(settings: Settings) -> None:
    with TestClient(create_app(settings.model_copy(update={"page_size": 2}))) as c:
        for _ in range(3):
            c.post("/api/games", json={"side": "US"})
        first = c.get("/admin", auth=ADMIN).text
        assert "3 games, 1&ndash;2 shown" in first and 'href="?offset=2"' in first
        last = c.get("/admin?offset=2", auth=ADMIN).text
        assert "3&ndash;3 shown" in last and 'rel="prev"' in last and 'rel="next"' not in last


def _redis_up() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1):
            return True
    except OSError:
        return False


def test_workers_share_their_counts_through_a_shared_store(settings: Settings) -> None:
    """With RATE_LIMIT_STORAGE=redis://..., every worker counts against the same limit."""
    if not _redis_up():
        if os.environ.get("CI"):
            pytest.fail("Redis must be reachable in CI (127.0.0.1:6379)")
        pytest.skip("Redis is not reachable")
    shared = settings.model_copy(update={"rate_limit_storage": "redis://127.0.0.1:6379",
                                         "rate_limit_create": "3/minute"})
    address = (f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250)}", 4000)
    with TestClient(create_app(shared), client=address) as one, TestClient(create_app(shared), client=address) as two:
        assert one.post("/api/games", json={"side": "US"}).status_code == 201
        assert two.post("/api/games", json={"side": "US"}).status_code == 201
        assert one.post("/api/games", json={"side": "US"}).status_code == 201
        assert two.post("/api/games", json={"side": "US"}).status_code == 429
        assert one.post("/api/games", json={"side": "US"}).status_code == 429


@pytest.fixture
def two_workers(settings: Settings) -> Iterator[tuple[TestClient, TestClient]]:
    """Two apps on one database (two workers, or two hosts), with the default storage and
    small limits; both see the requests come from the same address."""
    tight = settings.model_copy(update={"rate_limit_create": "3/minute", "rate_limit_auth_failures": "5/minute",
                                        "rate_limit_signin": "4/minute"})
    assert tight.rate_limit_storage == "database"
    address = ("203.0.113.7", 4000)
    with TestClient(create_app(tight), client=address) as one, TestClient(create_app(tight), client=address) as two:
        yield one, two


def test_the_limits_against_abuse_hold_across_workers_on_one_database(
        two_workers: tuple[TestClient, TestClient]) -> None:
    one, two = two_workers
    created = [(one, two)[i % 2].post("/api/games", json={"side": "US"}).status_code for i in range(6)]
    assert created == [201, 201, 201, 429, 429, 429]
    wrong = [(one, two)[i % 2].get("/api/admin/games", auth=("admin", f"guess-{i}")).status_code for i in range(8)]
    assert wrong == [401] * 5 + [429] * 3
    assert two.get("/api/admin/games", auth=ADMIN).status_code == 429  # on both workers, even the right one waits
    assert one.get("/api/admin/games", auth=ADMIN).status_code == 429
    asked = [(one, two)[i % 2].post("/signin", data={"email": "someone@example.org"}).status_code for i in range(6)]
    assert asked == [200] * 4 + [429] * 2


def test_requests_at_once_on_two_workers_are_admitted_up_to_the_limit(
        two_workers: tuple[TestClient, TestClient]) -> None:
    one, two = two_workers
    codes = at_once(10, lambda i: (one, two)[i % 2].post("/signin", data={"email": f"p{i}@example.org"}).status_code)
    assert sorted(codes) == [200] * 4 + [429] * 6


def test_the_per_seat_limits_cost_a_command_no_database_work(settings: Settings) -> None:
    """Commands and chat count in each worker's memory (the event loop counts them)."""
    limits = RateLimits(settings)
    try:
        assert limits.in_memory and limits.store is not None
        assert all(len(limits.limiters[kind]) == 1 for kind in ("commands", "chat"))
        assert all(len(limits.limiters[kind]) == 2 for kind in SHARED)
    finally:
        limits.close()


def test_counting_in_memory_starts_no_thread_and_still_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    """The library's memory storage started a 10 ms timer thread whenever none ran, so a
    command counted more than 10 ms after the last started one (and the event loop waited
    for it).  Ours sweeps inline, once a second: no thread, the window still holds, and
    entries past their window are freed."""
    import threading
    import time

    from limits import parse

    from app import ratelimit

    storage = ratelimit.QuietMemoryStorage()
    limiter = ratelimit.MovingWindowRateLimiter(storage)
    two = parse("2/second")
    time.sleep(0.05)  # the timer the library's constructor starts has ended
    started: list[threading.Thread] = []
    real_start = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start", lambda self: (started.append(self), real_start(self))[1])
    hits = []
    for i in range(6):
        hits.append(limiter.hit(two, "commands", f"g:{i % 3}"))
        time.sleep(0.015)  # longer than the library's timer
    assert started == []
    assert hits == [True] * 6  # two a key, each within its limit
    assert not limiter.hit(two, "commands", "g:0") and limiter.hit(two, "commands", "g:9")
    time.sleep(ratelimit.EXPIRE_EVERY + 0.05)  # every entry's window is over, and a sweep is due
    assert limiter.hit(two, "commands", "g:0")  # (this hit sweeps first)
    assert {k: len(v) for k, v in storage.events.items() if v} == {"LIMITER/commands/g:0/2/1/second": 1}
    assert started == []


def test_a_request_that_waits_too_long_for_admission_gets_503_with_retry_after() -> None:
    import asyncio

    from app.middleware import Admission

    async def slow_app(scope: dict, receive: object, send: object) -> None:
        await asyncio.sleep(0.5)

    sent: list[dict] = []

    async def send(message: dict) -> None:
        sent.append(message)

    async def two_at_once() -> None:
        gate = Admission(slow_app, limit=1, timeout=0.05)
        scope = {"type": "http", "path": "/api/games/x", "headers": []}
        await asyncio.gather(gate(scope, None, send), gate(scope, None, send))

    asyncio.run(two_at_once())
    start, body = sent
    assert start["status"] == 503 and dict(start["headers"])[b"retry-after"] == b"5"
    assert b'"kind":"unavailable"' in body["body"]


def test_waiting_actions_are_admitted_before_waiting_reads_and_always_find_room() -> None:
    """A burst of reads (boards, polls) must not queue a player's command behind them:
    waiting writes go first, and reads never take the slots kept for writes."""
    import asyncio

    from app.middleware import Admission

    order: list[str] = []
    inside: list[int] = []
    release = asyncio.Event

    async def run() -> None:
        gate_open = release()

        async def app(scope: dict, receive: object, send: object) -> None:
            inside.append(gate.busy)
            order.append(scope["path"])
            await gate_open.wait()

        async def send(message: dict) -> None:
            raise AssertionError(f"nobody may be refused: {message}")

        gate = Admission(app, limit=3, timeout=5, read_limit=2)

        def request(method: str, path: str) -> asyncio.Task:
            return asyncio.create_task(gate({"type": "http", "method": method, "path": path, "headers": []},
                                            None, send))

        first = [request("GET", "/r1"), request("GET", "/r2")]
        await asyncio.sleep(0.01)
        late = [request("GET", "/r3")]  # the reads' slots are full: it waits
        await asyncio.sleep(0.01)
        action = request("POST", "/w1")  # the slot kept for actions: in at once, past the waiting read
        await asyncio.sleep(0.01)
        assert order == ["/r1", "/r2", "/w1"]
        later = [request("GET", "/r4"), request("POST", "/w2")]  # all full: w2 goes before r3 and r4
        await asyncio.sleep(0.01)
        gate_open.set()
        await asyncio.gather(*first, *late, action, *later)

    asyncio.run(run())
    assert order == ["/r1", "/r2", "/w1", "/w2", "/r3", "/r4"]
    assert max(inside) <= 3
