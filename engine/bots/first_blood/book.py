"""The set-up book: whole First Blood set-ups made and ranked offline, for the bots' set-ups (§3).

A set-up is a choice among thousands: the US places 25 units on some 90 hexes each, the
IJ sends each of its at-start units to box A or D.  Greedy places one unit at a time by
its evaluation, which cannot see what a whole set-up does over the turns after it.  The
book holds set-ups drawn from greedy's few best places for each unit (with a generator
of the book's own; the first is greedy's own set-up), each played out in whole games by
the bots and ranked by how the side did.

A bot in its set-up phase (``greedy`` and ``search``) draws one of the book's best set-ups
for the game, by its own seed (so the opponent cannot count on one), and plays it a
placement at a time; a placement the position does not allow (another scenario's units,
a hex taken) is left to greedy, and so is everything after the set-up ("adjusted").

    python -m engine.bots.first_blood.book --sides IJ --candidates 24 --games 4 --seed 1 --jobs 2
    python -m engine.bots.first_blood.book --sides US --level search --candidates 12 --games 4 --jobs 2

writes the sides' set-ups into ``setup_book.json`` beside this file (keeping the other
side's), with how they were made and each set-up's record.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from engine.bots.base import BotInput, choices, sub_seed
from engine.bots.rng import Chooser
from engine.core.events import Command

BOOK = Path(__file__).with_name("setup_book.json")
DRAWN_FROM = 3  # a game's set-up is drawn from the book's best few
SETUP = {"US": "us_setup", "IJ": "ij_setup"}
SCENARIO = "campaign"


@dataclass(frozen=True)
class SetUp:
    side: str
    placements: tuple[tuple[str, str], ...]  # (unit, hex or box), in the order they are placed
    score: float = 0.0  # the side's score in its games (a draw one half)
    games: int = 0


@cache
def load(path: Path = BOOK) -> dict[str, tuple[SetUp, ...]]:
    """The book's set-ups by side, best first (none for a side the book lacks)."""
    if not path.exists():
        return {}
    data = json.loads(path.read_text())
    sides = data.get("sides", {})
    return {side: tuple(SetUp(side, tuple(s["placements"].items()), s["score"], s["games"])
                        for s in sides.get(side, {}).get("setups", []))
            for side in SETUP}


def drawn(inp: BotInput, book: dict[str, tuple[SetUp, ...]]) -> SetUp | None:
    """The set-up this bot plays this game: one of the book's best few, by its seed."""
    setups = book.get(inp.side, ())[:DRAWN_FROM]
    return Chooser(sub_seed(inp.seed, "set-up book")).pick(list(setups)) if setups else None


def placement(inp: BotInput, legal: list[Command], book: dict[str, tuple[SetUp, ...]]) -> Command | None:
    """The book's next placement in the bot's set-up phase, if the position allows it:
    the first unit of the set-up's order still to be placed whose place is legal."""
    if inp.view.get("phase") != SETUP.get(inp.side):
        return None
    setup = drawn(inp, book)
    if setup is None:
        return None
    places = {(c.data["unit"], c.data["to"]): c for c in legal if c.type == "place"}
    for unit_hex in setup.placements:
        if unit_hex in places:
            return places[unit_hex]
    return None


# --- making the book (offline) ------------------------------------------------------------

def candidate(side: str, seed: str, noise: bool) -> SetUp:
    """A set-up for ``side`` as greedy makes it, each unit placed at one of greedy's few
    best places for it (``noise``; else always its best) by a generator of ``seed``: the
    game made and the sides set up in turn by greedy (the other side's set-up matters to
    the IJ, who sets up second)."""
    from engine.bots.first_blood.greedy import ranked
    from engine.core.game import replay
    from engine.games import get_rules

    rules = get_rules("first_blood")
    state = replay(rules, rules.create(SCENARIO, {}, sub_seed(seed, "dice")))
    rng = Chooser(sub_seed(seed, "places"))
    mine: list[tuple[str, str]] = []
    while state.phase in SETUP.values():
        acting = rules.prompt(state).side
        legal = choices(rules.legal_commands(state, acting))
        if acting == side:
            options = ranked(state, side, legal, 3 if noise else 1)
            cmd = options[0] if len(options) == 1 or rng.unit() < 0.5 else rng.pick(options[1:])
        else:
            cmd = ranked(state, acting, legal)[0]
        if cmd.type == "place" and acting == side:
            mine.append((cmd.data["unit"], cmd.data["to"]))
        for e in rules.decide(state, Command(cmd.type, cmd.data, acting)):
            rules.apply(state, e)
    return SetUp(side, tuple(mine))


