"""Every fact the Pacific Battles rulebook states about its missing tables holds for the
reconstructed ones (engine/games/pacific_battles/tables.py, terrain.py)."""

from __future__ import annotations

import pytest

from engine.games.pacific_battles import tables as t
from engine.games.pacific_battles import terrain

# --- land combat -----------------------------------------------------------------------------


def test_14_12_the_two_lowest_columns_are_24_and_25_to_49_percent() -> None:
    assert t.COLUMNS[:2] == ("24%-", "25-49%")
    assert t.RAID.columns == t.ASSAULT.columns == t.COLUMNS


def test_14_12_an_hq_with_support_1_attacking_alone_uses_the_25_to_49_column() -> None:
    assert t.combat_column(0, 4) == "24%-"  # zero attack factor: the lowest column
    assert t.combat_column(0, 4, shifts=1) == "25-49%"


@pytest.mark.parametrize(("attack", "defence", "column"), [
    (9, 3, "300-399%"), (3, 9, "25-49%"), (2, 9, "24%-"), (5, 5, "100-149%"), (7, 5, "100-149%"),
    (15, 10, "150-199%"), (8, 2, "400%+"), (6, 0, "400%+")])
def test_14_3_the_percentile_is_attack_over_defence_times_100(attack: int, defence: int, column: str) -> None:
    assert t.combat_column(attack, defence) == column


def test_14_31_shifts_stop_at_the_extreme_columns() -> None:
    assert t.combat_column(1, 10, shifts=-5) == "24%-"
    assert t.combat_column(10, 1, shifts=3) == "400%+"
    assert t.combat_column(5, 5, shifts=2) == "200-299%" and t.combat_column(5, 5, shifts=-2) == "50-74%"


def test_every_result_of_both_tables_is_explained_and_they_name_retreats_routs_and_pursuit() -> None:
    used = {r for table in t.CRTS.values() for row in table.rows.values() for r in row}
    assert used <= set(t.RESULTS)
    assert {"DR1", "DR2", "DRT"} <= used  # 15.31: one or two hexes or a rout
    assert all(t.RESULTS[c].pursuit == 1 for c in ("DR1", "DR2", "DRT", "DE"))  # 15.42: generally one hex
    assert t.RESULTS["DL"].pursuit == 0  # 15.42's example: attrition specifies no pursuit
    assert t.RESULTS["DRT"].retreat == "defender rout"
    assert all(len(table.rows) == 6 and all(len(r) == 9 for r in table.rows.values()) for table in t.CRTS.values())


def test_15_23_bloodbath_is_a_50_percent_loss_on_the_assault_table() -> None:
    bb = t.RESULTS["BB"]
    assert (bb.attacker_loss, bb.defender_loss) == ("half", "half")
    assert any("BB" in row for row in t.ASSAULT.rows.values())


def test_a_raid_probes_at_little_risk_an_assault_decides() -> None:
    """18.1's Old Hand's Note: raid to find out what is in a stack "without having to risk too much"."""
    raid = {r for row in t.RAID.rows.values() for r in row}
    assault = {r for row in t.ASSAULT.rows.values() for r in row}
    assert not raid & {"AE", "DE", "BB", "DRT"}
    assert {"AE", "DE", "BB"} <= assault


def test_both_tables_favour_the_attacker_further_right_and_higher() -> None:
    worth = {"AE": -4, "AL": -3, "AR": -2, "AS": -1, "C": 0, "BB": 0, "DS": 1, "DL": 2, "DR1": 3, "DR2": 4,
             "DRT": 5, "DE": 6}
    for table in t.CRTS.values():
        for die, row in table.rows.items():
            values = [worth[r] for r in row]
            assert values == sorted(values), (table.name, die)
        for i in range(len(t.COLUMNS)):
            column = [worth[table.rows[d][i]] for d in range(1, 7)]
            assert column == sorted(column), (table.name, t.COLUMNS[i])


def test_15_5_banzai_turns_bloodbath_and_contact_into_ae_or_de() -> None:
    assert [t.banzai(c, japanese_attacking=True) for c in ("BB", "C", "DR1")] == ["AE", "AE", "DR1"]
    assert [t.banzai(c, japanese_attacking=False) for c in ("BB", "C", "AL")] == ["DE", "DE", "AL"]


def test_21_1_fortifications_shift_two_for_the_japanese_one_for_the_allies() -> None:
    assert t.FORTIFICATION_SHIFT == {"Japanese": 2, "Allied": 1}

