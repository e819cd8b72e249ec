"""Taking back one's own decisions: the one rule for every game.

A player may take back their decisions, one at a time, back to the last die roll,
the last thing revealed to them (``reveals``: anything hidden from their side before the
step and not after it), or the last handover to the opponent.  The log
stays append-only: an ``undone`` event retracts the step it names and everything
after it, and applying it restores the state as if the retracted events had never
been applied (replay skips them); the log keeps both for the admin.

How the state knows: every event of an undoable step carries ``undoable``: the
number of the step's first event and the side that decided it.  An event without it (dice, a reveal, a
handover, the server's own events) is a barrier and clears the trail.  The trail
keeps the state before its first step (shared between clones, never changed) and
the events since, so any step can be rebuilt without the log.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import IllegalCommandError
from engine.core.events import Command, Event

UNDO = "undo"  # the command
UNDONE = "undone"  # its event
MARK = "undoable"  # every event of an undoable step carries {"from": first event, "by": side}
RULE = "undo"  # how a refusal names this rule (docs/undo.md)


@dataclass
class Trail:
    side: str | None = None  # whose steps these are
    base: Any = None  # the state before the first step (never changed: rebuilds clone it)
    steps: list[int] = field(default_factory=list)  # each step's first event number
    events: list[tuple[int, Event]] = field(default_factory=list)  # (number, event) since base

    def copy(self) -> Trail:
        return Trail(self.side, self.base, list(self.steps), list(self.events))

    def to_json(self, state_to_json: Callable[[Any], dict[str, Any]]) -> dict[str, Any]:
        return {"side": self.side, "steps": list(self.steps),
                "base": None if self.base is None else state_to_json(self.base),
                "events": [[n, e.to_json()] for n, e in self.events]}

    @classmethod
    def from_json(cls, obj: dict[str, Any] | None, state_from_json: Callable[[dict[str, Any]], Any]) -> Trail:
        if not obj:
            return cls()
        base = None if obj.get("base") is None else state_from_json(obj["base"])
        return cls(obj.get("side"), base, list(obj.get("steps") or []),
                   [(int(n), Event.from_json(e)) for n, e in obj.get("events") or []])


def undoable(side: str | None, command: Command, rolled: bool, revealed: bool, side_after: str | None) -> bool:
    """The rule: a player's own decision with no die rolled, nothing revealed and the
    decision still theirs afterwards (no handover, the game not over)."""
    return (side is not None and command.type != UNDO and not rolled and not revealed
            and side_after == side)


def reveals(rules: Any, before: Any, after: Any, events: list[Any], side: str) -> bool:
    """Whether a step shows anybody something it could not know before it (``rules``: the
    game, whose ``secrets`` list what a viewer may not know, by the visibility rules that
    filter its views and logs).  Its player: something hidden from ``side`` before the step
    is no longer hidden after it, shown or gone because it was shown.  Another side: what it
    reads of the step's events names something hidden from it before (``rules.shows``).
    Such a step is a barrier: taken back, its player would keep what it showed them (a stack
    known for a fake, an enemy unit seen), or the opponent what it saw (a unit turned face up)."""
    hidden_before = set(rules.secrets(before, side))
    if hidden_before and not hidden_before <= set(rules.secrets(after, side)):
        return True
    return any(rules.shows(before, events, viewer) for viewer in rules.sides if viewer != side)


def mark(events: list[Event], start: int, side: str) -> list[Event]:
    """The step's events, each carrying the step's first event number and its side."""
    return [Event(e.type, {**e.data, MARK: {"from": start, "by": side}}, e.side) for e in events]


def seal(state_before: Any, events: list[Event], state_after: Any, side: str,
         clone: Callable[[Any], Any]) -> list[Event]:
    """Make a decided batch an undoable step: mark its events and set the trail of the
    state after it (whose events were applied unmarked, which cleared its trail)."""
    start = state_before.seq
    marked = mark(events, start, side)
    before = state_before.undo
    trail = before.copy() if before.side == side and before.steps else Trail(side, _base(state_before, clone))
    trail.steps.append(start)
    trail.events.extend((start + i, e) for i, e in enumerate(marked))
    state_after.undo = trail
    return marked


def track(state: Any, event: Event, clone: Callable[[Any], Any]) -> None:
    """Before applying ``event``: keep the trail (a barrier clears it).  The same
    trail ``seal`` gives, so a replayed state equals the decided one."""
    if event.type == UNDONE:
        return
    step = event.data.get(MARK)
    if step is None:
        if state.undo.side is not None:
            state.undo = Trail()
        return
    if step["from"] == state.seq:  # a step begins
        if state.undo.side != step["by"] or not state.undo.steps:
            state.undo = Trail(step["by"], _base(state, clone))
        state.undo.steps.append(state.seq)
    state.undo.events.append((state.seq, event))


def _base(state: Any, clone: Callable[[Any], Any]) -> Any:
    base = clone(state)
    base.undo = Trail()  # a trail starts after a barrier: nothing before it to keep
    return base


def command(state: Any, side: str) -> Command | None:
    """The ``undo`` command, when ``side`` may take something back."""
    trail = state.undo
    if trail.side == side and trail.steps:
        return Command(UNDO, {"step": trail.steps[-1]})
    return None


def decide(state: Any, cmd: Command, side: str) -> list[Event]:
    legal = command(state, side)
    if legal is None:
        raise IllegalCommandError(RULE, "nothing to take back: undo goes back only to the last die roll, "
                                        "the last thing revealed or the last handover")
    if cmd.data != legal.data:
        raise IllegalCommandError(RULE, f"only the last step can be taken back (step {legal.data['step']})")
    return [Event(UNDONE, {"step": legal.data["step"], "events": state.seq - legal.data["step"]}, side)]


def rebuild(state: Any, step: int, apply: Callable[[Any, Event], None], clone: Callable[[Any], Any]) -> Any:
    """The state just before ``step`` began (its trail as it was then), from the trail
    alone; its ``seq`` is left at the undo event's number."""
    trail = state.undo
    restored = clone(trail.base)
    for n, event in trail.events:
        if n >= step:
            break
        restored.seq = n
        apply(restored, event)
    restored.seq = state.seq
    return restored


