"""A burst of players on the real server: latency, errors and commands per second,
in games of First Blood and of Pacific Battles at positions spread over whole games.

    python benchmarks/load.py --players 200 --games 100 --arrival 3 --duration 40 --workers 2
    python benchmarks/load.py --workers 1,2        # one run with 1 worker, then one with 2
    python benchmarks/load.py --quick              # 60 players, 30 games, 20 s, 2 workers

Each run gets a fresh PostgreSQL database (127.0.0.1:5432, user postgres, trust
auth) and a server with ``--workers N`` (rate limits off).  The games are set up
first (not timed): ``--pacific`` of them (half by default) Pacific Battles, the rest
First Blood, each a position imported by an admin (``benchmarks/positions.py``: a
whole random game played by the engine, cut after one of ``--stages`` events, from the
set-up to the last turn, the stages taken in turn), each seat's cookie had by posting
its secret to ``POST /games/{id}/seat``.  Then the players (two per game, one a side)
arrive spread over ``--arrival`` seconds.  Each opens its
board page with its seat cookie, asks ``/legal`` whose turn it is, and polls
``/games/{id}/poll?seq=S`` every ~3 s (with the digests of the map parts its page
shows, as the page's script sends them, and patching its parts with the answer as
htmx does); whenever it is its side's turn it thinks 0.5-2 s and posts one legal
command over the JSON API (the self-play chooser on ``/legal``'s choices; on 409 it asks
again), and goes on while the turn stays its own, as a client of the API plays: the
command's answer holds the mover's next legal commands (``next``), so it asks ``/legal``
again only when the answer has none (the turn passed, or the state moved on at once).
After ``--duration`` seconds nobody starts a new request; those in flight finish or hit
the client timeout (60 s, an error).

Printed per run: count and p50/p99/max per request type (every request, errors
included), every error (5xx, timeouts, connection errors, unexpected 4xx) with a
sample, commands per second, command latency by game and stage, the client's own CPU time (it shares the machine), and
how many games verify by replay (admin ``POST /api/admin/games/{id}/verify``).  Then
PASS/MISS for the goals.  Exits 0 whatever the numbers (a benchmark, not a test).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import re
import ssl
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

try:  # the client shares the machine's two cores with the server: parse /legal cheaply when possible
    from orjson import loads
except ImportError:
    from json import loads

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from live_server import (  # noqa: E402
    ADMIN_USER,
    LiveServer,
    fresh_postgres_database,
    map_parts,
    server_env,
    shown_digests,
)
from positions import GAMES, TITLES, export_at, import_position, pick, play_whole  # noqa: E402

from engine.selfplay import Chooser  # noqa: E402

ADMIN_PASSWORD = "load-admin-password"
TIMEOUT = 60.0  # seconds: a request that takes longer is cut and counted as an error
EXPECTED = {"board": {200}, "poll": {200, 204}, "legal": {200}, "command": {200, 409}}
KINDS = list(EXPECTED)
# one TLS context for every client (the server is plain HTTP, but httpx builds a context per
# client otherwise, loading the CA bundle: 30 ms of the client's CPU per player, in the burst)
TLS = ssl.create_default_context()


@dataclass
class Player:
    game: str
    side: str
    token: str
    cookie: str
    think: tuple[float, float]
    rng: random.Random
    kind: str = "first_blood"  # which game
    stage: int = 0  # the events its position was cut at
    chooser: Chooser = field(default_factory=lambda: Chooser("load"))
    seq: int = -1
    parts: dict[str, str] = field(default_factory=dict)  # the map parts its page shows


@dataclass
class Record:
    """Every request: its type, latency and outcome; errors with a sample each."""

    latency: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    outcomes: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    errors: Counter[tuple[str, str]] = field(default_factory=Counter)
    samples: dict[tuple[str, str], str] = field(default_factory=dict)
    commands_ok: int = 0
    commands_by: dict[tuple[str, int], list[float]] = field(default_factory=lambda: defaultdict(list))  # (game, stage)
    errors_by: Counter[str] = field(default_factory=Counter)  # game -> errors of its players
    last_end: float = 0.0  # time.monotonic() when the last request ended
    loop_lag: list[float] = field(default_factory=list)  # ms the client's event loop woke up late

    def add(self, kind: str, ms: float, outcome: str, sample: str | None = None) -> None:
        self.last_end = time.monotonic()
        self.latency[kind].append(ms)
        self.outcomes[kind][outcome] += 1
        if sample is not None:
            self.errors[(kind, outcome)] += 1
            self.samples.setdefault((kind, outcome), sample)

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (NaN for no values)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


async def timed(client: httpx.AsyncClient, rec: Record, kind: str, method: str, url: str,
                **kw: Any) -> httpx.Response | None:
    """One request, recorded; the answer if its status was expected for its type, else None."""
    t = time.perf_counter()
    try:
        async with asyncio.timeout(TIMEOUT):
            r = await client.request(method, url, **kw)
    except (TimeoutError, httpx.TimeoutException) as exc:
        rec.add(kind, (time.perf_counter() - t) * 1000, "timeout", f"{method} {url}: {type(exc).__name__}")
        return None
    except httpx.HTTPError as exc:
        rec.add(kind, (time.perf_counter() - t) * 1000, type(exc).__name__, f"{method} {url}: {exc!r}"[:300])
        return None
    ms = (time.perf_counter() - t) * 1000
    outcome = str(r.status_code)
    if r.status_code not in EXPECTED[kind]:
        rec.add(kind, ms, outcome, f"{method} {url}: {r.text[:300]}")
        return None
    rec.add(kind, ms, outcome)
    return r


# --- setting up ----------------------------------------------------------------------
def plan(args: argparse.Namespace) -> list[tuple[str, int, int]]:
    """(game, whole game's index, stage) of each game to set up, the two games interleaved."""
    stages = [int(x) for x in args.stages.split(",") if x.strip()]
    n_pb = round(args.games * args.pacific)
    counts = {"first_blood": args.games - n_pb, "pacific_battles": n_pb}
    planned = [(j / max(1, counts[g]), g, (j // len(stages)) % args.whole, stages[j % len(stages)])
               for g in GAMES for j in range(counts[g])]
    return [(g, w, st) for _, g, w, st in sorted(planned)]


def set_up(url: str, args: argparse.Namespace) -> list[dict[str, Any]]:
    """Import every planned position (four at a time), each seat's cookie taken as a browser takes it."""
    todo = plan(args)
    for g, w, _ in todo:  # the engine's whole games, once each
        play_whole(g, w)

    def one(item: tuple[str, int, int]) -> dict[str, Any]:
        g, w, stage = item
        with httpx.Client(timeout=TIMEOUT) as c:
            pos = import_position(c, url, export_at(play_whole(g, w), stage), (ADMIN_USER, ADMIN_PASSWORD))
        return {"id": pos.id, "game": g, "stage": stage, "events": pos.start_events,
                "seats": {side: (pos.tokens[side], pos.cookies[side]) for side in pos.tokens}}

    with ThreadPoolExecutor(4) as pool:
        return list(pool.map(one, todo))


# --- playing -----------------------------------------------------------------------------
async def act(client: httpx.AsyncClient, rec: Record, p: Player, deadline: float) -> None:
    """While it is this player's turn: think, post one legal command, look again."""
    auth = {"Authorization": f"Bearer {p.token}"}
    known: dict[str, Any] | None = None  # the last command's answer's next: no /legal after one's own move
    while time.monotonic() < deadline:
        if known is None:
            r = await timed(client, rec, "legal", "GET", f"/api/games/{p.game}/legal", headers=auth)
            if r is None:
                rec.errors_by[p.kind] += 1
                return
            known = loads(r.content)
        legal, known = known, None
        p.seq = legal["seq"]
        if not legal["your_turn"]:
            return
        cmd = pick(legal, p.chooser)
        if cmd is None:  # nothing listed (a choice only described): a browser's player would fill a form
            return
        think = p.rng.uniform(*p.think)
        if time.monotonic() + think >= deadline:
            return
        await asyncio.sleep(think)
        t = time.perf_counter()
        r = await timed(client, rec, "command", "POST", f"/api/games/{p.game}/commands", headers=auth,
                        json={"type": cmd["type"], "data": cmd["data"], "expected_seq": legal["seq"]})
        rec.commands_by[(p.kind, p.stage)].append((time.perf_counter() - t) * 1000)
        if r is None:
            rec.errors_by[p.kind] += 1
            return
        if r.status_code == 200:
            rec.commands_ok += 1
            answer = loads(r.content)
            p.seq, known = answer["seq"], answer.get("next")
        # 200: is it still my turn (the answer's next says; else /legal)?  409: somebody was first; look again


async def play(url: str, rec: Record, p: Player, arrive: float, deadline: float, poll_every: float) -> None:
    """One player in a client of its own, as in a browser of its own: one connection,
    kept alive between its requests (a pool shared by all the players would scan all
    their connections on every request and make the client, not the server, the bottleneck)."""
    # the client drops a connection idle for 2 s, well before uvicorn's 5 s keep-alive timeout closes it,
    # so that a request sent on an idle connection does not race the server's close; a ReadError or
    # RemoteProtocolError ("server disconnected") still counted here is the server closing a connection
    # that has a request in it (a browser would retry such a request unseen)
    limits = httpx.Limits(max_connections=2, max_keepalive_connections=1, keepalive_expiry=2.0)
    await asyncio.sleep(max(0.0, arrive - time.monotonic()))
    async with httpx.AsyncClient(base_url=url, timeout=TIMEOUT, limits=limits, verify=TLS) as client:
        await player_session(client, rec, p, deadline, poll_every)


async def player_session(client: httpx.AsyncClient, rec: Record, p: Player, deadline: float,
                         poll_every: float) -> None:
    cookie = {"Cookie": f"seat_{p.game}={p.cookie}"}
    r = await timed(client, rec, "board", "GET", f"/games/{p.game}", headers=cookie)
    if r is not None:
        p.parts = map_parts(r.text)
    else:
        rec.errors_by[p.kind] += 1
    await act(client, rec, p, deadline)
    while True:
        wait = poll_every * p.rng.uniform(0.9, 1.1)
        if time.monotonic() + wait >= deadline:
            return
        await asyncio.sleep(wait)
        r = await timed(client, rec, "poll", "GET", f"/games/{p.game}/poll",  # as the page's script asks
                        params={"seq": p.seq, "parts": shown_digests(p.parts)}, headers=cookie)
        if r is None:
            rec.errors_by[p.kind] += 1
        elif r.status_code == 200:
            p.parts |= map_parts(r.text)  # what the page's htmx swaps in
            await act(client, rec, p, deadline)


async def loop_lag(rec: Record, deadline: float, every: float = 0.05) -> None:
    """How late the client's own event loop wakes up: when it is busy, every latency above
    includes time the answer waited in the client, not in the server."""
    while time.monotonic() < deadline:
        t = time.monotonic()
        await asyncio.sleep(every)
        rec.loop_lag.append((time.monotonic() - t - every) * 1000)


async def verify_all(url: str, games: list[dict[str, Any]]) -> tuple[int, list[str]]:
    sem = asyncio.Semaphore(4)
    bad: list[str] = []

    async def one(c: httpx.AsyncClient, gid: str) -> bool:
        async with sem:
            try:
                r = await c.post(f"/api/admin/games/{gid}/verify", auth=(ADMIN_USER, ADMIN_PASSWORD))
            except httpx.HTTPError as exc:
                bad.append(f"{gid}: {exc!r}")
                return False
            if r.status_code != 200 or r.json().get("ok") is not True:
                bad.append(f"{gid}: {r.status_code} {r.text[:300]}")
                return False
            return True

    async with httpx.AsyncClient(base_url=url, timeout=TIMEOUT) as c:
        oks = await asyncio.gather(*(one(c, g["id"]) for g in games))
    return sum(oks), bad


@dataclass
class RunResult:
    workers: int
    rec: Record
    verified: int
    games: int
    seconds: float


async def run(args: argparse.Namespace, workers: int) -> RunResult:
    n_pb = round(args.games * args.pacific)
    print(f"\n== {workers} worker(s): {args.players} players, {args.games} games ({args.games - n_pb} First Blood, "
          f"{n_pb} Pacific Battles, cut at {args.stages} events), arrival {args.arrival} s, "
          f"duration {args.duration} s ==", flush=True)
    with fresh_postgres_database("bench_load") as url:
        server = LiveServer(server_env(url, admin_password=ADMIN_PASSWORD), workers=workers)
        with server:
            t = time.perf_counter()
            games = await asyncio.to_thread(set_up, server.url, args)
            print(f"set up {len(games)} games (played by the engine, imported) in {time.perf_counter() - t:.1f} s",
                  flush=True)
            rng = random.Random(args.seed)
            players = [Player(g["id"], side, *g["seats"][side], think=(args.think_min, args.think_max),
                              rng=random.Random(rng.random()), kind=g["game"], stage=g["stage"],
                              chooser=Chooser(f"load:{args.seed}:{g['id']}:{side}"))
                       for g in games for side in g["seats"]][: args.players]
            rec = Record()
            cpu0 = time.process_time()
            load0 = os.getloadavg()[0]
            start = time.monotonic()
            deadline = start + args.duration
            arrivals = [start + rng.uniform(0, args.arrival) for _ in players]
            lag = asyncio.create_task(loop_lag(rec, deadline))
            await asyncio.gather(*(play(server.url, rec, p, a, deadline, args.poll)
                                   for p, a in zip(players, arrivals, strict=True)))
            await lag
            seconds = rec.last_end - start
            cpu = time.process_time() - cpu0
            print(f"the machine's load average: {load0:.1f} when the burst began, {os.getloadavg()[0]:.1f} at its end "
                  f"({os.cpu_count()} cores)")
            alive = server.running
            verified, bad = await verify_all(server.url, games) if alive else (0, ["the server died"])
            stderr = server.stderr_text()
    report(rec, seconds, args.duration, cpu, verified, len(games), bad, alive, stderr)
    report_games(rec)
    return RunResult(workers, rec, verified, len(games), seconds)


def report(rec: Record, seconds: float, duration: float, cpu: float, verified: int, games: int,
           bad: list[str], alive: bool, stderr: str) -> None:
    print(f"{'request':8} {'count':>6} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>9}  outcomes")
    for kind in KINDS:
        xs = rec.latency.get(kind, [])
        outcomes = " ".join(f"{k}:{v}" for k, v in sorted(rec.outcomes[kind].items()))
        print(f"{kind:8} {len(xs):>6} {percentile(xs, 50):>8.1f} {percentile(xs, 99):>8.1f} "
              f"{max(xs, default=math.nan):>9.1f}  {outcomes}")
    lag = rec.loop_lag
    print(f"client event loop late by p50 {percentile(lag, 50):.1f} ms, p99 {percentile(lag, 99):.1f} ms "
          "(a busy client inflates every latency above)")
    print(f"errors: {rec.error_count}")
    for (kind, outcome), n in sorted(rec.errors.items()):
        print(f"  {kind} {outcome} x{n}: {rec.samples[(kind, outcome)]}")
    print(f"commands: {rec.commands_ok} accepted, {rec.commands_ok / duration:.1f}/s over the {duration:.0f} s "
          f"(last request ended after {seconds:.1f} s); client CPU {cpu:.1f} s")
    failures = server_exceptions(stderr)
    if failures:
        print(f"server stderr: {sum(failures.values())} traceback(s), by the exception they end with:")
        for line, n in failures.most_common(8):
            print(f"  x{n}: {line}")
    if not alive:
        print(f"the server process DIED; its stderr ends:\n{stderr[-2000:]}")
    print(f"verified by replay: {verified}/{games}")
    for b in bad[:5]:
        print(f"  not verified: {b}")


def report_games(rec: Record) -> None:
    """Each game apart: its players' errors and its command latency by stage."""
    print(f"{'commands':16} {'stage':>6} {'count':>6} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>9}")
    for game in GAMES:
        stages = sorted(st for g, st in rec.commands_by if g == game)
        every: list[float] = []
        for st in stages:
            xs = rec.commands_by[(game, st)]
            every += xs
            print(f"{TITLES[game]:16} {st:>6} {len(xs):>6} {percentile(xs, 50):>8.1f} {percentile(xs, 99):>8.1f} "
                  f"{max(xs, default=math.nan):>9.1f}")
        print(f"{TITLES[game]:16} {'all':>6} {len(every):>6} {percentile(every, 50):>8.1f} "
              f"{percentile(every, 99):>8.1f} {max(every, default=math.nan):>9.1f}   "
              f"errors of its players: {rec.errors_by[game]}")


def server_exceptions(stderr: str) -> Counter[str]:
    """The exception line ending each traceback in the server's stderr (chained ones included)."""
    found: Counter[str] = Counter()
    for block in stderr.split("Traceback (most recent call last):")[1:]:
        for line in block.splitlines()[1:]:
            if line and not line[0].isspace():  # the first unindented line closes the traceback
                found[re.sub(r"\b[0-9a-f]{12}\b", "…", line.strip())[:240]] += 1
                break
    return found


def goals(results: list[RunResult]) -> None:
    by = {r.workers: r for r in results}

    def line(label: str, ok: bool | None, detail: str) -> None:
        print(f"  {label:38} {detail:>22}  {'not run' if ok is None else 'PASS' if ok else 'MISS'}")

    print("\ngoals:")
    for w in (1, 2):
        r = by.get(w)
        line(f"0 errors with {w} worker(s)", None if r is None else r.rec.error_count == 0,
             "" if r is None else f"{r.rec.error_count} errors")
    r2 = by.get(2)
    p99 = percentile(r2.rec.latency.get("command", []), 99) if r2 else math.nan
    line("command p99 under 250 ms with 2 workers", None if r2 is None else p99 < 250, f"p99 {p99:.0f} ms")
    for game in GAMES:
        xs = [ms for (g, _), v in r2.rec.commands_by.items() if g == game for ms in v] if r2 else []
        p99 = percentile(xs, 99)
        line(f"  {TITLES[game]}: p99 under 250 ms", None if r2 is None else p99 < 250, f"p99 {p99:.0f} ms")
        errs = r2.rec.errors_by[game] if r2 else 0
        line(f"  {TITLES[game]}: 0 errors", None if r2 is None else errs == 0, f"{errs} errors")
    for r in results:
        line(f"every game verifies ({r.workers} worker(s))", r.verified == r.games, f"{r.verified}/{r.games}")


async def main_async(args: argparse.Namespace) -> None:
    results = []
    for w in [int(x) for x in args.workers.split(",") if x.strip()]:
        results.append(await run(args, w))
    goals(results)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=200)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--arrival", type=float, default=3.0, help="seconds over which the players arrive")
    ap.add_argument("--duration", type=float, default=40.0, help="seconds of play after the first arrival")
    ap.add_argument("--workers", default="2", help="server workers; a comma list runs each in turn (1,2)")
    ap.add_argument("--pacific", type=float, default=0.5, help="the share of the games that are Pacific Battles")
    ap.add_argument("--stages", default="30,150,300,500,700", help="events at which the positions are cut, in turn")
    ap.add_argument("--whole", type=int, default=4, help="whole games the engine plays of each game to cut")
    ap.add_argument("--quick", action="store_true", help="a short run: 60 players, 30 games, arrival 2 s, "
                                                         "duration 20 s, --whole 2")
    ap.add_argument("--poll", type=float, default=3.0, help="seconds between polls")
    ap.add_argument("--think-min", type=float, default=0.5)
    ap.add_argument("--think-max", type=float, default=2.0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.quick:
        args.players, args.games, args.arrival, args.duration, args.whole = 60, 30, 2.0, 20.0, 2
    if args.players > 2 * args.games:
        ap.error("at most two players per game")
    try:
        import uvloop  # a leaner event loop when it is installed (uvicorn[standard] brings it)
    except ImportError:
        asyncio.run(main_async(args))
    else:
        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            runner.run(main_async(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
