"""Crash recovery: kill -9 the real server in the middle of a steady stream of commands,
start it again on the same database, and check that nothing acknowledged was lost.

For every game: each event the server answered with a 2xx is in the log with the
same sequence number and type; the log is 0..n-1 without a gap; it replays
(admin verify); and the restarted server takes a further legal command."""

from __future__ import annotations

import threading
import time
from collections import Counter, defaultdict
from typing import Any

import httpx
from live_server import ADMIN_USER, LiveServer, invitation_token, server_env, simple_pick

GAMES = 4
THREADS_PER_GAME = 2  # two writers per game, so the optimistic lock is exercised too
LOAD_SECONDS = 2.5
ADMIN_PASSWORD = "crash-test-admin"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_game(client: httpx.Client, n: int) -> dict[str, str]:
    r = client.post("/api/games", json={"side": "US", "name": f"US {n}"})
    assert r.status_code == 201, r.text
    body = r.json()
    r2 = client.post(f"/api/games/{body['game_id']}/join",
                     json={"token": invitation_token(body["invite_url"]), "name": f"IJ {n}"})
    assert r2.status_code == 200, r2.text
    client.cookies.clear()
    return {"id": body["game_id"], "US": body["token"], "IJ": r2.json()["token"]}


def acting_legal(client: httpx.Client, game: dict[str, str]) -> tuple[str | None, dict[str, Any]]:
    """The side that must act and its legal commands (``None`` once the game is over)."""
    legal = client.get(f"/api/games/{game['id']}/legal", headers=bearer(game["US"]))
    legal.raise_for_status()
    side = legal.json()["prompt"]["side"]
    if side == "IJ":
        legal = client.get(f"/api/games/{game['id']}/legal", headers=bearer(game["IJ"]))
        legal.raise_for_status()
    return side, legal.json()


class Recorder:
    """Every event the server acknowledged (2xx), per game, and every unexpected answer."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.acked: dict[str, dict[int, set[str]]] = defaultdict(lambda: defaultdict(set))
        self.statuses: Counter[str] = Counter()
        self.unexpected: list[str] = []

    def answer(self, gid: str, r: httpx.Response) -> None:
        with self.lock:
            self.statuses[str(r.status_code)] += 1
            if 200 <= r.status_code < 300:
                for e in r.json()["events"]:
                    self.acked[gid][e["seq"]].add(e["type"])
            elif r.status_code != 409:  # 409: another writer was first, which is fine
                self.unexpected.append(f"{gid}: {r.status_code} {r.text[:300]}")

    def failure(self, exc: Exception) -> None:
        with self.lock:
            self.statuses[type(exc).__name__] += 1


def writer(url: str, game: dict[str, str], rec: Recorder, stop: threading.Event) -> None:
    """Post the acting side's legal commands until told to stop or the game ends."""
    with httpx.Client(base_url=url, timeout=10.0) as client:
        while not stop.is_set():
            try:
                side, legal = acting_legal(client, game)
                if side is None:
                    return
                if not legal["commands"]:  # the game moved on between the two reads: ask again
                    time.sleep(0.02)
                    continue
                cmd = simple_pick(legal["commands"])
                r = client.post(f"/api/games/{game['id']}/commands", headers=bearer(game[side]),
                                json={"type": cmd["type"], "data": cmd["data"], "expected_seq": legal["seq"]})
            except (httpx.TransportError, httpx.HTTPStatusError) as exc:  # the server is down: expected
                rec.failure(exc)
                time.sleep(0.02)
                continue
            rec.answer(game["id"], r)


def test_kill_minus_nine_mid_load_loses_nothing_acknowledged(database_url: str) -> None:
    server = LiveServer(server_env(database_url, admin_password=ADMIN_PASSWORD))
    with server, httpx.Client(base_url=server.url, timeout=10.0) as client:
        games = [new_game(client, n) for n in range(GAMES)]
        rec, stop = Recorder(), threading.Event()
        threads = [threading.Thread(target=writer, args=(server.url, g, rec, stop), daemon=True)
                   for g in games for _ in range(THREADS_PER_GAME)]
        for t in threads:
            t.start()
        time.sleep(LOAD_SECONDS)
        server.kill()  # SIGKILL in the middle of the load
        time.sleep(0.3)  # the writers meet a dead server for a moment
        stop.set()
        for t in threads:
            t.join(15)
        assert not any(t.is_alive() for t in threads), "a writer hung"
        assert rec.statuses["200"] >= GAMES * 3, f"too little load before the kill: {dict(rec.statuses)}"
        assert not rec.unexpected, rec.unexpected[:5]

        server.start()  # same database, same port
        auth = (ADMIN_USER, ADMIN_PASSWORD)
        for game in games:
            gid = game["id"]
            acked = rec.acked[gid]
            assert all(len(types) == 1 for types in acked.values()), \
                f"{gid}: one seq acknowledged with two event types (a fork): {dict(acked)}"
            log = client.get(f"/api/admin/games/{gid}/log", params={"limit": 5000}, auth=auth)
            assert log.status_code == 200, log.text
            page = log.json()
            logged = {item["seq"]: item["type"] for item in page["items"]}
            seqs = [item["seq"] for item in page["items"]]
            assert seqs == list(range(page["total"])), f"{gid}: the log has a gap or a duplicate"
            lost = {seq: types for seq, types in acked.items() if logged.get(seq) not in types}
            assert not lost, f"{gid}: acknowledged events missing or changed after the crash: " \
                             f"{ {s: (t, logged.get(s)) for s, t in sorted(lost.items())[:10]} }"
            assert max(acked, default=-1) < page["total"]

            verdict = client.post(f"/api/admin/games/{gid}/verify", auth=auth)
            assert verdict.status_code == 200, verdict.text
            assert verdict.json()["ok"] is True, verdict.json()

            side, legal = acting_legal(client, game)
            assert side is not None, f"{gid}: the game ended during the test"
            assert legal["seq"] == page["total"]
            cmd = simple_pick(legal["commands"])
            r = client.post(f"/api/games/{gid}/commands", headers=bearer(game[side]),
                            json={"type": cmd["type"], "data": cmd["data"], "expected_seq": legal["seq"]})
            assert r.status_code == 200, r.text
            assert r.json()["events"][0]["seq"] == page["total"]
