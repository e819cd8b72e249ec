"""Building positions for tests and examples (boardgame.io's "custom setup").

``position`` starts a real game, then puts units where a test wants them and
jumps to the phase it wants; ``force_die`` picks a dice secret whose next roll
is a given value.  Only tests and examples use this module.
"""

from __future__ import annotations

from typing import Any

from engine.core import dice
from engine.core.events import Command, Event
from engine.core.game import replay
from engine.games.first_blood.oob import load_oob
from engine.games.first_blood.phases.combat import blocked_entries
from engine.games.first_blood.rules import RULES
from engine.games.first_blood.sequence import phase_side
from engine.games.first_blood.state import ELIMINATED, POOL, FBState, is_map_hex


def position(units: dict[str, str], *, phase: str = "us_movement", turn: int = 1,
             options: dict[str, Any] | None = None, strips: dict[str, dict[str, Any]] | None = None,
             others: str = POOL, secret: str = "test") -> FBState:
    """A state in ``phase`` of ``turn`` with the named units at the given locations
    and every other unit in ``others`` (the pool by default: they never arrive
    unless the turn comes)."""
    state = replay(RULES, RULES.create("campaign", options or {}, secret))
    oob = load_oob()
    for uid in list(state.units):
        u = state.unit(uid)
        u.loc = units.get(uid, others)
        if uid not in units and others == POOL and oob[uid].arrives <= turn:
            u.loc = ELIMINATED  # already arrived earlier: keep them off the board
        u.start_hex = u.loc if is_map_hex(u.loc) else None
        u.boxes = [u.loc[4:]] if u.loc.startswith("box:") else []
        u.mf_left = oob[uid].mf if oob[uid].kind == "ground" else 0
    state.turn, state.phase = turn, phase
    if phase.endswith("_combat"):  # what the phase start records (§5.3)
        state.blocked = blocked_entries(state, phase_side(phase))
    if phase == "us_air":  # the units in CAP and Ground Attack flew this turn (§11)
        state.landing = sorted(uid for uid, u in state.units.items() if u.loc in ("cap", "ga"))
    for h, values in (strips or {}).items():
        for k, v in values.items():
            setattr(state.strips[h], k, v)
    return state


def force_die(state: FBState, value: int, index: int = 0) -> None:
    """Choose a secret so that the next event's die ``index`` shows ``value``."""
    dice.force(state, value, index)


def play(state: FBState, command: str, side: str | None = None, **data: Any) -> list[Event]:
    """Decide a command and apply its events to ``state`` in place; return the events."""
    events = RULES.decide(state, Command(command, data, side))
    for e in events:
        RULES.apply(state, e)
    return events


def by_name(name: str, side: str) -> str:
    """The unit id for a printed name such as ``"228/1"``."""
    for uid, s in load_oob().items():
        if s.name == name and s.side == side:
            return uid
    raise KeyError(f"no {side} unit named {name!r}")