def retracted(events: Iterable[tuple[int, Event]]) -> dict[int, int]:
    """Event number -> the number of the ``undone`` event that took it back (for logs:
    shown struck through, left out of what a player reads as what happened).  A take-back
    itself is never taken back: one that a second take-back reaches past (two steps taken
    back in turn) still happened."""
    out: dict[int, int] = {}
    undos = set()
    for n, event in events:
        if event.type == UNDONE:
            undos.add(n)
            out.update(dict.fromkeys(range(int(event.data["step"]), n), n))
    return {n: by for n, by in out.items() if n not in undos}


def unmarked(data: dict[str, Any]) -> dict[str, Any]:
    """An event's data without the undo mark (what the game itself recorded)."""
    return {k: v for k, v in data.items() if k != MARK}


def take_back(rules: Any, state: Any, command: Command, describe: bool) -> Any:
    """Decide an ``undo`` command for any game: the sender must be a side the game waits
    for, and only the last step goes (``decide``).  Returns the game's ``Emitter``."""
    from engine.core.errors import MalformedCommandError
    from engine.core.game import Emitter, check_turn

    prompt = rules.prompt(state)
    check_turn(prompt, command, RULE)
    if not isinstance(command.data, dict) or set(command.data) - {"step"}:
        raise MalformedCommandError("", "undo takes {'step': the number of the step's first event}")
    side = command.side if command.side in prompt.acting else prompt.side
    em = Emitter(rules, state, describe)
    for event in decide(state, command, side):
        em.emit(event.type, event.side, **event.data)
    return em
