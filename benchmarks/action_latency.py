"""Client-side latency of one player action at positions spread over whole games of
First Blood and of Pacific Battles, against a bare database write as the floor.

    python benchmarks/action_latency.py            # 5 stages x 3 positions x 10 commands, each game (~2-4 min)
    python benchmarks/action_latency.py --quick    # 3 stages x 1 position x 5 commands (~1 min)
    python benchmarks/action_latency.py --stages 30,300,700 --positions 2 --commands 8
    python benchmarks/action_latency.py --database sqlite    # the same on a SQLite file

Creates a fresh PostgreSQL database (127.0.0.1:5432, user postgres, trust auth), or
with ``--database sqlite`` a SQLite file in a directory of its own, starts the
project's server (one worker) and, as more processes, the floors on the same database:
the bare app of ``benchmarks/bare_app.py`` (one INSERT + COMMIT through SQLAlchemy, the
server's pool settings) and the bare ASGI app of ``benchmarks/bare_asgi.py`` (the same
with the driver alone).

The positions (``benchmarks/positions.py``): ``--positions`` whole random games of
each game are played by the engine in this process and each is cut after
``--stages`` events (set-up to last turn) and imported by an admin, three times: one
copy for the JSON API, one for the board's post, one for the board's socket.  From each
position the copies are sent the same ``--commands`` commands (the self-play chooser on
``/legal``'s choices, same seed: the same command in the same position, the same dice).
Then, interleaved in one run (bare, JSON, post, socket, bare, ...) over one keep-alive
httpx client, it times:

- **bare write**: ``POST /bare`` with a JSON command's body, which it writes (httpx
  sends a body after the headers, and the server waits for it; a floor sent no body
  would not be the least a command must do);
- **JSON command**: ``POST /api/games/{id}/commands`` (the ``/legal`` fetch before it is not timed);
- **browser post**: the board's form post ``POST /games/{id}/command`` as the page
  sends it (fields type, data, seq, select, parts; the seat cookie, an ``Origin``
  header; ``parts``: the digests of the map parts the page shows, each side's page
  kept as its answers patch it), timed until the whole HTML answer is read; its size;
- **browser socket**: the same form as one message over the board's WebSocket
  (``/games/{id}/socket``, left open per seat as a page keeps it: how a page sends its
  commands while its socket is open), on a third copy of each position;
- **board page**: ``GET /games/{id}`` with the seat cookie (had by ``POST
  /games/{id}/seat`` with the secret, as the page does), each side of each position,
  before its commands: its size.

Prints, for each game apart, a table by stage and the game's totals with ratios to the
bare write measured in the same run, then PASS/MISS against the goals.  Exits 0
whatever the numbers (a benchmark, not a test).  The database is dropped (or the file
removed) at the end.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

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
from positions import DICE, GAMES, TITLES, Position, export_at, import_position, pick, play_whole  # noqa: E402

from engine.selfplay import Chooser  # noqa: E402

ADMIN_PASSWORD = "latency-admin-password"
KINDS = {"bare": "bare write", "json": "JSON command", "browser": "browser post", "socket": "browser socket"}
COPIES = ("json", "browser", "socket")  # each position imported once for each way a command is sent
# what the bare write is sent: a command's body, of a command's size (a placement)
BARE_BODY = {"type": "place", "data": {"unit": "us-1-1", "to": "0709"}, "expected_seq": 12}


@dataclass
class Copy:
    """One imported copy of a position, and the chooser that drives it."""

    pos: Position
    rng: Chooser
    acting: str = ""
    done: str = ""  # why no more commands are sent to it ("" while it plays)


@dataclass
class Stage:
    game: str
    events: int  # the wanted cut (each position is cut at or before it)
    copies: dict[str, list[Copy]] = field(default_factory=lambda: {k: [] for k in COPIES})
    times: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in COPIES})
    cpu: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in COPIES})  # server CPU ms
    answer_bytes: list[int] = field(default_factory=list)
    page_bytes: list[int] = field(default_factory=list)
    page_ms: list[float] = field(default_factory=list)
    failures: dict[str, list[str]] = field(default_factory=lambda: {k: [] for k in COPIES})
    types: dict[str, int] = field(default_factory=dict)
    timed: list[tuple[float, str, int]] = field(default_factory=list)  # each JSON command: ms, type, position's events


def cpu_ms(pid: int) -> float:
    """The CPU time a process's threads have run, in ms (the scheduler's own count, in
    nanoseconds: /proc/PID/task/*/schedstat), so that a request's CPU is the difference
    around it.  NaN where /proc has no such count (not Linux)."""
    total = 0
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return math.nan
    for task in tasks:
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):  # a thread that ended meanwhile
            continue
    return total / 1e6


@contextmanager
def database(kind: str) -> Iterator[str]:
    """A fresh database for the server and both floors, as a URL: PostgreSQL (dropped at the
    end) or a SQLite file in a directory of its own (removed at the end)."""
    if kind == "postgresql":
        with fresh_postgres_database("bench_latency") as url:
            yield url
        return
    with tempfile.TemporaryDirectory(prefix="bench_latency_") as folder:
        yield f"sqlite:///{folder}/bench.db"


def pid_of(server: LiveServer) -> int | None:
    return server.proc.pid if server.proc is not None else None


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (NaN for no values)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


class Sockets:
    """One open WebSocket per copy and seat, as a page keeps its own (the board's
    ``/games/{id}/socket``, opened at the first command, its handshake carrying the cookie)."""

    def __init__(self, base: str, stack: ExitStack) -> None:
        self.base, self.stack = base.replace("http://", "ws://"), stack
        self.open: dict[tuple[str, str], ClientConnection] = {}

    def of(self, pos: Position, side: str) -> ClientConnection:
        key = (pos.id, side)
        if key not in self.open:
            cookie = {"Cookie": f"seat_{pos.id}={pos.cookies[side]}"}
            self.open[key] = self.stack.enter_context(connect(f"{self.base}/games/{pos.id}/socket",
                                                              additional_headers=cookie))
        return self.open[key]


def board_form(cmd: dict[str, Any], seq: int, parts: dict[str, str]) -> dict[str, str]:
    """A command as the board's form sends it (``parts``: the page's map parts)."""
    return {"type": cmd["type"], "data": json.dumps(cmd["data"]), "seq": str(seq), "select": "",
            "parts": shown_digests(parts)}


def board_send(client: httpx.Client, base: str, pos: Position, side: str, form: dict[str, str],
               ws: ClientConnection | None = None) -> httpx.Response:
    """A board's command form sent as the page sends it: posted with the seat's cookie, or,
    given the seat's open socket ``ws``, as one message over it (its answer as a response)."""
    if ws is not None:
        ws.send(json.dumps(form))
        return httpx.Response(200, text=str(ws.recv(timeout=60)))
    return client.post(f"{base}/games/{pos.id}/command", data=form,
                       headers={"Cookie": f"seat_{pos.id}={pos.cookies[side]}", "Origin": base,
                                "Sec-Fetch-Site": "same-origin"})


def page(client: httpx.Client, base: str, pos: Position, side: str, stage: Stage | None) -> None:
    """The side's board page as its browser first draws it (with the seat cookie)."""
    t = time.perf_counter()
    r = client.get(f"{base}/games/{pos.id}", headers={"Cookie": f"seat_{pos.id}={pos.cookies[side]}"})
    ms = (time.perf_counter() - t) * 1000
    r.raise_for_status()
    pos.pages[side] = map_parts(r.text)
    if stage is not None:
        stage.page_bytes.append(len(r.content))
        stage.page_ms.append(ms)


def next_command(client: httpx.Client, base: str, c: Copy) -> tuple[str, dict[str, Any], int] | None:
    """Untimed: the acting side, the chooser's command for it and the expected seq (None: none)."""
    sides = [c.acting] if c.acting else []
    sides += [s for s in c.pos.tokens if s not in sides]
    for side in sides:
        r = client.get(f"{base}/api/games/{c.pos.id}/legal",
                       headers={"Authorization": f"Bearer {c.pos.tokens[side]}"})
        r.raise_for_status()
        legal = r.json()
        if legal["prompt"]["side"] is None:
            c.done = "the game is over"
            return None
        if legal["your_turn"]:
            cmd = pick(legal, c.rng)
            if cmd is None:
                c.done = f"nothing listed at {legal['seq']} ({legal['prompt']['kind']})"
                return None
            c.acting = side
            return side, cmd, legal["seq"]
    c.done = "nobody's turn"
    return None


def time_bare(client: httpx.Client, bare_url: str, bare: list[float], fails: list[str], record: bool,
              pid: int | None = None, cpu: list[float] | None = None) -> None:
    c0 = cpu_ms(pid) if pid else math.nan
    t = time.perf_counter()
    r = client.post(f"{bare_url}/bare", json=BARE_BODY)  # (the bare ASGI app answers any path)
    ms = (time.perf_counter() - t) * 1000
    if r.status_code != 200:
        fails.append(f"{r.status_code} {r.text[:200]}")
    elif record:
        bare.append(ms)
        if cpu is not None and pid:
            cpu.append(cpu_ms(pid) - c0)


def time_command(client: httpx.Client, base: str, c: Copy, kind: str, stage: Stage | None,
                 pid: int | None = None, sockets: Sockets | None = None) -> str | None:
    """One command to the copy, timed into ``stage`` (None: warm-up); its type (None: not
    sent).  ``kind``: "json", "browser" (the board's post) or "socket" (the board's form
    over its open WebSocket, ``sockets``)."""
    if c.done:
        return None
    nxt = next_command(client, base, c)
    if nxt is None:
        return None
    side, cmd, seq = nxt
    pos = c.pos
    if seq <= pos.last_seq and stage is not None:
        stage.failures[kind].append(f"game {pos.id}: the previous command (at seq {pos.last_seq}) took no effect")
    pos.last_seq = seq
    c0 = cpu_ms(pid) if pid else math.nan
    if kind == "json":
        t = time.perf_counter()
        r = client.post(f"{base}/api/games/{pos.id}/commands", headers={"Authorization": f"Bearer {pos.tokens[side]}"},
                        json={"type": cmd["type"], "data": cmd["data"], "expected_seq": seq})
        ms = (time.perf_counter() - t) * 1000
        ok = r.status_code == 200
    else:  # as the board sends it: its post, or its form over the seat's open socket
        ws = sockets.of(pos, side) if kind == "socket" and sockets is not None else None
        t = time.perf_counter()
        r = board_send(client, base, pos, side, board_form(cmd, seq, pos.pages.get(side, {})), ws)
        _ = r.text  # the whole body has been read by now; decoding it is what a browser does too
        ms = (time.perf_counter() - t) * 1000
        ok = r.status_code == 200 and not refused(r.text)
        pos.pages[side] = pos.pages.get(side, {}) | map_parts(r.text)  # what the browser's htmx swaps in
        if ok and stage is not None and kind == "browser":
            stage.answer_bytes.append(len(r.content))
    if stage is None:
        return cmd["type"]
    if not ok:
        stage.failures[kind].append(f"{r.status_code} {cmd['type']} at {seq}: {r.text[:300]}")
        c.done = "refused"
    else:
        stage.times[kind].append(ms)
        if pid:
            stage.cpu[kind].append(cpu_ms(pid) - c0)
        if kind == "json":
            stage.types[cmd["type"]] = stage.types.get(cmd["type"], 0) + 1
            stage.timed.append((ms, cmd["type"], pos.start_events))
    return cmd["type"]


NET_ERROR = '<p id="net-error" class="error" role="alert" hidden></p>'  # in every Pacific Battles answer


def refused(html: str) -> bool:
    """Whether a board's answer shows an error (the empty, hidden network-error line aside)."""
    return 'role="alert"' in html.replace(NET_ERROR, "")


def verify(client: httpx.Client, base: str, stages: list[Stage], admin: tuple[str, str]) -> list[str]:
    """Each copy played on, replayed by the server (``POST /api/admin/games/{id}/verify``): the failures."""
    bad = []
    for s in stages:
        for c in [c for k in COPIES for c in s.copies[k]]:
            r = client.post(f"{base}/api/admin/games/{c.pos.id}/verify", auth=admin)
            if r.status_code != 200 or r.json().get("ok") is not True:
                bad.append(f"{TITLES[s.game]} cut at {c.pos.start_events}: {r.status_code} {r.text[:400]}")
    return bad


# --- report ----------------------------------------------------------------------------
def fmt(x: float, digits: int = 2) -> str:
    return "-" if math.isnan(x) else f"{x:.{digits}f}"


def kb(x: float) -> str:
    return "-" if math.isnan(x) else f"{x / 1024:.1f}"


def report(stages: list[Stage], bare: list[float], bare_fails: list[str], asgi: list[float],
           asgi_fails: list[str], asgi_cpu: list[float]) -> None:
    b50, b99 = percentile(bare, 50), percentile(bare, 99)
    a50, a99 = percentile(asgi, 50), percentile(asgi, 99)
    print(f"\nfloor: bare write n={len(bare)} p50 {b50:.2f} ms, p99 {b99:.2f} ms, "
          f"max {max(bare, default=math.nan):.2f} ms"
          + (f"; {len(bare_fails)} failed, first: {bare_fails[0]}" if bare_fails else ""))
    print(f"second floor: bare ASGI write (no framework, no ORM: the driver alone) n={len(asgi)} p50 {a50:.2f} ms, "
          f"p99 {a99:.2f} ms, max {max(asgi, default=math.nan):.2f} ms"
          + (f"; {len(asgi_fails)} failed, first: {asgi_fails[0]}" if asgi_fails else ""))
    floor_cpu = mean(asgi_cpu)
    print(f"the bare ASGI floor's CPU per request: mean {fmt(floor_cpu, 3)} ms, "
          f"p50 {fmt(percentile(asgi_cpu, 50), 3)} ms")
    head = (f"{'stage':>10} {'n':>4} {'JSON p50':>9} {'p99':>7} {'x bare':>12} {'brw p50':>8} {'p99':>7} "
            f"{'x bare':>6} {'ans KB p50':>10} {'page KB p50/max':>16} {'page ms':>8}")
    for game in GAMES:
        mine = [s for s in stages if s.game == game]
        if not mine:
            continue
        print(f"\n== {TITLES[game]} ==  (ms; n: commands of each kind (under 100, p99 is the largest); "
              "x bare: p50/p50, p99/p99;\n   page: the board page of each side of each position)")
        print(head)
        rows = [(f"{s.events}", s) for s in mine]
        whole = Stage(game, -1)
        for s in mine:
            for k in COPIES:
                whole.times[k] += s.times[k]
                whole.cpu[k] += s.cpu[k]
                whole.failures[k] += s.failures[k]
            whole.answer_bytes += s.answer_bytes
            whole.page_bytes += s.page_bytes
            whole.page_ms += s.page_ms
        for label, s in [*rows, ("all", whole)]:
            j, w = s.times["json"], s.times["browser"]
            j50, j99, w50, w99 = percentile(j, 50), percentile(j, 99), percentile(w, 50), percentile(w, 99)
            print(f"{label:>10} {len(j):>4} {fmt(j50):>9} {fmt(j99):>7} {fmt(j50 / b50):>5}/{fmt(j99 / b99):<6} "
                  f"{fmt(w50):>8} {fmt(w99):>7} {fmt(w50 / b50):>6} {kb(percentile(s.answer_bytes, 50)):>10} "
                  f"{kb(percentile(s.page_bytes, 50)):>8}/{kb(max(s.page_bytes, default=math.nan)):<7} "
                  f"{fmt(percentile(s.page_ms, 50), 1):>8}")
        starts = ", ".join(f"{s.events}: " + "/".join(str(c.pos.start_events) for c in s.copies["json"])
                           for s in mine)
        print(f"positions' events (wanted: cut at): {starts}")
        types: dict[str, int] = {}
        for s in mine:
            for t, n in s.types.items():
                types[t] = types.get(t, 0) + n
        print("commands timed: " + ", ".join(f"{t} {n}" for t, n in sorted(types.items(), key=lambda x: -x[1])))
        slowest = sorted((t for s in mine for t in s.timed), reverse=True)[:4]
        print("the slowest JSON commands (the p99's): " + ", ".join(f"{t} {ms:.1f} ms (position cut at {at})"
                                                                    for ms, t, at in slowest))
        for s in mine:
            for c in s.copies["json"]:
                if c.done and c.done != "refused":
                    print(f"  stage {s.events}: a position stopped early: {c.done}")
        for k in COPIES:
            if whole.failures[k]:
                print(f"  {KINDS[k]}: {len(whole.failures[k])} failed (left out of the times); "
                      f"first: {whole.failures[k][0]}")
        sk = whole.times["socket"]
        print(f"the board's commands over its WebSocket (as a page sends them while it is open): n={len(sk)} "
              f"p50 {fmt(percentile(sk, 50))} ms, p99 {fmt(percentile(sk, 99))} ms; x bare "
              f"{fmt(percentile(sk, 50) / b50)}, x bare ASGI {fmt(percentile(sk, 50) / a50)}")
        j_cpu, w_cpu, s_cpu = (mean(whole.cpu[k]) for k in COPIES)
        print(f"server CPU per move (mean ms): JSON {fmt(j_cpu, 3)}, browser post {fmt(w_cpu, 3)}, browser socket "
              f"{fmt(s_cpu, 3)}; x the floor's request: {fmt(j_cpu / floor_cpu)} / {fmt(w_cpu / floor_cpu)} / "
              f"{fmt(s_cpu / floor_cpu)}")
        goals(whole, b50, b99)
        asgi_goals(whole, a50, a99, j_cpu / floor_cpu)


def asgi_goals(s: Stage, a50: float, a99: float, cpu_ratio: float) -> None:
    """Issue 35's goals, against the bare ASGI floor: a whole move over the JSON API (its
    answer holds the next legal list: one round trip) and in the browser."""
    j, w = s.times["json"], s.times["browser"]
    rows = [
        ("JSON move p50 <= 2x bare ASGI", percentile(j, 50) / a50, 2.0, not s.failures["json"]),
        ("JSON move p99 <= 3x bare ASGI", percentile(j, 99) / a99, 3.0, not s.failures["json"]),
        ("browser move p50 <= 3x bare ASGI", percentile(w, 50) / a50, 3.0, not s.failures["browser"]),
        ("  over its WebSocket", percentile(s.times["socket"], 50) / a50, 3.0, not s.failures["socket"]),
        ("server CPU per JSON move <= 2.5x", cpu_ratio, 2.5, not s.failures["json"]),
    ]
    print("goals against the bare ASGI floor (issue 35):")
    for label, value, limit, clean in rows:
        print(f"  {label:32} {value:8.2f}x   {'PASS' if value <= limit and clean else 'MISS'}")


def goals(s: Stage, b50: float, b99: float) -> None:
    j, w = s.times["json"], s.times["browser"]
    rows = [
        ("JSON command p50 <= 1.5x bare", percentile(j, 50) / b50, 1.5, "x", not s.failures["json"]),
        ("JSON command p99 <= 2x bare", percentile(j, 99) / b99, 2.0, "x", not s.failures["json"]),
        ("browser post p50 <= 2x bare", percentile(w, 50) / b50, 2.0, "x", not s.failures["browser"]),
        ("browser answer p50 <= 30 KB", percentile(s.answer_bytes, 50) / 1024, 30.0, " KB", True),
        ("board page <= 100 KB (largest)", max(s.page_bytes, default=math.nan) / 1024, 100.0, " KB", True),
    ]
    print("goals:")
    for label, value, limit, unit, clean in rows:
        verdict = "PASS" if value <= limit and clean else "MISS"
        print(f"  {label:32} {value:8.2f}{unit:3} {verdict}")


# --- run ---------------------------------------------------------------------------------
def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stages", default="30,150,300,500,700", help="events at which the positions are cut")
    ap.add_argument("--positions", type=int, default=3, help="positions (whole games cut) per stage and game")
    ap.add_argument("--commands", type=int, default=10, help="timed commands per position and kind")
    ap.add_argument("--warmup", type=int, default=10, help="untimed rounds first (on positions of their own)")
    ap.add_argument("--games", default=",".join(GAMES), help="which games (comma list)")
    ap.add_argument("--dice", choices=DICE, default="chains",
                    help="the positions' dice: a game made now (chains: seed chains and both players' entropy) "
                         "or one secret (legacy), to compare the command path's cost")
    ap.add_argument("--database", choices=("postgresql", "sqlite"), default="postgresql",
                    help="the server's and both floors' database: a fresh PostgreSQL database, or a SQLite file")
    ap.add_argument("--quick", action="store_true", help="a short run: --stages 30,300,700 --positions 1 "
                                                         "--commands 5 --warmup 5")
    args = ap.parse_args()
    if args.quick:
        args.stages, args.positions, args.commands, args.warmup = "30,300,700", 1, 5, 5
    games = [g for g in args.games.split(",") if g]
    cuts = [int(x) for x in args.stages.split(",") if x.strip()]

    started = time.perf_counter()
    load0 = os.getloadavg()
    t = time.perf_counter()
    played = {g: [play_whole(g, i, dice=args.dice) for i in range(args.positions)] for g in games}
    print(f"played {sum(map(len, played.values()))} whole games in the engine in {time.perf_counter() - t:.1f} s "
          f"(events: " + ", ".join(f"{g} " + "/".join(str(len(p.events)) for p in ps) for g, ps in played.items())
          + ")", flush=True)
    admin = (ADMIN_USER, ADMIN_PASSWORD)
    with database(args.database) as url:
        server = LiveServer(server_env(url, admin_password=ADMIN_PASSWORD), workers=1)
        bare_app = LiveServer({"DATABASE_URL": url}, app="bare_app:app", app_dir=ROOT / "benchmarks", workers=1)
        bare_asgi = LiveServer({"DATABASE_URL": url}, app="bare_asgi:app", app_dir=ROOT / "benchmarks", workers=1)
        with server, bare_app, bare_asgi, httpx.Client(timeout=60.0) as client, ExitStack() as stack:
            base = server.url
            sockets = Sockets(base, stack)
            t = time.perf_counter()
            stages = [Stage(g, n) for g in games for n in cuts]
            for s in stages:
                for i, p in enumerate(played[s.game]):
                    export = export_at(p, s.events)
                    for kind in COPIES:
                        pos = import_position(client, base, export, admin)
                        s.copies[kind].append(Copy(pos, Chooser(f"timed:{s.game}:{s.events}:{i}")))
                        for side in pos.tokens:
                            page(client, base, pos, side, s if kind == "browser" else None)
            warm = [Copy(import_position(client, base, export_at(played[g][0], 300), admin), Chooser(f"warm:{g}"))
                    for g in games for _ in COPIES]
            for c in warm:
                for side in c.pos.tokens:
                    page(client, base, c.pos, side, None)
            print(f"imported {sum(len(s.copies['json']) * len(COPIES) for s in stages) + len(warm)} positions in "
                  f"{time.perf_counter() - t:.1f} s; server {base} (1 worker), bare app {bare_app.url}, "
                  f"{'SQLite' if url.startswith('sqlite') else 'PostgreSQL'} {url.rsplit('/', 1)[1]}", flush=True)
            bare: list[float] = []
            bare_fails: list[str] = []
            asgi: list[float] = []
            asgi_fails: list[str] = []
            for _ in range(args.warmup):
                for i in range(0, len(warm), len(COPIES)):
                    time_bare(client, bare_app.url, bare, bare_fails, False)
                    time_bare(client, bare_asgi.url, asgi, asgi_fails, False)
                    for k, kind in enumerate(COPIES):
                        time_command(client, base, warm[i + k], kind, None, sockets=sockets)
            # (one process each: a single uvicorn worker runs in the process started)
            server_pid, asgi_pid = pid_of(server), pid_of(bare_asgi)
            asgi_cpu: list[float] = []
            t = time.perf_counter()
            for _ in range(args.commands):  # round by round over every position: one interleaved run
                for s in stages:
                    for cj, cb, cs in zip(*(s.copies[k] for k in COPIES), strict=True):
                        time_bare(client, bare_app.url, bare, bare_fails, True)
                        time_bare(client, bare_asgi.url, asgi, asgi_fails, True, asgi_pid, asgi_cpu)
                        sent = time_command(client, base, cj, "json", s, server_pid)
                        if sent is not None:
                            time_command(client, base, cb, "browser", s, server_pid)
                            time_command(client, base, cs, "socket", s, server_pid, sockets)
            print(f"timed in {time.perf_counter() - t:.1f} s", flush=True)
            unverified = verify(client, base, stages, admin)
    report(stages, bare, bare_fails, asgi, asgi_fails, asgi_cpu)
    copies = sum(len(s.copies["json"]) * len(COPIES) for s in stages)
    print(f"\nverified by replay (admin verify) after the run: {copies - len(unverified)}/{copies} positions played on")
    for line in unverified[:6]:
        print(f"  not verified: {line}")
    print(f"\n({time.perf_counter() - started:.1f} s in all; the machine's load average at the start "
          f"{load0[0]:.1f}, at the end {os.getloadavg()[0]:.1f}, on {os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
