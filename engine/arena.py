"""Bots against bots: a benchmark of the levels, not a test.

    python -m engine.arena --game first_blood --a greedy --b random --pairs 50 --seed 1 [--seconds 0.3]
        [--b-seconds 1] [--jobs N] [--no-book a|b]

Each seed pair is one dice secret played twice, sides swapped, so luck and side
balance cancel out.  Each bot is given exactly what a player of its side receives
(its readable events, its view, its legal commands: engine/bots/base.py).  The last
line sums it up: a's score (a draw scores one half) with its 95% Wilson interval,
a's score on each side, and the time of a's decisions.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing import Pool
from typing import Any

from engine.bots import Bot, make_bot
from engine.bots.base import sub_seed
from engine.bots.seat import Seats
from engine.core.dice import derive_secret
from engine.core.events import Command
from engine.core.game import replay
from engine.games import get_rules

MAX_DECISIONS = 20_000


@dataclass
class Game:
    a_side: str
    winner: str | None = None
    error: str | None = None
    decisions_ms: list[float] = field(default_factory=list)  # a's
    decisions: int = 0


def play(game: str, a: str, b: str, a_side: str, seed: int, pair: int,
         seconds: float | None = None, b_seconds: float | None = None,
         bots_for: Callable[[str, str], Bot] | None = None) -> Game:
    """One game: bot level ``a`` plays ``a_side``, ``b`` the other side; a search's time per
    decision ``seconds``, b's ``b_seconds`` if given (one level against itself at two times);
    ``bots_for(side, level)`` makes the bots if given (``make_bot`` else)."""
    rules = get_rules(game)
    sides = rules.sides
    levels = {s: (a if s == a_side else b) for s in sides}
    bots = {s: bots_for(s, levels[s]) if bots_for else make_bot(game, levels[s]) for s in sides}
    out = Game(a_side)
    try:
        events = rules.create("campaign", {}, derive_secret(f"{seed}:{pair}", "arena"))
        state = replay(rules, events)
        seats = Seats(rules, events)
        for _ in range(MAX_DECISIONS):
            prompt = rules.prompt(state)
            if prompt.side is None:
                break
            side = prompt.side
            budget = seconds if side == a_side or b_seconds is None else b_seconds
            inp = seats.input_for(state, side, sub_seed(seed, pair, side, levels[side]), budget)
            if not inp.legal:
                out.error = f"dead end at event {state.seq}"
                break
            started = time.perf_counter()
            cmd = bots[side].decide(inp).command
            if side == a_side:
                out.decisions_ms.append((time.perf_counter() - started) * 1000)
            out.decisions += 1
            new = rules.decide(state, Command(cmd.type, cmd.data, side))
            for e in new:
                rules.apply(state, e)
            seats.hand_out(new)
        else:
            out.error = "too many decisions"
        winner = (state.result or {}).get("winner")
        out.winner = None if winner == "draw" else winner  # Pacific Battles names a draw (24.2)
    except Exception as exc:  # noqa: BLE001 - the benchmark reports every failure and goes on
        out.error = f"{type(exc).__name__}: {exc}"
    return out


def _play(args: tuple[Any, ...]) -> Game:
    *rest, no_book = args
    if not no_book:
        return play(*rest)
    game, _, _, a_side = rest[:4]  # (play's arguments: game, a, b, a_side, ...)
    without = a_side if no_book == "a" else next(s for s in get_rules(game).sides if s != a_side)

    def bots_for(side: str, level: str) -> Bot:  # that side's bot plays no set-up from a book
        return make_bot(game, level, {} if side == without else None)

    return play(*rest, bots_for=bots_for)


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)  # nearest rank
    return ordered[max(0, min(len(ordered), math.ceil(p / 100 * len(ordered))) - 1)]


def summary(game: str, a: str, b: str, games: list[Game]) -> str:
    sides = get_rules(game).sides
    n = len(games)
    a_wins = sum(1 for g in games if g.winner is not None and g.winner == g.a_side)
    draws = sum(1 for g in games if g.winner is None)
    b_wins = n - a_wins - draws
    score = (a_wins + draws / 2) / n if n else 0.0
    low, high = wilson(score, n)
    parts = [f"games={n}", f"a={a}", f"b={b}", f"a_score={score:.2f}", f"ci95={low:.2f}-{high:.2f}",
             f"a_wins={a_wins}", f"b_wins={b_wins}", f"draws={draws}"]
    for s in sides:
        mine = [g for g in games if g.a_side == s]
        got = sum(1.0 if g.winner == s else 0.5 if g.winner is None else 0.0 for g in mine)
        parts.append(f"a_score_as_{s}={got / len(mine):.2f}" if mine else f"a_score_as_{s}=-")
    ms = [m for g in games for m in g.decisions_ms]
    parts += [f"decision_ms_p50={percentile(ms, 50):.0f}", f"decision_ms_p95={percentile(ms, 95):.0f}",
              f"decision_ms_max={max(ms, default=0):.0f}"]
    return " ".join(parts)


def run(game: str, a: str, b: str, pairs: int, seed: int, seconds: float | None = None,
        jobs: int = 1, out: Any = None, b_seconds: float | None = None, no_book: str = "") -> list[Game]:
    out = out or sys.stdout
    sides = get_rules(game).sides
    tasks = [(game, a, b, side, seed, pair, seconds, b_seconds, no_book) for pair in range(pairs) for side in sides]
    started = time.perf_counter()
    if jobs > 1:
        with Pool(jobs) as pool:
            games = list(pool.imap(_play, tasks))
    else:
        games = [_play(t) for t in tasks]
    for i, g in enumerate(games):
        if g.error:
            print(f"game {i} (a as {g.a_side}): ERROR {g.error}", file=out)
    print(f"# {time.perf_counter() - started:.1f} s", file=out)
    print(summary(game, a, b, games), file=out)
    return games


def main(argv: list[str] | None = None) -> int:
    import os

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="first_blood")
    parser.add_argument("--a", default="greedy", help="the level measured")
    parser.add_argument("--b", default="random", help="its opponent")
    parser.add_argument("--pairs", type=int, default=10, help="seed pairs (each played with sides swapped)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=None, help="a search's time per decision")
    parser.add_argument("--b-seconds", type=float, default=None, help="b's time per decision, if not --seconds")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--no-book", choices=("a", "b"), default="",
                        help="that bot sets up by itself, without its set-up book (First Blood)")
    args = parser.parse_args(argv)
    games = run(args.game, args.a, args.b, args.pairs, args.seed, args.seconds, args.jobs, b_seconds=args.b_seconds,
                no_book=args.no_book)
    return 1 if any(g.error for g in games) else 0


if __name__ == "__main__":
    raise SystemExit(main())
