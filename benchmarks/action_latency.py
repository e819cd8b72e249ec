"""Client-side latency of one player action, against a bare database write as the floor.

    python benchmarks/action_latency.py [--requests 300] [--warmup 20] [--games 10]

Creates a fresh PostgreSQL database (127.0.0.1:5432, user postgres, trust auth),
starts the project's server (one worker) and, as a second process, the bare app of
``benchmarks/bare_app.py`` (one INSERT + COMMIT through SQLAlchemy, the server's pool
settings) on the same database.  Then, interleaved in one run (bare, JSON, browser,
bare, ...) over one keep-alive httpx client, it times:

- **bare write**: ``POST /bare`` with a JSON command's body, which it writes.  (It was
  sent no body until the client's way of sending one showed: httpx writes a body after
  the headers, and the server waits 0.5-0.7 ms for it, which the commands paid and a
  bodiless floor did not.  Browsers send a small form in the headers' packet.);
- **JSON command**: ``POST /api/games/{id}/commands`` (the ``/legal`` fetch before it is not timed);
- **browser post**: the board's form post ``POST /games/{id}/command`` with the seat
  cookie and, as the page's script sends, the digests of the map parts the page shows
  (each side's page is kept as its answers patch it), timed until the whole HTML
  answer is read.

The JSON and the browser commands go to two pools of equally many games driven by
the same deterministic choice (place first, else end the phase, else the first
legal command), so the n-th timed command of each is the same kind of command in
the same kind of position.  Prints p50/p99 of each, their ratios to the bare write,
and PASS/MISS for the goals; exits 0 whatever the numbers (a benchmark, not a test).
The database is dropped at the end.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from live_server import (  # noqa: E402
    LiveServer,
    fresh_postgres_database,
    invitation_token,
    map_parts,
    server_env,
    shown_digests,
    simple_pick,
)

GOALS = [  # (label, kind, percentile, max ratio to the bare write)
    ("JSON command p50 <= 1.5x bare", "json", 50, 1.5),
    ("JSON command p99 <= 2x bare", "json", 99, 2.0),
    ("browser post p50 <= 2x bare", "browser", 50, 2.0),
]
KINDS = {"bare": "bare write", "json": "JSON command", "browser": "browser post"}


@dataclass
class Game:
    id: str
    tokens: dict[str, str]
    cookies: dict[str, str]  # side -> signed seat cookie value
    pages: dict[str, dict[str, str]] = field(default_factory=dict)  # side -> the map parts its page shows
    last_seq: int = -1  # the expected_seq of the last command posted to it


@dataclass
class Pool:
    games: list[Game]
    turn: int = 0

    def next(self) -> Game:
        game = self.games[self.turn % len(self.games)]
        self.turn += 1
        return game


@dataclass
class Results:
    times: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in KINDS})
    failures: dict[str, list[str]] = field(default_factory=lambda: {k: [] for k in KINDS})


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (NaN for no values)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def new_game(client: httpx.Client, base: str) -> Game:
    client.cookies.clear()
    r = client.post(f"{base}/api/games", json={"side": "US", "name": "bench US"})
    r.raise_for_status()
    body = r.json()
    gid = body["game_id"]
    us_cookie = r.cookies[f"seat_{gid}"]
    r2 = client.post(f"{base}/api/games/{gid}/join", json={"token": invitation_token(body["invite_url"]),
                                                           "name": "bench IJ"})
    r2.raise_for_status()
    ij_cookie = r2.cookies[f"seat_{gid}"]
    client.cookies.clear()  # every request below names its seat itself
    game = Game(gid, {"US": body["token"], "IJ": r2.json()["token"]}, {"US": us_cookie, "IJ": ij_cookie})
    for side, cookie in game.cookies.items():  # each side's page, as its browser first draws it
        page = client.get(f"{base}/games/{gid}", headers={"Cookie": f"seat_{gid}={cookie}"})
        page.raise_for_status()
        game.pages[side] = map_parts(page.text)
    return game


def next_command(client: httpx.Client, base: str, game: Game) -> tuple[str, dict[str, Any], int] | None:
    """Untimed: the acting side, a legal command for it and the expected seq (None: game over)."""
    legal = client.get(f"{base}/api/games/{game.id}/legal", headers={"Authorization": f"Bearer {game.tokens['US']}"})
    legal.raise_for_status()
    side = legal.json()["prompt"]["side"]
    if side is None:
        return None
    if side != "US":
        legal = client.get(f"{base}/api/games/{game.id}/legal",
                           headers={"Authorization": f"Bearer {game.tokens[side]}"})
        legal.raise_for_status()
    body = legal.json()
    return side, simple_pick(body["commands"]), body["seq"]


# what the bare write is sent: a command's body, of a command's size (a placement)
BARE_BODY = {"type": "place", "data": {"unit": "us-1-1", "to": "0709"}, "expected_seq": 12}


def time_bare(client: httpx.Client, bare_url: str, res: Results, record: bool) -> None:
    t = time.perf_counter()
    r = client.post(f"{bare_url}/bare", json=BARE_BODY)
    ms = (time.perf_counter() - t) * 1000
    if r.status_code != 200:
        res.failures["bare"].append(f"{r.status_code} {r.text[:200]}")
    elif record:
        res.times["bare"].append(ms)


def time_command(client: httpx.Client, base: str, pool: Pool, kind: str, res: Results, record: bool) -> None:
    game = pool.next()
    nxt = next_command(client, base, game)
    if nxt is None:  # that game is over: replace it and go on
        pool.games[(pool.turn - 1) % len(pool.games)] = game = new_game(client, base)
        nxt = next_command(client, base, game)
        assert nxt is not None
    side, cmd, seq = nxt
    if seq <= game.last_seq:
        res.failures[kind].append(f"game {game.id}: the previous command (at seq {game.last_seq}) took no effect")
    game.last_seq = seq
    if kind == "json":
        t = time.perf_counter()
        r = client.post(f"{base}/api/games/{game.id}/commands",
                        headers={"Authorization": f"Bearer {game.tokens[side]}"},
                        json={"type": cmd["type"], "data": cmd["data"], "expected_seq": seq})
        ms = (time.perf_counter() - t) * 1000
        ok = r.status_code == 200
    else:
        t = time.perf_counter()
        r = client.post(f"{base}/games/{game.id}/command",
                        data={"type": cmd["type"], "data": json.dumps(cmd["data"]), "seq": str(seq), "select": "",
                              "parts": shown_digests(game.pages[side])},
                        headers={"Cookie": f"seat_{game.id}={game.cookies[side]}", "Origin": base,
                                 "Sec-Fetch-Site": "same-origin"})
        _ = r.text  # the whole body has been read by now; decoding it is what a browser does too
        ms = (time.perf_counter() - t) * 1000
        ok = r.status_code == 200 and 'role="alert"' not in r.text
        game.pages[side] |= map_parts(r.text)  # what the browser's htmx swaps in
    if not ok:
        res.failures[kind].append(f"{r.status_code} {cmd['type']}: {r.text[:300]}")
    elif record:
        res.times[kind].append(ms)


def report(res: Results, requests: int) -> None:
    bare50, bare99 = percentile(res.times["bare"], 50), percentile(res.times["bare"], 99)
    print(f"\n{'':14} {'n':>5} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'p50/bare':>9} {'p99/bare':>9}")
    for kind, label in KINDS.items():
        xs = res.times[kind]
        p50, p99 = percentile(xs, 50), percentile(xs, 99)
        print(f"{label:14} {len(xs):>5} {p50:>8.2f} {p99:>8.2f} {max(xs, default=math.nan):>8.2f} "
              f"{p50 / bare50:>8.2f}x {p99 / bare99:>8.2f}x")
    for kind, label in KINDS.items():
        fails = res.failures[kind]
        if fails:
            print(f"{label}: {len(fails)} failed of {requests} (left out of the times); first: {fails[0]}")
    print("\ngoals:")
    for label, kind, p, limit in GOALS:
        ratio = percentile(res.times[kind], p) / (bare50 if p == 50 else bare99)
        verdict = "PASS" if ratio <= limit and not res.failures[kind] else "MISS"
        print(f"  {label:32} {ratio:6.2f}x  {verdict}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--requests", type=int, default=300, help="timed requests of each kind")
    ap.add_argument("--warmup", type=int, default=20, help="untimed rounds first")
    ap.add_argument("--games", type=int, default=10, help="games in each of the two command pools")
    args = ap.parse_args()

    started = time.perf_counter()
    with fresh_postgres_database("bench_latency") as url:
        server = LiveServer(server_env(url), workers=1)
        bare = LiveServer({"DATABASE_URL": url}, app="bare_app:app", app_dir=ROOT / "benchmarks", workers=1)
        with server, bare, httpx.Client(timeout=60.0) as client:
            pools = {"json": Pool([new_game(client, server.url) for _ in range(args.games)]),
                     "browser": Pool([new_game(client, server.url) for _ in range(args.games)])}
            res = Results()
            print(f"server {server.url} (1 worker), bare app {bare.url}, PostgreSQL {url.rsplit('/', 1)[1]}; "
                  f"{args.warmup} warm-up rounds, {args.requests} timed rounds of bare / JSON / browser")
            for i in range(args.warmup + args.requests):
                record = i >= args.warmup
                time_bare(client, bare.url, res, record)
                time_command(client, server.url, pools["json"], "json", res, record)
                time_command(client, server.url, pools["browser"], "browser", res, record)
    report(res, args.requests)
    print(f"\n({time.perf_counter() - started:.1f} s in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
