"""What counting a command against its seat's rate limit costs (``app/ratelimit.py``): the
``limits`` library's memory storage as it comes, against ours, which sweeps its expired
entries inline once a second instead of starting a timer thread.  Hits spaced as a worker's
commands are (more than 10 ms apart, the library's timer), on 20 seats; for each, the time
the caller waits (on the server, the event loop) and the process's CPU, the timer threads'
included (``time.process_time`` counts threads that have ended; the per-request CPU of
``action_latency.py`` reads the live threads only, and cannot see them).  A benchmark, not
a test::

    python benchmarks/rate_limit_cost.py [--hits 300]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from limits import parse  # noqa: E402
from limits.storage import storage_from_string  # noqa: E402
from limits.strategies import MovingWindowRateLimiter  # noqa: E402

from app.ratelimit import QuietMemoryStorage  # noqa: E402

GAP = 0.012  # seconds between two commands of a worker (the library's timer lasts 0.01)


def measure(limiter: MovingWindowRateLimiter, hits: int) -> tuple[float, float]:
    """(median µs the caller waits, mean µs of the process's CPU) per hit."""
    item = parse("300/minute")
    waits, cpu = [], 0.0
    for i in range(hits):
        time.sleep(GAP)
        c0, w0 = time.process_time(), time.perf_counter()
        limiter.hit(item, "commands", f"game-{i % 20}:side")
        waits.append(time.perf_counter() - w0)
        time.sleep(GAP)  # a timer thread it started runs and ends meanwhile: its CPU counts
        cpu += time.process_time() - c0
    return statistics.median(waits) * 1e6, cpu / hits * 1e6


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hits", type=int, default=300)
    args = ap.parse_args(argv)
    floor = measure(MovingWindowRateLimiter(storage_from_string("memory://")), args.hits)
    ours = measure(MovingWindowRateLimiter(QuietMemoryStorage()), args.hits)
    print(f"{'storage':<28} {'wait p50 us':>12} {'CPU us':>8}")
    print(f"{'limits memory:// (floor)':<28} {floor[0]:>12.0f} {floor[1]:>8.0f}")
    print(f"{'QuietMemoryStorage':<28} {ours[0]:>12.0f} {ours[1]:>8.0f}")
    print(f"ours x the library's: wait {ours[0] / floor[0]:.2f}x, CPU {ours[1] / floor[1]:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
