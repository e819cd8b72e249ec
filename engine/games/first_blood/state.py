"""The First Blood game state: plain mutable dataclasses, changed only by ``evolve``.

Static counter data (CF, MF, range) stays in the order of battle; the state
keeps what changes: where each unit is and what it has done this turn.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, TypeVar

from engine.core.undo import Trail

T = TypeVar("T")

# Where a unit can be.  Map hexes are plain RRCC ids; everything else is a word.
POOL = "pool"  # not yet arrived
ARRIVING = "arriving"  # arrived this turn, waiting to be placed (§5)
ELIMINATED = "eliminated"
CAP, GROUND_ATTACK, USAF_RESERVE = "cap", "ga", "usaf_reserve"
IJAAF_RESERVE, IJAAF_ATTACK = "ijaaf_reserve", "ijaaf_attack"
IJN_RESERVE, IJN_ATTACK = "ijn_reserve", "ijn_attack"
BOX_PREFIX = "box:"  # off-map movement boxes A-D (§6.5)
ENTRY_PREFIX = "entry:"  # entry points (§5)
STRIP_PREFIX = "strip:"  # a USAF unit on an air strip hex (or its status box, §2.1)


def box_loc(box_id: str) -> str:
    return BOX_PREFIX + box_id


def entry_loc(entry_id: str) -> str:
    return ENTRY_PREFIX + entry_id


def strip_loc(hex_id: str) -> str:
    return STRIP_PREFIX + hex_id


def is_map_hex(loc: str) -> bool:
    return len(loc) == 4 and loc.isdigit()


@dataclass
class Unit:
    id: str
    loc: str = POOL
    face_down: bool = False  # USAF: refuelling on an air strip (§7.11, §11)
    mf_left: int = 0
    stopped: bool = False  # entered enemy ZOC this phase: no more movement (§6.2)
    moved: bool = False  # moved this phase (§6.5 must-move)
    fought: bool = False  # took part in a combat this phase (§7: one combat per unit)
    defended: bool = False  # was attacked this phase
    support: str | None = None  # air/naval unit: the hex it supports (§6.6, §6.8)
    used: bool = False  # air/naval unit: has flown or sailed its one action this turn
    start_hex: str | None = None  # where it began the turn (§10)
    moved_turn: int = -1  # last turn it moved or retreated (§10)
    fought_turn: int = -1  # last turn it took part in a combat (§10)
    bombarded_turn: int = -1  # last turn its air strip hex was bombarded (§10)
    boxes: list[str] = field(default_factory=list)  # off-map boxes it has been in (§6.5)
    box_arrival: int = -1  # turn it was placed in a box as a reinforcement (§5.2)


@dataclass
class Strip:
    hex: str
    status: str  # "oper" | "dam" | "dest"
    built: bool  # has been completed: counts for victory (§1) and may be bombarded
    work: int = 0  # engineering work marker 0, 1 or 2 (§10)
    worked_turn: int = -1  # last turn work was done on it


@dataclass
class Combat:
    """A combat being declared, then resolved step by step (§7.6-§7.9)."""

    side: str
    targets: list[str] = field(default_factory=list)
    attackers: list[str] = field(default_factory=list)  # direct fire
    artillery: list[str] = field(default_factory=list)  # remote fire support (§7.5)
    origin: str | None = None  # entry point or box location for an attack upon entry (§5.1)
    defenders: list[str] = field(default_factory=list)
    result: str | None = None
    steps: list[str] = field(default_factory=list)  # what is left to do after the roll


@dataclass
class FBState:
    seq: int = 0
    secret: str = ""
    scenario: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    turn: int = 0
    phase: str = "created"
    units: dict[str, Unit] = field(default_factory=dict)
    strips: dict[str, Strip] = field(default_factory=dict)
    combat: Combat | None = None
    pending: list[dict[str, Any]] = field(default_factory=list)
    supply_die: int | None = None
    blocked: list[str] = field(default_factory=list)  # entries held by the enemy (§5.3), per combat phase
    landing: list[str] = field(default_factory=list)  # USAF units that flew this turn and must land (§11)
    result: dict[str, Any] | None = None
    last_combat: dict[str, Any] | None = None  # the latest combat_resolved of this turn's combat phase
    undo: Trail = field(default_factory=Trail)  # what its side may still take back
    # the rules' prompt at ``seq`` (FirstBlood.prompt), not a field: it is asked for several
    # times of each state (deciding, settling, the view), and in a movement phase it looks
    # for units that must move.  Every event applied moves ``seq`` on; a copy starts without.
    prompted: ClassVar[tuple[int, Any] | None] = None
    # the units this state changes in place; the others it shares with the states it was
    # copied from or to, and copies at its first change of one (``unit``): a command's
    # copy of a state copied the ~140 units each time, for the few it changes
    owned: ClassVar[set[str] | frozenset[str]] = frozenset()
    # answers to read-only questions about the units at ``seq`` (who stands where, whose
    # ZOC, where a unit may move: queries.py, movement.py), asked many times of each state
    # while a command is decided, settled and shown; dropped when ``seq`` moves on or a
    # unit is changed (``unit``).  Not a field: a copy starts without.
    memo: ClassVar[tuple[int, dict[Any, Any]] | None] = None

    def cached(self, key: Any, compute: Callable[[], T]) -> T:
        """``compute()`` once per ``key`` while the units stay as they are.  The answer is
        shared by every caller: read only."""
        answers = self._answers()
        if key not in answers:
            answers[key] = compute()
        return answers[key]  # type: ignore[no-any-return]

    def _answers(self) -> dict[Any, Any]:
        """The answers ``cached`` keeps while the units stay as they are at this ``seq``."""
        if self.memo is None or self.memo[0] != self.seq:
            self.memo = (self.seq, {})  # type: ignore[misc]  # the instance's own (FBState.memo)
        return self.memo[1]

    def unit(self, uid: str) -> Unit:
        """The unit ``uid``, to be changed: this state's own copy of it."""
        self.memo = None  # type: ignore[misc]
        if uid not in self.owned:
            if not self.owned:
                self.owned = set()  # type: ignore[misc]  # the instance's own (FBState.owned)
            self.units[uid] = _copy_unit(self.units[uid])
            self.owned.add(uid)  # type: ignore[union-attr]
        return self.units[uid]

    def shared(self) -> None:
        """Its units may be shared now (it was copied, or was given another's): the next
        change of each copies it first."""
        self.owned = frozenset()  # type: ignore[misc]

    # --- copies and JSON -------------------------------------------------
    def with_secret(self, secret: str) -> FBState:
        """A clone with another dice secret that shares this state's answers (``cached``,
        ``prompted``): the position is the same, and no answer depends on the dice.  While
        neither changes a unit or moves on, an answer either works out serves both."""
        new = self.clone()
        new.secret = secret
        new.memo = (self.seq, self._answers())  # type: ignore[misc]
        new.prompted = self.prompted  # type: ignore[misc]
        return new

    def clone(self) -> FBState:
        new = FBState(
            seq=self.seq, secret=self.secret, scenario=self.scenario, options=dict(self.options),
            turn=self.turn, phase=self.phase,
            units=dict(self.units),  # shared: each is copied at its first change (``unit``)
            strips={k: Strip(s.hex, s.status, s.built, s.work, s.worked_turn)
                    for k, s in self.strips.items()},
            combat=None if self.combat is None else Combat(
                self.combat.side, list(self.combat.targets), list(self.combat.attackers),
                list(self.combat.artillery), self.combat.origin, list(self.combat.defenders),
                self.combat.result, list(self.combat.steps)),
            pending=[_deep(p) for p in self.pending],
            supply_die=self.supply_die,
            blocked=list(self.blocked),
            landing=list(self.landing),
            result=None if self.result is None else dict(self.result),
            last_combat=_deep(self.last_combat),
            undo=self.undo.copy(),
        )
        self.shared()
        return new

    def to_json(self) -> dict[str, Any]:
        """What ``asdict`` gives, written out: a snapshot is written every few commands and
        ``asdict`` (a deep copy of every leaf) took three times as long."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data.update(
            options=dict(self.options),
            units={k: {**vars(u), "boxes": list(u.boxes)} for k, u in self.units.items()},
            strips={k: dict(vars(st)) for k, st in self.strips.items()},
            combat=None if self.combat is None else _deep(vars(self.combat)),
            pending=_deep(self.pending), blocked=list(self.blocked), landing=list(self.landing),
            result=_deep(self.result), last_combat=_deep(self.last_combat),
            undo=self.undo.to_json(FBState.to_json),
        )
        return data

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> FBState:
        data = dict(obj)
        # sorted, as a replay builds them: some stores (PostgreSQL's JSONB) reorder object keys
        data["units"] = {k: Unit(**obj["units"][k]) for k in sorted(obj["units"])}
        data["strips"] = {k: Strip(**obj["strips"][k]) for k in sorted(obj["strips"])}
        data["combat"] = None if obj.get("combat") is None else Combat(**obj["combat"])
        data["undo"] = Trail.from_json(obj.get("undo"), FBState.from_json)
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


def _copy_unit(u: Unit) -> Unit:
    c = Unit.__new__(Unit)
    c.__dict__.update(u.__dict__)
    c.boxes = list(u.boxes)
    return c


def _deep(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _deep(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep(v) for v in value]
    return value
