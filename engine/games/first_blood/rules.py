"""The First Blood plug-in: set-up, prompt, legal commands, decide, view.

``legal_commands`` is the single source of truth: ``decide`` accepts a command
only if it is in that list (restricted to the unit it names, for speed) and
only then asks why not, to give the player the rule that forbids it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from engine.core import choices, dice, fields, forfeit, undo
from engine.core.errors import IllegalCommandError, MalformedCommandError, RuleError
from engine.core.events import Command, Event, among
from engine.core.game import SETTING_UP, Emitter, Headline, Outcome, Prompt, RulesBase, check_turn
from engine.games.first_blood import evolve, sequence
from engine.games.first_blood import queries as q
from engine.games.first_blood.board import load_board
from engine.games.first_blood.describe import command_label, describe, step_text
from engine.games.first_blood.oob import LAST_TURN, load_oob, turn_name
from engine.games.first_blood.phases import (
    air,
    bombardment,
    combat,
    engineering,
    movement,
    reinforcements,
    results,
    setup,
    usaf,
)
from engine.games.first_blood.state import FBState

TIME_FORFEIT = forfeit.TIME_FORFEIT  # the server's clock ends the game (app/services/clock.py)
SCENARIOS = {"campaign": "The campaign: US set-up, then Sep I to Jan III (15 turns)"}
OPTIONS = {
    engineering.OPTION_TWO_UNITS: "Optional §10: any two US ground units may work as one engineer",
}
# The fields of every command and their JSON types ("str?" may be null).
FIELDS: dict[str, dict[str, str]] = {
    "place": {"unit": "str", "to": "str"}, "move": {"unit": "str", "to": "str"},
    "air_attack": {"units": "list", "target": "str"}, "naval_support": {"unit": "str", "hex": "str"},
    "air_support": {"unit": "str", "hex": "str"}, "attack": {"hex": "str"}, "add": {"unit": "str"},
    "cancel_attack": {}, "resolve": {}, "bombard": {"unit": "str", "hex": "str", "target": "str?"},
    "eliminate": {"unit": "str"}, "retreat": {"unit": "str", "to": "str?"}, "advance": {"unit": "str", "to": "str"},
    "end_advance": {}, "work": {"hex": "str", "units": "list"}, "to_reserve": {"unit": "str"},
    "land": {"unit": "str", "hex": "str"}, "allocate": {"unit": "str", "box": "str"}, "end_phase": {},
}
# Optional ("str?") fields default to null, so that {"target": null} and a missing
# "target" are the same command.
DEFAULTS: dict[str, dict[str, Any]] = fields.defaults(FIELDS)

Handler = Callable[[Emitter, dict[str, Any], str], None]
HANDLERS: dict[str, Handler] = {
    "place": reinforcements.do_place,
    "move": movement.do_move,
    "air_attack": air.do_air_attack,
    "naval_support": air.do_support,
    "air_support": air.do_support,
    "attack": combat.do_attack,
    "add": combat.do_add,
    "cancel_attack": combat.do_cancel,
    "resolve": combat.do_resolve,
    "bombard": bombardment.do_bombard,
    "eliminate": results.do_eliminate,
    "retreat": results.do_retreat,
    "advance": results.do_advance,
    "end_advance": results.do_end_advance,
    "work": engineering.do_work,
    "to_reserve": usaf.do_to_reserve,
    "land": usaf.do_land,
    "allocate": usaf.do_allocate,
    "end_phase": lambda em, data, side: sequence.end_phase(em),
}


class FirstBlood(RulesBase[FBState]):
    id = "first_blood"
    title = "First Blood: The Guadalcanal Campaign"
    sides = ("US", "IJ")
    scenarios = SCENARIOS
    options = OPTIONS

    # --- state plumbing ------------------------------------------------------
    def blank(self) -> FBState:
        return FBState()

    def clone(self, state: FBState) -> FBState:
        return state.clone()

    def with_secret(self, state: FBState, secret: str) -> FBState:
        return state.with_secret(secret)

    def apply(self, state: FBState, event: Event) -> None:
        evolve.apply(state, event)

    def state_to_json(self, state: FBState) -> dict[str, Any]:
        return state.to_json()

    def state_from_json(self, obj: dict[str, Any]) -> FBState:
        return FBState.from_json(obj)

    def create(self, scenario: str = "campaign", options: dict[str, Any] | None = None,
               secret: str = "") -> list[Event]:
        """The opening events of a new game: created, then up to the US set-up."""
        if scenario not in SCENARIOS:
            raise MalformedCommandError("", f"unknown scenario {scenario!r}; known: {sorted(SCENARIOS)}")
        options = dict(options or {})
        unknown = set(options) - set(OPTIONS)
        if unknown:
            raise MalformedCommandError("", f"unknown option(s) {sorted(unknown)}; known: {sorted(OPTIONS)}")
        b = load_board()
        strips = {h: {"status": "oper", "built": True} for h in b.henderson}  # §3
        strips.update({h: {"status": "dest", "built": False} for h in b.fighter_strip})
        em = Emitter(self, self.blank())
        em.emit("game_created", None, game=self.id, scenario=scenario, options=options,
                secret=secret, commitment=dice.commitment(secret), units=sorted(load_oob()),
                strips=strips)
        sequence.end_phase(em)
        sequence.settle(em, self._needs_input)
        return em.events

    # --- whose move -------------------------------------------------------------
    def prompt(self, state: FBState) -> Prompt:
        if state.prompted is not None and state.prompted[0] == state.seq:
            return state.prompted[1]
        prompt = self._prompt(state)
        state.prompted = (state.seq, prompt)  # type: ignore[misc]  # the instance's own (FBState.prompted)
        return prompt

    def _prompt(self, state: FBState) -> Prompt:
        if state.result is not None:
            r = state.result
            text = f"Game over: {r['winner']} wins. {r['reason']}"
            return Prompt(None, "game_over", text, text)
        if state.pending:
            d = state.pending[0]
            what = results.describe_decision(d)
            return Prompt(d["side"], d["kind"], what[0].upper() + what[1:],
                          f"Waiting for {d['side']} to {what}", d.get("rule", ""), d)
        side = sequence.phase_side(state.phase)
        if side is None:  # within the game's creation (a replay's first moments)
            return Prompt(None, state.phase, SETTING_UP, SETTING_UP)
        title = sequence.PHASE_TITLES.get(state.phase, state.phase)
        return Prompt(side, state.phase, _phase_text(self, state, side),
                      f"Waiting for {side}: {title}, {turn_name(state.turn)}")

    # --- legal commands ------------------------------------------------------------
    def legal_commands(self, state: FBState, side: str | None = None) -> list[Command]:
        p = self.prompt(state)
        if p.side is None or (side is not None and side != p.side):
            return []
        legal = self._legal(state, p.side)
        take_back = undo.command(state, p.side)
        return legal + [take_back] if take_back is not None else legal

    def legal_choices(self, state: FBState, side: str) -> list[dict[str, Any]]:
        """As ``group(legal_commands)``; a set-up's placements and a movement phase's moves
        built from each unit's places (the set-up's some 2,000 commands never made)."""
        p = self.prompt(state)
        if p.side is None or side != p.side:
            return []
        direct = None if state.pending else self._by_unit(state, side)
        if direct is None:
            return choices.group(self.legal_commands(state, side))
        rows, kind, rest = direct
        own = choices.by_key(kind, "unit", "to", rows)
        if own is None:
            return choices.group(self.legal_commands(state, side))
        take_back = undo.command(state, side)
        return own + choices.group([*rest, *filter(None, [take_back])])

    def _by_unit(self, state: FBState, side: str) -> tuple[list[tuple[str, list[str]]], str, list[Command]] | None:
        """The phase's unit commands as (unit, its places) rows, their type, and the phase's
        other commands (the list is the rows' commands, then those), in the set-up and in
        movement; None in any other phase."""
        if _placing(state.phase):
            return list(reinforcements.place_rows(state, side)), "place", _set_up_done(state, side)
        if state.phase.endswith("_movement"):
            rows = [(uid, sorted(movement.reachable(state, uid))) for uid in movement.movable_units(state, side)]
            return rows, "move", list(_movement_rest(state, side, None))
        return None

    def _legal(self, state: FBState, side: str, only: Command | None = None) -> list[Command]:
        if not state.pending and _placing(state.phase):  # (some 2,000 in a set-up: listed whole, not one by one)
            unit = only.data.get("unit") if only is not None else None
            return [*reinforcements.gen_place(state, side, unit if isinstance(unit, str) else None),
                    *_set_up_done(state, side)]
        return list(self._iter_legal(state, side, only))

    def _iter_legal(self, state: FBState, side: str, only: Command | None = None) -> Iterator[Command]:
        """The legal commands, in their order, generated only as far as the caller reads
        (``only``: just the ones that could equal this command)."""
        if state.pending:
            yield from results.gen_decision(state, side)
            return
        phase = state.phase
        unit = only.data.get("unit") if only is not None else None

        def wants(*types: str) -> bool:  # (a family of commands that cannot hold ``only`` is skipped)
            return only is None or only.type in types

        if _placing(phase):
            yield from reinforcements.iter_place(state, side, unit if isinstance(unit, str) else None)
            yield from _set_up_done(state, side)
        elif phase.endswith("_movement"):
            if only is not None and only.type == "move" and isinstance(unit, str):
                yield from movement.iter_moves(state, side, unit)
                return
            if wants("move"):
                yield from movement.iter_moves(state, side)
            yield from _movement_rest(state, side, only)
        elif phase.endswith("_combat"):
            if wants(*combat.COMMANDS):
                yield from combat.gen_combat(state, side)
            if state.combat is None:
                if side == "IJ" and wants("bombard"):
                    yield from bombardment.gen_bombard(state)
                if not combat.obligations(state, side):
                    yield Command("end_phase")
        elif phase == "us_engineering":
            yield from engineering.gen_work(state)
            yield Command("end_phase")
        elif phase == "us_air":
            yield from usaf.gen_air_phase(state)
            if usaf.step(state) == "allocate":
                yield Command("end_phase")
        elif phase in ("ij_supply", "ij_strategic"):
            yield Command("end_phase")  # nothing to choose: they run by themselves, but hand over by word

    def _needs_input(self, state: FBState) -> bool:
        """Has the acting side a choice other than ending the phase (stops at the first),
        or would ending it hand the game over?  The turn passes only by the player's word."""
        side = self.prompt(state).side
        if side is None:
            return False
        can_end = False
        for c in self._iter_legal(state, side):
            if c.type != "end_phase":
                return True
            can_end = True
        return can_end and self.hands_over(state)  # with nothing to choose at all, the phase just ends

    def hands_over(self, state: FBState) -> bool:
        """Would ending the current phase give the decision to the other side (R-HANDOVER)?"""
        side = sequence.phase_side(state.phase)
        if side is None or state.pending or state.result is not None:
            return False
        return sequence.TRACK.next(state.phase, state.turn)[0].side != side

    # --- decide ------------------------------------------------------------------------
    def decide(self, state: FBState, command: Command) -> list[Event]:
        return self._decide(state, command, describe=False).events

    def outcome(self, state: FBState, command: Command) -> Outcome[FBState]:
        return self._decide(state, command, describe=True).outcome()

    def _decide(self, state: FBState, command: Command, describe: bool) -> Emitter:
        if command.type == TIME_FORFEIT:
            return self._time_forfeit(state, command, describe)
        if command.type == undo.UNDO:
            return undo.take_back(self, state, command, describe)
        if command.type not in HANDLERS:
            raise MalformedCommandError("", f"unknown command {command.type!r}; known: {sorted(HANDLERS)}")
        fields.check(command, FIELDS, DEFAULTS)
        prompt = self.prompt(state)
        check_turn(prompt, command, "§4")  # the turn sequence
        side = prompt.side
        data = {**DEFAULTS.get(command.type, {}), **command.data}
        for name, kind in FIELDS[command.type].items():
            if kind == "list":
                data[name] = sorted(data[name])  # a list of units is a set: any order will do
        cmd = Command(command.type, data, side)
        try:
            legal = among(cmd, self._iter_legal(state, side, cmd))  # stops at the match
        except (TypeError, KeyError) as exc:  # malformed data inside an otherwise known command
            raise MalformedCommandError("", f"malformed {command.type} command: {exc}") from None
        if not legal:
            raise self._why(state, side, cmd)
        em = Emitter(self, state, describe)
        HANDLERS[cmd.type](em, cmd.data, side)
        sequence.settle(em, self._needs_input)
        if undo.undoable(side, cmd, em.rolled, False, self.prompt(em.state).side):  # nothing is hidden in FB
            em.events = undo.seal(state, em.events, em.state, side, FBState.clone)
        return em

    def _time_forfeit(self, state: FBState, command: Command, describe: bool) -> Emitter:
        """The server's clock ends the game on time (engine/core/forfeit.py)."""
        winner, _, reason = forfeit.judge(command, self.sides, state.result is not None)
        em = Emitter(self, state, describe)
        em.emit("game_ended", None, winner=winner, turn=state.turn, reason=reason)
        return em

    def _why(self, state: FBState, side: str, cmd: Command) -> RuleError:
        if state.pending:
            return results.why_decision_illegal(state, side, cmd)
        phase = state.phase
        t = cmd.type
        if t == "end_phase":
            return _why_not_end(state, side)
        if t == "place" and (phase.endswith("_setup") or phase.endswith("_reinforcements")):
            return reinforcements.why_place_illegal(state, side, cmd.data)
        if t == "move" and phase.endswith("_movement"):
            return movement.why_move_illegal(state, side, cmd.data)
        if t in ("air_attack", "naval_support", "air_support") and phase.endswith("_movement"):
            return air.why_air_illegal(state, side, cmd)
        if t in ("attack", "add", "resolve", "cancel_attack") and phase.endswith("_combat"):
            return combat.why_combat_illegal(state, side, cmd)
        if t == "bombard" and phase == "ij_combat":
            if state.combat is not None:
                return IllegalCommandError("§7.6", "finish the attack being declared first")
            return bombardment.why_bombard_illegal(state, cmd)
        if t == "work" and phase == "us_engineering":
            return engineering.why_work_illegal(state, cmd)
        if t in ("to_reserve", "land", "allocate") and phase == "us_air":
            return usaf.why_air_phase_illegal(state, cmd)
        title = sequence.PHASE_TITLES.get(phase, phase)
        return IllegalCommandError("§4", f"'{t}' is not possible in the {title} phase")

    # --- reading -------------------------------------------------------------------------
    def describe(self, state: FBState, event: Event) -> str | None:
        return describe(state, event)

    def label(self, state: FBState, command: Command) -> str:
        if command.type == "end_phase":
            return self._end_label(state)
        if command.type == undo.UNDO:
            return self._undo_label(state)
        return command_label(state, command)

    def _undo_label(self, state: FBState) -> str:
        """"Take back: 124/1 moves 0909 -> 0910" (the step's first log line)."""
        return self.step_label(step_text(state, state.undo.steps[-1]) if state.undo.steps else None)

    def _end_label(self, state: FBState) -> str:
        """"End IJ combat", and what follows until the other side acts, from the turn
        track alone (never by trying it: the dice of the phases ahead stay unknown)."""
        side = sequence.phase_side(state.phase)
        title = _short(state.phase)
        then: list[str] = []
        phase, turn = state.phase, state.turn
        for _ in range(len(sequence.TURN) + 2):
            nxt, turn = sequence.TRACK.next(phase, turn)
            phase = nxt.name
            if sequence.phase_side(phase) != side:
                break
            then.append(_short(phase))
        follow = f"; then {', '.join(then)}" if then else ""
        if state.phase == "us_air" and state.turn >= LAST_TURN:
            return "End US air and the game (§12: the victory check)"
        if self.hands_over(state):
            return f"End {title} and hand over to {sequence.phase_side(phase)}"
        return f"End {title}{follow}; then you hand over to {sequence.phase_side(phase)}"

    def reachable(self, state: FBState, unit: str) -> dict[str, dict[str, Any]]:
        return {dest: {"cost": r.cost, "path": list(r.path), "stops": r.stops}
                for dest, r in movement.reachable(state, unit).items()}

    def end_phase_notes(self, state: FBState) -> list[str]:
        """What ending the current phase now will cost, for the player to confirm: units
        left on entry points are eliminated at the end of their combat phase (§5)."""
        side = sequence.phase_side(state.phase)
        notes = [f"This ends your part of the turn: the game passes to {q.other(side)}, and nothing before "
                 f"it can be taken back"] if self.hands_over(state) else []
        return self._stranded_notes(state, side) + notes

    def _stranded_notes(self, state: FBState, side: str | None) -> list[str]:
        if side is None or not (state.phase.endswith("_movement") or state.phase.endswith("_combat")):
            return []
        stranded = sorted(uid for uid, u in state.units.items()
                          if q.in_entry(u.loc) is not None and q.spec(uid).side == side)
        if not stranded:
            return []
        when = "at the end of this phase" if state.phase.endswith("_combat") else "at the end of your combat phase"
        return [f"{', '.join(q.label(u) for u in stranded)} {'is' if len(stranded) == 1 else 'are'} still on an "
                f"entry point and will be eliminated {when} (§5)"]

    def map_data(self, scenario: str) -> dict[str, Any]:
        from engine.games.first_blood.map_data import map_data

        return map_data()  # one map for every scenario

    def unit_named(self, state: FBState, side: str | None, unit: str) -> bool:
        return unit in state.units  # nothing is hidden in First Blood

    def why_unreachable(self, state: FBState, unit: str) -> dict[str, str]:
        """Places near the unit it may not move to now, each with the rule and the reason."""
        return {place: f"{rule}: {text}" for place, (rule, text) in movement.refusals(state, unit).items()}

    def why_idle(self, state: FBState, side: str, unit: str) -> str | None:
        u = state.units.get(unit)
        if (u is None or q.spec(unit).side != side or q.spec(unit).kind != "ground" or not q.in_play(u.loc)
                or state.phase != f"{side.lower()}_movement" or state.pending or state.result is not None):
            return None
        why = movement.idle(state, unit)
        return None if why is None else f"{why[0]}: {why[1]}"

    def preview_attack(self, state: FBState, side: str, targets: list[str], units: list[str],
                       positions: dict[str, str] | None = None) -> dict[str, Any]:
        """Odds and modifiers of a proposed attack.  In one's own combat phase, declared on a
        scratch copy with the same legal commands a real declaration uses (so an illegal one
        raises); at any other moment, or with ``positions`` (unit -> the hex it would attack
        from), what it would be (``combat.what_if``): the question a player asks while moving."""
        if positions is not None or state.phase != f"{side.lower()}_combat":
            return combat.what_if(state, side, targets, units, positions or {})
        scratch = state.clone()
        if scratch.combat is not None:
            self._play(scratch, Command("cancel_attack", {}, side))
        for h in targets:
            self._play(scratch, Command("attack", {"hex": h}, side))
        for u in units:
            self._play(scratch, Command("add", {"unit": u}, side))
        return combat.assess(scratch, scratch.combat) if scratch.combat else {}

    def _play(self, state: FBState, command: Command) -> None:
        for e in self.decide(state, command):
            self.apply(state, e)

    def phase_title(self, data: dict[str, Any]) -> str:
        """"us_movement" -> "US movement"."""
        first, _, rest = str(data.get("phase", "")).partition("_")
        return f"{first.upper()} {rest.replace('_', ' ')}".strip()

    def ahead(self, state: FBState) -> Callable[[], None] | None:
        """In a side's reinforcement phase, the move searches its movement phase starts with
        (``movement``'s memo of searches).  The answer to the command that ends the phase
        lists that phase's moves, every unit's search at once with every MF back: its
        slowest answer.  What the side places meanwhile changes no other unit's search (the
        enemy stands still), so each is found then as made now."""
        if state.result is not None or not state.phase.endswith("_reinforcements"):
            return None
        return lambda: self._search_movement_ahead(state)

    def _search_movement_ahead(self, state: FBState) -> None:
        em = Emitter(self, state)  # a scratch copy, whose phase ends now
        sequence.end_phase(em)
        ahead: FBState = em.state
        side = sequence.phase_side(ahead.phase)
        if side is None or ahead.phase != f"{side.lower()}_movement":
            return
        for uid in movement.movable_units(ahead, side):
            movement.reachable(ahead, uid)

    def headline(self, state: FBState) -> Headline:
        return Headline(state.turn, turn_name(state.turn), sequence.PHASE_TITLES.get(state.phase, state.phase))

    def view(self, state: FBState, side: str | None, legal: list[Command] | None = None) -> dict[str, Any]:
        """The view of ``side`` (None: a spectator).  ``legal``: that side's legal commands,
        if the caller listed them already (they are listed once per state)."""
        from engine.games.first_blood.view import build_view

        return build_view(self, state, side, legal)


def _movement_rest(state: FBState, side: str, only: Command | None) -> Iterator[Command]:
    """A movement phase's commands after the moves: air attacks and support, the end."""
    def wants(*types: str) -> bool:
        return only is None or only.type in types

    if side == "IJ":
        if wants("air_attack", "naval_support"):
            yield from air.gen_air_attacks(state) + air.gen_naval_support(state)
    elif wants("air_support"):
        yield from air.gen_air_support(state)
    if not movement.unmet_must_moves(state, side) and not q.overstacked(state):
        yield Command("end_phase")


def _placing(phase: str) -> bool:
    return phase.endswith("_setup") or phase.endswith("_reinforcements")


def _set_up_done(state: FBState, side: str) -> list[Command]:
    """Ending a set-up, once every unit is placed: it is done when its player says so."""
    return [Command("end_phase")] if state.phase.endswith("_setup") and not setup.unplaced(state, side) else []


def _short(phase: str) -> str:
    """"IJ combat (§7)" -> "IJ combat"."""
    return sequence.PHASE_TITLES.get(phase, phase).split(" (")[0]


def _phase_text(rules: FirstBlood, state: FBState, side: str | None) -> str:
    phase = state.phase
    if phase.endswith("_setup"):
        left = len(setup.unplaced(state, side))
        if not left and side is not None:
            return f"All your units are set up: hand over to {q.other(side)} when you are ready"
        return f"Set up your units ({left} left to place)"
    if phase.endswith("_reinforcements"):
        return f"Place your reinforcements ({len(setup.unplaced(state, side))} left)"
    if phase.endswith("_movement"):
        over = q.overstacked(state)
        if over:
            return f"{', '.join(over)} holds more than {q.STACK_LIMIT} units: move one out (§6.4)"
        must = movement.unmet_must_moves(state, side)
        extra = (f"; {len(must)} unit(s) in off-map boxes must still move (§6.5; not those that arrived this "
                 "turn, have moved or have nowhere to go)") if must else ""
        return "Move your units, assign air and naval support, then end the phase" + extra
    if phase.endswith("_combat"):
        if state.combat is not None:
            return "Add units to the attack, then resolve it (or cancel)"
        owed = combat.obligations(state, side)
        extra = f"; {len(owed)} mandatory combat pairing(s) left (§7)" if owed else ""
        return "Declare and resolve your attacks" + extra
    if phase == "ij_strategic":  # (the boxes moved as the phase began)
        return ("Your Attack boxes' units have left play and your Reserve boxes' have moved to the Attack boxes (§9): "
                "end the phase to hand the turn to the US")
    if phase == "us_engineering":
        return "Order engineering work on the air strips, then end the phase"
    if phase == "us_air":
        return {"excess": "Too many active USAF units: send some to the Reserve (§11)",
                "land": "Land the units that flew this turn on an operational air strip (§11)",
                "allocate": "Allocate face-up units to CAP or Ground Attack for next turn, then end the phase"}[
            usaf.step(state)]
    return sequence.PHASE_TITLES.get(phase, phase)


def _why_not_end(state: FBState, side: str) -> IllegalCommandError:
    phase = state.phase
    if phase.endswith("_movement"):
        over = q.overstacked(state)
        if over:
            return IllegalCommandError("§6.4", f"at the end of the movement phase no hex may hold more than "
                                               f"{q.STACK_LIMIT} ground units: {', '.join(over)}")
        must = movement.unmet_must_moves(state, side)
        return IllegalCommandError("§6.5", "IJ units in off-map boxes must move every turn: "
                                           + ", ".join(q.label(u) for u in must))
    if phase.endswith("_combat"):
        if state.combat is not None:
            return IllegalCommandError("§7.6", "resolve or cancel the attack being declared first")
        owed = combat.obligations(state, side)
        pairs = ", ".join(f"{q.label(u)} -> {h}" for u, h in owed[:4])
        return IllegalCommandError("§7", "combat is mandatory for units in enemy ZOC and every "
                                         f"adjacent enemy must be attacked: {pairs}")
    if phase == "us_air":
        return IllegalCommandError("§11", "send excess units to the Reserve and land every unit "
                                          "that flew before ending the phase")
    if phase.endswith("_setup"):
        return IllegalCommandError("§3", f"place every unit first ({len(setup.unplaced(state, side))} left)")
    return IllegalCommandError("§4", "this phase ends by itself once everything is placed")


RULES = FirstBlood()
