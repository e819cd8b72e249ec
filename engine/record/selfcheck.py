"""Records of many self-played games, each checked as a player would check it, and each
spoiled once to see the checker name the spoiled entry (issue 36's measurement):

    python -m engine.record.selfcheck --games 200 [--game first_blood] [--workers 2]

For each seed and game: a whole game (``engine.record.play``, every option of the game on)
and one stopped at a random point of a turn; from each, the export of every side and of the
admin.  Every export must verify; then one byte of one entry (a digit for another digit, a
letter for another letter, where the file stays JSON) is changed, and the checker must fail
naming that entry.  One line per game kind, then one verdict line; exit status 0 only when
every check held.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from engine.games import get_rules
from engine.record.book import ADMIN
from engine.record.check import verify_record
from engine.record.play import play

GAMES = ("first_blood", "pacific_battles")


def all_options(game: str) -> dict[str, Any]:
    """Every optional rule of ``game`` on."""
    return dict.fromkeys(getattr(get_rules(game), "options", {}) or {}, True)


def other(c: str) -> str | None:
    """The byte a spoiler puts for ``c``: a digit for another digit, a lowercase letter for
    another letter (None: a character left alone)."""
    if c.isdigit():
        return str((int(c) + 1) % 10)
    if c.isascii() and c.islower():
        return chr((ord(c) - 97 + 1) % 26 + 97)
    return None


def spoil(doc: dict[str, Any], salt: str) -> tuple[dict[str, Any], int] | None:
    """``doc`` with one byte of one entry changed (a place chosen by ``salt``), and that
    entry's number; None when no place tried keeps the file JSON."""
    items = doc["entries"]
    for attempt in range(200):
        h = int(hashlib.sha256(f"{salt}:{attempt}".encode()).hexdigest(), 16)
        k = h % len(items)
        line = json.dumps(items[k])
        at = (h >> 32) % len(line)
        new = other(line[at])
        if new is None:
            continue
        try:
            item = json.loads(line[:at] + new + line[at + 1:])
        except json.JSONDecodeError:
            continue
        if item == items[k]:
            continue
        return {**doc, "entries": [*items[:k], item, *items[k + 1:]]}, k
    return None


def check_seed(game: str, seed: int) -> dict[str, Any]:
    """Both records of one seed, every viewer's export, each verified and spoiled once."""
    out = {"game": game, "seed": seed, "exports": 0, "spoiled": 0, "failures": []}
    options = all_options(game)
    stop = 150 + int(hashlib.sha256(f"{game}:{seed}".encode()).hexdigest(), 16) % 600
    for label, stop_after in (("finished", None), ("under way", stop)):
        book, state = play(game, seed, options, stop_after=stop_after, chat_every=40)
        if stop_after is None and state.result is None:
            out["failures"].append(f"{game} seed {seed}: the game did not end")
        for viewer in (ADMIN, *book.sides):
            doc = book.export(viewer)
            verdict = verify_record(doc, book.head)
            out["exports"] += 1
            if not verdict.ok:
                out["failures"].append(f"{game} seed {seed} {label} as {viewer}: {verdict.message}")
                continue
            spoiled = spoil(doc, f"{game}:{seed}:{label}:{viewer}")
            if spoiled is None:
                continue
            bad, k = spoiled
            found = verify_record(bad)
            out["spoiled"] += 1
            if found.ok or found.bad_seq != k:
                out["failures"].append(f"{game} seed {seed} {label} as {viewer}: entry {k} changed, the checker "
                                       f"says {found.message}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.record.selfcheck", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="seeds per game kind")
    parser.add_argument("--game", action="append", choices=GAMES, help="a game kind (default: both)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--first-seed", type=int, default=1)
    args = parser.parse_args(argv)
    kinds = args.game or list(GAMES)
    started = time.perf_counter()
    jobs = [(g, s) for g in kinds for s in range(args.first_seed, args.first_seed + args.games)]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        results = list(pool.map(check_seed, *zip(*jobs, strict=True)))
    failures = [f for r in results for f in r["failures"]]
    for g in kinds:
        mine = [r for r in results if r["game"] == g]
        print(f"{g}: {len(mine)} finished + {len(mine)} under way, {sum(r['exports'] for r in mine)} exports "
              f"verified, {sum(r['spoiled'] for r in mine)} spoiled and named")
    for f in failures[:20]:
        print(f"FAIL: {f}")
    print(f"{'OK' if not failures else 'FAIL'}: {len(results) * 2} records, {len(failures)} failures, "
          f"{time.perf_counter() - started:.0f} s")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