def _scored(args: tuple[SetUp, str, float, int, int, int]) -> tuple[int, float, int]:
    """Play ``setup``'s side with it against the same level with greedy's set-up, in
    ``games`` games from the ``first``-th (each game's dice the same for every set-up)."""
    from engine.arena import play
    from engine.bots import Bot, make_bot

    setup, level, seconds, index, first, games = args
    only = {setup.side: (setup,)}

    def bots_for(side: str, lvl: str) -> Bot:
        return make_bot("first_blood", lvl, only if side == setup.side else {})

    score = 0.0
    for g in range(first, first + games):
        game = play("first_blood", level, level, setup.side, g + 1, 1_000 + g, seconds, bots_for=bots_for)
        score += 1.0 if game.winner == setup.side else 0.5 if game.winner is None else 0.0
    return index, score, games


def _play_all(tasks: list[tuple[SetUp, str, float, int, int, int]], jobs: int) -> list[tuple[int, float, int]]:
    if jobs > 1:
        with Pool(jobs) as pool:
            return list(pool.imap_unordered(_scored, tasks))
    return [_scored(t) for t in tasks]


def make(side: str, candidates: int, games: int, seed: int, level: str, seconds: float, jobs: int,
         out: Any = sys.stdout) -> dict[str, Any]:
    """``candidates`` set-ups for ``side`` (the first greedy's own), each played ``games``
    times; then the best third and greedy's own ``3 * games`` times more (every set-up on the
    same dice): ranked by their score over all their games (greedy's first among equals)."""
    started = time.perf_counter()
    setups = list(dict.fromkeys(candidate(side, f"{seed}:{side}:{i}", noise=i > 0) for i in range(candidates)))
    totals = {i: [0.0, 0] for i in range(len(setups))}
    for i, score, n in _play_all([(s, level, seconds, i, 0, games) for i, s in enumerate(setups)], jobs):
        totals[i] = [score, n]
    best = sorted(totals, key=lambda i: (-totals[i][0], i))[:max(1, len(setups) // 3)]
    again = sorted(set(best) | {0})
    for i, score, n in _play_all([(setups[i], level, seconds, i, games, 3 * games) for i in again], jobs):
        totals[i][0] += score
        totals[i][1] += n
    order = sorted(again, key=lambda i: (-totals[i][0] / totals[i][1], i))
    print(f"{side}: {len(setups)} set-ups; the best {len(again)} after {4 * games} games: "
          + ", ".join(f"{totals[i][0] / totals[i][1]:.2f}{' (greedy)' if i == 0 else ''}" for i in order), file=out)
    return {"how": {"candidates": candidates, "games": games, "seed": seed, "level": level,
                    **({"seconds": seconds} if level == "search" else {}),
                    "opponent": f"{level} with greedy's set-up", "made": datetime.now(UTC).strftime("%Y-%m-%d"),
                    "minutes": round((time.perf_counter() - started) / 60, 1)},
            "setups": [{"score": round(totals[i][0] / totals[i][1], 3), "games": totals[i][1], "greedy": i == 0,
                        "placements": dict(setups[i].placements)} for i in order]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Make First Blood's set-up book.")
    parser.add_argument("--candidates", type=int, default=24)
    parser.add_argument("--games", type=int, default=4, help="games played with each set-up (the best: 4x)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="greedy", help="the level both sides play after the set-up")
    parser.add_argument("--seconds", type=float, default=0.05, help="a search's time per decision")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--sides", default="US,IJ", help="the sides made again (the others' are kept)")
    parser.add_argument("--out", type=Path, default=BOOK)
    args = parser.parse_args(argv)
    book = json.loads(args.out.read_text()) if args.out.exists() else {}
    book["about"] = ("First Blood set-ups made by greedy with noise and ranked by whole games of the bots "
                     "(engine/bots/first_blood/book.py), each side's best first, with how they were made")
    for side in args.sides.split(","):
        book.setdefault("sides", {})[side] = make(side, args.candidates, args.games, args.seed, args.level,
                                                  args.seconds, args.jobs)
        args.out.write_text(json.dumps(book, indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
