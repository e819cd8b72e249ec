"""The Pacific Battles plug-in: create, prompt, legal commands, decide, view.

As in First Blood, ``legal_commands`` is the single source of truth: ``decide`` accepts
a command only if it is in that list, and asks why not only to name the rule that
forbids it.  One command is too open to list, the secret air allocation (any split of
the Reserve): the list holds a few, and ``planning.check_allocate`` judges the rest.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from engine.core import choices, dice, fields, forfeit, undo
from engine.core.errors import MalformedCommandError, NotYourTurnError, RuleError
from engine.core.events import Command, Event, among
from engine.core.game import SETTING_UP, Emitter, Headline, Outcome, Prompt, RulesBase, check_turn
from engine.core.visibility import for_viewer
from engine.games.pacific_battles import (
    arrivals,
    battles,
    deception,
    decisions,
    evolve,
    face_up,
    flow,
    impulse,
    leaks,
    markers,
    planning,
    supplying,
    tell,
    variable,
    why,
)
from engine.games.pacific_battles import describe as describing
from engine.games.pacific_battles import map_data as pb_map
from engine.games.pacific_battles import queries as q
from engine.games.pacific_battles import sequence as seq
from engine.games.pacific_battles import view as pb_view
from engine.games.pacific_battles.movement import SUPPLY
from engine.games.pacific_battles.state import MISSIONS, SIDES, STATE_FORMAT, PBState

SCENARIOS = {name: spec["title"] for name, spec in q.forces().scenarios.items()}
OPTIONS = {
    "more_superiority": "Optional 30.0: air superiority points above eight fire as a separate combat",
    "high_ground": "Optional 28.0: an HQ on hills or mountains supports two hexes farther",
    "buy_markers": "Optional 27.0: spend two VP for each extra command marker, up to your normal picks",
    "artillery": "Optional 29.0: activated HQs fire their support value as artillery in the strike phase",
    "variable_forces": "Optional 35.3-35.4: each side's start force by a secret die (a reconstructed table)",
    "close_air_support": "Optional 31.0: air points allocated to close air support shift a battle right",
    "capture_supply": "Optional 32.0: enemy supply in a hex you clear and pursue into may be captured",
    "deception": "Optional 34.1-34.4 and 35.2: deception markers, stacks that are nothing",
    "historical_markers": "Optional 35.1: the historical markers come at their historical dates",
}
FIELDS: dict[str, dict[str, str]] = {
    "place": {"unit": "str", "hex": "str"}, "end_phase": {},
    "allocate": {**dict.fromkeys(MISSIONS, "int"), "support": "int?"}, "fire": {"at_others": "int"},
    "hit": {"mission": "str", "kind": "str"},
    "land": {"unit": "str", "hex": "str"}, "to_base": {"unit": "str"}, "evacuate": {"unit": "str"},
    "buy": {"unit": "str"}, "interdict": {"next": "str"},
    "activate": {"supply": "str", "hq": "str"}, "refit": {"unit": "str", "supply": "str"},
    "repair": {"supply": "str"}, "fortify": {"engineer": "str", "supply": "str"},
    "breakdown": {"unit": "str"}, "combine": {"into": "str", "units": "list"},
    "dig": {"hex": "str"}, "activate_free": {"hq": "str"},
    "move": {"unit": "str", "to": "str"}, "carry": {"unit": "str", "to": "str"},
    "sail": {"carrier": "str", "to": "str", "cargo": "str"}, "assault": {"carrier": "str", "target": "str"},
    "recon": {"hex": "str"}, "strike": {"hex": "str", "points": "int"},
    "artillery": {"hq": "str", "hex": "str", "points": "int"},
    "declare": {"hex": "str"}, "add": {"unit": "str"}, "add_hex": {"hex": "str"}, "close": {}, "cancel": {},
    "withdraw": {"battle": "int"}, "air_support": {"battle": "int", "points": "int"},
    "fight": {}, "crt": {"table": "str"}, "play": {"marker": "str", "target": "str?"}, "pass": {},
    "lose": {"unit": "str"}, "break": {"unit": "str"}, "retreat": {"unit": "str", "to": "str"},
    "pursue": {"unit": "str", "to": "str"}, "stop": {}, "delay_turn": {"turn": "int"}, "buy_marker": {},
    "show": {"unit": "str"}, "hide": {"unit": "str"}, variable.ROLL: {},
}
DEFAULTS = fields.defaults(FIELDS)
ANY_STEP = ("end_phase", "play", *face_up.KINDS)  # what no phase's own generator lists but the end of it

Handler = Callable[[Emitter, dict[str, Any], str], None]


def _end(em: Emitter, data: dict[str, Any], side: str) -> None:
    flow.end_phase(em)


HANDLERS: dict[str, Handler] = {
    "place": arrivals.do_place, "end_phase": _end,
    "allocate": planning.do_allocate, "fire": planning.do_fire, "hit": planning.do_hit,
    "land": arrivals.do_land, "to_base": arrivals.do_to_base, "evacuate": arrivals.do_evacuate,
    "buy": arrivals.do_buy, "buy_marker": planning.do_buy_marker, "interdict": arrivals.do_interdict,
    "activate": supplying.do_activate, "refit": supplying.do_refit, "repair": supplying.do_repair,
    "fortify": supplying.do_fortify, "breakdown": supplying.do_breakdown, "combine": supplying.do_combine,
    "dig": supplying.do_dig, "activate_free": supplying.do_activate_free,
    "move": impulse.do_move, "sail": impulse.do_sail, "recon": impulse.do_recon, "strike": impulse.do_strike,
    "artillery": impulse.do_artillery, "carry": impulse.do_carry, "assault": impulse.do_assault,
    "declare": battles.do_declare, "add": battles.do_add, "add_hex": battles.do_add_hex,
    "close": battles.do_close, "cancel": battles.do_cancel, "withdraw": battles.do_withdraw,
    "air_support": battles.do_air_support,
    "fight": battles.do_fight, "crt": battles.do_crt,
    "pass": battles.do_pass, "lose": battles.do_lose, "break": battles.do_break,
    "retreat": battles.do_retreat, "pursue": battles.do_pursue, "stop": battles.do_stop,
    "show": face_up.do_show, "hide": face_up.do_hide,
    variable.ROLL: variable.do_roll,
}


class PacificBattles(RulesBase[PBState]):
    id = "pacific_battles"
    title = "Pacific Battles Vol. 1: Guadalcanal"
    sides = SIDES
    scenarios = SCENARIOS
    options = OPTIONS
    hidden_information = True  # the fog of war (18.0), the markers in hand (5.4), sealed allocations

    # --- state plumbing ------------------------------------------------------------------
    def blank(self) -> PBState:
        return PBState()

    def clone(self, state: PBState) -> PBState:
        return state.clone()

    def with_secret(self, state: PBState, secret: str) -> PBState:
        return state.with_secret(secret)

    def apply(self, state: PBState, event: Event) -> None:
        evolve.apply(state, event)

    def state_to_json(self, state: PBState) -> dict[str, Any]:
        return state.to_json()

    def state_from_json(self, obj: dict[str, Any]) -> PBState:
        return PBState.from_json(obj)

    def create(self, scenario: str = "historical", options: dict[str, Any] | None = None,
               secret: str = "") -> list[Event]:
        if scenario == "campaign":
            scenario = "historical"
        if scenario not in SCENARIOS:
            raise MalformedCommandError("", f"unknown scenario {scenario!r}; known: {sorted(SCENARIOS)}")
        options = dict(options or {})
        unknown = set(options) - set(OPTIONS)
        if unknown:
            raise MalformedCommandError("", f"unknown option(s) {sorted(unknown)}; known: {sorted(OPTIONS)}")
        f = q.forces()
        em = Emitter(self, self.blank())
        em.emit("game_created", None, game=self.id, scenario=scenario, options=options, secret=secret,
                commitment=dice.commitment(secret), last_turn=f.scenarios[scenario]["last"],
                command=dict(f.command), air=dict(f.air["start"]))
        for side in SIDES:
            forces, pieces = opening_forces(side, options)
            tell.secret(em, "forces_set", side, {"side": side}, side=side, **forces)
            tell.secret(em, "pieces_added", side, {"side": side}, side=side, pieces=pieces)
        if options.get(deception.OPTION):
            deception.add(em, "Japanese", deception.AT_START["Japanese"], 0)  # 35.2: at the set-up
        if options.get("variable_forces"):
            variable.owe(em)  # 35.4: each side rolls, in secret, as its first decision
        flow.end_phase(em)
        flow.settle(em, self._needs_input)
        return em.events

    # --- whose move ----------------------------------------------------------------------
    def prompt(self, state: PBState) -> Prompt:
        # once per state: a command asks it of the state before and after, and of each step
        # between, and the answer's legal list, title and headline again (a combat phase's
        # names the attacks still owed, which takes finding them)
        return state.cached("prompt", lambda: self._prompt(state))

    def _prompt(self, state: PBState) -> Prompt:
        if state.result is not None:
            text = describing.game_over(state.result)
            return Prompt(None, "game_over", text, text)
        if state.pending:
            d = state.pending[0]
            what = decisions.must(d)
            return Prompt(d["side"], d["kind"], what[0].upper() + what[1:], f"Waiting for {d['side']} to {what}",
                          d.get("rule", ""))
        if state.phase == "air_allocation":
            waiting = state.round.waiting
            return Prompt(waiting[0] if waiting else None, "allocate",
                          "Allocate your air missions for the turn, in secret (4.1 1c)",
                          f"Waiting for {' and '.join(waiting)} to allocate air missions", "16.3", sides=waiting)
        if not state.phase:  # within the game's creation (a replay's first moments)
            return Prompt(None, "", SETTING_UP, SETTING_UP)
        side = seq.side_of(state)
        title = seq.title(state)
        return Prompt(side, state.phase, _phase_text(state, side), f"Waiting for {title}, {flow.turn_name(state.turn)}")

    # --- legal commands --------------------------------------------------------------------
    def legal_commands(self, state: PBState, side: str | None = None) -> list[Command]:
        # once per state and side: the answer's next list, the view and the next command's
        # check (``_is_legal``) each want it
        return list(state.cached(("legal_commands", side), lambda: tuple(self._legal_commands(state, side))))

    def _legal_commands(self, state: PBState, side: str | None) -> list[Command]:
        p = self.prompt(state)
        sides = p.acting if side is None else [s for s in p.acting if s == side]
        out: list[Command] = []
        for s in sides:
            out.extend(self._iter_legal(state, s))
            take_back = undo.command(state, s)
            if take_back is not None:
                out.append(take_back)
            if side is None:
                break
        return out

    def _is_legal(self, state: PBState, side: str, cmd: Command) -> bool:
        """Whether ``cmd`` is among ``side``'s legal commands: looked up in the list made of
        this state already (the previous answer's, or the view's), else generated as far as
        it takes, narrowed to the command's piece where a list is long."""
        listed = state.known(("legal_commands", side))
        return among(cmd, listed if listed is not None else self._iter_legal(state, side, cmd))

    def legal_choices(self, state: PBState, side: str) -> list[dict[str, Any]]:
        """As ``group(legal_commands)``; a landing phase's built from each kind's hexes, a
        movement phase's moves from each unit's hexes (``_iter_legal``'s order)."""
        if not state.pending and seq.side_of(state) == side and side in self.prompt(state).acting:
            take_back = [c for c in [undo.command(state, side)] if c is not None]
            if state.phase.startswith("reinforcements_"):
                direct = arrivals.reinforcement_choices(state, side)
                if direct is not None:  # (the rest are other kinds of command: grouped apart)
                    return direct + choices.group([*self._any_moment(state, side), *take_back])
            elif seq.step(state.phase) == "movement":
                own = choices.by_key("move", "unit", "to", impulse.move_rows(state, side))
                if own is not None:
                    return own + choices.group([*impulse.gen_beyond_moves(state, side), Command("end_phase"),
                                                *self._any_moment(state, side), *take_back])
        return choices.group(self.legal_commands(state, side))

    def _iter_legal(self, state: PBState, side: str, only: Command | None = None) -> Iterator[Command]:
        if state.pending:
            yield from decisions.options(state, side)
            return
        phase = state.phase
        step = seq.step(phase)
        if phase == "air_allocation":
            yield from planning.gen_allocate(state, side)
            return
        if seq.side_of(state) != side:
            return
        if phase == "japanese_setup":
            yield from arrivals.gen_setup(state, side)
            return
        unit = only.data.get("unit") if only is not None and only.type == "move" else None
        if phase.startswith("markers_"):
            yield from planning.gen_buy(state, side)
        elif phase.startswith("reinforcements_"):
            if only is not None and only.type in ("land", "to_base") and isinstance(only.data.get("unit"), str):
                yield from arrivals.gen_reinforcements(state, side, only.data["unit"])
                return
            # a command judged that is no landing: not every piece's hexes first (they are thousands)
            yield from arrivals.gen_reinforcements(state, side, landings=only is None)
        elif phase.startswith("logistics_"):
            yield from supplying.gen_logistics(state, side)
        elif step == "movement":
            if isinstance(unit, str):
                yield from impulse.gen_movement(state, side, unit)
                return
            if only is None or only.type not in ANY_STEP:  # (not every move first, to judge an end)
                yield from impulse.gen_movement(state, side)
            yield Command("end_phase")
        elif step == "strike":
            yield from impulse.gen_strikes(state, side)
            yield Command("end_phase")
        elif step == "combat":
            yield from battles.gen_declare(state, side)
            if state.declaring is not None:
                return
        yield from self._any_moment(state, side)

    def _any_moment(self, state: PBState, side: str) -> Iterator[Command]:
        """What a side may do in any of its phases: play a marker, turn a unit over (34.0)."""
        for name, target in markers.playable(state, side):
            yield Command("play", {"marker": name, "target": target})
        yield from face_up.gen(state, side)

    def _needs_input(self, state: PBState) -> bool:
        """Has the acting side a choice beyond ending the phase?  A held marker does not
        count (R-PB-5.4): the game stopping for it would tell the opponent it is held."""
        p = self.prompt(state)
        if state.result is not None:
            return False
        step = seq.step(state.phase)
        if state.phase == "japanese_setup" or (state.phase.startswith("logistics_") or step == "strike") and (
                not state.pending and not state.struck):
            # These end by the player's word (R-HANDOVER, R-PB-5.4): the last placement can be taken
            # back, and a held marker (Dig In, a naval bombardment) always has its moment, whatever is held.
            return True
        if step == "combat" and not state.fought and (state.battles or state.declaring):
            return True  # declared battles are fought or taken back, never dropped
        if (state.phase.startswith("reinforcements_") and not state.pending and not state.interdicted
                and arrivals.acted(state, seq.side_of(state))):
            return True  # R-PB-6.0a: its last landing can still be taken back, so it ends by the player's word
        for side in p.acting:
            for c in self._iter_legal(state, side):
                if c.type not in ("end_phase", "play", *face_up.KINDS):  # turning a unit over waits for nothing
                    return True
        return False

    # --- decide -------------------------------------------------------------------------------
    def decide(self, state: PBState, command: Command) -> list[Event]:
        return self._decide(state, command, describe=False).events

    def outcome(self, state: PBState, command: Command) -> Outcome[PBState]:
        return self._decide(state, command, describe=True).outcome()

    def _decide(self, state: PBState, command: Command, describe: bool) -> Emitter:
        if command.type == forfeit.TIME_FORFEIT:  # the server's clock (engine/core/forfeit.py)
            winner, _, reason = forfeit.judge(command, self.sides, state.result is not None)
            em = Emitter(self, state, describe)
            em.emit("game_ended", None, winner=winner, level="won on time", reason=reason)
            return em
        if command.type == undo.UNDO:
            return undo.take_back(self, state, command, describe)
        if command.type not in FIELDS:
            raise MalformedCommandError("", f"unknown command {command.type!r}; known: {sorted(FIELDS)}")
        fields.check(command, FIELDS, DEFAULTS)
        prompt = self.prompt(state)
        if (command.type == "allocate" and state.phase == "air_allocation"
                and state.round.for_side(command.side) is not None):
            raise NotYourTurnError("4.1", f"your air missions for this turn are sealed already (4.1 1c: one "
                                          f"allocation a turn). {prompt.waiting}")
        check_turn(prompt, command, "4.1")  # the sequence of play
        side = command.side if command.side in prompt.acting else prompt.side
        data = {**DEFAULTS.get(command.type, {}), **command.data}
        for name, kind in FIELDS[command.type].items():
            if kind == "list":
                data[name] = sorted(data[name])
        cmd = Command(command.type, data, side)
        if cmd.type == "allocate":
            planning.check_allocate(state, side, data)
        elif not self._is_legal(state, side, cmd):
            raise self._why(state, side, cmd)
        em = Emitter(self, state, describe)
        if cmd.type == "play":
            self._play(em, data, side)
        elif cmd.type == "delay_turn":
            _do_delay(em, data, side)
        else:
            HANDLERS[cmd.type](em, data, side)
        flow.settle(em, self._needs_input)
        if (undo.undoable(side, cmd, em.rolled, False, self.prompt(em.state).side)
                and not undo.reveals(self, state, em.state, em.events, side)):  # the costly question last
            em.events = undo.seal(state, em.events, em.state, side, PBState.clone)
        return em

    def _play(self, em: Emitter, data: dict[str, Any], side: str) -> None:
        """A held campaign marker played (the Campaign Markers list says when and what)."""
        name, target = data["marker"], data["target"]
        s: PBState = em.state
        if name in markers.BATTLE or (name == "Recon" and s.pending):
            battles.do_battle_marker(em, side, name, int(target))
        elif name == "Recon":
            markers.play(em, side, name, "one enemy stack examined", target=target)
            impulse.examine(em, side, {target}, "the Recon marker", "Campaign markers")
        elif name in markers.NAVAL:
            impulse.bombard(em, side, name, target)
        elif name == "Fire Coordination":
            markers.play(em, side, name, "US air and naval bombardment shift one column right for the rest of the game")
            em.emit("bombardment_shift", None, side=side)
        elif name == "Dig In":
            markers.play(em, side, name, "up to three fortifications on Japanese units, free")
            tell.owe(em, {"side": side, "kind": "dig_in", "left": supplying.DIG_IN})
        elif name == "Staff Planning":
            markers.play(em, side, name, "one HQ activated without a supply unit")
            tell.owe(em, {"side": side, "kind": "staff"})
        elif name == "MAGIC":
            markers.play(em, side, name, "the Japanese reinforcement track examined")
            track = sorted([o.id, o.unit, o.due] for o in s.in_box("Japanese", "track") if o.due >= s.turn)
            tell.secret(em, "track_examined", side, {"side": side}, side=side, units=track)
            turns = sorted({due for _, _, due in track if due >= s.turn})
            if turns:
                tell.owe(em, {"side": side, "kind": "magic", "turns": turns})

    def _why(self, state: PBState, side: str, cmd: Command) -> RuleError:
        return why.why_not(state, side, cmd)

    # --- reading ---------------------------------------------------------------------------------
    def describe(self, state: PBState, event: Event) -> str | None:
        return describing.describe(state, event)

    def label(self, state: PBState, command: Command) -> str:
        return describing.command_label(state, command)

    def view(self, state: PBState, side: str | None, legal: list[Command] | None = None) -> dict[str, Any]:
        return pb_view.build_view(self, state, side, legal)

    def map_data(self, scenario: str) -> dict[str, Any]:
        return pb_map.map_data()  # one map for every scenario

    def unit_named(self, state: PBState, side: str | None, unit: str) -> bool:
        """A side's own pieces only, on the map or off it: an enemy piece's id is not for it
        to know (the fog of war)."""
        piece = state.pieces.get(unit) or state.off.get(unit)
        return piece is not None and piece.side == side

    def reachable(self, state: PBState, unit: str) -> dict[str, dict[str, Any]]:
        if unit not in state.pieces or seq.step(state.phase) != "movement":
            return {}
        return {h: {"cost": float(c), "path": [], "stops": False} for h, c in impulse.moves(state, unit).items()}

    def why_idle(self, state: PBState, side: str, unit: str) -> str | None:
        p = state.pieces.get(unit)
        if (p is None or p.side != side or seq.step(state.phase) != "movement" or seq.side_of(state) != side
                or state.pending or state.result is not None):
            return None
        why = impulse.idle(state, side, unit)
        return None if why is None else f"{why[0]}: {why[1]}"

    state_format = STATE_FORMAT
    turn_event = "turn_began"
    phase_event = "phase_began"

    def turn_title(self, data: dict[str, Any]) -> str | None:
        """A turn as the turn track names it: "August 1942 (turn 1)" (its log line says it begins)."""
        turn = data.get("turn")
        return f"{data.get('name') or flow.turn_name(turn)} (turn {turn})" if isinstance(turn, int) else None

    def phase_title(self, data: dict[str, Any]) -> str:
        """A phase as the turn track names it, with the player whose it is where both have
        one of that name: "reinforcements (6.0), first player" (the event names no side:
        which side is first is the turn's initiative, 4.1 1a)."""
        phase = str(data.get("phase", ""))
        found = next((p for p in seq.TRACK.setup + seq.TRACK.turn if p.name == phase), None)
        if found is None:
            return phase.replace("_", " ")
        whose = next((f", {n} player" for n in ("first", "second") if n in phase.split("_")), "")
        return found.title + whose

    def headline(self, state: PBState) -> Headline:
        return Headline(state.turn, flow.turn_name(state.turn), seq.title(state) if state.phase else "")

    def end_phase_notes(self, state: PBState) -> list[str]:
        """What ending the phase now leaves undone, for the player to confirm (the board asks
        before it sends the end of the phase)."""
        side = seq.side_of(state)
        if side is None or state.pending:
            return []
        notes: list[str] = []
        phase, step = state.phase, seq.step(state.phase)
        if phase.startswith("reinforcements_") and not state.interdicted:
            due = arrivals.due_units(state, side)
            if due:
                supply = sum(1 for pid in due if state.off[pid].unit == SUPPLY)
                parts = [f"{len(due) - supply} unit(s)" if len(due) > supply else "",
                         f"{supply} supply point(s)" if supply else ""]
                notes.append(f"{' and '.join(p for p in parts if p)} due now stay on the track for next turn (6.21)")
            if state.readied and arrivals.interdicting(state, side):
                notes.append(f"the enemy's interdiction then rolls against your {len(state.readied)} readied "
                             "landing(s) (16.61)")
        elif step == "movement":
            movers = [pid for pid in impulse.movers(state, side) if impulse.moves(state, pid)]
            if movers:
                notes.append(f"{len(movers)} unit(s) could still move")
            if impulse.recon_points(state, side) > 0:
                notes.append(f"{impulse.recon_points(state, side)} air recon point(s) not flown are lost (16.7)")
        elif step == "strike" and not state.struck:
            left = impulse.strike_points(state, side)
            if left:
                notes.append(f"{left} air strike point(s) not placed are lost this phase (16.8)")
        return notes

    def draw_inputs(self, before: PBState, event: Event) -> dict[str, Any] | None:
        """A command marker drawn from its side's pool (planning.draw_one): the pool, sorted,
        as it stood before the draw."""
        if event.type != "marker_drawn" or "marker" not in event.data:
            return None
        side = event.data.get("side")
        return {"pool": sorted(before.pool.get(side, [])), "index": 0, "drawn": event.data["marker"]}

    def described_commands(self, state: PBState, side: str) -> list[dict[str, Any]]:
        return planning.describe_allocate(state, side)

    def shown(self, before: PBState, events: list[Event], viewer: str | None) -> list[str]:
        """As the core's, with the leak checker's whole-word search ("4 Inf" is not in "24 Inf")."""
        texts = [json.dumps(seen.data, sort_keys=True) for e in events
                 if (seen := for_viewer(e, viewer, self.sides)) is not None]
        if not texts:  # (what the viewer may not know is asked only of a step it reads)
            return []
        hidden = leaks.hidden_names(before, viewer)  # (the secrets a text could name)
        return leaks.find(hidden, "\n".join(texts)) if hidden else []

    def secrets(self, state: PBState, viewer: str | None) -> list[str]:
        """What ``viewer`` may not know now (for the leak checker, engine/games/pacific_battles/leaks.py)."""
        return leaks.hidden_things(state, viewer)


