"""A Pacific Battles state a bot believes in: the events its side may read, replayed, the
hidden parts filled in by its own draws, so that the rules can play on from it.

The side's own pieces, markers, track and decisions come whole in its events, and so does
everything public (the turn, the phase, the VP, the air, the fortifications).  What the
enemy hides reaches the side as stubs (``tell.secret``): that the enemy placed a piece in
a hex, moved so many from one hex to another, drew a marker, sealed its allocation.  A
stub is played as a guess at its whole event: which piece, which marker, drawn by the
bot's generator from what the enemy may have (its opening forces are printed in the
tables, ``opening_forces``).  The enemy's pieces keep their names; only which of them
stands where is a guess, and a reveal (an examination, a battle, a counter turned face
up) moves the named piece into its place, swapping it with the guess that stood there.
Last, the enemy's pieces are put where the side's view shows enemy stacks: every shown
unit where it is shown, a piece in every unexamined stack, none where no stack is.

A sealed enemy decision is left undecided: the rules ask the believed enemy for it again
(the side cannot know it).  The dice secret is the bot's own.  The belief reads what
greedy reads (the side's events and view, its seed), never the game's state.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from dataclasses import replace
from functools import cache
from typing import Any

from engine.bots.knowledge import blind
from engine.bots.rng import Chooser
from engine.core.events import Event
from engine.core.visibility import SEEN_BY
from engine.games.pacific_battles import queries as q
from engine.games.pacific_battles.movement import SUPPLY, Piece
from engine.games.pacific_battles.rules import PacificBattles, opening_forces
from engine.games.pacific_battles.state import Off, PBState, other

# a stub lacks the key its whole event has (the others read only what happened)
WHOLE_KEY = {"forces_set": "pool", "pieces_added": "pieces", "piece_placed": "id", "pieces_moved": "ids",
             "pieces_removed": "ids", "marker_drawn": "marker", "landing_readied": "id", "examined": "hexes",
             "supply_spent": "ids", "decision_sealed": "decision", "follow_on_set": "ids", "off_moved": "ids",
             "hq_activated": "hq", "broken_down": "into", "suppressed": "ids", "suppression_removed": "ids",
             "hqs_deactivated": "ids", "decision_progress": "changes", "decision_owed": "decision"}
ID_LISTS = ("ids",)  # whole events' keys naming pieces, filtered to the pieces the belief holds
ID_KEYS = ("id", "hq", "unit")


class Belief:
    """The believed state, built event by event (``take``), then set by the view (``settle``)."""

    def __init__(self, rules: PacificBattles, side: str, rng: Chooser) -> None:
        self.rules = rules
        self.side = side
        self.enemy = other(side)
        self.rng = rng
        self.state: PBState = rules.blank()
        self.options: dict[str, Any] = {}
        self.pinned: set[str] | None = None  # the enemy's pieces the view shows (None: what was ever seen)

    # --- the events -------------------------------------------------------------------------
    def take(self, event: Event) -> None:
        key = WHOLE_KEY.get(event.type)
        if key is not None and key not in event.data and SEEN_BY not in event.data:
            guess = STUBS.get(event.type)
            if guess is not None:
                guess(self, event)
            return
        if event.type == "game_created":
            self.options = dict(event.data.get("options") or {})
        self._whole(event)

    def _whole(self, event: Event) -> None:
        s = self.state
        data = dict(event.data)
        for name in ID_LISTS:
            if isinstance(data.get(name), list):
                data[name] = [pid for pid in data[name] if not isinstance(pid, str) or self._held(pid)]
        if event.type == "marker_played" and data.get("side") == self.enemy:
            self._hold_marker(data["marker"])
        if event.type == "examined" and data.get("side") == self.side:
            for h, units in data.get("units", {}).items():
                for pid, unit in units:
                    self.put_enemy(pid, unit, h)
        if event.type == "pieces_moved" and data.get("ids") and data.get("from"):
            for pid in data["ids"]:
                if pid in s.pieces and s.pieces[pid].side == self.enemy:
                    self.put_enemy(pid, s.pieces[pid].unit, data["from"])
        for name in ID_KEYS:
            pid = data.get(name)
            if event.type not in ("piece_placed", "pieces_added") and isinstance(pid, str) \
                    and self._names_piece(name, event) and not self._held(pid):
                return  # a piece of the enemy's the belief never had (made in secret): nothing to do
        # a guess that the enemy's whole event contradicts: the view settles the pieces at the end
        with suppress(KeyError, ValueError, IndexError, AttributeError):
            self.rules.apply(s, Event(event.type, data, event.side))

    @staticmethod
    def _names_piece(key: str, event: Event) -> bool:
        return key != "unit" or event.type in ("turned_face_up", "turned_face_down")

    def _held(self, pid: str) -> bool:
        s = self.state
        return pid in s.pieces or pid in s.off

    # --- the enemy's hidden moves, guessed ------------------------------------------------------
    def _forces(self, event: Event) -> None:
        forces, _ = opening_forces(self.enemy, self.options)
        if self.options.get("variable_forces"):
            return  # 35.4: its start force is its own secret die's
        self._whole(Event(event.type, {"side": self.enemy, **forces}, event.side))

    def _added(self, event: Event) -> None:
        if self.state.turn == 0 and set(event.data) <= {"side", "text"}:  # the opening track
            _, pieces = opening_forces(self.enemy, self.options)
            self._whole(Event(event.type, {"side": self.enemy, "pieces": pieces}, event.side))

    def _placed(self, event: Event) -> None:
        s = self.state
        ready = [o for o in s.off.values() if o.side == self.enemy and o.box in ("track", "base")
                 and o.due <= max(s.turn, 1)]
        ready.sort(key=lambda o: o.id)
        if ready:
            o = self.rng.pick(ready)
            self._whole(Event("piece_placed", {"id": o.id, "hex": event.data["hex"]}, event.side))

    def _moved(self, event: Event) -> None:
        d = event.data
        here = self._enemy_at(d.get("from", ""))
        count = min(int(d.get("count", 1) or 1), len(here))
        if count:
            ids = [p.id for p in here[:count]]
            self._whole(Event("pieces_moved", {"ids": ids, "from": d["from"], "to": d["to"]}, event.side))

    def _removed(self, event: Event) -> None:
        d = event.data
        if "hex" not in d:
            return
        here = self._enemy_at(d["hex"])
        what = str(d.get("what", ""))
        if "supply" in what:
            here = [p for p in here if p.unit == SUPPLY]
        if here:
            box = "evacuated" if d.get("evacuated") else "mix" if here[0].unit == SUPPLY else "replace"
            self._whole(Event("pieces_removed", {"ids": [here[0].id], "box": box, "owner": self.enemy,
                                                 "unit": here[0].unit, "why": d.get("why", "")}, event.side))

    def _drawn(self, event: Event) -> None:
        pool = sorted(self.state.pool[self.enemy])
        if pool:
            self._whole(Event("marker_drawn", {"side": self.enemy, "marker": self.rng.pick(pool)}, event.side))

    def _spent(self, event: Event) -> None:
        points = [p for p in self.state.pieces.values() if p.side == self.enemy and p.unit == SUPPLY]
        points.sort(key=lambda p: p.id)
        n = min(int(event.data.get("points", 1) or 1), len(points))
        if n:
            self._whole(Event("supply_spent", {"ids": [p.id for p in points[:n]]}, event.side))

    def _activated(self, event: Event) -> None:
        s = self.state
        hqs = sorted(p.id for p in s.pieces.values() if p.side == self.enemy and p.id not in s.active
                     and p.unit.endswith("HQ"))
        if hqs:
            self._whole(Event("hq_activated", {"hq": self.rng.pick(hqs)}, event.side))

    def _suppressed(self, event: Event) -> None:
        ids = [p.id for p in self._enemy_at(event.data.get("hex", ""))]
        if ids:
            self._whole(Event("suppressed", {"ids": ids}, event.side))

    def _unsuppressed(self, event: Event) -> None:
        ids = sorted(p.id for p in self.state.pieces.values() if p.side == self.enemy and p.suppressed)
        if ids:
            self._whole(Event("suppression_removed", {"ids": ids}, event.side))

    def _owed(self, event: Event) -> None:
        self._whole(event)  # who owes what kind of decision: its details are the enemy's

    def _hold_marker(self, name: str) -> None:
        """The enemy plays ``name``: if the guess of its hand lacks it, a guessed marker goes
        back to its pool for it."""
        s = self.state
        hand, pool = s.hand[self.enemy], s.pool[self.enemy]
        if name in hand or name not in pool:
            return
        pool.remove(name)
        if hand:
            back = self.rng.pick(sorted(hand))
            hand.remove(back)
            s.pool[self.enemy] = sorted([*pool, back])
        s.hand[self.enemy] = sorted([*hand, name])

    # --- where the enemy stands ------------------------------------------------------------------
    def _known(self) -> set[str]:
        return self.state.revealed[self.side] if self.pinned is None else self.pinned

    def _enemy_at(self, h: str) -> list[Piece]:
        shown = self._known()
        here = [p for p in self.state.pieces.values() if p.side == self.enemy and p.hex == h]
        return sorted(here, key=lambda p: (p.id in shown, p.id))  # guesses first

    def put_enemy(self, pid: str, unit: str, h: str) -> None:
        """The enemy's piece ``pid`` (``unit``) is in ``h``: moved there, swapping places with
        a guessed piece there (which takes its old place), or made if the belief lacks it."""
        s = self.state
        at = s.pieces.get(pid)
        if at is not None and at.hex == h:
            return
        shown = self._known()
        supply = unit == SUPPLY  # (a supply point stands in only for one: off the map it has no box but the mix)
        stand_in = next((p for p in self._enemy_at(h) if p.id not in shown and p.id != pid
                         and (p.unit == SUPPLY) == supply), None)
        if stand_in is not None:
            if at is not None:
                s.pieces[stand_in.id] = replace(stand_in, hex=at.hex)
            elif pid in s.off:
                del s.pieces[stand_in.id]
                s.off[stand_in.id] = replace(s.off[pid], id=stand_in.id, unit=stand_in.unit)
            else:
                del s.pieces[stand_in.id]
        s.off.pop(pid, None)
        s.pieces[pid] = replace(at, hex=h) if at is not None else Piece(pid, unit, self.enemy, h)

    def settle(self, view: dict[str, Any]) -> PBState:
        """The enemy's pieces where the view shows enemy stacks; the belief is done."""
        s = self.state
        stacks = {st["hex"]: st for st in view.get("stacks", []) if st.get("side") == self.enemy}
        shown = {u["id"]: (u["unit"], h) for h, st in stacks.items() for u in st.get("units") or [] if u.get("id")}
        self.pinned = set(shown)
        for pid, (unit, h) in sorted(shown.items()):
            self.put_enemy(pid, unit, h)
        unseen = sorted(h for h, st in stacks.items() if not st.get("units"))
        astray = sorted((p for p in s.pieces.values() if p.side == self.enemy and p.id not in shown
                         and p.hex not in unseen), key=lambda p: p.id)
        for h in unseen:
            if self._enemy_at(h):
                continue
            if astray:  # a guess in the wrong place: into an unexamined stack that has none
                p = astray.pop(0)
                s.pieces[p.id] = replace(p, hex=h)
                continue
            spare = sorted((o for o in s.off.values() if o.side == self.enemy and o.box == "track"
                            and o.unit != SUPPLY), key=lambda o: o.id)
            if spare:  # else one of the track's
                o = self.rng.pick(spare)
                del s.off[o.id]
                s.pieces[o.id] = Piece(o.id, o.unit, o.side, h)
            else:  # else a battalion made in secret (a breakdown, a replacement): one of its kind
                pid = f"?{len(s.pieces) + len(s.off)}"  # (no id the rules make: theirs are a letter and a number)
                s.pieces[pid] = Piece(pid, self.rng.pick(_battalions(self.enemy)), self.enemy, h)
        for p in astray:  # a guess with no stack to be in: back to the track
            del s.pieces[p.id]
            s.off[p.id] = Off(p.id, p.unit, p.side, "track", s.turn + 1)
        s.fortified = set(view.get("fortified", ()))  # (public, 21.0)
        s.forget()
        return s


@cache
def _battalions(side: str) -> list[str]:
    """The side's battalion counters (26.7, printed in the forces tables)."""
    return sorted(name for name, spec in q.forces().battalion.items() if spec.side == side)


STUBS: dict[str, Callable[[Belief, Event], None]] = {
    "forces_set": Belief._forces, "pieces_added": Belief._added, "piece_placed": Belief._placed,
    "pieces_moved": Belief._moved, "pieces_removed": Belief._removed, "marker_drawn": Belief._drawn,
    "supply_spent": Belief._spent, "hq_activated": Belief._activated, "suppressed": Belief._suppressed,
    "suppression_removed": Belief._unsuppressed, "decision_owed": Belief._owed,
}  # the rest (a sealed decision, a step of a decision, a landing readied, ...): the enemy's alone


def believe(events: tuple[Event, ...], view: dict[str, Any], side: str, seed: str, secret: str) -> PBState:
    """The state ``side`` may believe in after ``events`` (as it reads them), with ``view``
    (its view now); the guesses drawn from ``seed``, the dice from ``secret``."""
    belief = Belief(PacificBattles(), side, Chooser(seed))
    for e in events:
        belief.take(blind(e, secret))
    state = belief.settle(view)
    state.secret = secret
    return state
