"""What the Pacific Battles board page shows a viewer: its view of the game (already cut
down to what it may know), its legal commands (grouped by kind, and as marks on the map
for the selected unit and for the hexes a command names), the map with its pieces, the
displays, and the log as it may read it.  A click on the map is turned into the one
legal command it stands for, a choice between several, a new selection, or the engine's
reason why nothing happens there."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import orjson
from markupsafe import Markup
from sqlalchemy.orm import Session

from app.games.base import log_window, page_title
from app.games.pacific_battles.map_svg import map_frame
from app.games.pacific_battles.orders import Order, Orders
from app.games.pacific_battles.pieces_svg import Mark, layer_parts, render_board_svg, render_layers_svg
from app.models import Game, Seat
from app.render.parts import changed_parts, digest, kept_card, split_shown
from app.services.games import GameService, Recent
from app.templating import TEMPLATES
from app.visible import by_computer, retracted_lines
from engine.core.events import Command
from engine.games import get_rules
from engine.games.pacific_battles import battles, face_up, queries, sequence, tables
from engine.games.pacific_battles.flow import turn_name

LOG_LINES = 80  # the board's log: its newest lines
DISPLAYS = "games/pacific_battles/displays.html"
_DISPLAYS = Recent(256)  # the displays drawn, by what they show
SIDES = "games/pacific_battles/sides.html"
_SIDES = Recent(512)  # the sides' card drawn, by what it shows
# what becomes of a command marker once played (the Campaign Markers list's words, 5.3)
AFTER = {"pool": "back to the cup", "in effect": "stays in effect", "removed": "out of the game",
         "pool at end of turn": "back to the cup at the turn's end",
         "removed at end of turn": "out of the game at the turn's end"}

TITLES = {  # the kinds of command, as the player reads them, with their rule
    "place": "Set up a unit (25.4)", "land": "Land a reinforcement (6.2, 26.8)",
    "to_base": "Send to the home base (26.2)",
    "evacuate": "Evacuate (23.0)", "buy": "Buy a conditional unit, 2 VP (25.6d, 25.7d)",
    "activate": "Activate an HQ (7.3)",
    "refit": "Refit (7.5)", "repair": "Repair aircraft (7.6)", "fortify": "Fortify (20.3)",
    "breakdown": "Break down (9.1)", "combine": "Combine (9.2)", "dig": "Dig In: fortify a hex",
    "activate_free": "Staff Planning: activate an HQ", "move": "Move (11.0)",
    "carry": "Move an engineer with a supply point (20.4)", "sail": "Amphibious move (22.1)",
    "assault": "Assault from the sea (22.3)",
    "recon": "Air recon (16.7)", "strike": "Air strike (16.8)", "declare": "Declare a battle against (14.2)",
    "add": "Add an attacker", "add_hex": "Add a defending hex (14.22)",
    "play": "Play a campaign marker", "lose": "Take a loss (15.2)", "break": "Break down to take a loss (15.22)",
    "retreat": "Retreat (15.3)", "pursue": "Pursue (15.4)", "fire": "Air superiority fire at other missions (16.52)",
    "hit": "Place an air loss (16.52)", "delay_turn": "MAGIC: delay a turn's reinforcements",
    "interdict": "Interdiction: choose what is attacked next (16.61)",
    "air_support": "Close air support for a battle (31.1)", "withdraw": "Take a declared battle out again",
    "artillery": "HQ artillery (29.0)", "buy_marker": "Buy a command marker, 2 VP (27.2)",
    "show": "Turn a unit face up for the enemy to see (34.0)", "hide": "Turn a unit face down again (34.0)",
}
LIST_AT_MOST = 40  # choices in one list; a longer one is cut to the selected piece's own
LIST_HEXES_AT_MOST = 400  # ... unless no piece is named: then a list of hexes (every hex of the map: none)
SINGLE = ("end_phase", "close", "cancel", "fight", "pass", "stop", "undo")
AIR_BOXES = (("reserve", "Reserve"), ("superiority", "Air Superiority"), ("interdiction", "Interdiction"),
             ("recon", "Recon"), ("flown", "Recon flown"), ("strike", "Strike"), ("struck", "Strike flown"),
             ("cas", "Close Air Support (31.0)"), ("support", "CAS committed"), ("supply", "Air Supply"),
             ("damaged", "Damaged"), ("eliminated", "Eliminated"))
MARKS = {"move": "reach", "sail": "reach", "carry": "reach", "retreat": "reach", "pursue": "reach",
         "place": "reach", "land": "reach"}  # anything else that names a hex is aimed at it: "target"


@dataclass
class Group:
    type: str
    title: str
    options: list[tuple[str, str]] = field(default_factory=list)  # (data as JSON, label)
    hint: str = ""  # why nothing is listed (too many choices, none of them the selected piece's)


@dataclass
class Button:
    type: str
    data: str  # JSON
    label: str
    confirm: str | None = None  # asked before it is sent (what ending the phase leaves undone)


@dataclass
class PBBoard:
    game: Game
    seat: Seat | None
    view: dict[str, Any]
    state: Any
    orders: Orders  # the legal commands, by kind, piece and hex
    seq: int
    layers: str  # the marks and counters over the map (for a moment: the whole map, see pb_moment)
    groups: list[Group]
    buttons: list[Button]
    allocate: bool
    log: list[dict[str, Any]]
    selected: dict[str, Any] | None = None  # the selected piece, as the player knows it
    selected_buttons: list[Button] = field(default_factory=list)  # its commands that name no hex
    idle: str | None = None  # why the selected piece has no move (the engine's reason)
    choosers: list[dict[str, str]] = field(default_factory=list)  # own pieces that have orders to give
    inspect: str | None = None  # a hex whose contents and commands the panel lists
    here: list[Button] = field(default_factory=list)  # the commands at the inspected hex
    stack: list[str] = field(default_factory=list)  # what the player knows is there
    error: str | None = None
    oob: bool = False
    relog: bool = False  # with oob: the whole log again (lines it shows were struck)
    private_url: str | None = None
    invite_url: str | None = None
    welcome: bool = False  # just seated: the private link is shown open, first
    briefing: list[dict[str, Any]] = field(default_factory=list)  # "since your last move", by phase (full pages)
    owed_units: list[str] = field(default_factory=list)  # own units that must still attack (14.11)
    owed_hexes: list[str] = field(default_factory=list)  # enemy hexes that must still be attacked (14.11)
    kept: dict[str, str] = field(default_factory=dict)  # an answer's page: its kept cards' digests, by id
    allocation_sent: dict[str, Any] | None = None  # a refused air allocation, as typed (its form shows it again)

    @property
    def owed_names(self) -> list[str]:
        """The hexes owed an attack as the prompt names them ("1633, Kukum")."""
        return [queries.hex_name(h) for h in self.owed_hexes]

    @property
    def base(self) -> str:
        return map_frame()

    @property
    def svg(self) -> str:  # a moment's page draws base and pieces as one
        return self.layers

    @property
    def clock(self) -> dict[str, Any] | None:
        return self.view.get("clock")

    @property
    def side(self) -> str | None:
        return self.seat.side if self.seat else None

    @property
    def your_turn(self) -> bool:
        seat = self.seat
        return seat is not None and seat.side in self.view["prompt"]["sides"] and not seat.computer

    @property
    def page_title(self) -> str:
        return page_title(self.game, get_rules(self.game.game), self.state)

    @property
    def turns(self) -> list[tuple[int, str]]:
        return [(t, turn_name(t)) for t in range(1, self.view["last_turn"] + 1)]

    @property
    def phases(self) -> list[dict[str, Any]]:
        """The turn's sequence of play (4.1) with the current phase marked."""
        names = [p.name for p in sequence.TRACK.turn]
        now = names.index(self.view["phase"]) if self.view["phase"] in names else -1
        return [{"title": p.title, "side": sequence.side_of(self.state, p.name), "now": i == now,
                 "past": i < now} for i, p in enumerate(sequence.TRACK.turn)]

    @property
    def vp_top(self) -> int:
        top = max(e["vp"] for e in self.view["sides"].values())
        return max(20, (top // 10 + 1) * 10)

    @property
    def air_boxes(self) -> list[tuple[str, str]]:
        cas = bool(self.view["options"].get("close_air_support"))
        return [b for b in AIR_BOXES if cas or b[0] not in ("cas", "support")]

    @property
    def vp_track(self) -> list[tuple[int, list[str]]]:
        """The VP track's boxes (24.0), each with the sides whose marker stands on it."""
        at: dict[int, list[str]] = {}
        for sd, e in self.view["sides"].items():
            at.setdefault(e["vp"], []).append(sd)
        return [(n, at.get(n, [])) for n in range(self.vp_top + 1)]

    @property
    def air_rows(self) -> list[tuple[str, list[int | Markup]]]:
        """The air operations display (16.0): each box's title and each side's points in it."""
        sides = [e["air"] for e in self.view["sides"].values()]
        rows: list[tuple[str, list[int | Markup]]] = []
        for box, title in self.air_boxes:
            if box == "supply":  # (no air supply markers in this scenario: 16.9)
                rows.append((title, [Markup("&ndash;")] * len(sides)))
            elif box in ("reserve", "damaged", "eliminated"):
                rows.append((title, [air[box] for air in sides]))
            else:
                rows.append((title, [air["missions"].get(box, 0) for air in sides]))
        return rows

    @property
    def displays(self) -> Markup:
        """The displays under the map (displays.html), drawn once for what they show (the
        turn, the sequence of play, each side's VP and air): most answers show them as the
        last one did."""
        return self._displays(self._displays_shows())

    @property
    def kept_displays(self) -> Markup:
        """The displays in their element, sent in an answer only when the page shows others."""
        shows = self._displays_shows()
        return kept_card("pb-displays", "pb-displays", _stamp(DISPLAYS) + shows, lambda: self._displays(shows),
                         self.oob, self.kept)

    @property
    def kept_sides(self) -> Markup:
        """Both sides' standing and one's own boxes (sides.html) in their element, drawn once
        for what they show (the view's sides as the viewer sees them: a reinforcement track is
        a list of some dozens of counters) and sent in an answer only when the page shows another."""
        shows = self._sides_shows()
        return kept_card("pb-sides", "panel-cards", _stamp(SIDES) + shows, lambda: self._sides_card(shows),
                         self.oob, self.kept)

    def _displays_shows(self) -> bytes:
        v = self.view
        return repr([v["turn"], v["month"], v["last_turn"], v["phase"], self.state.first, self.vp_top,
                     [(sd, e["vp"], sorted(e["air"].items())) for sd, e in v["sides"].items()],
                     self.air_boxes]).encode()

    def _sides_shows(self) -> bytes:
        return orjson.dumps([self.side, self.view["sides"]])

    def _displays(self, shows: bytes) -> Markup:
        return _drawn_once(_DISPLAYS, shows, DISPLAYS, b=self)

    def _sides_card(self, shows: bytes) -> Markup:
        return _drawn_once(_SIDES, shows, SIDES, v={"sides": self.view["sides"]}, side=self.side)

    @property
    def crts(self) -> dict[str, dict[str, Any]]:
        """Both land combat tables whole (14.4: the chooser sees both), a reconstruction."""
        return {name: {"title": t.name, "rows": t.rows} for name, t in tables.CRTS.items()}

    @property
    def columns(self) -> list[tuple[str, str]]:
        """The CRT columns, each with a heading short enough for the panel."""
        return [(c, _short_column(c)) for c in tables.COLUMNS]

    @property
    def hand(self) -> list[dict[str, Any]]:
        """The markers the player holds (5.4), each with when it may be played, what becomes
        of it, and a button for each legal play of it now."""
        if not self.side or "hand" not in self.view["sides"][self.side]:
            return []
        specs = queries.forces().markers[self.side]
        out = []
        for name in sorted(set(self.view["sides"][self.side]["hand"])):
            spec = specs.get(name)
            plays = [Button(c.type, _json(c), _label(get_rules(self.game.game), self.state, c))
                     for c in self.orders.commands("play") if c.data.get("marker") == name]
            out.append({"name": name, "count": self.view["sides"][self.side]["hand"].count(name),
                        "when": spec.when if spec else "", "after": AFTER.get(spec.after, spec.after) if spec else "",
                        "plays": plays})
        return out

    @property
    def crt_buttons(self) -> list[Button]:
        """The chooser's two answers (14.4), beside the tables they choose between."""
        rules = get_rules(self.game.game)
        return [Button(c.type, _json(c), _label(rules, self.state, c)) for c in self.orders.commands("crt")]

    @property
    def select(self) -> str:
        return self.selected["id"] if self.selected else ""

    def at(self, hex_id: str) -> list[Command]:
        """The commands a click on ``hex_id`` may stand for: the selected piece's to there,
        else those that name only the hex (declare a battle on it, recon it, ...).  A
        selected piece that may go somewhere else stands for none there: the click meant it,
        and is told why it may not (a hex's own commands are had with nothing selected)."""
        if self.selected:
            mine = [o for o in self.orders.of_piece(self.select) if o.owner == self.select and o.place is not None]
            if mine:
                return [o.command for o in mine if o.place == hex_id]
        return [o.command for o in self.orders.unowned() if o.place == hex_id]

    def command_for_click(self, hex_id: str | None, unit: str | None) -> list[Command]:
        """What a click means: a counter of one's own stands for itself (added to a battle
        being declared, or selected) unless the selected piece has somewhere to go there."""
        if unit:
            adds = [c for c in self.orders.commands("add") if c.data.get("unit") == unit]
            if adds:
                return adds[:1]
            where = next((u["hex"] for u in self.view["units"] if u["id"] == unit), None)
            if where and self.selected and unit != self.select:
                return [o.command for o in self.orders.of_piece(self.select)
                        if o.owner == self.select and o.place == where]
            return []
        return self.at(hex_id) if hex_id else []

    def selection_for_click(self, hex_id: str | None, unit: str | None) -> str | None:
        if unit:
            return unit if unit in self.own_ids() else None
        ids = [u["id"] for u in self.view["units"] if u["hex"] == hex_id and u["side"] == self.side]
        if not ids:
            return None
        if self.select in ids:  # clicking a stack again selects the next piece in it
            return ids[(ids.index(self.select) + 1) % len(ids)]
        return ids[0]

    def own_ids(self) -> set[str]:
        return {u["id"] for u in self.view["units"] if u["side"] == self.side} | {c["id"] for c in self.choosers}

    def probe_for_click(self, hex_id: str) -> Command | None:
        """The command the player most likely meant by a click that matched none, so that
        the engine can say why it is refused."""
        phase = self.view["phase"] or ""
        step = sequence.step(phase)
        if self.selected:
            kind = {"movement": "move", "japanese_setup": "place"}.get(step)
            if kind is None and phase.startswith("reinforcements"):
                kind = "land"
            if kind is not None:
                return Command(kind, {"unit": self.select, ("to" if kind == "move" else "hex"): hex_id})
        if step == "combat" and not self.view.get("decision"):
            return Command("declare", {"hex": hex_id})
        if step == "strike":
            return Command("strike", {"hex": hex_id, "points": 1})
        return None

    def nothing_here(self, hex_id: str) -> str:
        return f"Nothing to do at {hex_id} now. {self.view['prompt']['text']}"


NEXT = "next:"  # a selection that moves on (``_next_chooser``): "next:" and the piece just placed
CARDS = ("pb-sides", "pb-displays")  # the kept cards, in the page's order (board.html)


@cache
def _stamp(template: str) -> bytes:
    """The template's digest: a page drawn by another release keeps no card."""
    source, _, _ = TEMPLATES.env.loader.get_source(TEMPLATES.env, template)  # type: ignore[union-attr]
    return digest(source.encode()).encode()


def _drawn_once(kept: Recent, key: Any, template: str, **context: Any) -> Markup:
    """``template`` drawn with ``context``, once for each ``key`` (all that the drawing shows)."""
    drawn = kept.get(key)
    if drawn is None:
        drawn = Markup(TEMPLATES.env.get_template(template).render(**context))
        kept.put(key, drawn)
    return drawn  # type: ignore[no-any-return]


def pb_context(session: Session | None, service: GameService, game: Game, seat: Seat | None,
               error: str | None = None, oob: bool = False, private_url: str | None = None,
               invite_url: str | None = None, select: str = "", inspect: str = "", welcome: bool = False,
               since: int | None = None, fresh: list[Any] | None = None, shown: list[str] | None = None) -> PBBoard:
    """The board as ``seat`` sees it; ``oob``: only its changing parts (of the map's layers,
    those whose digest differs from the page's ``shown``), and the log lines from ``since``
    on (``fresh``: the rows a command just wrote; with them and the state in the cache, it
    reads nothing: ``session`` may be None)."""
    rules = get_rules(game.game)
    state = service.state(session, game)
    side = seat.side if seat else None
    view = service.view(session, game, side, listed=False)
    # (a side that does not decide now has none: ``choices`` is empty; nor one whose seat the
    # computer plays: the board only watches it)
    orders = Orders([]) if seat is not None and seat.computer else \
        service.cache.memo(game.id, game.seq, ("pb-orders", side), lambda: Orders(service.choices(game, state, side)))
    kinds: list[str] = []
    buttons = []
    allocate = "allocate" in orders.types
    for kind in orders.types:
        if kind in ("allocate", "crt"):  # the allocation form; the chooser's answers beside the tables
            continue
        if kind not in SINGLE:
            kinds.append(kind)
            continue
        for c in orders.commands(kind):
            notes = rules.end_phase_notes(state) if c.type == "end_phase" else []
            confirm = (" ".join(f"{n[0].upper()}{n[1:]}." for n in notes) + " End the phase?") if notes else None
            buttons.append(Button(c.type, _json(c), _label(rules, state, c), confirm))
    rows, relog = log_window(session, game, side, since if oob else None, fresh or [], LOG_LINES)
    relog = relog or (oob and since is None)  # an answer that does not know the page's log sends it whole
    gone = retracted_lines(rows)  # taken back: struck through, as in First Blood's log
    computer = by_computer(rows)
    lines = [{"seq": r.seq + 1, "text": r.text, "retracted": r.seq in gone, "computer": r.seq in computer}
             for r in reversed(rows) if r.text]
    board = PBBoard(game, seat, view, state, orders, game.seq, "", [], buttons, allocate, lines,
                    error=error, oob=oob, private_url=private_url, invite_url=invite_url,
                    welcome=welcome and not oob, relog=relog)
    board.choosers = _choosers(view, state, orders)
    if select.startswith(NEXT):
        select = _next_chooser(board.choosers, select[len(NEXT):])
    if select and select in board.own_ids():
        board.selected = _piece(view, state, select, side)
    board.groups = [_group(rules, state, kind, orders, board.select) for kind in kinds]
    board.owed_units, board.owed_hexes = owed(state, side)
    marks = _marks(board, rules, state, service, game, side)
    marks += [Mark(h, "owed", f"{queries.hex_name(h)}: must still be attacked this phase (14.11)")
              for h in board.owed_hexes]
    if inspect:
        board.inspect = inspect
        board.here = [Button(c.type, _json(c), _label(rules, state, c)) for c in board.at(inspect)]
        board.stack = _stack(view, inspect)
    if board.selected:
        board.selected_buttons = [Button(o.command.type, _json(o.command), _label(rules, state, o.command))
                                  for o in orders.of_piece(board.select) if o.place is None]
        if side and not any(o.command.type == "move" for o in orders.of_piece(board.select)):
            board.idle = service.why_idle(game, state, side, board.select)
    parts = layer_parts(view, marks, selected=board.select, ready={c["id"] for c in board.choosers},
                        owing=set(board.owed_units), fan=board.inspect or "")
    layers_shown, board.kept = split_shown(shown, len(parts), CARDS)
    changed = changed_parts(parts, layers_shown) if oob else None  # only what the page does not show yet
    board.layers = render_layers_svg(parts, oob) if changed is None else changed
    return board


def _group(rules: Any, state: Any, kind: str, orders: Orders, select: str) -> Group:
    """A kind of command as one list to choose from; a list too long to read (every
    landing hex of every reinforcement: some 1,500) holds only the selected piece's own,
    and so does a short one where the selected piece has any (its first choice must not
    be another piece's, one "Do it" away)."""
    g = Group(kind, TITLES.get(kind, kind))
    count = orders.count(kind)
    listed: list[Order] = orders.of_type(kind) if count <= LIST_AT_MOST else []
    if listed and select and orders.names_pieces(kind):
        listed = [o for o in orders.of_piece(select) if o.command.type == kind] or listed
    if count > LIST_AT_MOST and not orders.names_pieces(kind):  # (hexes to aim at, a recon's: no piece to select)
        listed = orders.of_type(kind) if count <= LIST_HEXES_AT_MOST else []
        if not listed:
            g.hint = f"{count:,} choices: click a highlighted hex on the map."
    elif count > LIST_AT_MOST:
        listed = [o for o in orders.of_piece(select) if o.command.type == kind] if select else []
        if not listed:
            g.hint = f"{count:,} choices: select a piece (above, or on the map) to list its own."
    reach: dict[Any, dict[str, Any]] = {}  # each listed piece's hexes, asked once
    g.options = [(_json(o.command), _label(rules, state, o.command) + _cost(rules, state, o.command, reach))
                 for o in listed]
    return g


def _cost(rules: Any, state: Any, c: Command, reach: dict[Any, dict[str, Any]]) -> str:
    """A move's movement points, as the map's badge on the hex says them (11.3)."""
    if c.type != "move":
        return ""
    unit = c.data.get("unit")
    if unit not in reach:
        reach[unit] = rules.reachable(state, unit)
    cost = reach[unit].get(c.data.get("to"), {}).get("cost")
    return "" if cost is None else f" ({cost:g} MP)"


def owed(state: Any, side: str | None) -> tuple[list[str], list[str]]:
    """14.11, for the side whose combat phase it is and no one else: its units in an enemy
    ZOC not yet attacking (nor in the battle being declared) and the enemy hexes that
    must still be attacked: what the prompt names (rules.py ``_owed_attacks``)."""
    if (side is None or sequence.step(state.phase) != "combat" or sequence.side_of(state) != side
            or state.fought or state.pending):
        return [], []
    units, hexes = battles.unmet(state, side)
    busy = battles.in_battle(state)
    return [u for u in units if u not in busy], hexes


def pb_moment(game: Game, seat: Seat | None, state: Any, view: dict[str, Any], seq: int) -> PBBoard:
    """A past moment of the game as its viewer saw it: the map and the displays, no commands."""
    return PBBoard(game, seat, view, state, Orders([]), seq, render_board_svg(view), [], [], False, [])


def _marks(board: PBBoard, rules: Any, state: Any, service: GameService, game: Game,
           side: str | None) -> list[Mark]:
    """The hexes the map highlights: where the selected piece may go (with the cost of a
    move, 11.0), and the hexes commands of no piece name (battles to declare, strikes)."""
    by_hex: dict[str, list[Command]] = {}
    mine = [o for o in board.orders.of_piece(board.select) if o.owner == board.select] if board.selected else []
    for o in mine + board.orders.unowned():
        if o.place is not None:
            by_hex.setdefault(o.place, []).append(o.command)
    reach = service.reachable(game, state, side, board.select) if board.selected and side else {}
    marks = []
    for h, cmds in sorted(by_hex.items()):
        kind = MARKS.get(cmds[0].type, "target")
        cost = reach[h]["cost"] if h in reach else None
        label = _label(rules, state, cmds[0]) + (f" ({len(cmds)} choices)" if len(cmds) > 1 else "")
        marks.append(Mark(h, kind, label, f"{cost:g}" if cost is not None else ""))
    return marks


def _next_chooser(choosers: list[dict[str, str]], done: str) -> str:
    """After ``done`` was placed or landed: the piece to select next, ``done`` itself while it
    still has orders (a landing can be taken back, a piece may be sent home), else the next
    piece that has one, in the choosers' order (none: nothing)."""
    ids = [c["id"] for c in choosers]
    if done in ids:
        return done
    return next((i for i in ids if i > done), ids[0] if ids else "")


def _choosers(view: dict[str, Any], state: Any, orders: Orders) -> list[dict[str, str]]:
    """The own pieces with an order to give now, on the map or off it (set-up, landings);
    turning a unit face up (34.0), always possible, is not such an order."""
    names = {u["id"]: u for u in view["units"]}
    out = []
    for pid in sorted(orders.pieces(skip=face_up.KINDS)):
        u = names.get(pid)
        unit = u["unit"] if u else getattr(state.off.get(pid), "unit", pid)
        where = u["hex"] if u else "off the map"
        out.append({"id": pid, "label": unit if unit == pid else f"{unit} ({pid})", "where": where,
                    "hex": u["hex"] if u else ""})
    return out


def _piece(view: dict[str, Any], state: Any, pid: str, side: str | None) -> dict[str, Any]:
    u = next((u for u in view["units"] if u["id"] == pid), None)
    if u is not None:
        return u
    off = state.off.get(pid)  # an own piece off the map (only own pieces can be selected)
    return {"id": pid, "unit": off.unit if off else pid, "side": side, "hex": None, "box": off.box if off else ""}


def _stack(view: dict[str, Any], hex_id: str) -> list[str]:
    out = [f"{u['unit']} ({u['id']})" for u in view["units"] if u["hex"] == hex_id]
    for st in view["stacks"]:
        if st["hex"] == hex_id:
            seen = ", ".join(u["unit"] for u in st["units"] or [])
            zoc = {True: "with a ZOC", False: "without a ZOC", None: "(ZOC not told, 18.4)"}[st["zoc"]]
            out.append(f"{st['side']} stack {zoc}: {seen}" if seen else f"{st['side']} stack {zoc}, not examined")
    return out


def _short_column(column: str) -> str:
    """ "24%-" -> "≤24", "25-49%" -> "25", "400%+" -> "400+" (the full name is its title; the
    caption says they are percentages): short enough for the whole table to fit the panel."""
    if column.endswith("-"):
        return "≤" + column[:-1].rstrip("%")
    return column.split("-")[0] if "-" in column else column.replace("%", "")


def _json(c: Command) -> str:
    return json.dumps(c.data, sort_keys=True)


def _label(rules: Any, state: Any, c: Command) -> str:
    try:
        return rules.label(state, c)
    except (KeyError, ValueError, TypeError):  # a label must never break the page
        return f"{c.type} {json.dumps(c.data, sort_keys=True)}"