def opening_forces(side: str, options: dict[str, Any]) -> tuple[dict[str, list[str]], list[list[Any]]]:
    """``side``'s command markers (pool, hand, reserved) and its pieces on the track at the
    start, as the forces tables print them: secret in the log (the hand is, once drawn
    from), yet what a player of the other side can work out from the tables at the start."""
    f = q.forces()
    pool = f.pool(side)
    reserved = sorted(markers.HISTORICAL[side]) if options.get("historical_markers") else []
    for name in reserved:
        pool.remove(name)
    pieces = [[u.name, u.name, "track", f.groups[u.group].turn, not f.groups[u.group].interdiction]
              for u in f.units.values() if u.side == side and (u.group == "start" or f.groups[u.group].turn)]
    return {"pool": pool, "hand": f.hand(side), "reserved": reserved}, pieces


def _do_delay(em: Emitter, data: dict[str, Any], side: str) -> None:
    s: PBState = em.state
    ids = sorted(o.id for o in s.in_box("Japanese", "track") if o.due == data["turn"])
    tell.secret(em, "off_moved", "Japanese", {"side": "Japanese", "delayed_turn": data["turn"]}, ids=ids, box="track",
                due=data["turn"] + 1)
    em.emit("decision_made", side)


def _phase_text(state: PBState, side: str | None) -> str:
    phase = state.phase
    step = seq.step(phase)
    if phase == "japanese_setup":
        left = len(arrivals.setup_units(state))
        return (f"Set up your units within three hexes of Henderson Field ({left} left, 25.4)" if left
                else "Your units are set up: end the set-up")
    if phase.startswith("reinforcements_"):
        n = len(arrivals.due_units(state, side))
        if not n:
            return "Your reinforcements are landed, sent to your base or held: end the phase (6.0)"
        return f"Land your reinforcements on coastal hexes ({n} due), send them to your base, or hold them (6.0)"
    if phase.startswith("logistics_"):
        return "Spend supply: activate HQs, refit, repair aircraft, fortify; break down or combine (7.0)"
    if step == "movement":
        kind = "follow-on" if seq.is_follow_on(phase) else "initial"
        return f"Move your units ({kind} movement, 11.0), fly air recon, then end the phase"
    if step == "strike":
        return "Place your air strikes and naval bombardments, then end the phase to resolve them (16.8)"
    if step == "combat":
        if state.declaring is not None:
            return "Add attackers and defending hexes to the battle, then close it (14.2)"
        return "Declare every battle, then fight them (14.2)" + _owed_attacks(state, side)
    return seq.title(state)


def _owed_attacks(state: PBState, side: str) -> str:
    """14.11: what must still attack and be attacked, named; and, when a hex can no longer be
    declared (every unit next to it is in a battle already), the way out."""
    units, hexes = battles.unmet(state, side)
    if state.fought or (not units and not hexes):
        return ""
    parts = ([f"{', '.join(q.label(state, u) for u in units)} must attack"] if units else []) + \
        ([f"{', '.join(q.hex_name(h) for h in hexes)} must be attacked"] if hexes else [])
    declarable = set(battles.declarable(state, side))
    stuck = [h for h in hexes if h not in declarable]
    way = (f": the units next to {', '.join(q.hex_name(h) for h in stuck)} are in battles already declared; take "
           "one out again and declare it with that hex added (14.22)" if stuck else "")
    return f"; still owed (14.11): {'; '.join(parts)}{way}"


RULES = PacificBattles()
