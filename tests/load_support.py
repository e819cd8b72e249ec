"""Load on real servers: games, writers that post the acting side's legal commands until
told to stop, a record of every event acknowledged, and the check that none was lost
(tests/app/test_crash_recovery.py, tests/app/test_two_hosts.py)."""

from __future__ import annotations

import threading
import time
from collections import Counter, defaultdict
from typing import Any

import httpx
from app_support import bearer, listed
from live_server import invitation_token, simple_pick


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
                commands = listed(legal)
                if not commands:  # the game moved on between the two reads: ask again
                    time.sleep(0.02)
                    continue
                cmd = simple_pick(commands)
                r = client.post(f"/api/games/{game['id']}/commands", headers=bearer(game[side]),
                                json={"type": cmd["type"], "data": cmd["data"], "expected_seq": legal["seq"]})
            except (httpx.TransportError, httpx.HTTPStatusError) as exc:  # the server is down: expected
                rec.failure(exc)
                time.sleep(0.02)
                continue
            rec.answer(game["id"], r)


def nothing_lost(client: httpx.Client, games: list[dict[str, str]], rec: Recorder, auth: tuple[str, str]) -> None:
    """Every event acknowledged is in each game's log with its number and type; the log has
    no gap, replays (admin verify), and the server behind ``client`` takes a further command."""
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
        cmd = simple_pick(listed(legal))
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(game[side]),
                        json={"type": cmd["type"], "data": cmd["data"], "expected_seq": legal["seq"]})
        assert r.status_code == 200, r.text
        assert r.json()["events"][0]["seq"] == page["total"]
