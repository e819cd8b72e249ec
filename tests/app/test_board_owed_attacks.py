"""Owed attacks on the Pacific Battles map (14.11, issue 31): in its combat phase the side
that owes attacks sees the enemy hexes it must still attack and its own units that must
still attack marked on the map, with a legend line; the other side's board (and a
spectator's) has no such marks, nor once the attacks are declared."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

from app.games.pacific_battles.board import PBBoard, pb_context
from app.templating import TEMPLATES
from engine.games.pacific_battles import battles
from engine.games.pacific_battles.queries import board
from engine.games.pacific_battles.rules import RULES
from engine.games.pacific_battles.state import SIDES, PBState
from engine.games.pacific_battles.testing import play, position

C = "1422"  # clear ground (as in the engine's battle tests)
NEXT = board().neighbours(C)
FAR_J, FAR_A = "0020", "0025"  # reserves far from everything


class Service:
    """What the board asks of GameService, for one position held in memory."""

    def __init__(self, state: PBState) -> None:
        self.s = state
        self.cache = self  # (nothing kept: each answer is worked out anew)

    def memo(self, game_id: str, seq: int, key: Any, compute: Any) -> Any:
        return compute()

    def state(self, session: Any, game: Any) -> PBState:
        return self.s

    def choices(self, game: Any, state: PBState, side: str | None) -> list:
        return RULES.legal_choices(state, side)

    def view(self, session: Any, game: Any, side: str | None, *, listed: bool = True) -> dict[str, Any]:
        return {**RULES.view(self.s, side), "clock": None, "seats": [], "status": "active"}

    def reachable(self, game: Any, state: PBState, side: str, unit: str) -> dict[str, Any]:
        return {}


def combat() -> PBState:
    """The Allies' combat phase with 1 Mar next to the Japanese 124 Inf in C, 5 Mar far off."""
    s = position({"Yano Bn": ("Yano Bn", FAR_J), "2 Raider": ("2 Raider", FAR_A), "124 Inf": ("124 Inf", C),
                  "1 Mar": ("1 Mar", NEXT[0])}, phase="initial_first_combat", first="Allied")
    s.hand = {sd: [] for sd in SIDES}
    return s


def board_of(state: PBState, side: str | None) -> tuple[PBBoard, str]:
    game = SimpleNamespace(id="g1", seq=0, game="pacific_battles", status="active", title="t", seats=[])
    seat = SimpleNamespace(side=side, computer=None) if side else None
    b = pb_context(None, Service(state), game, seat)  # type: ignore[arg-type]
    request = SimpleNamespace(app=SimpleNamespace(state=SimpleNamespace(settings=SimpleNamespace(
        poll_seconds=5, base_url="http://test"))))
    return b, TEMPLATES.env.get_template("games/pacific_battles/board.html").render(b=b, request=request)


def owed_hexes(page: str) -> set[str]:
    return set(re.findall(r'<polygon class="owed-mark" data-hex="(\d+)"', page))


def owing_units(page: str) -> set[str]:
    return set(re.findall(r'<g class="counter own[^"]* owes[^"]*" data-hex="\d+" data-unit="([^"]+)"', page))


def test_the_side_that_owes_attacks_sees_them_on_the_map_with_a_legend_line() -> None:
    s = combat()
    assert battles.unmet(s, "Allied") == (["1 Mar"], [C])
    assert "still owed" in RULES.prompt(s).text  # the prompt names them; the map shows them
    b, page = board_of(s, "Allied")
    assert (b.owed_units, b.owed_hexes) == (["1 Mar"], [C])
    assert owed_hexes(page) == {C} and owing_units(page) == {"1 Mar"}
    assert "must still be attacked this phase (14.11)" in page and "must still attack (14.11)" in page
    line = re.search(r'<p id="pb-owed" class="small owed-line">.*?</p>', page, re.S).group(0)  # not folded away
    assert "owed attacks (14.11)" in line and C in line and "must still attack" in line
    # the owed outline is not a button of its own: a click on C still declares the battle there
    assert re.search(rf'<polygon class="mark target" data-hex="{C}" role="button"', page)
    assert not re.search(r'class="owed-mark"[^>]*role=', page)


