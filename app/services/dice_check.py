"""The "check the dice" page's work: every roll of a period whose seed is published, made
again from that seed and both players' entropy (engine/core/seeds.py), beside the value
the log holds.  A roll of a period still under way waits for its seed; a roll keyed to the
hidden chain waits for the game's end (its seed is published then), and is not shown before.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core import dice, seeds


@dataclass(frozen=True)
class Checked:
    seq: int
    text: str
    index: int
    sides: int
    value: int  # in the log
    made: int  # made again here

    @property
    def ok(self) -> bool:
        return self.value == self.made


@dataclass
class Period:
    chain: str
    period: int
    seed: str
    turn: int | None  # the game's turn its decisions started in
    rolls: list[Checked] = field(default_factory=list)


@dataclass
class Report:
    periods: list[Period]
    waiting: int  # rolls whose period's seed is not published yet

    @property
    def checked(self) -> int:
        return sum(len(p.rolls) for p in self.periods)

    @property
    def wrong(self) -> int:
        return sum(1 for p in self.periods for r in p.rolls if not r.ok)


def check(status: dict[str, Any], rows: list[Any]) -> Report:
    """``status``: ``dice_keys.status``; ``rows``: the event rows the viewer may read whole."""
    entropy = {side: v["entropy"] for side, v in status["sides"].items() if v["entropy"] is not None}
    published = {c: {int(p): seed for p, seed in status["published"][c].items()} for c in seeds.CHAINS}
    periods: dict[tuple[str, int], Period] = {}
    keys: dict[tuple[str, int], str] = {}
    waiting = 0
    for r in rows:
        got = getattr(r, "dice", None)
        if not got or not got.get("rolls"):
            continue
        chain, period = got["key"]
        at = periods.get((chain, period))
        if at is None:  # the period's seed and key, once
            seed = seeds.seed_for(period, published[chain]) if status["revealed"] else None
            if seed is None:
                waiting += len(got["rolls"]) if chain == seeds.OPEN else 0  # a hidden roll is not even counted
                continue
            at = periods[(chain, period)] = Period(chain, period, seed, got.get("turn"))
            keys[(chain, period)] = seeds.turn_key(seed, entropy)
        for n, index, sides, value in got["rolls"]:
            at.rolls.append(Checked(r.seq, r.text or r.type, index, sides, value,
                                    dice.roll(keys[(chain, period)], n, index, sides)))
    return Report(sorted(periods.values(), key=lambda p: (p.period, p.chain)), waiting)
