"""The state of a Pacific Battles game: everything the log has built so far.

Only ``evolve.apply`` changes it.  Pieces on the map are ``movement.Piece`` records
(frozen: a change replaces the record); pieces off the map (the reinforcement track, the
home base, the Replacement and Permanently Eliminated boxes) are ``Off`` records.  Every
supply point is a piece of its own ("change", 7.8).  Hidden things live here whole: what
leaves the engine for a side is cut down by ``view`` and ``engine.core.visibility``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from engine.core.copying import copy_json
from engine.core.sealed import Round
from engine.core.undo import Trail
from engine.games.pacific_battles.movement import Piece

T = TypeVar("T")

SIDES = ("Allied", "Japanese")
# the state's JSON: 2 keeps the pieces in the order they came into play (1 sorted them by id,
# and a state read back then decided unlike the replayed one; a server drops such snapshots)
STATE_FORMAT = 2
BOXES = ("track", "base", "replace", "dead", "evacuated")  # where an off-map piece is
MISSIONS = ("superiority", "interdiction", "recon", "strike")


def other(side: str) -> str:
    return "Japanese" if side == "Allied" else "Allied"


@dataclass(frozen=True)
class Off:
    id: str
    unit: str
    side: str
    box: str  # one of BOXES
    due: int = 0  # the turn it arrives (the track)
    safe: bool = False  # not subject to interdiction (26.6, Tokyo Express, a delayed unit, 16.62)


@dataclass
class Air:
    reserve: int = 0
    missions: dict[str, int] = field(default_factory=dict)  # mission -> points flying it this turn
    damaged: int = 0
    eliminated: int = 0
    due: int = 0  # air strikes arriving in this side's next reinforcement phase (16.31 note)

    def copy(self) -> Air:
        return Air(self.reserve, dict(self.missions), self.damaged, self.eliminated, self.due)

    def to_json(self) -> dict[str, Any]:
        return {"reserve": self.reserve, "missions": dict(self.missions), "damaged": self.damaged,
                "eliminated": self.eliminated, "due": self.due}

    @classmethod
    def from_json(cls, o: dict[str, Any]) -> Air:
        return cls(o["reserve"], dict(o["missions"]), o["damaged"], o["eliminated"], o["due"])


@dataclass
class PBState:
    seq: int = 0
    secret: str = ""
    result: dict[str, Any] | None = None
    scenario: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    last_turn: int = 0
    turn: int = 0
    phase: str = ""
    first: str = "Allied"  # the first player this turn (4.1 1a)
    vp: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))
    command: dict[str, int] = field(default_factory=dict)  # command control level (5.2)
    pool: dict[str, list[str]] = field(default_factory=lambda: {s: [] for s in SIDES})  # 5.1, sorted
    hand: dict[str, list[str]] = field(default_factory=lambda: {s: [] for s in SIDES})  # held markers (5.4)
    expiring: dict[str, list[str]] = field(default_factory=lambda: {s: [] for s in SIDES})  # used this turn or lost
    in_effect: dict[str, list[str]] = field(default_factory=lambda: {s: [] for s in SIDES})
    removed: dict[str, list[str]] = field(default_factory=lambda: {s: [] for s in SIDES})
    draws: int = 0  # command markers still to draw in this phase
    reserved: dict[str, list[str]] = field(default_factory=lambda: {s: [] for s in SIDES})  # 35.1: for their date
    bought: dict[str, int] = field(default_factory=dict)  # 27.2: markers bought this turn
    pieces: dict[str, Piece] = field(default_factory=dict)
    off: dict[str, Off] = field(default_factory=dict)
    counter: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))  # for new piece ids
    mix: list[str] = field(default_factory=list)  # broken-down regiments' counters, free to combine (9.2)
    fortified: set[str] = field(default_factory=set)  # hexes with a fortification marker (21.0)
    active: set[str] = field(default_factory=set)  # activated HQs (7.3)
    activated_now: set[str] = field(default_factory=set)  # HQs activated in this logistics phase (7.4)
    refit_credit: dict[str, int] = field(default_factory=dict)  # hex -> battalions a spent point still refits
    repaired_on_field: bool = False  # 26.3: one supply point a phase on Henderson Field
    air: dict[str, Air] = field(default_factory=lambda: {s: Air() for s in SIDES})
    round: Round = field(default_factory=Round)
    fire: dict[str, int] = field(default_factory=dict)  # 16.52: side -> points firing at other missions
    examined: dict[str, set[str]] = field(default_factory=lambda: {s: set() for s in SIDES})  # hexes, this phase
    revealed: dict[str, set[str]] = field(default_factory=lambda: {s: set() for s in SIDES})  # enemy ids ever seen
    played: dict[str, set[str]] = field(default_factory=lambda: {s: set() for s in SIDES})  # markers ever shown
    face_up: dict[str, set[str]] = field(default_factory=lambda: {s: set() for s in SIDES})  # own, shown (34.0)
    moved: set[str] = field(default_factory=set)  # pieces moved this phase (11.2)
    # pieces that stopped next to a stack taken for a ZOC that told it has none (18.4): the
    # half movement points each has spent so far this phase; it may go on moving
    moving: dict[str, int] = field(default_factory=dict)
    retreated: set[str] = field(default_factory=set)  # pieces that retreated this phase (15.35)
    eligible: set[str] = field(default_factory=set)  # follow-on movers, fixed at the phase start (10.2)
    bridging: set[str] = field(default_factory=set)  # hexes where engineers started this phase (20.2)
    assaults: dict[str, str] = field(default_factory=dict)  # piece at sea -> the hex it assaults (22.3)
    strikes: list[dict[str, Any]] = field(default_factory=list)  # placed, not yet resolved (16.8)
    struck: bool = False  # this phase's strikes are resolved: no more may be placed (16.8)
    landed: dict[str, list[int]] = field(default_factory=dict)  # hex -> [battalions, supply] landed (26.8)
    readied: dict[str, str] = field(default_factory=dict)  # off-map piece -> the hex it lands on once interdicted
    interdicted: bool = False  # this reinforcement phase's interdiction is over (16.61)
    battles: list[dict[str, Any]] = field(default_factory=list)  # declared in this combat phase (14.2)
    declaring: dict[str, Any] | None = None  # the battle being declared
    fought: bool = False  # declarations closed, battles being resolved
    attacked: set[str] = field(default_factory=set)  # pieces that attacked this phase (14.14)
    pending: list[dict[str, Any]] = field(default_factory=list)  # decisions owed, first first
    henderson: str | None = None  # the side whose airfield on Henderson Field is activated (26.1)
    shifts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))  # bombardment (markers)
    last_battle: dict[str, Any] | None = None
    undo: Trail = field(default_factory=Trail)

    # --- reading -----------------------------------------------------------------------
    def on_map(self, side: str | None = None) -> list[Piece]:
        return [p for p in self.pieces.values() if side is None or p.side == side]

    def at(self, hex_id: str) -> list[Piece]:
        return [p for p in self.pieces.values() if p.hex == hex_id]

    def in_box(self, side: str, box: str) -> list[Off]:
        return [o for o in self.off.values() if o.side == side and o.box == box]

    # --- plumbing ----------------------------------------------------------------------
    def cached(self, key: Any, compute: Callable[[], T]) -> T:
        """``compute()`` once per ``key`` while this object holds this many events (a
        question about the state, asked again of the same state: what is hidden from a
        side, before and after each step).  A clone starts without: the memo names its
        object.  The answer is shared: read only."""
        answers = self._answers()
        if key not in answers:
            answers[key] = compute()
        return answers[key]  # type: ignore[no-any-return]

    def forget(self) -> None:
        """Drop what ``cached`` keeps: for a test that edits a state in place, which no rule does."""
        self.__dict__.pop("_memo", None)

    def known(self, key: Any) -> Any:
        """What ``cached`` holds for ``key`` now, without working it out (None: nothing yet)."""
        return self._answers().get(key)

    def _answers(self) -> dict[Any, Any]:
        """The answers ``cached`` keeps for this object at this many events."""
        memo = self.__dict__.get("_memo")
        if memo is None or memo[0] != id(self) or memo[1] != self.seq:
            memo = self.__dict__["_memo"] = (id(self), self.seq, {})
        return memo[2]  # type: ignore[no-any-return]

    def with_secret(self, secret: str) -> PBState:
        """This state with another dice secret, to decide on, sharing its answers (``cached``):
        the position is the same, and no answer depends on the dice.  A shallow copy: a
        decision changes only the clone it builds on (``Emitter``), never the state it
        decides from (tests/engine/pacific_battles/test_purity.py), so the two may share
        their parts; apply no event to it."""
        new = self._shallow()
        new.secret = secret
        new.__dict__["_memo"] = (id(new), new.seq, self._answers())
        return new

    def _shallow(self) -> PBState:
        """``copy.copy`` without its generic protocol (a clone for every command decided)."""
        new = object.__new__(PBState)
        new.__dict__.update(self.__dict__)
        return new

    def clone(self) -> PBState:
        new = self._shallow()
        new.vp, new.command, new.counter = dict(self.vp), dict(self.command), dict(self.counter)
        new.options = dict(self.options)
        for name in ("pool", "hand", "expiring", "in_effect", "removed", "reserved"):
            setattr(new, name, {s: list(v) for s, v in getattr(self, name).items()})
        new.bought = dict(self.bought)
        new.pieces, new.off, new.mix = dict(self.pieces), dict(self.off), list(self.mix)
        new.fortified, new.active, new.activated_now = set(self.fortified), set(self.active), set(self.activated_now)
        new.refit_credit = dict(self.refit_credit)
        new.air = {s: a.copy() for s, a in self.air.items()}
        new.round, new.fire = self.round.copy(), dict(self.fire)
        new.examined = {s: set(v) for s, v in self.examined.items()}
        new.revealed = {s: set(v) for s, v in self.revealed.items()}
        new.played = {s: set(v) for s, v in self.played.items()}
        new.face_up = {s: set(v) for s, v in self.face_up.items()}
        new.moved, new.eligible, new.attacked = set(self.moved), set(self.eligible), set(self.attacked)
        new.bridging = set(self.bridging)
        new.moving = dict(self.moving)
        new.retreated = set(self.retreated)
        new.assaults = dict(self.assaults)
        new.strikes = copy_json(self.strikes)
        new.landed = {h: list(v) for h, v in self.landed.items()}
        new.readied = dict(self.readied)
        new.battles = copy_json(self.battles)
        new.declaring = copy_json(self.declaring)
        new.pending = copy_json(self.pending)
        new.shifts = dict(self.shifts)
        new.last_battle = copy_json(self.last_battle)
        new.undo = self.undo.copy()
        return new

    def to_json(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "seq": self.seq, "secret": self.secret, "result": self.result, "scenario": self.scenario,
            "options": self.options, "last_turn": self.last_turn, "turn": self.turn, "phase": self.phase,
            "first": self.first, "vp": self.vp, "command": self.command,
            "pool": self.pool, "hand": self.hand, "expiring": self.expiring, "in_effect": self.in_effect,
            "removed": self.removed, "draws": self.draws, "reserved": self.reserved, "bought": self.bought,
            # in the order they came into play, as a replay has them: the rules list and decide
            # in that order, so a state read back must iterate as the replayed one does
            "pieces": [[k, p.unit, p.side, p.hex, p.suppressed] for k, p in self.pieces.items()],
            "off": [[k, o.unit, o.side, o.box, o.due, o.safe] for k, o in self.off.items()],
            "counter": self.counter, "mix": sorted(self.mix), "fortified": sorted(self.fortified),
            "active": sorted(self.active), "activated_now": sorted(self.activated_now),
            "refit_credit": self.refit_credit, "repaired_on_field": self.repaired_on_field,
            "air": {s: a.to_json() for s, a in self.air.items()}, "round": self.round.to_json(),
            "fire": self.fire, "examined": {s: sorted(v) for s, v in self.examined.items()},
            "revealed": {s: sorted(v) for s, v in self.revealed.items()},
            "played": {s: sorted(v) for s, v in self.played.items()},
            "face_up": {s: sorted(v) for s, v in self.face_up.items()},
            "moved": sorted(self.moved), "eligible": sorted(self.eligible), "bridging": sorted(self.bridging),
            "retreated": sorted(self.retreated), "moving": self.moving,
            "assaults": self.assaults,
            "strikes": self.strikes,
            "struck": self.struck, "landed": self.landed, "readied": self.readied, "interdicted": self.interdicted,
            "battles": self.battles, "declaring": self.declaring, "fought": self.fought,
            "attacked": sorted(self.attacked), "pending": self.pending, "henderson": self.henderson,
            "shifts": self.shifts, "last_battle": self.last_battle,
            "undo": self.undo.to_json(PBState.to_json),
        }

    @classmethod
    def from_json(cls, o: dict[str, Any]) -> PBState:
        s = cls()
        for name in ("seq", "secret", "result", "scenario", "last_turn", "turn", "phase", "first", "draws",
                     "repaired_on_field", "henderson", "fought", "struck"):
            setattr(s, name, o[name])
        s.options, s.vp = dict(o["options"]), dict(o["vp"])
        s.command, s.counter = dict(o["command"]), dict(o["counter"])
        for name in ("pool", "hand", "expiring", "in_effect", "removed", "reserved"):
            setattr(s, name, {k: list(v) for k, v in o[name].items()})
        s.bought = dict(o["bought"])
        pieces, off = o["pieces"], o["off"]
        if isinstance(pieces, dict):  # format 1 (a rewind's state in an older log): sorted by id
            pieces = [[k, *v] for k, v in pieces.items()]
            off = [[k, *v] for k, v in off.items()]
        s.pieces = {k: Piece(k, u, side, h, sup) for k, u, side, h, sup in pieces}
        s.off = {k: Off(k, u, side, box, due, safe) for k, u, side, box, due, safe in off}
        s.mix, s.fortified = list(o["mix"]), set(o["fortified"])
        s.active, s.activated_now = set(o["active"]), set(o["activated_now"])
        s.refit_credit = dict(o["refit_credit"])
        s.air = {k: Air.from_json(v) for k, v in o["air"].items()}
        s.round, s.fire = Round.from_json(o["round"]), dict(o["fire"])
        s.examined = {k: set(v) for k, v in o["examined"].items()}
        s.revealed = {k: set(v) for k, v in o["revealed"].items()}
        s.played = {k: set(v) for k, v in o["played"].items()}
        s.face_up = {k: set(v) for k, v in o.get("face_up", {}).items()} or {k: set() for k in SIDES}
        s.moved, s.eligible, s.attacked = set(o["moved"]), set(o["eligible"]), set(o["attacked"])
        s.bridging = set(o["bridging"])
        s.retreated = set(o.get("retreated", ()))  # (snapshots from before 15.35 was kept)
        s.moving = dict(o.get("moving", {}))  # (snapshots from before 18.4's told ZOCs)
        s.assaults = dict(o["assaults"])
        s.strikes, s.battles, s.declaring = list(o["strikes"]), list(o["battles"]), o["declaring"]
        s.landed = {h: list(v) for h, v in o["landed"].items()}
        s.readied, s.interdicted = dict(o.get("readied", {})), o.get("interdicted", False)  # (older snapshots)
        s.pending, s.shifts, s.last_battle = list(o["pending"]), dict(o["shifts"]), o["last_battle"]
        s.undo = Trail.from_json(o["undo"], PBState.from_json)
        return s
