"""Air superiority (16.5), interdiction (16.6) and strikes (16.8) as pure procedures:
the dice come in, the losses go out, every choice the rules leave to a player is an
argument.  The game's decide will ask the players and roll."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.core.errors import IllegalCommandError
from engine.games.pacific_battles import tables

MISSIONS = ("superiority", "interdiction", "recon", "strike", "supply", "support")  # support: 31.0


def allocation_space(reserve: int, missions: Iterable[str], optional: Iterable[str] = ()) -> dict[str, object]:
    """Every allocation ``check_allocation`` accepts, as a JSON Schema a client can build
    commands from (too many to list: any split of the Reserve): each mission a whole number
    of points, interdiction 0, 2, 4 or 6 (26.5), and together no more than the Reserve
    (``x-sum-at-most``, which JSON Schema cannot say; 16.2).  ``optional``: fields that may be
    left out (0)."""
    missions = tuple(missions)
    props: dict[str, object] = {}
    for m in missions:
        if m == "interdiction":
            props[m] = {"type": "integer", "enum": [0, *(p for p in tables.INTERDICTION_POINTS if p <= reserve)]}
        else:
            props[m] = {"type": "integer", "minimum": 0, "maximum": reserve}
    return {"type": "object", "properties": props, "additionalProperties": False,
            "required": [m for m in missions if m not in set(optional)],
            "x-sum-at-most": {"fields": [m for m in missions if m != "supply"], "value": reserve, "rule": "16.2"}}


def check_allocation(reserve: int, allocation: dict[str, int], air_supply: int = 0) -> None:
    """16.31 and 4.1 1c: a side's sealed air allocation for the turn.  Every point from the
    Reserve flies at most one mission (16.2); interdiction takes 0, 2, 4 or 6 points (26.5);
    only air supply markers fly air supply (16.9); what is not allocated stays in Reserve."""
    unknown = set(allocation) - set(MISSIONS)
    if unknown:
        raise IllegalCommandError("16.31", f"no such air mission: {', '.join(sorted(unknown))}")
    if any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in allocation.values()):
        raise IllegalCommandError("16.31", "air points are whole numbers, none below zero")
    flying = sum(v for m, v in allocation.items() if m != "supply")
    if flying > reserve:
        raise IllegalCommandError("16.2", f"{flying} air points allocated, {reserve} in the Reserve")
    if allocation.get("interdiction", 0) not in (0, *tables.INTERDICTION_POINTS):
        raise IllegalCommandError("26.5", "interdiction takes two, four or six air points")
    if allocation.get("supply", 0) > air_supply:
        raise IllegalCommandError("16.9", f"only air supply markers fly air supply ({air_supply} in play)")


def check_targets(mine: int, theirs: int, at_others: int) -> None:
    """16.52: with no more superiority points than the enemy, all fire at the enemy's
    superiority; with more, any of the excess (and only the excess) may fire at the
    enemy's other missions."""
    if at_others < 0 or at_others > mine:
        raise IllegalCommandError("16.52", f"{at_others} of {mine} air superiority points cannot fire elsewhere")
    if at_others and mine <= theirs:
        raise IllegalCommandError("16.52", f"{mine} air superiority points against {theirs}: every one must fire "
                                           "at the enemy's air superiority")
    if at_others and at_others > mine - theirs:
        raise IllegalCommandError("16.52", f"only the excess over the enemy's {theirs} points, {mine - theirs}, "
                                           "may fire at other missions")


@dataclass(frozen=True)
class Losses:
    eliminated: int
    damaged: int
    wasted: int  # results with no air point left to take them (16.52.3)


def take(eliminations: int, damages: int, points: int) -> Losses:
    """Results on ``points`` air points: eliminations first, then damages, one result per
    point at most (30.0); what is left over is lost, never passed to other missions."""
    e = min(eliminations, points)
    d = min(damages, points - e)
    return Losses(e, d, eliminations - e + damages - d)


def take_from_missions(eliminations: int, damages: int, missions: dict[str, int],
                       choice: Iterable[tuple[str, str]]) -> dict[str, Losses]:
    """16.52.2: the firing player picks, result by result, the mission that takes it
    (``choice``: (mission, "E" or "D") in order); every result must land while a targeted
    mission has a point left."""
    left = dict(missions)
    out = {m: [0, 0] for m in missions}
    want = {"E": eliminations, "D": damages}
    for mission, kind in choice:
        if mission not in left or left[mission] <= 0:
            raise IllegalCommandError("16.52", f"no air point of the {mission} mission is left to take a loss")
        if want.get(kind, 0) <= 0:
            raise IllegalCommandError("16.52", f"no {'elimination' if kind == 'E' else 'damage'} left to apply")
        want[kind] -= 1
        left[mission] -= 1
        out[mission][0 if kind == "E" else 1] += 1
    if (want["E"] or want["D"]) and any(v > 0 for v in left.values()):
        raise IllegalCommandError("16.52", "every result must be taken while the targeted missions have points")
    return {m: Losses(e, d, 0) for m, (e, d) in out.items() if e or d}


def superiority_fire(points: int, die: int) -> list[tuple[int, int]]:
    """16.51 and 30.0: the (eliminations, damages) of each combat a superiority force fires:
    up to eight points as one, the excess above eight as a separate one."""
    fires = [min(points, tables.AIR_SUPERIORITY_MAX)]
    if points > tables.AIR_SUPERIORITY_MAX:
        fires.append(points - tables.AIR_SUPERIORITY_MAX)
    return [tables.air_superiority(p, die) for p in fires if p > 0]


def interdict(points: int, dice: Iterable[int]) -> list[tuple[int, str]]:
    """16.61-16.62 for the reinforcements attacked in turn (one die each): the column each
    was rolled on and its result.  Each AA result damages one interdicting air point for
    the next roll; when none is left the interdiction ends."""
    out = []
    for die in dice:
        if tables.interdiction_column(points) is None:
            break
        result = tables.interdiction(points, die)
        out.append((points, result))
        if result == "AA":
            points -= 1
    return out


def strike(points: int, terrain_shift: int, die: int, extra_shift: int = 0) -> tuple[str, str]:
    """16.81: (the column, the result) of a bombardment of one hex; an "AA" result is
    applied after the bombardment, to one air unit only (16.84)."""
    column = tables.strike_column(points, terrain_shift, extra_shift)
    return column, tables.strike(column, die)
