"""Fog of war (fog.py): a side's picture holds no enemy unit it has not examined."""

from __future__ import annotations

import json

from engine.games.pacific_battles.board import load_board
from engine.games.pacific_battles.fog import seen_by
from engine.games.pacific_battles.forces import load_forces
from engine.games.pacific_battles.movement import SUPPLY, Piece

B, F = load_board(), load_forces()
HF, AUSTEN, GIFU = B.places["Henderson Field"], B.places["Mount Austen"], B.places["Gifu"]
PIECES = [Piece("m", "1 Mar", "Allied", HF), Piece("j1", "124 Inf", "Japanese", AUSTEN),
          Piece("j2", "17 HQ", "Japanese", GIFU), Piece("j3", SUPPLY, "Japanese", GIFU)]


def test_18_4_an_unexamined_enemy_stack_shows_only_that_it_is_there_and_its_zoc() -> None:
    view = seen_by(F, PIECES, "Allied", fortified=[AUSTEN])
    assert [u["id"] for u in view["units"]] == ["m"]
    expected = [{"hex": GIFU, "side": "Japanese", "zoc": False, "fortified": False, "units": None},
                {"hex": AUSTEN, "side": "Japanese", "zoc": True, "fortified": True, "units": None}]
    assert view["stacks"] == sorted(expected, key=lambda s: s["hex"])  # the HQ and supply have no ZOC
    text = json.dumps(view)
    assert "124 Inf" not in text and "17 HQ" not in text and '"j1"' not in text  # nothing hidden leaks


def test_18_1_an_examined_stack_shows_its_units() -> None:
    view = seen_by(F, PIECES, "Allied", examined=[AUSTEN])
    austen = next(s for s in view["stacks"] if s["hex"] == AUSTEN)
    assert [u["unit"] for u in austen["units"]] == ["124 Inf"]
    assert "17 HQ" not in json.dumps(view)  # Gifu was not examined


def test_a_spectator_sees_no_units_and_the_end_of_the_game_shows_all() -> None:
    spectator = seen_by(F, PIECES, None, examined=[AUSTEN])
    assert spectator["units"] == [] and all(s["units"] is None for s in spectator["stacks"])
    assert len(seen_by(F, PIECES, "Allied", everything=True)["units"]) == 4
