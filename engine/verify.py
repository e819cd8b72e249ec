"""Check a game's record file: ``python -m engine.verify FILE [--head HASH]``.

Prints one verdict line: ``OK: ...`` (what was checked: the chain, the entropy, the
published seeds, every roll whose seed is published, and the whole game replayed by the
rules when the file holds every event and every seed), or ``FAIL: entry K (...): why``,
naming the first wrong entry.  The exit status is 0 only when the file verifies (1: it
does not, 2: it cannot be read).  docs/fair-dice.md explains what each check means.
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.record.check import verify_record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.verify", description=__doc__.split("\n\n")[0])
    parser.add_argument("file", help="a record file (JSON), or - for standard input")
    parser.add_argument("--head", help="the last hash of the record, as seen elsewhere: the file must end with it")
    args = parser.parse_args(argv)
    try:
        if args.file == "-":
            doc = json.load(sys.stdin)
        else:
            with open(args.file, encoding="utf-8") as f:
                doc = json.load(f)
    except (OSError, ValueError) as exc:
        print(f"FAIL: the file cannot be read as JSON: {exc}")
        return 2
    verdict = verify_record(doc, args.head)
    print(verdict.message)
    return 0 if verdict.ok else 1


if __name__ == "__main__":
    sys.exit(main())
