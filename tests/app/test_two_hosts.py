"""Two app hosts on one PostgreSQL, as an operator who outgrows one machine runs them: two
server processes with the same settings and secret key, one SMTP server, the rate limits
on.  A request may land on either, as behind a load balancer; what holds on one host
must hold across both (docs/concurrency.md, README "Running several hosts")."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterator
from datetime import datetime, timedelta

import httpx
import pytest
from app_support import bearer, listed
from clock_support import new_game
from live_server import LiveServer, fresh_postgres_database, server_env, set_up_and_hand_over
from load_support import Recorder, nothing_lost, writer
from load_support import new_game as load_game
from mail_support import Inbox, smtp_server
from race_support import at_once

ADMIN = ("admin", "two-hosts-admin")
GAMES = 4


class Hosts:
    def __init__(self, a: LiveServer, b: LiveServer, inbox: Inbox) -> None:
        self.a, self.b, self.inbox = a, b, inbox

    def client(self, host: LiveServer, address: str = "127.0.0.1") -> httpx.Client:
        """A client whose requests come from ``address`` (a loopback address of its own keeps
        a test's rate-limit counts and lockouts from the others')."""
        return httpx.Client(base_url=host.url, timeout=30, transport=httpx.HTTPTransport(local_address=address))


@pytest.fixture(scope="module")
def hosts(_pg_ok: bool) -> Iterator[Hosts]:
    if not _pg_ok:
        pytest.skip("PostgreSQL is not reachable")
    with fresh_postgres_database("hosts") as url, smtp_server() as (smtp_url, inbox):
        env = server_env(url, admin_password=ADMIN[1], SMTP_URL=smtp_url, MAIL_GRACE_SECONDS="0",
                         MAIL_INTERVAL_SECONDS="0.2", RATE_LIMIT_ENABLED="true", RATE_LIMIT_CREATE="1000/minute",
                         RATE_LIMIT_JOIN="1000/minute", RATE_LIMIT_COMMANDS="100000/minute",
                         RATE_LIMIT_SIGNIN="5/minute", RATE_LIMIT_AUTH_FAILURES="6/minute")
        with LiveServer(env) as a, LiveServer({**env, "BASE_URL": a.url}) as b:
            yield Hosts(a, b, inbox)


def test_grants_sent_to_both_hosts_at_once_all_count(hosts: Hosts) -> None:
    with hosts.client(hosts.a) as a, hosts.client(hosts.b) as b:
        games = [new_game(a, move_days=3) for _ in range(5)]
        before = {g["id"]: a.get(f"/api/games/{g['id']}/clock").json()["clock"]["deadline"] for g in games}
        codes = at_once(2 * len(games), lambda i: (a, b)[i % 2].post(
            f"/api/games/{games[i // 2]['id']}/clock/grant", headers=bearer(games[i // 2]["IJ"]),
            json={"days": 1}).status_code)
        assert codes == [200] * (2 * len(games))
        for g in games:
            after = b.get(f"/api/games/{g['id']}/clock").json()["clock"]["deadline"]
            assert datetime.fromisoformat(after) == datetime.fromisoformat(before[g["id"]]) + timedelta(days=2)


def test_vacations_sent_to_both_hosts_at_once_are_taken_once(hosts: Hosts) -> None:
    with hosts.client(hosts.a) as a, hosts.client(hosts.b) as b:
        game = new_game(a, move_days=3, vacation_days=5)
        codes = at_once(6, lambda i: (a, b)[i % 2].post(f"/api/games/{game['id']}/clock/vacation",
                                                        headers=bearer(game["US"]), json={"days": 1}).status_code)
        assert sorted(codes) == [200] + [409] * 5
        assert b.get(f"/api/games/{game['id']}/clock").json()["clock"]["vacation"]["US"]["days_left"] == 4.0


def test_the_same_command_on_both_hosts_lands_once(hosts: Hosts) -> None:
    with hosts.client(hosts.a) as a, hosts.client(hosts.b) as b:
        for _ in range(5):
            game = new_game(a)
            legal = a.get(f"/api/games/{game['id']}/legal", headers=bearer(game["US"])).json()
            body = {**listed(legal)[0], "expected_seq": legal["seq"]}
            codes = at_once(4, lambda i, g=game, c=body: (a, b)[i % 2].post(
                f"/api/games/{g['id']}/commands", headers=bearer(g["US"]), json=c).status_code)
            assert sorted(codes) == [200, 409, 409, 409]
            log = b.get(f"/api/admin/games/{game['id']}/log", auth=ADMIN).json()
            assert [e["seq"] for e in log["items"]] == list(range(legal["seq"] + 1))


def test_a_replaced_link_is_refused_on_the_other_host_at_once(hosts: Hosts) -> None:
    with hosts.client(hosts.a) as a, hosts.client(hosts.b) as b:
        game = new_game(a)
        gid = game["id"]
        assert b.get(f"/api/games/{gid}/legal", headers=bearer(game["US"])).status_code == 200  # b has seen it
        new = a.post(f"/api/games/{gid}/seat/new-link", headers=bearer(game["US"]))
        assert new.status_code == 200
        a.cookies.clear()
        legal = b.get(f"/api/games/{gid}/legal", headers=bearer(new.json()["token"])).json()
        command = {**listed(legal)[0], "expected_seq": legal["seq"]}
        assert b.post(f"/api/games/{gid}/commands", headers=bearer(game["US"]), json=command).status_code == 403
        assert b.get(f"/api/games/{gid}/legal", headers=bearer(game["US"])).status_code == 403
        issued = b.post(f"/api/admin/games/{gid}/seats/US/new-link", auth=ADMIN)  # an admin's reissue, on b
        assert issued.status_code == 200
        assert a.get(f"/api/games/{gid}/legal", headers=bearer(new.json()["token"])).status_code == 403
        assert a.post(f"/api/games/{gid}/commands", headers=bearer(issued.json()["token"]),
                      json=command).status_code == 200


def test_each_mail_is_sent_once_by_two_hosts(hosts: Hosts) -> None:
    """Both hosts run the delivery job every 0.2 s: each "your move" goes out once."""
    with hosts.client(hosts.a) as a, hosts.client(hosts.b) as b:
        games = [new_game((a, b)[n % 2]) for n in range(4)]
        for n, game in enumerate(games):  # the US sets up on one host or the other, then hands over
            set_up_and_hand_over((a, b)[n % 2], game["id"], game["US"])
        ids = {g["id"] for g in games}
        mine = lambda: [m for m in hosts.inbox.messages  # noqa: E731
                        if any(i in m.get_body(("plain",)).get_content() for i in ids)]
        for _ in range(100):
            if len(mine()) >= len(games):
                break
            time.sleep(0.1)
        time.sleep(1.0)  # a second send would come within a few rounds of the jobs
        sent = mine()
        assert sorted(m["To"] for m in sent) == ["bob@example.net"] * len(games)
        assert len({m["Message-ID"] for m in sent}) == len(games)


def test_the_limits_against_abuse_hold_across_both_hosts(hosts: Hosts) -> None:
    address = f"127.0.{secrets.randbelow(200) + 20}.{secrets.randbelow(200) + 20}"
    with hosts.client(hosts.a, address) as a, hosts.client(hosts.b, address) as b:
        asked = [(a, b)[i % 2].post("/signin", data={"email": "carol@example.org"}).status_code for i in range(8)]
        assert asked == [200] * 5 + [429] * 3  # 5 a minute, whichever host is asked
        wrong = at_once(10, lambda i: (a, b)[i % 2].get("/api/admin/games", auth=("admin", f"guess-{i}"))
                        .status_code)
        assert sorted(wrong) == [401] * 6 + [429] * 4
        assert a.get("/api/admin/games", auth=ADMIN).status_code == 429  # locked out on both hosts
        assert b.get("/api/admin/games", auth=ADMIN).status_code == 429


def test_kill_minus_nine_of_one_host_loses_nothing_and_the_other_serves_on(hosts: Hosts) -> None:
    with hosts.client(hosts.b) as b:
        games = [load_game(b, n) for n in range(GAMES)]
        rec, stop = Recorder(), threading.Event()
        threads = [threading.Thread(target=writer, args=(host.url, g, rec, stop), daemon=True)
                   for g in games for host in (hosts.a, hosts.b)]
        for t in threads:
            t.start()
        time.sleep(2.0)
        hosts.a.kill()  # SIGKILL in the middle of the load
        served = rec.statuses["200"]
        time.sleep(1.0)  # b alone
        stop.set()
        for t in threads:
            t.join(15)
        assert not any(t.is_alive() for t in threads), "a writer hung"
        assert rec.statuses["200"] > served, f"b served nothing after a died: {dict(rec.statuses)}"
        assert not rec.unexpected, rec.unexpected[:5]
        nothing_lost(b, games, rec, ADMIN)
    hosts.a.start()
