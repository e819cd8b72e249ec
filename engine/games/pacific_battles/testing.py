"""Building Pacific Battles positions for tests and examples (boardgame.io's "custom
setup"): ``position`` starts a real game and then puts pieces where a test wants them
in the phase it wants; ``force_die`` picks a dice secret whose next roll is a given
value; ``play`` decides and applies a command.  Only tests and examples use this."""

from __future__ import annotations

from typing import Any

from engine.core import dice
from engine.core.events import Command, Event
from engine.core.game import replay
from engine.games.pacific_battles.movement import SUPPLY, Piece
from engine.games.pacific_battles.queries import unit_spec
from engine.games.pacific_battles.rules import RULES
from engine.games.pacific_battles.state import PBState

Spot = tuple[str, str] | tuple[str, str, str]  # (unit, hex) or (unit, hex, side)


def new_game(secret: str = "test", scenario: str = "historical", options: dict[str, Any] | None = None) -> PBState:
    return replay(RULES, RULES.create(scenario, options or {}, secret))


def position(pieces: dict[str, Spot], *, phase: str, turn: int = 2, first: str = "Allied",
             options: dict[str, Any] | None = None, active: tuple[str, ...] = (), fortified: tuple[str, ...] = (),
             suppressed: tuple[str, ...] = (), air: dict[str, dict[str, Any]] | None = None,
             secret: str = "test", keep_track: bool = False) -> PBState:
    """A state in ``phase`` of ``turn`` with exactly ``pieces`` on the map: id -> (unit,
    hex) or (unit, hex, side) (the side of a named counter is its own; supply needs it).
    The tracks are emptied unless ``keep_track``; ``air``: side -> Air fields."""
    state = new_game(secret, options=options)
    state.pieces = {}
    for pid, spot in pieces.items():
        unit, hex_id = spot[0], spot[1]
        side = spot[2] if len(spot) == 3 else _side(unit)
        state.pieces[pid] = Piece(pid, unit, side, hex_id, pid in suppressed)
    if not keep_track:
        state.off = {k: o for k, o in state.off.items() if o.box != "track"}
    state.off = {k: o for k, o in state.off.items() if k not in state.pieces}
    state.turn, state.phase, state.first = turn, phase, first
    state.active, state.fortified = set(active), set(fortified)
    state.round.sides, state.round.decisions = (), {}
    for side, fields in (air or {}).items():
        for k, v in fields.items():
            setattr(state.air[side], k, v)
    state.undo.side = None
    state.undo.steps = []
    return state


def _side(unit: str) -> str:
    if unit == SUPPLY:
        raise ValueError("a supply point needs its side: (\"Supply\", hex, side)")
    return unit_spec(unit).side


def force_die(state: PBState, value: int, index: int = 0) -> None:
    """Choose a secret so that the next event's die ``index`` shows ``value``."""
    dice.force(state, value, index)


def force_dice(state: PBState, values: dict[tuple[int, int], int]) -> None:
    """Choose a secret giving every (event offset from now, die index) its value."""
    for n in range(200_000):
        secret = f"forced-{n}"
        if all(dice.roll(secret, state.seq + off, i) == v for (off, i), v in values.items()):
            state.secret = secret
            return
    raise RuntimeError("no secret found for so many dice")


def play(state: PBState, command: str, side: str | None = None, **data: Any) -> list[Event]:
    """Decide a command and apply its events to ``state`` in place; return the events."""
    events = RULES.decide(state, Command(command, data, side))
    for e in events:
        RULES.apply(state, e)
    return events


def legal(state: PBState, side: str | None = None, kind: str | None = None) -> list[Command]:
    out = RULES.legal_commands(state, side)
    return [c for c in out if kind is None or c.type == kind]
