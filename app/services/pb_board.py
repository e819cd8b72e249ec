"""What the Pacific Battles board page shows a viewer: its view of the game (already cut
down to what it may know), its legal commands grouped by kind, the map with its pieces,
and the log as it may read it.  The first browser board of issue 12: every command the
engine offers can be given from it; the richer displays come next."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from app import store
from app.models import Game, Seat
from app.render.pacific_pieces import render_board_svg
from app.services.games import GameService
from app.visible import readable, viewer_of
from engine.core.events import Command
from engine.games import get_rules

LOG_LINES = 80
TITLES = {  # the kinds of command, as the player reads them, with their rule
    "place": "Set up a unit (25.4)", "land": "Land a reinforcement (6.2, 26.8)",
    "to_base": "Send to the home base (26.2)",
    "evacuate": "Evacuate (23.0)", "buy": "Buy a conditional unit, 2 VP (25.6d)", "activate": "Activate an HQ (7.3)",
    "refit": "Refit (7.5)", "repair": "Repair aircraft (7.6)", "fortify": "Fortify (20.3)",
    "breakdown": "Break down (9.1)", "combine": "Combine (9.2)", "dig": "Dig In: fortify a hex",
    "activate_free": "Staff Planning: activate an HQ", "move": "Move (11.0)",
    "carry": "Move an engineer with a supply point (20.4)", "sail": "Amphibious move (22.1)",
    "recon": "Air recon (16.7)", "strike": "Air strike (16.8)", "declare": "Declare a battle against (14.2)",
    "add": "Add an attacker", "add_hex": "Add a defending hex (14.22)", "crt": "Choose the CRT (14.4)",
    "play": "Play a campaign marker", "lose": "Take a loss (15.2)", "break": "Break down to take a loss (15.22)",
    "retreat": "Retreat (15.3)", "pursue": "Pursue (15.4)", "fire": "Air superiority fire at other missions (16.52)",
    "hit": "Place an air loss (16.52)", "delay_turn": "MAGIC: delay a turn's reinforcements",
    "air_support": "Close air support for a battle (31.1)", "withdraw": "Take a declared battle out again",
    "artillery": "HQ artillery (29.0)", "buy_marker": "Buy a command marker, 2 VP (27.2)",
}
SINGLE = ("end_phase", "close", "cancel", "fight", "pass", "stop", "undo")


@dataclass
class Group:
    type: str
    title: str
    options: list[tuple[str, str]] = field(default_factory=list)  # (data as JSON, label)


@dataclass
class PBBoard:
    game: Game
    seat: Seat | None
    view: dict[str, Any]
    seq: int
    svg: str
    groups: list[Group]
    buttons: list[tuple[str, str, str]]  # (type, data JSON, label)
    allocate: bool
    log: list[dict[str, Any]]
    error: str | None = None
    oob: bool = False
    private_url: str | None = None
    invite_url: str | None = None

    @property
    def side(self) -> str | None:
        return self.seat.side if self.seat else None

    @property
    def your_turn(self) -> bool:
        return self.side is not None and self.side in self.view["prompt"]["sides"]


def pb_context(session: Session, service: GameService, game: Game, seat: Seat | None, error: str | None = None,
               oob: bool = False, private_url: str | None = None, invite_url: str | None = None) -> PBBoard:
    rules = get_rules(game.game)
    state = service.state(session, game)
    side = seat.side if seat else None
    acting = side is not None and side in rules.prompt(state).acting
    legal = service.legal(game, state, side) if acting else []
    view = service.view(session, game, side)
    groups: dict[str, Group] = {}
    buttons = []
    allocate = False
    for c in legal:
        if c.type == "allocate":
            allocate = True
            continue
        label = _label(rules, state, c)
        if c.type in SINGLE:
            buttons.append((c.type, json.dumps(c.data, sort_keys=True), label))
            continue
        g = groups.setdefault(c.type, Group(c.type, TITLES.get(c.type, c.type)))
        g.options.append((json.dumps(c.data, sort_keys=True), label))
    first = max(0, game.seq - LOG_LINES)
    rows = store.page_events(session, game.id, first, game.seq - first)[1] if game.seq else []
    lines = [{"seq": r.seq, "text": r.text} for r in reversed(readable(rows, game, viewer_of(game, side))) if r.text]
    return PBBoard(game, seat, view, game.seq, render_board_svg(view), list(groups.values()), buttons, allocate,
                   lines, error, oob, private_url, invite_url)


def _label(rules: Any, state: Any, c: Command) -> str:
    try:
        return rules.label(state, c)
    except (KeyError, ValueError, TypeError):  # a label must never break the page
        return f"{c.type} {json.dumps(c.data, sort_keys=True)}"
