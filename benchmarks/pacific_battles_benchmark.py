"""Pacific Battles: replay of the longest historical-scenario game and legal commands in
the busiest position, against their goals (20 ms and 5 ms) and a floor measured in the
same run (cloning the state).

    python benchmarks/pacific_battles_benchmark.py [--games 10 --seed 1]

Plays ``--games`` random self-play games of the historical scenario (seven turns), takes
the longest log, and prints its events, the best of ten full replays from scratch, and,
over every position of that game, the slowest legal-command list (best of five), each
with its ratio to the goal and to one state clone.  A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from replay_benchmark import best_ms  # noqa: E402

from engine.core.game import replay  # noqa: E402
from engine.games import get_rules  # noqa: E402
from engine.selfplay import run  # noqa: E402

REPLAY_GOAL_MS = 20.0
LEGAL_GOAL_MS = 5.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = get_rules("pacific_battles")
    events = run("pacific_battles", args.games, args.seed, out=io.StringIO(), keep_longest=True,
                 check_leaks=False)["longest"]
    best, median = best_ms(lambda: replay(rules, events), repeat=10)
    state = replay(rules, events)
    floor, _ = best_ms(lambda: rules.clone(state), repeat=50)
    print(f"events={len(events)} clone_ms={floor:.3f}")
    print(f"replay_ms_best={best:.1f} replay_ms_median={median:.1f} goal_ms={REPLAY_GOAL_MS:.0f} "
          f"ratio_to_goal={best / REPLAY_GOAL_MS:.2f} ratio_to_clone={best / floor:.0f}")
    worst = (0.0, "", 0)
    scratch = rules.blank()
    for e in events:
        rules.apply(scratch, e)
        if scratch.result is not None:
            break
        t = time.perf_counter()
        n = len(rules.legal_commands(scratch))
        ms = (time.perf_counter() - t) * 1000
        if ms > worst[0]:
            worst = (ms, scratch.phase, scratch.seq)
            busiest = rules.clone(scratch)
            size = n
    legal_best, legal_median = best_ms(lambda: rules.legal_commands(busiest), repeat=5)
    print(f"busiest position: event {worst[2]}, {worst[1]}, {size} legal commands")
    print(f"legal_ms_best={legal_best:.2f} legal_ms_median={legal_median:.2f} goal_ms={LEGAL_GOAL_MS:.0f} "
          f"ratio_to_goal={legal_best / LEGAL_GOAL_MS:.2f} ratio_to_clone={legal_best / floor:.0f}")


if __name__ == "__main__":
    main()
