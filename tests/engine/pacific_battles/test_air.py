"""Air superiority, interdiction and strikes (air.py) with the rulebook's examples."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalCommandError
from engine.games.pacific_battles import air
from engine.games.pacific_battles.air import Losses


def test_16_52_the_smaller_force_fires_all_at_the_enemys_superiority() -> None:
    """The Japanese commit six points, the Allies four."""
    with pytest.raises(IllegalCommandError) as err:
        air.check_targets(4, 6, 1)
    assert err.value.rule == "16.52"
    air.check_targets(4, 6, 0)
    for at_others in (0, 1, 2):  # "six ... or four or five ... and two or one at other missions"
        air.check_targets(6, 4, at_others)
    with pytest.raises(IllegalCommandError):
        air.check_targets(6, 4, 3)


def test_16_52_the_first_example_two_points_roll_a_5() -> None:
    (fire,) = air.superiority_fire(2, 5)
    assert fire == (1, 1)  # "causing one elimination and one damage"
    losses = air.take_from_missions(*fire, {"interdiction": 2, "strike": 3}, [("interdiction", "E"), ("strike", "D")])
    assert losses == {"interdiction": Losses(1, 0, 0), "strike": Losses(0, 1, 0)}


def test_16_52_the_second_example_six_points_roll_a_6() -> None:
    (fire,) = air.superiority_fire(6, 6)
    assert fire == (3, 3)
    assert air.take(*fire, points=4) == Losses(3, 1, 2)  # the four wiped out; two damages lost


def test_16_52_results_land_only_on_targeted_missions_with_points_left() -> None:
    with pytest.raises(IllegalCommandError):
        air.take_from_missions(1, 1, {"strike": 1}, [("strike", "E"), ("strike", "D")])
    with pytest.raises(IllegalCommandError):
        air.take_from_missions(1, 1, {"strike": 2}, [("strike", "E")])  # a damage left with a target
    assert air.take_from_missions(2, 0, {"recon": 1}, [("recon", "E")]) == {"recon": Losses(1, 0, 0)}


def test_30_0_above_eight_points_a_second_combat() -> None:
    assert air.superiority_fire(10, 6) == [(4, 3), (1, 1)]
    assert air.superiority_fire(8, 6) == [(4, 3)]


def test_16_62_aa_weakens_the_interdiction_and_can_end_it() -> None:
    # two points: the first roll an AA (one point damaged), then nothing is left to roll with
    assert air.interdict(2, [1, 6, 6]) == [(2, "AA")]
    assert air.interdict(4, [1, 6]) == [(4, "AA"), (3, "D2")]  # rolled on the "2" column next
    assert air.interdict(6, [5, 6]) == [(6, "E"), (6, "E")]


def test_16_81_a_strike_column_never_falls_below_zero() -> None:
    assert air.strike(1, 3, 6) == ("0", "-")
    assert air.strike(3, 0, 4) == ("3", "S")


def test_4_1_and_16_31_a_sealed_allocation_is_checked_before_it_is_sealed() -> None:
    air.check_allocation(8, {"superiority": 4, "interdiction": 2, "strike": 2})
    air.check_allocation(5, {})  # everything stays in Reserve
    for bad, rule in (({"superiority": 9}, "16.2"), ({"interdiction": 3}, "26.5"), ({"bombing": 1}, "16.31"),
                      ({"strike": -1}, "16.31"), ({"supply": 1}, "16.9"), ({"recon": True}, "16.31")):
        with pytest.raises(IllegalCommandError) as err:
            air.check_allocation(8, bad)
        assert err.value.rule == rule, bad
