"""First Blood ground combat: the rulebook's worked examples (§7.1, §7.5, §7.6, Figures 7-8).

Each printed example is its own test, first on the odds table alone and then,
where the order of battle allows it, as a real combat played through the
engine (declare, add, resolve) with the die forced.
"""

from __future__ import annotations

import pytest
from fb_support import declare, resolved

from engine.core.errors import IllegalCommandError
from engine.core.hexes import distance_between
from engine.games.first_blood import tables
from engine.games.first_blood.board import load_board
from engine.games.first_blood.phases import combat
from engine.games.first_blood.testing import force_die, play, position

US_5CF = ["us-1-1", "us-1-2", "us-1-3"]  # marines, 5 CF
US_4CF = ["us-tank-1", "us-defense-3", "us-para-1"]  # 4 + 4 + 4 = 12
IJ_4CF = ["ij-kuma", "ij-124-1", "ij-124-3"]  # infantry, 4 CF


# --- §7.6: the odds example with a total offensive CF of 12 ------------------------------

@pytest.mark.parametrize(("defence", "column", "plus_one"), [
    (1, "3:1", True), (2, "3:1", True), (3, "3:1", True),
    (4, "3:1", False),
    (5, "2:1", False), (6, "2:1", False),
    (7, "1:1", False), (8, "1:1", False), (9, "1:1", False), (10, "1:1", False),
    (11, "1:1", False), (12, "1:1", False),
    (13, "1:2", False), (18, "1:2", False), (24, "1:2", False),
    (25, None, False), (26, None, False), (40, None, False),
])
def test_odds_example_attack_12_on_the_table(defence, column, plus_one):
    """§7.6: 'If the total offensive CF is 12 and the total defensive CF is 7 ... 12, the
    odds are 1:1; 13-24 1:2; 5 or 6 2:1; 4 3:1; lower 3:1 with +1; 25 or more: the
    attackers are eliminated' (Table 8 '4:1 or better' read as A >= 4D)."""
    assert tables.odds(12, defence) == (column, plus_one)


# Real combats with 4 + 4 + 4 = 12 US CF in 0707 (clear) against IJ units in 0706 and
# 0606 (both clear, no river, no ridge between them and 0707).
ODDS_12_CASES = [
    ({"0706": ["ij-tank-1"]}, 3, "3:1", 1),  # 12 >= 4 x 3: 3:1 and +1
    ({"0706": ["ij-kuma"]}, 4, "3:1", 0),
    ({"0706": ["ij-tank-1", "ij-kure-3"]}, 5, "2:1", 0),
    ({"0706": ["ij-kuma", "ij-kure-3"]}, 6, "2:1", 0),
    ({"0706": ["ij-kuma", "ij-tank-1"]}, 7, "1:1", 0),
    ({"0706": IJ_4CF}, 12, "1:1", 0),
    ({"0706": ["ij-kuma", "ij-124-1", "ij-tank-1"], "0606": ["ij-kure-3"]}, 13, "1:2", 0),
    ({"0706": IJ_4CF, "0606": ["ij-kure-3"]}, 14, "1:2", 0),
    ({"0706": IJ_4CF, "0606": ["ij-4-2", "ij-124-2", "ij-4-3"]}, 24, "1:2", 0),
]


@pytest.mark.parametrize(("defenders", "defence", "odds", "modifier"), ODDS_12_CASES)
def test_odds_example_attack_12_in_a_real_combat(defenders, defence, odds, modifier):
    units = {u: "0707" for u in US_4CF}
    units.update({u: h for h, us in defenders.items() for u in us})
    s = position(units, phase="us_combat")
    a = declare(s, sorted(defenders), US_4CF)
    assert (a["attack"], a["defence"], a["odds"], a["modifier"]) == (12, defence, odds, modifier)
    force_die(s, 3)
    r = resolved(play(s, "resolve"))
    assert (r["attack"], r["defence"], r["odds"], r["modifier"], r["die"]) == (12, defence, odds, modifier, 3)
    assert r["total"] == 3 + modifier
    assert r["result"] == tables.US_ATTACK_TABLE.lookup(odds, 3 + modifier)


