"""Issue 35, item 3: does a board's command sent over its page's WebSocket (as htmx's
WebSocket extension sends a form) beat the board's one HTTP post per command?

    python benchmarks/ws_vs_post.py            # 4 stages x 2 positions x 10 commands, each game (~2 min)
    python benchmarks/ws_vs_post.py --quick    # 3 stages x 1 position x 5 commands

The server is the project's, one worker, on a fresh PostgreSQL database; the socket is
the board's own (``/games/{id}/socket``, app/routes/board_socket.py: the command form as
one JSON message, answered with the HTML the post answers, through the same command
path).  Positions as ``action_latency.py``'s (whole games cut from the
set-up to the last turn, imported by an admin), each imported twice: one copy is sent
its commands as the board's post (``POST /games/{id}/command``, a keep-alive httpx
client, the seat's cookie, the page's map digests), the other the same commands over a
WebSocket that stays open, one per seat, as a page's live connection would (the cookie
sent with the handshake).  Interleaved, command by command; each timed until the whole
answer is read, with the server's CPU around it.  The answers of the two copies must be
the same HTML, byte for byte (else the comparison is void, and it says so).

Prints p50/p95 of each way per game, their ratios and the server CPU of each.
A benchmark, not a test: exits 0 whatever the numbers.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from action_latency import (  # noqa: E402
    ADMIN_PASSWORD,
    Copy,
    Sockets,
    board_form,
    board_send,
    cpu_ms,
    database,
    fmt,
    mean,
    next_command,
    page,
    percentile,
    pid_of,
)
from live_server import ADMIN_USER, LiveServer, map_parts, server_env  # noqa: E402
from positions import GAMES, TITLES, export_at, import_position, play_whole  # noqa: E402

from engine.selfplay import Chooser  # noqa: E402

WAYS = ("post", "socket")


@dataclass
class Tally:
    ms: dict[str, list[float]] = field(default_factory=lambda: {w: [] for w in WAYS})
    cpu: dict[str, list[float]] = field(default_factory=lambda: {w: [] for w in WAYS})
    differ: int = 0  # answers of the two ways that were not the same HTML
    failed: list[str] = field(default_factory=list)


def one_round(client: httpx.Client, base: str, post: Copy, sock: Copy, sockets: Sockets, pid: int | None,
              tally: Tally, record: bool) -> bool:
    """The next command of the position, to both copies: False once the position is done."""
    nxt, twin = next_command(client, base, post), next_command(client, base, sock)
    if nxt is None or twin is None:
        return False
    side, cmd, seq = nxt
    answers = {}
    for way, c in (("post", post), ("socket", sock)):
        ws = sockets.of(c.pos, side) if way == "socket" else None
        c0 = cpu_ms(pid) if pid else 0.0
        t = time.perf_counter()
        r = board_send(client, base, c.pos, side, board_form(cmd, seq, c.pos.pages.get(side, {})), ws)
        answers[way] = r.text
        ms, cpu = (time.perf_counter() - t) * 1000, (cpu_ms(pid) - c0 if pid else 0.0)
        c.pos.pages[side] = c.pos.pages.get(side, {}) | map_parts(r.text)  # what the page swaps in (untimed)
        if r.status_code != 200:
            tally.failed.append(f"{way} {r.status_code} {cmd['type']}: {r.text[:200]}")
            return False
        if record:
            tally.ms[way].append(ms)
            tally.cpu[way].append(cpu)
    # the same answer both ways, but for the game's id (the copies are two games)
    if answers["post"].replace(post.pos.id, "") != answers["socket"].replace(sock.pos.id, ""):
        tally.differ += 1
    return True


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stages", default="30,300,500,700")
    ap.add_argument("--positions", type=int, default=2)
    ap.add_argument("--commands", type=int, default=10)
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--quick", action="store_true", help="--stages 30,300,700 --positions 1 --commands 5")
    args = ap.parse_args()
    if args.quick:
        args.stages, args.positions, args.commands = "30,300,700", 1, 5
    games = [g for g in args.games.split(",") if g]
    cuts = [int(x) for x in args.stages.split(",")]
    started, load0 = time.perf_counter(), os.getloadavg()
    played = {g: [play_whole(g, i) for i in range(args.positions)] for g in games}
    tallies = {g: Tally() for g in games}
    with database("postgresql") as url:
        server = LiveServer(server_env(url, admin_password=ADMIN_PASSWORD), workers=1)
        with server, httpx.Client(timeout=60.0) as client, ExitStack() as stack:
            base = server.url
            pairs: list[tuple[str, Copy, Copy]] = []
            for g in games:
                for i, p in enumerate(played[g]):
                    for n in cuts:
                        export = export_at(p, n)
                        copies = []
                        for _ in WAYS:
                            pos = import_position(client, base, export, (ADMIN_USER, ADMIN_PASSWORD))
                            copies.append(Copy(pos, Chooser(f"ws:{g}:{n}:{i}")))
                            for side in pos.tokens:
                                page(client, base, pos, side, None)
                        pairs.append((g, copies[0], copies[1]))
            pid, sockets = pid_of(server), Sockets(base, stack)
            for _ in range(2):  # warm-up rounds, untimed
                for g, post, sock in pairs:
                    one_round(client, base, post, sock, sockets, pid, tallies[g], False)
            for _ in range(args.commands):
                for g, post, sock in pairs:
                    if not post.done and not sock.done:
                        one_round(client, base, post, sock, sockets, pid, tallies[g], True)
    print("\nA board's command: its HTTP post, or the same form as one message over an open WebSocket (ms)")
    for g, t in tallies.items():
        p50 = {w: percentile(t.ms[w], 50) for w in WAYS}
        p95 = {w: percentile(t.ms[w], 95) for w in WAYS}
        cpu = {w: mean(t.cpu[w]) for w in WAYS}
        print(f"\n== {TITLES[g]} ==  n={len(t.ms['post'])} commands each way")
        for w in WAYS:
            print(f"  {w:7} p50 {fmt(p50[w])}  p95 {fmt(p95[w])}  server CPU mean {fmt(cpu[w], 3)}")
        print(f"  socket / post: p50 {fmt(p50['socket'] / p50['post'])}x, p95 {fmt(p95['socket'] / p95['post'])}x, "
              f"CPU {fmt(cpu['socket'] / cpu['post'])}x")
        if t.differ or t.failed:
            print(f"  not comparable: {t.differ} answers differed; {len(t.failed)} failed"
                  + (f", first: {t.failed[0]}" if t.failed else ""))
    print(f"\n({time.perf_counter() - started:.1f} s in all; load average at the start {load0[0]:.1f}, "
          f"at the end {os.getloadavg()[0]:.1f}, on {os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
