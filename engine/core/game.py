"""What every game plug-in offers, and the generic decide/replay machinery.

A game is a ``GameRules`` object; the catalog of games, by id, is ``engine.games``
(the core names no game).  Its state is a mutable
dataclass that only ``apply`` changes, and only while replaying events; a
``decide`` call works on a private clone through an ``Emitter``, so the
caller's state is never touched and the log is the only truth.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Generic, Protocol, TypeVar

from engine.core import choices, dice, rulings
from engine.core.errors import IllegalCommandError, NotInThisGame, NotYourTurnError
from engine.core.events import Command, Event

SETTING_UP = "The game is being set up"  # the prompt within a game's creation (a replay's first moments)


@dataclass(frozen=True)
class Prompt:
    """Who must act now and what the game waits for (Rally's prompt/inactive)."""

    side: str | None  # None once the game is over (or while it is created); with several deciding at once, the first
    kind: str  # "move", "choose_loss", "retreat", ...
    text: str  # for the acting side
    waiting: str  # for everybody else
    rule: str = ""
    details: dict[str, Any] = field(default_factory=dict)
    sides: tuple[str, ...] = ()  # every side that may act now, when several decide at once (engine/core/sealed.py)

    @property
    def acting(self) -> tuple[str, ...]:
        """The sides that may send a command now."""
        if self.sides:
            return self.sides
        return () if self.side is None else (self.side,)


class GameState(Protocol):
    seq: int
    secret: str
    result: dict[str, Any] | None


S = TypeVar("S")


class GameRules(Protocol[S]):
    id: str
    title: str
    sides: tuple[str, ...]

    def create(self, scenario: str, options: dict[str, Any], secret: str) -> list[Event]: ...
    def blank(self) -> S: ...
    def apply(self, state: S, event: Event) -> None: ...
    def clone(self, state: S) -> S: ...
    def prompt(self, state: S) -> Prompt: ...
    def legal_commands(self, state: S, side: str | None = None) -> list[Command]: ...
    def decide(self, state: S, command: Command) -> list[Event]: ...
    def outcome(self, state: S, command: Command) -> Outcome[S]:
        """``decide``, with each event's log line and the state after the events (what
        a server appending the events needs, without replaying them once more)."""
        ...
    def describe(self, state: S, event: Event) -> str | None: ...
    def label(self, state: S, command: Command) -> str: ...
    def view(self, state: S, side: str | None, legal: list[Command] | None = None) -> dict[str, Any]:
        """What ``side`` may see (``legal``: its legal commands, when the caller has them)."""
        ...
    def state_to_json(self, state: S) -> dict[str, Any]: ...
    def state_from_json(self, obj: dict[str, Any]) -> S: ...


class RulesBase(Generic[S]):
    """What a game may offer beyond ``GameRules``, each with its answer for a game that
    does not: a server asks any game any of these and never probes for them.

    Every game also knows the admin's rulings (engine/core/rulings.py): a subclass's
    ``apply``, ``describe`` and ``decide`` are wrapped so that a ruling is handled before
    the game's own code, which never sees one."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name, wrap in (("apply", rulings.applying), ("describe", rulings.describing),
                           ("decide", rulings.deciding)):
            if name in cls.__dict__:
                setattr(cls, name, wrap(cls.__dict__[name]))

    hidden_information = False  # whether a side may be kept from knowing anything (``secrets``)
    scenarios: Mapping[str, str] = MappingProxyType({})  # scenario id -> its title in words
    options: Mapping[str, str] = MappingProxyType({})  # optional rule id -> what it does, in words

    def with_secret(self, state: S, secret: str) -> S:
        """A copy of ``state`` with ``secret`` as its dice key, to decide on (the dice of a
        game are keyed per period: engine/record/keyed.py).  Only the dice differ, so a
        game may let the copy share what was worked out about the position (its legal
        commands, its prompt): the next command is decided on such a copy of the state the
        previous answer listed."""
        new = self.clone(state)  # type: ignore[attr-defined]
        new.secret = secret
        return new  # type: ignore[no-any-return]

    def unit_named(self, state: S, side: str | None, unit: str) -> bool:
        """Whether ``side`` may ask about ``unit`` by its id: it exists and ``side`` may know
        of it (a unit hidden from ``side`` answers as one that does not exist)."""
        return False

    def reachable(self, state: S, unit: str) -> dict[str, dict[str, Any]]:
        """Where ``unit`` may move now: hex -> {"cost", "path", "stops"} (none: not moving now)."""
        return {}

    def why_unreachable(self, state: S, unit: str) -> dict[str, str]:
        """Places near ``unit`` it may not move to now, each with the rule and the reason."""
        return {}

    def why_idle(self, state: S, side: str, unit: str) -> str | None:
        """Why ``side``'s own ``unit``, in a phase where its units move, has no move now:
        the rule and the reason, from the code that lists the moves (None: it has one, it
        is not a unit that moves, or the game does not say)."""
        return None

    def preview_attack(self, state: S, side: str, targets: list[str], units: list[str],
                       positions: dict[str, str] | None = None) -> dict[str, Any]:
        """The odds and modifiers of an attack, before it is declared (``positions``: unit ->
        the hex it would attack from, for a move being planned)."""
        raise NotInThisGame(f"{getattr(self, 'title', 'this game')} has no attack previews")

    def map_data(self, scenario: str) -> dict[str, Any]:
        """The map a game of ``scenario`` is played on, in the schema every game shares
        (docs/api-map.md): hexes, hexsides, places, objectives, boxes, the terrain chart."""
        raise NotInThisGame(f"{getattr(self, 'title', 'this game')} has no map")

    def draw_inputs(self, before: S, event: Event) -> dict[str, Any] | None:
        """For an event that records a random draw (a marker from a cup: ``dice.draw``), what
        went into it, from the state ``before`` it: {"pool", "index", "drawn"}; None for any
        other event (a game without draws)."""
        return None

    def legal_choices(self, state: S, side: str) -> list[dict[str, Any]]:
        """``side``'s legal commands told as choices (engine/core/choices.py): what
        ``group(legal_commands)`` gives.  A game whose lists are long may build them
        from its generator's own structure instead of grouping thousands of commands:
        the same choices, or at least the same commands (``expand`` of either)."""
        return choices.group(self.legal_commands(state, side))  # type: ignore[attr-defined]

    def described_commands(self, state: S, side: str) -> list[dict[str, Any]]:
        """Commands too many to list, each as its type, a text, its rule and a JSON Schema of
        its data (with ``x-`` keys for what JSON Schema cannot say), made by the same code
        that judges them: a command that fits is legal (none: every legal command is listed)."""
        return []

    def secrets(self, state: S, viewer: str | None) -> list[str]:
        """What ``viewer`` may not know now, as text to search outputs for (none: nothing is
        hidden in this game); a step that removes any of it from its own side is a reveal."""
        return []

    def shown(self, before: S, events: list[Event], viewer: str | None) -> list[str]:
        """What ``events`` (decided from ``before`` on), as ``viewer`` may read them, name of
        the things hidden from ``viewer`` in ``before`` (a plain search of their data; a game
        with names inside names searches more carefully)."""
        hidden = self.secrets(before, viewer)
        if not hidden:
            return []
        from engine.core.visibility import for_viewer

        texts = [json.dumps(seen.data, sort_keys=True, default=str) for e in events
                 if (seen := for_viewer(e, viewer, getattr(self, "sides", ()))) is not None]
        return sorted({h for h in hidden for t in texts if h in t})

    def shows(self, before: S, events: list[Event], viewer: str | None) -> bool:
        return bool(self.shown(before, events, viewer))

    def end_phase_notes(self, state: S) -> list[str]:
        """What ending the current phase now will cost, for the player to confirm."""
        return []

    def ahead(self, state: S) -> Callable[[], None] | None:
        """What a coming decision will ask first, to be asked ahead while nobody waits (a
        server: after an answer has gone), so that the rules' own memos of pure answers
        hold it then; None: nothing.  Telling is cheap; the work is the call.  The state is
        not changed, and no answer differs for it: only when it is found.  Once per turn
        and phase is enough (``headline``).  Most games need none."""
        return None

    def headline(self, state: S) -> Headline:
        """The turn and phase a list of games shows (kept in the server's games table with
        every append, so that a list need not replay): the state's own ``turn`` number and
        ``phase`` name, which a game may put in its own words."""
        turn = getattr(state, "turn", 0)
        phase = str(getattr(state, "phase", "") or "")
        return Headline(turn if isinstance(turn, int) else 0, f"turn {turn}", phase.replace("_", " "))

    # The version of ``state_to_json``'s form: a server drops a snapshot of another one (a
    # state read back must decide exactly as the replayed one).  A state's JSON without a
    # "format" is of format 1.
    state_format = 1

    # The log's chapters, the same words in every game: the event that opens a turn (its
    # log line is the turn's heading) and the one that opens a phase (``phase_title``).
    turn_event = "turn_started"
    phase_event = "phase_started"

    def phase_title(self, data: dict[str, Any]) -> str:
        """A phase-opening event's heading, from its data."""
        return str(data.get("phase", "")).replace("_", " ")

    def turn_title(self, data: dict[str, Any]) -> str | None:
        """A turn-opening event's heading, from its data (None: its log line is the heading)."""
        return None

    def step_label(self, first_line: str | None) -> str:
        """The take-back label of a step whose first log line is ``first_line``: a caller
        that has just written that line names the step without rebuilding the state before it."""
        return f"Take back: {first_line}" if first_line else "Take back the last step"


@dataclass(frozen=True)
class Headline:
    """Where a game stands, for lists: its turn (a number to sort by, and its name) and phase."""

    turn: int
    turn_name: str
    phase: str


@dataclass
class Outcome(Generic[S]):
    """A decision's events, each one's log line (``describe`` in the state before
    it) and the state after them all."""

    events: list[Event]
    texts: list[str | None]
    state: S


class Emitter:
    """Builds a decision: each emitted event is applied at once to a scratch state,
    so later steps of the same decision see its effects (and the next die's number).
    With ``describe`` it also writes each event's log line before applying it."""

    def __init__(self, rules: GameRules[Any], state: Any, describe: bool = False) -> None:
        self.rules = rules
        self.state = rules.clone(state)
        self.events: list[Event] = []
        self.texts: list[str | None] | None = [] if describe else None
        self.rolled = False  # a die decided something: the decision cannot be taken back

    def emit(self, type_: str, side: str | None = None, /, **data: Any) -> Event:
        """``side``: who acted (positional, so that an event's data may hold a "side" of its own)."""
        event = Event(type_, data, side)
        if self.texts is not None:
            self.texts.append(self.rules.describe(self.state, event))
        self.rules.apply(self.state, event)
        self.events.append(event)
        return event

    def outcome(self) -> Outcome[Any]:
        texts = self.texts if self.texts is not None else [None] * len(self.events)
        return Outcome(self.events, texts, self.state)

    def roll(self, index: int = 0) -> int:
        """A die for the next event to be emitted (keyed by its number)."""
        self.rolled = True
        return dice.roll(self.state.secret, self.state.seq, index)


def replay(rules: GameRules[S], events: Iterable[Event], state: S | None = None) -> S:
    """Fold events into a state (from a blank one unless a snapshot is given)."""
    state = rules.blank() if state is None else rules.clone(state)
    for event in events:
        rules.apply(state, event)
    return state


def evolve(rules: GameRules[S], state: S, event: Event) -> S:
    """Pure single step: a new state, the old one untouched."""
    new = rules.clone(state)
    rules.apply(new, event)
    return new


def check_turn(prompt: Prompt, command: Command, sequence: str = "") -> None:
    """Raise if the command's sender is not the side the game waits for, citing the rule
    of what the game waits for, or else ``sequence``: the game's sequence of play."""
    if prompt.side is None:
        raise IllegalCommandError("", "the game is over")
    if command.side is not None and command.side not in prompt.acting:
        raise NotYourTurnError(prompt.rule or sequence,
                               f"it is {' and '.join(prompt.acting)}'s decision: {prompt.waiting}")