# --- auto-elimination: D > 2A ---------------------------------------------------------------

def test_automatic_elimination_when_defence_is_more_than_twice_the_attack():
    """§7.6: odds worse than 1:2 (D > 2A): AE with no die roll; all attackers go."""
    s = position({"us-amtrac-1": "0707", "ij-kuma": "0706", "ij-124-1": "0706"}, phase="us_combat")
    a = declare(s, ["0706"], ["us-amtrac-1"])
    assert (a["attack"], a["defence"], a["odds"], a["automatic_elimination"]) == (2, 8, "worse than 1:2", True)
    events = play(s, "resolve")
    r = resolved(events)
    assert (r["die"], r["total"], r["result"]) == (None, None, "AE")
    assert s.units["us-amtrac-1"].loc == "eliminated"
    assert s.units["ij-kuma"].loc == s.units["ij-124-1"].loc == "0706"
    assert [e.data["unit"] for e in events if e.type == "unit_eliminated"] == ["us-amtrac-1"]


def test_defence_of_exactly_twice_the_attack_is_1_to_2_and_rolls():
    s = position({"us-amtrac-1": "0707", "ij-kuma": "0706"}, phase="us_combat")
    a = declare(s, ["0706"], ["us-amtrac-1"])
    assert (a["attack"], a["defence"], a["odds"], a["automatic_elimination"]) == (2, 4, "1:2", False)
    force_die(s, 4)
    r = resolved(play(s, "resolve"))
    assert (r["die"], r["total"], r["result"]) == (4, 4, "EX")  # Table 10, 1:2, row 4


def test_automatic_elimination_with_12_against_25():
    """The §7.6 example's last case with real units: 12 against 25 is eliminated before
    any roll.  0507 is high ground, so attacking it from 0606 crosses a ridge:
    (4 + 4 + 3) x 2 = 22; 0506 (low, touching 0606 and 0507) adds 4 Hvy's 3."""
    units = {u: "0606" for u in US_4CF}
    units.update({"ij-kuma": "0507", "ij-124-1": "0507", "ij-tank-1": "0507", "ij-hvy-4": "0506"})
    s = position(units, phase="us_combat")
    a = declare(s, ["0507", "0506"], US_4CF)
    assert (a["attack"], a["defence"], a["automatic_elimination"]) == (12, 25, True)
    r = resolved(play(s, "resolve"))
    assert (r["die"], r["total"], r["result"]) == (None, None, "AE")
    assert all(s.units[u].loc == "eliminated" for u in US_4CF)
    assert all(s.units[u].loc in ("0507", "0506") for u in ["ij-kuma", "ij-124-1", "ij-tank-1", "ij-hvy-4"])


# --- Figure 7 right: the US stack in 0606 against 0506 (jungle) and 0507 (ridge) -------------

def test_figure_7_right_stack_attacks_both_hexes():
    board = load_board()
    assert board.is_jungle_hex("0506") and not board.is_jungle_hex("0507")
    assert board.is_ridge("0606", "0507") and not board.is_ridge("0606", "0506")
    s = position({**{u: "0606" for u in US_5CF}, "ij-kuma": "0506", "ij-124-1": "0507"},
                 phase="us_combat")
    a = declare(s, ["0506", "0507"], US_5CF)
    assert (a["attack"], a["defence"], a["odds"], a["modifier"]) == (15, 12, "1:1", -1)
    force_die(s, 5)
    r = resolved(play(s, "resolve"))
    assert (r["attack"], r["defence"], r["odds"], r["modifier"]) == (15, 12, "1:1", -1)
    assert (r["die"], r["total"], r["result"]) == (5, 4, "EX")  # Table 10, 1:1, row 4
    assert sorted(r["defenders"]) == ["ij-124-1", "ij-kuma"]


