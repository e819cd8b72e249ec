"""Victory points, the victory check, sudden death, the initiative (victory.py)."""

from __future__ import annotations

import pytest

from engine.games.pacific_battles import victory as v


def test_the_vp_tables_for_losses_and_evacuations() -> None:
    assert [v.for_loss("Japanese", k) for k in ("hq", "battalion", "air", "supply")] == [5, 2, 1, 0]
    assert [v.for_loss("Allied", k) for k in ("hq", "battalion", "air", "supply")] == [4, 1, 2, 0]
    assert v.for_loss("Allied", "battalion", 3) == 3  # a regiment is three battalion equivalents
    assert v.for_evacuation("Japanese", "battalion", []) == 0  # not before Operation KE
    assert v.for_evacuation("Japanese", "hq", ["Operation KE"]) == 4
    assert v.for_evacuation("Allied", "hq", ["USMC Relief"]) == 5
    assert v.for_evacuation("Allied", "battalion", ["USMC Relief"], usmc=False) == 0  # USMC units only


def test_the_victory_check_scores_henderson_and_the_japanese_objectives() -> None:
    c = v.check("Japanese", {"Japanese": 3, "Allied": 5}, objectives=9)
    assert c.gains == {"Japanese": 8, "Allied": 0} and c.sudden_death is None
    c = v.check("Allied", {"Japanese": 0, "Allied": 5}, objectives=9)
    assert c.gains == {"Japanese": 0, "Allied": 5}


def test_25_3_sudden_death_needs_henderson_and_every_objective() -> None:
    assert v.check("Allied", {"Allied": 9, "Japanese": 0}, objectives=9).sudden_death == "Allied"
    assert v.check("Japanese", {"Japanese": 9, "Allied": 0}, objectives=9).sudden_death == "Japanese"
    assert v.check(None, {"Japanese": 9, "Allied": 0}, objectives=9).sudden_death is None
    assert v.check("Allied", {"Allied": 8, "Japanese": 1}, objectives=9).sudden_death is None


def test_24_2_the_result_by_margin() -> None:
    assert v.result({"Allied": 40, "Japanese": 20}) == ("Allied", "Marginal Victory")
    assert v.result({"Allied": 10, "Japanese": 60}) == ("Japanese", "Decisive Victory")
    assert v.result({"Allied": 10, "Japanese": 20}) == (None, "Draw")


def test_4_1_and_25_2_the_initiative() -> None:
    assert v.initiative(1, {"Allied": 0, "Japanese": 30})[0] == "Allied"  # the US on turn 1 regardless
    assert v.initiative(2, {"Allied": 3, "Japanese": 7})[0] == "Japanese"
    assert v.initiative(2, {"Allied": 5, "Japanese": 5}, die=2)[0] == "Allied"
    assert v.initiative(2, {"Allied": 5, "Japanese": 5}, die=6)[0] == "Japanese"
    with pytest.raises(ValueError):
        v.initiative(3, {"Allied": 5, "Japanese": 5})
