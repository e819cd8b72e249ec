"""Replay speed of a whole First Blood game, and the cost of one reachability query.

    python benchmarks/replay_benchmark.py [--games 20 --seed 1] [--log game.json]

Plays ``--games`` random self-play games (or loads ``--log``), takes the
longest, and prints its number of events, the milliseconds for a full replay
from scratch (best of several runs), the same per 1,000 events, and the
milliseconds to list one unit's reachable hexes.  The target is a whole game in
under 100 ms; the ratio to that target is printed too.  A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.events import Event  # noqa: E402
from engine.core.game import get_rules, replay  # noqa: E402
from engine.games.first_blood.phases.movement import movable_units  # noqa: E402
from engine.selfplay import run  # noqa: E402

TARGET_MS = 100.0


def best_ms(fn, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return min(times), statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log", help="a JSON list of events (as written by selfplay --save-longest)")
    args = parser.parse_args()
    rules = get_rules("first_blood")
    if args.log:
        events = [Event.from_json(o) for o in json.loads(Path(args.log).read_text())]
    else:
        events = run("first_blood", args.games, args.seed, out=io.StringIO(), keep_longest=True)["longest"]

    best, median = best_ms(lambda: replay(rules, events), repeat=10)
    print(f"events={len(events)}")
    print(f"replay_ms_best={best:.1f} replay_ms_median={median:.1f} "
          f"ms_per_1000_events={1000 * best / len(events):.2f} ratio_to_100ms_target={best / TARGET_MS:.2f}")

    # one reachability query in a busy mid-game position: halfway through the log
    mid = replay(rules, events[: len(events) // 2])
    units = movable_units(mid, "US") + movable_units(mid, "IJ")
    if not units:  # not in a movement phase: give every ground unit its MF back to measure
        for u in mid.units.values():
            u.mf_left, u.stopped = 8, False
        units = [u for u in mid.units if mid.units[u].loc[:1].isdigit()]
    uid = units[0]
    best_r, median_r = best_ms(lambda: rules.reachable(mid, uid), repeat=50)
    print(f"reachable_ms_best={best_r:.2f} reachable_ms_median={median_r:.2f} "
          f"hexes={len(rules.reachable(mid, uid))} unit={uid}")


if __name__ == "__main__":
    main()