def test_figure_7_right_split_alternative():
    """§7.1: one unit against 0506 (5 v 4, 1:1, -1) and two against 0507 (10 v 8, 1:1, no
    modifier)."""
    s = position({**{u: "0606" for u in US_5CF}, "ij-kuma": "0506", "ij-124-1": "0507"},
                 phase="us_combat")
    a = declare(s, ["0506"], ["us-1-1"])
    assert (a["attack"], a["defence"], a["odds"], a["modifier"]) == (5, 4, "1:1", -1)
    force_die(s, 1)
    r = resolved(play(s, "resolve"))
    # die 1 - 1 = 0 counts as 1 (§7.6): AE
    assert (r["odds"], r["modifier"], r["die"], r["total"], r["result"]) == ("1:1", -1, 1, 1, "AE")
    assert s.units["us-1-1"].loc == "eliminated"

    a = declare(s, ["0507"], ["us-1-2", "us-1-3"])
    assert (a["attack"], a["defence"], a["odds"], a["modifier"]) == (10, 8, "1:1", 0)
    force_die(s, 5)
    r = resolved(play(s, "resolve"))
    assert (r["attack"], r["defence"], r["odds"], r["modifier"], r["total"], r["result"]) == (
        10, 8, "1:1", 0, 5, "DR")


# --- Figure 7 left: two IJ 4 CF units across a river from a US unit in a jungle hex -----------

def figure_7_left_configuration() -> tuple[str, str, str]:
    """A jungle hex with two different hexes that touch it across a river."""
    board = load_board()
    for h in sorted(board.hexes):
        if not board.is_jungle_hex(h):
            continue
        across = sorted(n for n in board.neighbors(h) if board.is_river(h, n))
        if len(across) >= 2:
            return h, across[0], across[1]
    pytest.fail("the map has no jungle hex touched by two hexes across a river (Figure 7 left)")


def test_figure_7_left_river_doubles_and_jungle_subtracts():
    target, a1, a2 = figure_7_left_configuration()
    s = position({"us-1-1": target, "ij-kuma": a1, "ij-124-1": a2}, phase="ij_combat")
    a = declare(s, [target], ["ij-kuma", "ij-124-1"])
    assert (a["attack"], a["defence"], a["odds"], a["modifier"]) == (8, 10, "1:2", -1)
    force_die(s, 6)
    r = resolved(play(s, "resolve"))
    assert (r["attack"], r["defence"], r["odds"], r["modifier"], r["die"], r["total"]) == (
        8, 10, "1:2", -1, 6, 5)
    assert r["result"] == tables.IJ_ATTACK_TABLE.lookup("1:2", 5) == "A1"


def test_figure_7_left_not_doubled_when_one_attacker_is_on_the_same_bank():
    """§7.1: the river doubles only if ALL attackers are on the other side."""
    board = load_board()
    target, a1, _ = figure_7_left_configuration()
    same_bank = [n for n in board.neighbors(target) if not board.is_river(target, n)]
    assert same_bank, "the example hex needs a neighbour on its own bank"
    s = position({"us-1-1": target, "ij-kuma": a1, "ij-124-1": same_bank[0]}, phase="ij_combat")
    a = declare(s, [target], ["ij-kuma", "ij-124-1"])
    assert (a["attack"], a["defence"], a["odds"], a["modifier"]) == (8, 5, "1:1", -1)


# --- §7.1: the bridge and same-level high ground do not double -------------------------------

def test_attack_across_the_bridge_is_not_doubled_but_across_the_river_is():
    """§2.1: the bridge 0909-0910 counts as a clear hexside; 0809-0910 is the Lunga."""
    board = load_board()
    assert not board.is_river("0909", "0910") and board.is_river("0809", "0910")
    s = position({"us-1-1": "0909", "ij-kuma": "0910"}, phase="us_combat")
    a = declare(s, ["0910"], ["us-1-1"])
    assert (a["attack"], a["defence"], a["odds"]) == (5, 4, "1:1")
    s = position({"us-1-1": "0809", "ij-kuma": "0910"}, phase="us_combat")
    a = declare(s, ["0910"], ["us-1-1"])
    assert (a["attack"], a["defence"], a["odds"], a["modifier"]) == (5, 8, "1:2", 0)


