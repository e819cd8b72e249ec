"""Read-only questions about a state: who is where, whose ZOC covers what."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from engine.games.first_blood.board import Board, load_board
from engine.games.first_blood.oob import UnitSpec, load_oob
from engine.games.first_blood.state import (
    BOX_PREFIX,
    ENTRY_PREFIX,
    STRIP_PREFIX,
    FBState,
    is_map_hex,
)

SIDES = ("US", "IJ")
STACK_LIMIT = 3  # §6.4: ground units per map hex


def board() -> Board:
    return load_board()


def specs() -> dict[str, UnitSpec]:
    return load_oob()


def spec(uid: str) -> UnitSpec:
    return load_oob()[uid]


def other(side: str) -> str:
    return "IJ" if side == "US" else "US"


def label(uid: str) -> str:
    s = load_oob()[uid]
    return f"{s.side} {s.name}"


def ground_on_map(state: FBState, side: str | None = None) -> list[str]:
    """The ground units on map hexes (of ``side``), in the state's order (read only)."""
    return state.cached(("ground_on_map", side), lambda: _ground_on_map(state, side))


def _ground_on_map(state: FBState, side: str | None) -> list[str]:
    if side is not None:  # (one side's: from both sides', asked of most states anyway)
        return [uid for uid in ground_on_map(state) if load_oob()[uid].side == side]
    ground = _ground_units()
    return [uid for uid, u in state.units.items() if uid in ground and is_map_hex(u.loc)]


@cache
def _ground_units() -> frozenset[str]:
    """The ids of every ground unit (fixed)."""
    return frozenset(uid for uid, s in load_oob().items() if s.kind == "ground")


def in_play(loc: str) -> bool:
    """On a map hex, at an entry point or in an off-map box: where a ground unit is in
    the game (not waiting in the pool, not eliminated)."""
    return is_map_hex(loc) or loc.startswith((BOX_PREFIX, ENTRY_PREFIX))


def occupancy(state: FBState) -> dict[str, list[str]]:
    """Map hex -> ground units in it (read only)."""
    return state.cached("occupancy", lambda: _occupancy(state))


def _occupancy(state: FBState) -> dict[str, list[str]]:
    occ: dict[str, list[str]] = {}
    for uid in ground_on_map(state):
        occ.setdefault(state.units[uid].loc, []).append(uid)
    return occ


def room(occ: dict[str, list[str]], hex_id: str) -> int:
    """§6.4: how many more ground units the hex can hold (negative: over-stacked)."""
    return STACK_LIMIT - len(occ.get(hex_id, ()))


def overstacked(state: FBState, occ: dict[str, list[str]] | None = None) -> list[str]:
    """Map hexes holding more ground units than §6.4 allows, sorted (``occ``:
    ``occupancy(state)`` when the caller has it already)."""
    occ = occupancy(state) if occ is None else occ
    return sorted(h for h in occ if room(occ, h) < 0)


def hex_owner(state: FBState) -> dict[str, str]:
    """Map hex -> the side whose ground units are in it (sides never share a hex, §6.4;
    read only)."""
    return state.cached("hex_owner", lambda: _hex_owner(state))


def _hex_owner(state: FBState) -> dict[str, str]:
    oob = load_oob()
    return {state.units[uid].loc: oob[uid].side for uid in ground_on_map(state)}


def all_held_by_enemy(owner: dict[str, str], hexes: Iterable[str], side: str) -> bool:
    """§5.3: every one of these entry hexes holds ground units of ``side``'s enemy
    (``owner``: ``hex_owner(state)``)."""
    enemy = other(side)
    return all(owner.get(h) == enemy for h in hexes)


def coast_hexes(side: str, group: str) -> list[str]:
    """The hexes of all of ``side``'s entry points on one coast ("east", "west")."""
    return [h for e in load_board().entries.values() if e.side == side and e.group == group for h in e.hexes]


def zoc_of(state: FBState, side: str, owners: dict[str, str] | None = None) -> set[str]:
    """Hexes in the ZOC of ``side``'s ground units (§6.2): the six around each,
    across rivers and ridges, never into entry points or boxes.  (``owners``:
    ``hex_owner(state)`` when the caller has it already.)  Read only."""
    if owners is None or owners is hex_owner(state):
        return state.cached(("zoc", side), lambda: _zoc(hex_owner(state), side))
    return _zoc(owners, side)


def _zoc(owners: dict[str, str], side: str) -> set[str]:
    b = load_board()
    out: set[str] = set()
    for h, owner in owners.items():
        if owner == side:
            out.update(b.neighbors(h))
    return out


def units_at(state: FBState, loc: str) -> list[str]:
    """The units at ``loc``, in the state's order (a new list)."""
    return list(state.cached("by_loc", lambda: _by_loc(state)).get(loc, ()))


def _by_loc(state: FBState) -> dict[str, list[str]]:
    by_loc: dict[str, list[str]] = {}
    for uid, u in state.units.items():
        by_loc.setdefault(u.loc, []).append(uid)
    return by_loc


def in_box(loc: str) -> str | None:
    return loc[len(BOX_PREFIX):] if loc.startswith(BOX_PREFIX) else None


def in_entry(loc: str) -> str | None:
    return loc[len(ENTRY_PREFIX):] if loc.startswith(ENTRY_PREFIX) else None


def on_strip(loc: str) -> str | None:
    return loc[len(STRIP_PREFIX):] if loc.startswith(STRIP_PREFIX) else None


def operational_strips(state: FBState) -> list[str]:
    return [h for h, s in state.strips.items() if s.status == "oper"]


def air_capacity(state: FBState) -> int:
    """§11: six active USAF units per operational air strip hex."""
    return 6 * len(operational_strips(state))


def active_usaf(state: FBState) -> list[str]:
    """§11: face-up or face-down USAF units on air strips, in CAP or in Ground Attack."""
    return [uid for uid, u in state.units.items()
            if (u.loc.startswith(STRIP_PREFIX) or u.loc in ("cap", "ga"))
            and spec(uid).side == "US" and spec(uid).kind != "ground"]


def can_fly_cap(uid: str) -> bool:
    return spec(uid).kind in ("fighter", "fighter_bomber")


def can_fly_ga(uid: str) -> bool:
    return spec(uid).kind in ("bomber", "fighter_bomber")
