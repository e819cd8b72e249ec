"""What the game page shows: the view, the map, and the legal commands as buttons.

The only source of actions is the engine's legal-command list; this module
groups it for people (by unit, by kind) and maps a click on the map to the
command it stands for.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from app.games.base import BoardRequest, log_window, page_title
from app.games.first_blood.svg import layer_parts, layers_svg, render_base
from app.models import Game, Seat
from app.render.counters import factors
from app.render.parts import changed_parts
from app.services import clock
from app.services.games import GameService
from app.services.story import briefing
from app.visible import by_computer, retracted_lines
from engine.core.errors import RuleError
from engine.core.events import Command
from engine.core.hexes import neighbor_ids
from engine.games import get_rules
from engine.games.first_blood.describe import heading

HEX_FIELDS = ("to", "hex", "box")  # command fields that name a place (a hex, a box, an entry point)
GENERAL = ("undo", "end_phase", "resolve", "cancel_attack", "end_advance")
LOG_LINES = 60  # the board's log: its newest lines
UNIT_ORDERS = frozenset({"place", "move"})  # a unit's placement or move: its "unit" is always a unit id


@dataclass
class Button:
    label: str
    type: str
    data: str  # JSON
    confirm: str | None = None
    primary: bool = False


@dataclass(frozen=True)
class OneField:
    """A list of buttons that differ only in one field of plain text (a unit's every
    place or move): the form holds the rest once, each button only its value."""
    type: str
    data: str  # JSON of the fields the buttons share
    field: str
    buttons: list[tuple[str, str]]  # each button's value of ``field`` and what it reads
    lead: str = ""  # the words every button's label begins with, said once before them ("Place US 1/1 in")


def one_field(buttons: list[Button]) -> OneField | None:
    """The buttons as one form's ``type``, ``data`` and each one's ``pick`` ("field value",
    app/routes/pages.py), if they are of one type and differ in one field of text only."""
    if len(buttons) < 2 or len({b.type for b in buttons}) != 1:
        return None
    datas = [json.loads(b.data) for b in buttons]
    keys = datas[0].keys()
    if any(d.keys() != keys for d in datas):
        return None
    varying = [k for k in keys if len({json.dumps(d[k]) for d in datas}) > 1]
    if len(varying) != 1 or not all(isinstance(d[varying[0]], str) for d in datas):
        return None
    f = varying[0]
    shared = json.dumps({k: v for k, v in datas[0].items() if k != f}, sort_keys=True, separators=(",", ":"))
    lead = _lead([b.label for b in buttons])
    return OneField(buttons[0].type, shared, f,
                    [(d[f], b.label[len(lead):]) for d, b in zip(datas, buttons, strict=True)], lead.strip())


def _lead(labels: list[str]) -> str:
    """The whole words all ``labels`` begin with, if each has more after them ("Place US 1/1
    in " of "Place US 1/1 in 0709", "... in 0710"): a list of 130 places says them once."""
    lead = os.path.commonprefix(labels)
    lead = lead[: lead.rfind(" ") + 1]
    return lead if all(len(label) > len(lead) for label in labels) else ""


@dataclass
class BoardContext:
    game: Game
    seat: Seat | None
    view: dict[str, Any]
    legal: list[Command]
    selected: str | None
    layers: str  # the map's changing layers (an <svg>)
    general: list[Button] = field(default_factory=list)
    unit_buttons: list[Button] = field(default_factory=list)  # the selected unit's commands
    choosers: list[dict[str, str]] = field(default_factory=list)  # units that have something to do
    other: list[Button] = field(default_factory=list)  # commands without a unit, e.g. attack a hex
    log: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    error_for: str | None = None
    inspect: str | None = None
    stack: list[dict[str, Any]] = field(default_factory=list)  # the units in the inspected hex
    invite_url: str | None = None  # shown to the creator until the opponent joins
    private_url: str | None = None  # the player's own private link (full pages only)
    welcome: bool = False  # just seated (created, joined, a new link): the private link is shown open
    oob: bool = False  # only the changing parts, each swapped in by its id
    relog: bool = False  # with oob: the whole log again (an undo struck lines already shown)
    state: Any = None  # the engine state the page was drawn from
    clock: dict[str, Any] | None = None  # the time control, if the game has one
    briefing: list[dict[str, Any]] = field(default_factory=list)  # "since your last move", by phase
    what_if: list[dict[str, Any]] = field(default_factory=list)  # the selected mover's attacks, before moving
    not_yet: str | None = None  # why the attack being declared cannot be resolved yet (the engine's reason)
    idle: str | None = None  # why the selected unit has no move (the engine's reason)


    @property
    def stack_heading(self) -> str:
        """The inspected stack's heading (``describe.heading``)."""
        return heading(self.inspect or "")

    @property
    def unit_form(self) -> OneField | None:
        return one_field(self.unit_buttons)

    @property
    def other_form(self) -> OneField | None:
        return one_field(self.other)

    @property
    def base(self) -> str:
        return render_base()

    @property
    def your_turn(self) -> bool:
        return bool(self.view.get("your_turn"))

    @property
    def page_title(self) -> str:
        return page_title(self.game, get_rules(self.game.game), self.state)

    @property
    def side(self) -> str | None:
        return self.seat.side if self.seat else None

    @property
    def seq(self) -> int:
        return self.game.seq

    def command_for_click(self, hex_id: str | None, unit: str | None) -> Command | None:
        """The legal command a click stands for, if exactly one does.  A click on a
        counter stands for its hex unless it adds that unit to an attack or the
        clicked unit is the player's own and nothing goes to its hex."""
        if unit:
            adds = [c for c in self.legal if c.type == "add" and c.data.get("unit") == unit]
            if adds:
                return adds[0]
            where = next((u["loc"] for u in self.view["units"] if u["id"] == unit), None)
            mine = any(u["id"] == unit and u["side"] == self.side for u in self.view["units"])
            to_there = self._selected_to(where) if where else None
            if to_there is not None or not mine:
                return to_there or self._attack(where)
            return None
        if not hex_id:
            return None
        return self._selected_to(hex_id) or self._attack(hex_id)

    def _selected_to(self, place: str) -> Command | None:
        if not self.selected:
            return None
        match = [c for c in self.legal if c.data.get("unit") == self.selected
                 and any(c.data.get(f) == place for f in HEX_FIELDS)]
        return match[0] if len(match) == 1 else None

    def _attack(self, place: str | None) -> Command | None:
        attacks = [c for c in self.legal if c.type == "attack" and c.data.get("hex") == place]
        return attacks[0] if attacks else None

    def selection_for_click(self, hex_id: str | None, unit: str | None) -> str | None:
        if unit:
            return unit
        mine = [u for u in self.view["units"] if u["loc"] == hex_id and u["side"] == self.side]
        if not mine:
            return None
        ids = [u["id"] for u in mine]
        if self.selected in ids:  # clicking a stack again selects the next unit in it
            return ids[(ids.index(self.selected) + 1) % len(ids)]
        return ids[0]

    def nothing_here(self, where: str) -> str:
        return f"Nothing to do at {where} now. {self.view['prompt']['text']}"

    def probe_for_click(self, where: str) -> Command | None:
        """The command the player most likely meant by a click that matched none, so that
        the engine can say why it is refused: the selected unit's move or placement there,
        or an attack on the hex in a combat phase."""
        phase = str(self.view.get("phase", ""))
        if self.selected and phase.endswith("_movement"):
            return Command("move", {"unit": self.selected, "to": where})
        if self.selected and (phase.endswith("_setup") or phase.endswith("_reinforcements")):
            return Command("place", {"unit": self.selected, "to": where})
        if phase.endswith("_combat") and not self.view.get("pending"):
            if self.selected and self.view.get("combat"):
                return Command("add", {"unit": self.selected})
            return Command("attack", {"hex": where})
        return None


def board_context(session: Session | None, service: GameService, game: Game, seat: Seat | None,
                  req: BoardRequest) -> BoardContext:
    rules = get_rules(game.game)
    state = service.state(session, game)
    side = seat.side if seat else None
    view = service.view(session, game, side, listed=False)
    if seat is not None and seat.computer:  # the computer decides for the seat: the board only watches
        view = {**view, "your_turn": False}
    legal = service.legal(game, state, side) if view["your_turn"] else []  # listed once per state
    selected = req.select if req.select in state.units else None

    highlights: dict[str, str] = {}
    targets: set[str] = set(view["combat"]["targets"]) if view.get("combat") else set()
    unit_buttons: list[Button] = []
    reach: dict[str, Any] = {}
    if selected:
        mine = [c for c in legal if c.data.get("unit") == selected]
        reach = service.reachable(game, state, side, selected) if side and any(c.type == "move" for c in mine) else {}
        for c in mine:
            where = next((c.data[f] for f in HEX_FIELDS if isinstance(c.data.get(f), str)), None)
            if where:  # hexes, entry points and boxes alike
                highlights[where] = str(reach[where]["cost"]) if where in reach else ""
            unit_buttons.append(_button(service.label(game, state, side, c), c))
    what_if = service.cache.memo(game.id, game.seq, ("what_if", side, selected),  # once per state and unit
                                 lambda: _what_if(rules, state, view, side, selected, reach)) \
        if selected and side and reach else []
    sorts = service.cache.memo(game.id, game.seq, ("sorted", side), lambda: _sort(legal))
    targets |= sorts.targets

    general = []
    for c in sorts.general:
        b = _button(service.label(game, state, side, c), c)
        b.primary = c.type == "resolve"
        if c.type == "end_phase":
            b.confirm = _end_confirmation(rules, state, legal)
        general.append(b)
    other = [_button(service.label(game, state, side, c), c) for c in sorts.other]
    units_with_actions = sorts.units
    names = {u["id"]: u for u in view["units"]}
    choosers = [{"id": u, "label": _unit_label(names.get(u)), "where": names.get(u, {}).get("where", "")}
                for u in units_with_actions]

    refused = service.why_unreachable(game, state, side, selected) if selected and highlights and side else {}
    idle = service.why_idle(game, state, side, selected) \
        if selected and side and view["your_turn"] and not reach else None
    fan = req.inspect if req.inspect and sum(u["loc"] == req.inspect for u in view["units"]) > 1 else None
    heading, parts = layer_parts(view, selected=selected, highlights=highlights, targets=sorted(targets),
                                 refused=refused, fan=fan)
    oob = req.since is not None
    layers = changed_parts(parts, req.shown) if oob else None  # only what the page does not show yet
    if layers is None:
        layers = layers_svg(heading, parts)
        if oob:  # swapped in out of band, by its id
            layers = layers.replace("<svg ", '<svg hx-swap-oob="true" ', 1)
    log, relog = log_window(session, game, side, req.since, req.fresh, LOG_LINES)
    gone = retracted_lines(log)  # an undo always follows what it took back: the window holds both
    computer = by_computer(log)
    lines = [{"seq": r.seq + 1, "text": r.text, "dice": r.type in ("combat_resolved", "supply_rolled"),
              "turn": r.type == rules.turn_event, "retracted": r.seq in gone, "computer": r.seq in computer}
             for r in reversed(log) if r.text]
    err_for = _safe_label(rules, state, req.error_for) if req.error and req.error_for is not None else None
    inspect = req.inspect or (names[selected]["loc"] if selected in names else "")
    stack = [u for u in view["units"] if inspect and u["loc"] == inspect]
    return BoardContext(game=game, seat=seat, view=view, legal=legal, selected=selected, layers=layers,
                        general=general, unit_buttons=unit_buttons, choosers=choosers, other=other,
                        log=lines, relog=relog, error=req.error, error_for=err_for, inspect=inspect or None,
                        stack=stack,
                        invite_url=req.invite_url, oob=oob,
                        private_url=req.private_url if seat is not None and not oob else None, welcome=req.welcome,
                        state=state, clock=clock.view(game, service.now()),
                        briefing=briefing(session, game, side) if side and not oob else [], what_if=what_if,
                        not_yet=_not_yet(service, game, state, view, side, legal), idle=idle)


def _not_yet(service: GameService, game: Game, state: Any, view: dict[str, Any], side: str | None,
             legal: list[Command]) -> str | None:
    """Why the attack ``side`` is declaring has no "Resolve" yet (R-7a: units still to add,
    so that every obligation can be met), from the code that lists the commands; None when
    it has one, or no attack is being declared by ``side``."""
    combat = view.get("combat")
    if not side or not combat or combat.get("side") != side or any(c.type == "resolve" for c in legal):
        return None
    return service.cache.memo(game.id, game.seq, ("not_yet", side),  # (once per state)
                              lambda: service.why_not(game, state, side, Command("resolve")))


WHAT_IF_MAX = 6  # enemy hexes the what-if card weighs for the selected mover


def _what_if(rules: Any, state: Any, view: dict[str, Any], side: str, unit: str,
             reach: dict[str, Any]) -> list[dict[str, Any]]:
    """The attacks the selected unit could join after its move, before it moves: for each
    enemy hex next to a hex it may reach, the odds and die modifier it and the units of
    its side next to that hex already would get, attacking from the cheapest such hex
    (the engine's own what-if, ``preview_attack`` with positions; air and naval support,
    assigned later, not counted)."""
    enemy = {u["loc"] for u in view["units"] if u["side"] != side and u["kind"] == "ground"}
    own = [u for u in view["units"] if u["side"] == side and u["kind"] == "ground" and u["id"] != unit]
    next_to: dict[str, list[str]] = {}  # an enemy hex -> the hexes next to it the unit may reach
    for h in reach:
        if len(h) == 4 and h.isdigit():  # a map hex (not a box)
            for n in neighbor_ids(h):
                if n in enemy:
                    next_to.setdefault(n, []).append(h)
    out: list[dict[str, Any]] = []
    for target, near in sorted(next_to.items())[:WHAT_IF_MAX]:
        start = min(near, key=lambda h: (reach[h]["cost"], h))
        helpers = [u["id"] for u in own if u["loc"] in neighbor_ids(target)]
        try:
            odds = rules.preview_attack(state, side, [target], [unit, *helpers], {unit: start})
        except RuleError:
            continue  # no attack could be made on it from there
        out.append({"target": target, "start": start, "odds": odds["odds"], "modifier": odds["modifier"],
                    "attack": odds["attack"], "defence": odds["defence"], "with": len(helpers)})
    return out


@dataclass(frozen=True)
class Sorted:
    """A legal-command list as the board groups it: attack targets, the general buttons,
    the buttons of commands for no unit, and the units with orders to give."""

    targets: frozenset[str]
    general: list[Command]
    other: list[Command]
    units: list[str]


def _sort(legal: list[Command]) -> Sorted:
    """One pass over the list (a set-up lists some 2,000 placements), once per state."""
    targets, general, other, units = set(), [], [], set()
    for c in legal:
        t = c.type
        if t in UNIT_ORDERS:  # the bulk of any list: nothing else to ask of it
            units.add(c.data["unit"])
            continue
        unit = c.data.get("unit")
        if t == "attack":
            targets.add(c.data["hex"])
        if t in GENERAL:
            general.append(c)
        elif "unit" not in c.data:
            other.append(c)
        if isinstance(unit, str):
            units.add(unit)
    return Sorted(frozenset(targets), general, other, sorted(units))


def _button(label: str, c: Command) -> Button:
    return Button(label=label, type=c.type, data=json.dumps(c.data, sort_keys=True, separators=(",", ":")))


def _safe_label(rules: Any, state: Any, c: Command) -> str | None:
    try:
        return rules.label(state, c)
    except (KeyError, TypeError):
        return None


def _unit_label(u: dict[str, Any] | None) -> str:
    if not u:
        return "?"
    bottom = f" {factors(u)}" if u["kind"] == "ground" else f" ({u['kind'].replace('_', '-')})"
    return f"{u['side']} {u['name']}{bottom}"


def _end_confirmation(rules: Any, state: Any, legal: list[Command]) -> str | None:
    """Ask before ending a phase in which units could still act, saying what it costs."""
    notes = rules.end_phase_notes(state)
    question = _end_question(legal)
    if notes:
        return " ".join(f"{n}." for n in notes) + " " + (question or "End the phase?")
    return question


def _end_question(legal: list[Command]) -> str | None:
    movers = {c.data["unit"] for c in legal if c.type == "move"}
    if movers:
        return f"{len(movers)} unit(s) could still move. End the movement phase?"
    if any(c.type == "attack" for c in legal):
        return "Some enemy units could still be attacked. End the combat phase?"
    if any(c.type == "bombard" for c in legal):
        return "Air strips could still be bombarded. End the combat phase?"
    if any(c.type == "work" for c in legal):
        return "Engineers could still work on the air strips. End the engineering phase?"
    if any(c.type == "allocate" for c in legal):
        return "Some USAF units could still be allocated; the rest go to the Reserve. End the air phase?"
    if any(c.type in ("air_attack", "naval_support", "air_support") for c in legal):
        return "Air or naval units could still be used. End the phase?"
    return None
