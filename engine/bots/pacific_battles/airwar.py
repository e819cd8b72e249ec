"""The turn's air war modelled alone, for the secret air allocation (16.3): what a split of
the side's Reserve between air superiority and strikes is worth against the splits the
enemy may make, reckoned exactly over the dice in well under a millisecond a split.

Air superiority (16.51-16.52): both sides fire at once on the Air Superiority Table; a
side with fewer superiority points than the enemy fires them all at the enemy's
superiority, one with more fires as many as the enemy has at them and the excess at the
enemy's strikes.  An air point eliminated scores the enemy its VP (the Victory Point
Tables) and is gone for the rest of the game; a damaged one sits out a while (16.10).
Strikes (16.8): each surviving strike point bombs, in groups of at most the per-hex limit
(26.4), one of the enemy's stacks the side can see, on the Bombardment Table one column
left for terrain: an "E" costs the enemy a battalion (its VP to the striker), an "S"
suppresses, an "AA" damages one striking point.

What the enemy allocates is sealed: the model weighs each split against the enemy's
splits drawn from the mixed strategy greedy plays (``mixed_split``), on the enemy's
Reserve, which the view shows.  The model knows nothing the side may not: the tables are
public, the Reserves and the stacks are in the side's view.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from engine.bots.rng import Chooser
from engine.games.pacific_battles import tables
from engine.games.pacific_battles.victory import ELIMINATED

DIE = range(1, 7)
AIR_ASSET = 1.0  # an air point's use in the turns left, beside the VP its loss scores the enemy
DAMAGED = 0.4  # a damaged point sits out (16.10-16.11): a share of that use
SUPPRESSED = 0.3  # a stack suppressed for the turn (8.2), in VP
TERRAIN_SHIFT = 1  # most stacks are in terrain that shifts a strike left (the TEC)
ENEMY_SAMPLES = 48


def mixed_split(reserve: int, missions: Iterable[str], rng: Chooser) -> dict[str, int]:
    """Greedy's mixed strategy (``greedy.allocate``): a recon point now and then (18.2),
    interdiction some turns (16.6), then a drawn share of the rest to superiority and the
    remainder to strikes."""
    alloc = dict.fromkeys(missions, 0)
    left = reserve
    if left >= 3 and rng.unit() < 0.6:
        alloc["recon"] = 1
        left -= 1
    if left >= 6 and rng.unit() < 0.35:
        alloc["interdiction"] = 2
        left -= 2
    share = (0.25, 0.4, 0.5, 0.6)[min(3, int(rng.unit() * 4))]
    alloc["superiority"] = int(round(left * share))
    alloc["strike"] = left - alloc["superiority"]
    return alloc


@cache
def _fire(points: int) -> tuple[tuple[float, tuple[int, int]], ...]:
    """The (probability, (eliminations, damages)) of ``points`` superiority points' fire."""
    out: dict[tuple[int, int], float] = {}
    for die in DIE:
        hits = (0, 0)
        for e, d in [tables.air_superiority(p, die) for p in _groups(points, tables.AIR_SUPERIORITY_MAX)]:
            hits = (hits[0] + e, hits[1] + d)
        out[hits] = out.get(hits, 0.0) + 1 / 6
    return tuple((p, h) for h, p in out.items())


def _groups(points: int, size: int) -> list[int]:
    return [size] * (points // size) + ([points % size] if points % size else [])


def _taken(hits: tuple[int, int], points: int) -> tuple[int, int]:
    """Eliminations first, then damages, one per point; the rest is lost (16.52.3)."""
    e = min(hits[0], points)
    return e, min(hits[1], points - e)


@cache
def strike_worth(points: int, targets: int, battalion_vp: int) -> float:
    """What ``points`` strike points are worth against ``targets`` stacks, in VP."""
    worth = 0.0
    usable = min(points, targets * tables.AIR_STRIKE_LIMIT)
    for group in _groups(usable, tables.AIR_STRIKE_LIMIT):
        column = tables.strike_column(group, TERRAIN_SHIFT)
        for die in DIE:
            result = tables.strike(column, die)
            worth += {"E": battalion_vp + SUPPRESSED, "S": SUPPRESSED,
                      "AA": -(DAMAGED * AIR_ASSET)}.get(result, 0.0) / 6
    return worth


def exchange(side: str, enemy: str, mine: dict[str, int], theirs: dict[str, int],
             targets: tuple[int, int]) -> float:
    """The side's expected gain in VP from one turn's superiority and strikes, ``mine``
    against ``theirs`` (``targets``: the stacks each side can strike)."""
    m, t = mine.get("superiority", 0), theirs.get("superiority", 0)
    hit, their_strike = _fire_at(m, t, theirs.get("strike", 0), ELIMINATED[side]["air"])
    hurt, my_strike = _fire_at(t, m, mine.get("strike", 0), ELIMINATED[enemy]["air"])
    return (hit - hurt + _strikes(my_strike, targets[0], ELIMINATED[side]["battalion"])
            - _strikes(their_strike, targets[1], ELIMINATED[enemy]["battalion"]))


def _fire_at(firing: int, against: int, strikes: int, scored: int) -> tuple[float, float]:
    """One side's superiority fire at once (16.52): the worth in VP of what it hits
    (``scored``: the VP an enemy air point eliminated gives it), and the enemy's strike
    points left flying.  As many points as the enemy's superiority, or fewer, fire at
    it; the excess fires at its strikes."""
    worth, left = 0.0, float(strikes)
    for points, at, at_strikes in ((min(firing, against), against, False), (firing - against, strikes, True)):
        if points <= 0 or at <= 0:
            continue
        lost_e = lost_d = 0.0
        for p, hits in _fire(points):
            e, d = _taken(hits, at)
            lost_e += p * e
            lost_d += p * d
        worth += lost_e * (scored + AIR_ASSET) + lost_d * DAMAGED * AIR_ASSET
        if at_strikes:  # fewer strikes fly
            left = max(0.0, left - lost_e - lost_d)
    return worth, left


def _strikes(points: float, targets: int, battalion_vp: int) -> float:
    low = int(points)
    frac = points - low
    return (1 - frac) * strike_worth(low, targets, battalion_vp) + frac * strike_worth(low + 1, targets, battalion_vp)


def splits(drawn: dict[str, int]) -> list[dict[str, int]]:
    """``drawn``'s recon and interdiction kept (the strategy's mixed part), every split of
    the rest between superiority and strikes."""
    rest = drawn.get("superiority", 0) + drawn.get("strike", 0)
    return [{**drawn, "superiority": s, "strike": rest - s} for s in range(rest + 1)]


def worths(side: str, enemy: str, drawn: dict[str, int], enemy_reserve: int, targets: tuple[int, int],
           rng: Chooser) -> list[float]:
    """What each of ``splits(drawn)`` is worth, in VP, against the enemy's splits of its
    Reserve drawn from the mixed strategy (``rng``: the bot's own generator)."""
    theirs = [mixed_split(enemy_reserve, drawn, rng) for _ in range(ENEMY_SAMPLES)]
    return [sum(exchange(side, enemy, c, t, targets) for t in theirs) / len(theirs) for c in splits(drawn)]