def test_attack_along_the_ridge_top_is_not_doubled():
    """0406 and 0507 are both high ground (Bloody Ridge): no ridge hexside between them."""
    s = position({"us-1-1": "0406", "ij-kuma": "0507"}, phase="us_combat")
    a = declare(s, ["0507"], ["us-1-1"])
    assert (a["attack"], a["defence"], a["odds"]) == (5, 4, "1:1")


def test_7_1_a_ridge_doubles_only_the_defender_on_the_high_ground():
    """§7.1 and Table 8 ("it is the type of terrain occupied by the defending units that
    matters"; Ridge under "Defender hex"), §2.1 ("the higher ground provides a defensive
    advantage"): the US on Bloody Ridge (0507) attacking down into 0508 meets 4, not 8
    (0508 is jungle: -1); the IJ attacking up from 0508 meets the marines doubled."""
    board = load_board()
    assert board.is_ridge("0507", "0508") and board.hexes["0507"].high and not board.hexes["0508"].high
    s = position({"us-1-1": "0507", "ij-kuma": "0508"}, phase="us_combat")
    a = declare(s, ["0508"], ["us-1-1"])
    assert (a["attack"], a["defence"], a["odds"], a["modifier"]) == (5, 4, "1:1", -1)
    s = position({"us-1-1": "0507", "ij-kuma": "0508"}, phase="ij_combat")
    a = declare(s, ["0507"], ["ij-kuma"])
    assert (a["attack"], a["defence"], a["odds"]) == (4, 10, "worse than 1:2")
    assert any("high ground" in line for line in a["lines"]), a


# --- Figure 8: artillery range counts both hexes ----------------------------------------------

def test_figure_8_range_5_from_0311_reaches_0709():
    assert distance_between("0311", "0709") == 4
    s = position({"us-11-2": "0311", "us-1-1": "0808", "ij-kuma": "0709"}, phase="us_combat")
    assert combat.in_range("us-11-2", "0311", "0709")
    a = declare(s, ["0709"], ["us-1-1", "us-11-2"])
    assert s.combat.artillery == ["us-11-2"] and s.combat.attackers == ["us-1-1"]
    assert (a["attack"], a["defence"]) == (5 + 3, 4)


def test_figure_8_range_5_from_0311_does_not_reach_0708():
    assert distance_between("0311", "0708") == 5
    s = position({"us-11-2": "0311", "us-1-1": "0808", "ij-kuma": "0708"}, phase="us_combat")
    assert not combat.in_range("us-11-2", "0311", "0708")
    declare(s, ["0708"], ["us-1-1"])
    with pytest.raises(IllegalCommandError) as excinfo:
        play(s, "add", unit="us-11-2")
    assert excinfo.value.rule == "§7.5"


def test_7_6_odds_follow_the_procedure_and_its_example():
    """R-7.6c: the "About calculating odds" formulae read literally would make 10 against
    5 a 1:2 ("D < O < 3·D") and 5 against 5 a 1:1 only as "D <= O"; the procedure and its
    example (defence above twice the attack eliminates, rounding for the defender) rule."""
    assert tables.odds(10, 5) == ("2:1", False)
    assert tables.odds(5, 10) == ("1:2", False)
    assert tables.odds(5, 11) == (None, False)  # D > 2A: eliminated before any roll
    assert tables.odds(5, 5) == ("1:1", False)
    assert tables.odds(9, 5) == ("1:1", False)  # 1.8: rounded in the defender's favour
    assert tables.odds(15, 5) == ("3:1", False)
