"""What checking a game's whole record costs (docs/fair-dice.md; the admin's verify, a
player's record check): a random game of each game recorded as a server records it (seed
chains of the server's 1,024 periods, both players' entropy, the seeds published), its
record file checked whole (``engine.record.check.verify_record``: the hash chain, every
published seed against its chain, every listed die, and the rules replaying every
decision), against a floor in the same run: the rules replaying the same events alone.
Best of ``--repeat`` runs each.  A benchmark, not a test::

    python benchmarks/record_verify.py [--seed 3] [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.events import Event  # noqa: E402
from engine.core.game import replay  # noqa: E402
from engine.games import get_rules  # noqa: E402
from engine.record import play as recorded  # noqa: E402
from engine.record.book import ADMIN  # noqa: E402
from engine.record.check import verify_record  # noqa: E402

SERVER_PERIODS = 1024  # app/services/dice_keys.py: a chain's periods in a game made on the server


def best(repeat: int, work: Callable[..., object], *args: object) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        work(*args)
        times.append(time.perf_counter() - started)
    return min(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    recorded.PERIODS = SERVER_PERIODS
    print(f"{'game':<16} {'events':>7} {'entries':>8} {'replay ms':>10} {'verify ms':>10} {'x replay':>9}")
    for game in ("first_blood", "pacific_battles"):
        book, _ = recorded.play(game, seed=args.seed)
        doc = book.export(ADMIN)
        verdict = verify_record(doc)
        if not verdict.ok:
            print(f"{game}: the record does not verify: {verdict.message}")
            return 1
        events = [Event.from_json(item["entry"]["event"]) for item in doc["entries"]
                  if "entry" in item and item["entry"].get("kind") == "event"]
        rules = get_rules(game)
        floor = best(args.repeat, replay, rules, events)
        whole = best(args.repeat, verify_record, doc)
        print(f"{game:<16} {len(events):>7} {len(doc['entries']):>8} {floor * 1e3:>10.1f} {whole * 1e3:>10.1f} "
              f"{whole / floor:>8.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
