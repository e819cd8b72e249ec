"""Victory points and victory (24.0, 25.3, the Victory Point Tables): what each event is
worth to whom, the end-of-turn check, sudden death and the level of a win."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.games.pacific_battles import tables

# Gained immediately (the rulebook's tables): eliminating an enemy HQ, battalion equivalent,
# air point or supply unit; evacuating one's own once the marker allows it.
ELIMINATED = {  # the side scoring -> the kind of enemy loss -> VP
    "Japanese": {"hq": 5, "battalion": 2, "air": 1, "supply": 0},
    "Allied": {"hq": 4, "battalion": 1, "air": 2, "supply": 0},
}
EVACUATED = {  # the side scoring -> the kind of own unit evacuated -> VP (only after the marker)
    "Japanese": {"hq": 4, "battalion": 1},  # Operation KE
    "Allied": {"hq": 5, "battalion": 1},  # USMC Relief: USMC units only
}
EVACUATION_MARKER = {"Japanese": "Operation KE", "Allied": "USMC Relief"}
HENDERSON_VP = {"Japanese": 5, "Allied": 5}  # each victory check with an activated airfield there
# each objective hex occupied, each check: only the Japanese table lists it (R-PB-24.6)
OBJECTIVE_VP = {"Japanese": 1, "Allied": 0}


@dataclass(frozen=True)
class Check:
    """One end-of-turn victory check (4.1 6a, 24.1): the VP each side gains and a sudden
    death winner, if any (25.3)."""

    gains: dict[str, int]
    sudden_death: str | None
    why: tuple[str, ...]


def for_loss(scorer: str, kind: str, count: int = 1) -> int:
    """VP ``scorer`` gains at once for ``count`` enemy losses of ``kind``."""
    return ELIMINATED[scorer][kind] * count


def for_evacuation(side: str, kind: str, markers_in_effect: Iterable[str], usmc: bool = True) -> int:
    """VP for evacuating one's own unit (24.5): only once the marker is in effect; for the
    Allies only USMC units score."""
    if EVACUATION_MARKER[side] not in set(markers_in_effect) or (side == "Allied" and not usmc):
        return 0
    return EVACUATED[side][kind]


def check(henderson: str | None, objectives_held: dict[str, int], objectives: int) -> Check:
    """The victory check: ``henderson`` is the side with an activated airfield on Henderson
    Field (26.1) or None; ``objectives_held``: the objective hexes each side occupies."""
    gains = {"Japanese": 0, "Allied": 0}
    why = []
    if henderson is not None:
        gains[henderson] += HENDERSON_VP[henderson]
        why.append(f"{henderson}: {HENDERSON_VP[henderson]} VP for the activated airfield on Henderson Field")
    for side, n in objectives_held.items():
        if n and OBJECTIVE_VP[side]:
            gains[side] += OBJECTIVE_VP[side] * n
            why.append(f"{side}: {OBJECTIVE_VP[side] * n} VP for {n} objective hex(es) occupied")
    sudden = henderson if henderson is not None and objectives_held.get(henderson, 0) == objectives else None
    if sudden:
        why.append(f"{sudden}: sudden death victory, Henderson Field and every objective hex (25.3)")
    return Check(gains, sudden, tuple(why))


def result(vp: dict[str, int]) -> tuple[str | None, str]:
    """24.2 at the end of the scenario: (the winner or None for a draw, the level)."""
    margin = vp["Allied"] - vp["Japanese"]
    level = tables.victory_level(margin)
    if level == "Draw":
        return None, "Draw"
    return ("Allied" if margin > 0 else "Japanese"), level


def initiative(turn: int, vp: dict[str, int], die: int | None = None) -> tuple[str, str]:
    """4.1 1a and 25.2: (the first player, why).  The US on turn 1; then the side with more
    VP; on a tie the die decides (``die``: 1-3 the Allies, 4-6 the Japanese)."""
    if turn == 1:
        return "Allied", "the US has the initiative on the first turn (25.2)"
    if vp["Allied"] != vp["Japanese"]:
        first = max(vp, key=lambda s: vp[s])
        return first, f"{first} has more victory points ({vp[first]} to {vp[_other(first)]}) (4.1)"
    if die is None:
        raise ValueError("a tie in victory points needs the die")
    first = "Allied" if die <= 3 else "Japanese"
    return first, f"victory points tied at {vp['Allied']}: the die ({die}) gives {first} the initiative (4.1)"


def _other(side: str) -> str:
    return "Japanese" if side == "Allied" else "Allied"