# --- air --------------------------------------------------------------------------------------


def test_16_52_the_examples_of_air_superiority_fire() -> None:
    assert t.air_superiority(2, 5) == (1, 1)  # "he rolls a 5, causing one elimination and one damage"
    assert t.air_superiority(6, 6) == (3, 3)  # "rolled a 6; that would cause three ... and three damages"


def test_air_superiority_never_falls_with_more_points_or_a_higher_die() -> None:
    for die in range(1, 7):
        totals = [sum(t.air_superiority(p, die)) for p in range(1, 9)]
        assert totals == sorted(totals)
    for p in range(1, 9):
        totals = [sum(t.air_superiority(p, d)) for d in range(1, 7)]
        assert totals == sorted(totals)
    assert t.air_superiority(12, 6) == t.air_superiority(8, 6)  # 30.0: the excess fires separately
    assert t.air_superiority(0, 6) == (0, 0)


def test_16_81_terrain_shifts_the_strike_column_left_never_below_zero() -> None:
    assert t.strike_column(3) == "3"
    assert t.strike_column(3, terrain_shift=1) == "2"
    assert t.strike_column(1, terrain_shift=2) == "0"
    assert t.strike_column(5, extra_shift=1) == "6"  # Night Bombing Tactics, Fire Coordination
    assert [t.strike_column(p) for p in (0, 6, 7, 8, 9, 14)] == ["0", "6", "7-8", "7-8", "9+", "9+"]
    assert all(t.strike("0", d) == "-" for d in range(1, 7))


def test_16_83_three_points_can_give_the_s_result_of_the_example() -> None:
    assert "S" in [t.strike("3", d) for d in range(1, 7)]
    assert "suppressed and one supply point eliminated" in t.STRIKE_WORDS["S"]
    used = {r for row in t.STRIKE.values() for r in row}
    assert used <= set(t.STRIKE_WORDS) and "AA" in used  # 16.84


def test_26_4_five_air_strike_points_a_hex() -> None:
    assert t.AIR_STRIKE_LIMIT == 5


def test_26_5_interdiction_at_two_four_or_six_points() -> None:
    assert t.INTERDICTION_POINTS == (2, 4, 6)
    assert [t.interdiction_column(p) for p in (1, 2, 3, 4, 5, 6, 9)] == [None, 2, 2, 4, 4, 6, 6]
    used = {r for row in t.INTERDICTION.values() for r in row}
    assert used == set(t.INTERDICTION_WORDS)  # delay, elimination and AA all happen (16.62)
    assert t.interdiction(1, 6) == "-"


def test_31_2_close_air_support_is_damaged_on_a_6_or_5_6_near_aa() -> None:
    assert [t.close_support_damaged(d, near_aa=False) for d in range(1, 7)] == [False] * 5 + [True]
    assert [t.close_support_damaged(d, near_aa=True) for d in range(1, 7)] == [False] * 4 + [True, True]

# --- victory, terrain ------------------------------------------------------------------------


@pytest.mark.parametrize(("margin", "level"), [
    (0, "Draw"), (15, "Draw"), (16, "Marginal Victory"), (30, "Marginal Victory"), (31, "Major Victory"),
    (45, "Major Victory"), (46, "Decisive Victory"), (-20, "Marginal Victory")])
def test_24_2_victory_levels(margin: int, level: str) -> None:
    assert t.victory_level(margin) == level


def test_11_71_a_road_costs_only_the_road_and_11_72_a_bridge_negates_the_river() -> None:
    assert terrain.enter_cost("jungle", False, path="road") == 1
    assert terrain.enter_cost("jungle", False) == 4
    assert terrain.enter_cost("clear", False, hexside="river") == 4
    assert terrain.enter_cost("clear", False, hexside="river", bridged=True) == 2
    assert terrain.enter_cost("marsh", True) is None and terrain.enter_cost("mountain", True) is None
    assert terrain.enter_cost(terrain.SEA, False) is None


def test_16_7_the_open_terrain_types_are_examined_within_two_hexes() -> None:
    assert {n for n, x in terrain.TERRAIN.items() if x.open_to_recon} == {"clear", "cultivated", "marsh"}


def test_14_33_only_the_single_best_terrain_shift_counts() -> None:
    assert terrain.defence_shift("jungle", across="river") == 1
    assert terrain.defence_shift("mountain", across="river") == 2
    assert terrain.defence_shift("clear") == 0