def test_the_other_side_and_a_spectator_see_no_owed_marks() -> None:
    s = combat()
    for side in ("Japanese", None):
        b, page = board_of(s, side)
        assert (b.owed_units, b.owed_hexes) == ([], [])
        assert not owed_hexes(page) and " owes" not in page
        assert "owed attacks" not in page and "must still attack" not in page and "14.11" not in page


def test_the_marks_go_as_the_attacks_are_declared() -> None:
    s = combat()
    play(s, "declare", "Allied", hex=C)
    b, page = board_of(s, "Allied")  # the hex is defended now, 1 Mar being added
    assert b.owed_hexes == [] and not owed_hexes(page)
    assert b.owed_units == ["1 Mar"] and owing_units(page) == {"1 Mar"}
    play(s, "add", "Allied", unit="1 Mar")
    b, page = board_of(s, "Allied")
    assert (b.owed_units, b.owed_hexes) == ([], []) and "owed attacks" not in page
    play(s, "close", "Allied")
    b, page = board_of(s, "Allied")
    assert (b.owed_units, b.owed_hexes) == ([], []) and not owed_hexes(page) and " owes" not in page


def test_the_battle_being_declared_is_shown_to_its_side_alone_with_buttons_that_say_what_they_do() -> None:
    """14.2: while a battle is built its side sees its hex and attackers, and its buttons
    name the battle; the enemy sees nothing of it until it is fought (18.0)."""
    s = combat()
    _, page = board_of(s, "Allied")  # a few choices are radio buttons, each label read whole
    group = re.search(r'<form [^>]*class="command-group">.*?</form>', page, re.S).group(0)
    assert '<input type="radio" name="data"' in group and "<select" not in group and "checked" in group
    play(s, "declare", "Allied", hex=C)
    play(s, "add", "Allied", unit="1 Mar")
    b, page = board_of(s, "Allied")
    card = re.search(r'<section class="card battle declaring".*?</section>', page, re.S)
    assert card is not None, page[:300]
    assert re.search(rf"Being declared:</strong> against {C}:\s*1 Mar", card.group(0))
    labels = {c.type: RULES.label(s, c) for c in RULES.legal_commands(s, "Allied")}
    assert labels["close"].startswith("Declare the battle against 1422") and "1 attacker " in labels["close"]
    assert labels["cancel"].startswith("Cancel the battle against 1422")
    assert labels["close"] in page and labels["cancel"] in page
    for side in ("Japanese", None):
        _, other = board_of(s, side)
        assert "Battles declared" not in other and "Being declared" not in other
    play(s, "close", "Allied")
    fight = next(c for c in RULES.legal_commands(s, "Allied") if c.type == "fight")
    assert RULES.label(s, fight) == "Declare no more: fight the 1 battle declared (14.3)"
    _, page = board_of(s, "Allied")
    assert re.search(rf"<li>against {C}:\s*1 Mar</li>", page)


def test_the_battle_card_names_its_shifts_as_columns_on_the_crt() -> None:
    """14.3: the odds give a base column, each modifier shifts it by columns; the card says
    "base column" and "-1 column: ..." (a player read "-3 support of the defenders' HQ" as
    three of something)."""
    s = combat()
    s.fortified = {C}  # (a shift against the attacker, 21.0)
    play(s, "declare", "Allied", hex=C)
    play(s, "add", "Allied", unit="1 Mar")
    play(s, "close", "Allied")
    play(s, "fight", "Allied")
    play(s, "pass", "Japanese")
    preview = RULES.view(s, "Allied")["battle_preview"]
    assert preview is not None
    _, page = board_of(s, "Allied")
    card = re.search(r'<section class="card battle preview".*?</section>', page, re.S).group(0)
    assert f"base column {preview['base']}" in card
    assert preview["shifts"]
    for value, why, rule in preview["shifts"]:
        word = "column" if abs(value) == 1 else "columns"
        assert f"<li>{value:+d} {word}: {why} ({rule})</li>" in card.replace("&#39;", "'")
    # the tables' codes in words on the card itself (their titles: a touch screen shows none)
    codes = re.search(r'<details class="small crt-codes">.*?</details>', card, re.S)
    assert codes is not None and all(f"<dt>{code}</dt><dd>{words}</dd>" in codes.group(0)
                                     for code, words in preview["words"].items())
