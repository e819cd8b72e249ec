"""A game's log told as a story, in the words every game shares (its rules name the
event that opens a turn and the one that opens a phase): the log page, "since your last
move" on the board and in mails, the replay's bookmarks."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from app import store
from app.models import Game
from app.visible import by_computer, readable, retracted_lines, viewer_of
from engine.core import undo
from engine.core.game import GameRules
from engine.games import get_rules


def briefing(session: Session, game: Game, side: str) -> list[dict[str, Any]]:
    """What happened since the player's last command, grouped by turn and phase, when
    the opponent (or the game itself) did something since: each line links to its
    moment on the map (``/games/{id}/at/{n}``). The story begins with that command: its
    own lines and what it set going (a new turn, the enemy's arrivals, dice), which the
    player may not have stayed to see."""
    viewer = viewer_of(game, side)
    rows = readable(store.since_last_command(session, game.id, side), game, viewer)
    gone = retracted_lines(rows)  # what was taken back never happened (an undo follows what it takes back)
    rows = [r for r in rows if r.seq not in gone and r.type != undo.UNDONE]
    if not any(r.text and r.actor not in (None, side) for r in rows):
        return []
    # the turn and phase the window begins in
    rules = get_rules(game.game)
    begun = readable(store.newest_of(session, game.id, (rules.turn_event, rules.phase_event), rows[0].seq - 1),
                     game, viewer)
    return narrative(rules, begun + rows)


def narrative(rules: GameRules[Any], rows: list[Any], gone: dict[int, int] | None = None) -> list[dict[str, Any]]:
    """Log rows as a story: the lines that say something, grouped under their turn and
    phase (a group's title is empty before the first turn or phase of ``rows``), each
    with the moment after it (``/games/{id}/at/{n}``), its time, and the event that took
    it back if one did (``gone``)."""
    gone = gone or {}
    groups: list[dict[str, Any]] = []
    turn = phase = ""
    computer = by_computer(rows)
    for r in rows:
        if r.type in (rules.turn_event, rules.phase_event) and r.seq in gone:
            continue  # taken back: the headings follow what still stands
        if r.type == rules.turn_event:
            turn = rules.turn_title(r.payload) or r.text or ""
        elif r.type == rules.phase_event:
            phase = rules.phase_title(r.payload)
        elif r.text:
            title = " · ".join(t for t in (turn, phase) if t)
            if not groups or groups[-1]["title"] != title:
                groups.append({"title": title, "lines": []})
            groups[-1]["lines"].append({"seq": r.seq + 1, "text": r.text, "at": r.created_at,
                                        "retracted_by": gone.get(r.seq), "computer": r.seq in computer})
    return groups
