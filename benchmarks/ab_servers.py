"""Two versions of the server, side by side in one run: the server's CPU and the client's
time per command, the same commands on the same positions, each game apart.

    git worktree add /some/dir/before HEAD~3        # the version to compare with
    python benchmarks/ab_servers.py --base /some/dir/before
    python benchmarks/ab_servers.py --base /some/dir/before --kind post --rounds 10

A change of a few per cent is within the wander of this machine from one run of
``action_latency.py`` to the next (the floors move 5-10%), so such a change is measured
here instead: two servers (one worker each), this checkout's and ``--base``'s, each on a
database of its own, are given each position (``positions.py``) imported alike and sent
the same command in turn (the self-play chooser on each one's ``/legal``, same seed, the
same dice: the same game), the order of the two alternating command by command.  It
counts each server process's CPU around each command (as ``action_latency.py`` does) and
the client's wait.

Two servers in one run are not quite alike even with one code (which started first, its
database, its port: up to 5-9% apart, measured), so the run is made twice, the roles
swapped: the printed ratio ``r`` (this checkout's over the base's) is the square root of the
two runs' ratios, in which that difference cancels; ``bias`` is what it was.  ``--same``
gives both servers this checkout's code: r should then be 1 within the noise.

``--kind json``: ``POST /api/games/{id}/commands``; ``--kind post``: the board's form post,
as ``action_latency.py`` sends it (its answer's size printed too).  A benchmark, not a test:
it exits 0 whatever the numbers.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from action_latency import Copy, board_form, board_send, cpu_ms, next_command, page, refused  # noqa: E402
from live_server import ADMIN_USER, LiveServer, fresh_postgres_database, map_parts, server_env  # noqa: E402
from positions import GAMES, Position, export_at, import_position, play_whole  # noqa: E402

from engine.selfplay import Chooser  # noqa: E402

ADMIN_PASSWORD = "ab-admin-password"
STAGES = (30, 150, 300, 500, 700)


def _send(client: httpx.Client, url: str, pos: Position, side: str, cmd: dict[str, Any], seq: int,
          kind: str) -> tuple[bool, int]:
    if kind == "post":
        r = board_send(client, url, pos, side, board_form(cmd, seq, pos.pages.get(side, {})))
        ok = r.status_code == 200 and not refused(r.text)
        pos.pages[side] = pos.pages.get(side, {}) | map_parts(r.text)
        return ok, len(r.content)
    r = client.post(f"{url}/api/games/{pos.id}/commands", headers={"Authorization": f"Bearer {pos.tokens[side]}"},
                    json={**cmd, "expected_seq": seq})
    return r.status_code == 200, len(r.content)


def one_run(first: Path, second: Path, kind: str, rounds: int, positions: int) -> dict[tuple[str, int], list[Any]]:
    """Servers of ``first`` (0) and ``second`` (1), started in that order: per (game, server)
    the (ms, server CPU ms, answer bytes) of each command after the first round."""
    out: dict[tuple[str, int], list[Any]] = {}
    admin = (ADMIN_USER, ADMIN_PASSWORD)
    with fresh_postgres_database("ab0") as url0, fresh_postgres_database("ab1") as url1, \
            LiveServer(server_env(url0, ADMIN_PASSWORD), app_dir=first) as s0, \
            LiveServer(server_env(url1, ADMIN_PASSWORD), app_dir=second) as s1:
        servers = (s0, s1)
        client = httpx.Client(timeout=60)
        games: list[tuple[str, list[Copy]]] = []  # each position's copy on either server, its chooser alike
        for game in GAMES:
            for i in range(positions):
                played = play_whole(game, i)
                for stage in STAGES:
                    export = export_at(played, stage)
                    games.append((game, [Copy(import_position(client, s.url, export, admin, seats=kind == "post"),
                                              Chooser(f"ab:{game}:{i}:{stage}")) for s in servers]))
        for n in range(rounds):
            for k, (game, copies) in enumerate(games):
                for which in ((0, 1) if (n + k) % 2 == 0 else (1, 0)):
                    server, pos = servers[which], copies[which].pos
                    nxt = None if copies[which].done else next_command(client, server.url, copies[which])
                    if nxt is None:
                        continue
                    side, cmd, seq = nxt
                    if kind == "post" and side not in pos.pages:
                        page(client, server.url, pos, side, None)
                    pid = server.proc.pid if server.proc else 0
                    c0, t = cpu_ms(pid), time.perf_counter()
                    ok, size = _send(client, server.url, pos, side, cmd, seq, kind)
                    ms, cpu = (time.perf_counter() - t) * 1000, cpu_ms(pid) - c0
                    if not ok:
                        print(f"refused on server {which}: {cmd}", file=sys.stderr)
                    elif n > 0:  # (the first round warms each server up)
                        out.setdefault((game, which), []).append((ms, cpu, size))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", type=Path, help="a checkout of the version to compare with")
    ap.add_argument("--same", action="store_true", help="both servers this checkout's code (the bias alone)")
    ap.add_argument("--kind", choices=("json", "post"), default="json")
    ap.add_argument("--rounds", type=int, default=12, help="commands per position and server, each run")
    ap.add_argument("--positions", type=int, default=3, help="whole games cut at each stage, each game")
    args = ap.parse_args()
    base = ROOT if args.same else args.base
    if base is None:
        ap.error("--base or --same")
    t0 = time.perf_counter()
    a = one_run(base.resolve(), ROOT, args.kind, args.rounds, args.positions)  # base started first
    b = one_run(ROOT, base.resolve(), args.kind, args.rounds, args.positions)  # this one first
    print(f"{args.kind} commands; this checkout ({ROOT.name}) against {base} (r: this / base)")
    for game in GAMES:
        mine = a[(game, 1)] + b[(game, 0)]
        theirs = a[(game, 0)] + b[(game, 1)]
        for label, i in (("server CPU mean", 1), ("client p50", 0)):
            stat = statistics.mean if i == 1 else statistics.median
            ra = stat(x[i] for x in a[(game, 1)]) / stat(x[i] for x in a[(game, 0)])
            rb = stat(x[i] for x in b[(game, 0)]) / stat(x[i] for x in b[(game, 1)])
            print(f"  {game:16s} {label:16s} this {stat(x[i] for x in mine):6.3f} ms  base "
                  f"{stat(x[i] for x in theirs):6.3f} ms  r={math.sqrt(ra * rb):.3f}  "
                  f"bias={math.sqrt(ra / rb):.3f}  (n={len(mine)}/{len(theirs)})")
        if args.kind == "post":
            print(f"  {game:16s} answer bytes p50 this {statistics.median(x[2] for x in mine):.0f}"
                  f"  base {statistics.median(x[2] for x in theirs):.0f}")
    print(f"({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
