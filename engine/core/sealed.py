"""Decisions several sides make at once, in secret (Pacific Battles 4.1 1c: "each
player simultaneously and secretly allocates all air missions for the turn").

A round opens for some sides; each side's decision is a ``decision_sealed`` event that
only that side may read (the others read that it was made); when the last is in, a
``decisions_revealed`` event, public, holds them all.  Until then a game must not let
anything a side may do depend on another side's sealed decision: ``for_side`` is the
only way to read a round before it is revealed, and it gives a side its own decision.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core.events import Event
from engine.core.visibility import hide

SEALED = "decision_sealed"
REVEALED = "decisions_revealed"


@dataclass
class Round:
    kind: str = ""  # what is being decided ("air_missions")
    sides: tuple[str, ...] = ()  # who decides in this round
    decisions: dict[str, Any] = field(default_factory=dict)  # side -> sealed decision

    @property
    def open(self) -> bool:
        return bool(self.sides) and len(self.decisions) < len(self.sides)

    @property
    def waiting(self) -> tuple[str, ...]:
        """The sides whose decision is still to come (all may decide at once)."""
        return tuple(s for s in self.sides if s not in self.decisions)

    def for_side(self, side: str) -> Any:
        """``side``'s own sealed decision (None before it is made)."""
        return self.decisions.get(side)

    def copy(self) -> Round:
        return Round(self.kind, self.sides, dict(self.decisions))

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "sides": list(self.sides), "decisions": dict(self.decisions)}

    @classmethod
    def from_json(cls, obj: dict[str, Any] | None) -> Round:
        obj = obj or {}
        return cls(obj.get("kind", ""), tuple(obj.get("sides") or ()), dict(obj.get("decisions") or {}))


def sealed_event(kind: str, side: str, decision: Any) -> Event:
    """A side's decision: only that side may read it; the others read that it was made."""
    data = hide({"kind": kind, "decision": decision}, [side], public={"kind": kind, "sealed": True})
    return Event(SEALED, data, side)


def revealed_event(rnd: Round) -> Event:
    """Every decision of a round, for everybody, once the last is in."""
    return Event(REVEALED, {"kind": rnd.kind, "decisions": {s: rnd.decisions[s] for s in rnd.sides}})


def apply_sealed(rnd: Round, event: Event) -> None:
    if event.side not in rnd.waiting:
        raise ValueError(f"{event.side} has no sealed decision to make")  # a rules bug: decide checks it
    rnd.decisions[event.side] = event.data["decision"]
