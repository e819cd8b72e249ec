"""The dice of a game's log, for a referee: every roll its events record, with the inputs
that gave it, and whether each side's rolls fit a fair die (Pearson's chi-square).

The games record a roll under the key ``die`` (one) or ``dice`` (several), anywhere in an
event's data; each roll is ``engine.core.dice.roll(secret, event number, index)`` of the
event number at which it was rolled (the next event to be written then), which is why a
roll is looked for at its own event's number and a few before it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine.core import dice

FACES = 6
LOOK_BACK = 4  # events: a decision may write a few events between a roll and the one recording it
MAX_INDEX = 24  # dice per event looked at


@dataclass(frozen=True)
class Roll:
    value: int
    event_no: int | None  # the inputs found: roll(secret, event_no, index) == value
    index: int | None


def recorded(data: Any) -> Iterator[int]:
    """Every die value an event's data records, in order."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "die" and isinstance(value, int) and not isinstance(value, bool):
                yield value
            elif key == "dice" and isinstance(value, list):
                yield from (v for v in value if isinstance(v, int) and not isinstance(v, bool))
            else:
                yield from recorded(value)
    elif isinstance(data, list):
        for item in data:
            yield from recorded(item)


def rolls(secret: str, seq: int, data: dict[str, Any]) -> list[Roll]:
    """The rolls event ``seq`` records, each with the inputs that give it (None when none
    of the places looked at does: a die the rules set rather than rolled)."""
    out, used = [], set()
    for value in recorded(data):
        found = next(((n, i) for n in range(seq, max(-1, seq - LOOK_BACK), -1) for i in range(MAX_INDEX)
                      if (n, i) not in used and dice.roll(secret, n, i) == value), None)
        if found is not None:
            used.add(found)
        out.append(Roll(value, *found) if found else Roll(value, None, None))
    return out


@dataclass(frozen=True)
class Fit:
    """How one side's rolls spread over the faces, against a fair die's."""
    counts: list[int]  # of faces 1..6
    expected: float  # per face
    chi2: float
    p_value: float | None  # None: too few rolls to say (fewer than 5 expected per face)

    @property
    def total(self) -> int:
        return sum(self.counts)


def fit(values: list[int]) -> Fit:
    counts = [sum(1 for v in values if v == face) for face in range(1, FACES + 1)]
    n = sum(counts)
    expected = n / FACES
    if n == 0:
        return Fit(counts, 0.0, 0.0, None)
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    return Fit(counts, expected, chi2, chi2_p_value(chi2, FACES - 1) if expected >= 5 else None)


def chi2_p_value(chi2: float, dof: int) -> float:
    """P(X >= chi2) for X chi-square with ``dof`` degrees of freedom: Q(dof/2, chi2/2)."""
    return upper_gamma_q(dof / 2, chi2 / 2)


def upper_gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a): by its
    series below a + 1, by its continued fraction (modified Lentz) above."""
    if x <= 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:  # P(a, x) by the series, Q = 1 - P
        term = total = 1.0 / a
        k = a
        for _ in range(1000):
            k += 1
            term *= x / k
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)
