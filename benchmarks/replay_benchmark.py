"""Replay speed of a whole First Blood game, and the cost of listing moves and attacks.

    python benchmarks/replay_benchmark.py [--games 20 --seed 1] [--log game.json]

Plays ``--games`` random self-play games (or loads ``--log``), takes the
longest, and prints its number of events, the milliseconds for a full replay
from scratch (best of several runs) and the same per 1,000 events; then, in the
game's busiest movement position (most units able to move), the reachable hexes of
every unit and the legal-command list, and in its busiest combat position (most
§7 obligations) and in a made-up long front the legal-command list, each also as a
ratio to cloning the state.  The target is a whole game in
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
from engine.core.game import replay  # noqa: E402
from engine.games import get_rules  # noqa: E402
from engine.games.first_blood.phases.combat import obligations  # noqa: E402
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

    move_state, combat_state = busiest(rules, events)
    units = [u for u in movable_units(move_state, "US") + movable_units(move_state, "IJ")
             if rules.reachable(move_state, u)]
    clone_best, _ = best_ms(lambda: rules.clone(move_state), repeat=50)  # the floor: any decision clones
    best_r, median_r = best_ms(lambda: [rules.reachable(move_state, u) for u in units], repeat=10)
    hexes = sum(len(rules.reachable(move_state, u)) for u in units)
    print(f"busiest_movement: units={len(units)} hexes={hexes} reachable_all_ms_best={best_r:.2f} "
          f"median={median_r:.2f} per_unit_ms={best_r / max(1, len(units)):.2f} "
          f"ratio_per_unit_to_clone={best_r / max(1, len(units)) / clone_best:.1f}")
    best_l, median_l = best_ms(lambda: rules.legal_commands(move_state), repeat=10)
    print(f"busiest_movement: legal_ms_best={best_l:.2f} median={median_l:.2f} "
          f"commands={len(rules.legal_commands(move_state))} ratio_to_clone={best_l / clone_best:.1f}")
    if combat_state is not None:
        owed = obligations(combat_state, combat_state.phase[:2].upper())
        best_c, median_c = best_ms(lambda: rules.legal_commands(combat_state), repeat=10)
        print(f"busiest_combat: obligations={len(owed)} legal_ms_best={best_c:.2f} median={median_c:.2f} "
              f"commands={len(rules.legal_commands(combat_state))} ratio_to_clone={best_c / clone_best:.1f}")
    front = long_front()
    best_f, median_f = best_ms(lambda: rules.legal_commands(front), repeat=10)
    print(f"long_front: obligations={len(obligations(front, 'US'))} legal_ms_best={best_f:.2f} "
          f"median={median_f:.2f} ratio_to_clone={best_f / clone_best:.1f}")


def long_front() -> object:
    """A made-up front for the §7 planner: ten US stacks of three in row 07, columns
    04-13, facing ten IJ pairs in row 06 (57 mandatory-combat pairings, one front)."""
    from engine.games.first_blood.oob import load_oob
    from engine.games.first_blood.testing import position

    oob = load_oob()
    us = iter(u for u, s in oob.items() if s.side == "US" and s.kind == "ground")
    ij = iter(u for u, s in oob.items() if s.side == "IJ" and s.kind == "ground")
    units = {}
    for col in range(4, 14):
        units.update({next(us): f"07{col:02d}" for _ in range(3)})
        units.update({next(ij): f"06{col:02d}" for _ in range(2)})
    return position(units, phase="us_combat")


def busiest(rules, events):
    """The movement position with the most units able to move, and the combat position
    (no attack being declared) with the most mandatory-combat pairings (§7)."""
    state = rules.blank()
    move, move_n, fight, fight_n = None, -1, None, 0
    for e in events:
        rules.apply(state, e)
        if state.pending or state.result is not None:
            continue
        if state.phase.endswith("_movement"):
            n = len(movable_units(state, state.phase[:2].upper()))
            if n > move_n:
                move, move_n = rules.clone(state), n
        elif state.phase.endswith("_combat") and state.combat is None:
            n = len(obligations(state, state.phase[:2].upper()))
            if n > fight_n:
                fight, fight_n = rules.clone(state), n
    return move, fight


if __name__ == "__main__":
    main()
