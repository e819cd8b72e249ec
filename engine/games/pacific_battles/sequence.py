"""4.1: the sequence of play.  A turn is a planning impulse, four land impulses (the
first player's initial, the second's initial, the first's follow-on, the second's
follow-on) and the end of the turn.  Which side owns "first" and "second" phases is
decided each turn by the initiative (4.1 1a), so a phase names its role, not its side.
"""

from __future__ import annotations

from engine.core.phases import Phase, TurnTrack
from engine.games.pacific_battles.state import PBState, other

FIRST, SECOND = "first", "second"
BOTH = "both"  # the secret air allocation: both sides at once (4.1 1c)

IMPULSES = (("initial", FIRST), ("initial", SECOND), ("follow", FIRST), ("follow", SECOND))
STEPS = (("movement", "movement (11.0)"), ("strike", "air/naval strike (16.0, 17.0)"), ("combat", "land combat (14.0)"))

TRACK = TurnTrack(
    setup=[Phase("japanese_setup", "Japanese", "set-up (25.4)")],
    turn=[
        Phase("initiative", None, "initiative (4.1 1a, 25.2)"),
        Phase("markers_first", FIRST, "command markers (5.0)"),
        Phase("markers_second", SECOND, "command markers (5.0)"),
        Phase("air_allocation", BOTH, "secret air mission allocation (16.3)"),
        Phase("air_superiority", None, "air superiority (16.5)"),
        Phase("reinforcements_first", FIRST, "reinforcements (6.0)"),
        Phase("reinforcements_second", SECOND, "reinforcements (6.0)"),
        Phase("logistics_first", FIRST, "logistics (7.0)"),
        Phase("logistics_second", SECOND, "logistics (7.0)"),
        *[Phase(f"{kind}_{who}_{name}", who, f"{'initial' if kind == 'initial' else 'follow-on'} {text}")
          for kind, who in IMPULSES for name, text in STEPS],
        Phase("victory", None, "victory points and the end of the turn (24.0)"),
    ],
)
TURN = tuple(p.name for p in TRACK.turn)

MONTHS = ("August 1942", "September 1942", "October 1942", "November 1942", "December 1942", "January 1943",
          "February 1943", "March 1943")


def turn_name(turn: int) -> str:
    if turn == 0:
        return "before the first turn"
    return MONTHS[turn - 1] if 1 <= turn <= len(MONTHS) else f"turn {turn}"


def side_of(state: PBState, phase: str | None = None) -> str | None:
    """The side that acts in ``phase`` this turn (None: nobody, or both at once)."""
    role = TRACK.side(phase or state.phase)
    if role == FIRST:
        return state.first
    if role == SECOND:
        return other(state.first)
    if role in ("Japanese", "Allied"):
        return role
    return None


def step(phase: str) -> str:
    """"movement", "strike", "combat", or the phase's own name outside the impulses."""
    parts = phase.split("_")
    return parts[-1] if parts[0] in ("initial", "follow") else phase


def is_follow_on(phase: str) -> bool:
    return phase.startswith("follow_")


def title(state: PBState, phase: str | None = None) -> str:
    phase = phase or state.phase
    if not phase:
        return "The game being set up"
    side = side_of(state, phase)
    text = TRACK.title(phase)
    return f"{side} {text}" if side else text[0].upper() + text[1:]
