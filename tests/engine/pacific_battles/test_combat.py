"""A battle's assessment before the roll (combat.py): 14.3's procedure, with the rulebook's
examples and every shift's section."""

from __future__ import annotations

from engine.core.hexes import neighbor_ids
from engine.games.pacific_battles.board import load_board
from engine.games.pacific_battles.combat import assess, obligations, surrounded
from engine.games.pacific_battles.forces import load_forces
from engine.games.pacific_battles.movement import SUPPLY, Piece

B, F = load_board(), load_forces()
P = B.places
CLEAR = next(h for h, t in B.terrain.items() if t == "clear" and len(neighbor_ids(h)) == 6
             and all(B.terrain.get(n) == "clear" for n in neighbor_ids(h)))
RING = neighbor_ids(CLEAR)


def test_14_12_an_hq_alone_in_an_enemy_zoc_attacks_on_the_25_to_49_column() -> None:
    hq = Piece("h", "35 HQ", "Japanese", RING[0])  # support 1
    defender = Piece("d", "1 Para", "Allied", CLEAR)
    a = assess(B, F, [hq], [defender], attacker_hqs=[hq])
    assert (a.attack, a.base, a.column) == (0, "24%-", "25-49%")
    assert [(s.value, s.rule) for s in a.shifts] == [(1, "10.3")]


def test_14_41_nine_factors_against_three_is_the_300_column() -> None:
    jp = [Piece("a", "124 Inf", "Japanese", RING[0]), Piece("b", "Kuma Bn", "Japanese", RING[1]),
          Piece("c", "1 Armor", "Japanese", RING[2])]  # 6 + 1 + 2 = 9
    us = [Piece("d", "1 Raider", "Allied", CLEAR)]  # 0-... defence 2
    a = assess(B, F, jp, us + [Piece("e", "1 LVT", "Allied", CLEAR)])  # 2 + 1 = 3
    assert (a.attack, a.defence, a.column) == (9, 3, "300-399%")


def test_14_32_only_the_single_best_hq_in_radius_supports() -> None:
    attackers = [Piece("a", "1 Mar", "Allied", RING[0])]
    defenders = [Piece("d", "124 Inf", "Japanese", CLEAR)]
    near_weak = Piece("h1", "1 Mar Div HQ", "Allied", RING[3])  # support 2, radius 3
    near_strong = Piece("h2", "14 Corps HQ", "Allied", RING[3])  # support 3, radius 5
    a = assess(B, F, attackers, defenders, attacker_hqs=[near_weak, near_strong])
    assert [(s.value, s.why) for s in a.shifts] == [(3, "support of the attackers' HQ")]
    far = next(h for h in B.terrain if all(abs(int(h[2:]) - int(x.hex[2:])) > 8 for x in attackers))
    assert assess(B, F, attackers, defenders, attacker_hqs=[Piece("h3", "14 Corps HQ", "Allied", far)]).shifts == ()
    defended = assess(B, F, attackers, defenders, defender_hqs=[Piece("h4", "35 HQ", "Japanese", CLEAR)])
    assert [(s.value, s.rule) for s in defended.shifts] == [(-1, "10.3")]


def test_8_2_suppression_shifts_and_21_1_fortifications() -> None:
    attackers = [Piece("a", "1 Mar", "Allied", RING[0], suppressed=True)]
    defenders = [Piece("d", "124 Inf", "Japanese", CLEAR, suppressed=True)]
    a = assess(B, F, attackers, defenders)
    assert sorted(s.value for s in a.shifts) == [-1, 1] and a.column == a.base
    jp_fort = assess(B, F, [Piece("a", "1 Mar", "Allied", RING[0])], [Piece("d", "124 Inf", "Japanese", CLEAR)],
                     fortified=True)
    us_fort = assess(B, F, [Piece("a", "124 Inf", "Japanese", RING[0])], [Piece("d", "1 Mar", "Allied", CLEAR)],
                     fortified=True)
    assert (jp_fort.net, us_fort.net) == (-2, -1)  # the Japanese dig in deeper (21.1)


def test_14_33_the_single_best_terrain_shift() -> None:
    jungle = next(h for h, t in B.terrain.items() if t == "jungle")
    mountain = next(h for h, t in B.terrain.items() if t == "mountain")
    a = assess(B, F, [Piece("a", "1 Mar", "Allied", jungle)], [Piece("d", "124 Inf", "Japanese", jungle),
                                                              Piece("e", "Kuma Bn", "Japanese", mountain)])
    assert [(s.value, s.rule) for s in a.shifts] == [(-2, "14.33")]
    river = assess(B, F, [Piece("a", "1 Mar", "Allied", CLEAR)], [Piece("d", "124 Inf", "Japanese", CLEAR)],
                   across="river")
    assert [(s.value, s.rule) for s in river.shifts] == [(-1, "14.33")]


def test_banzai_favours_the_japanese_attacking_or_defending() -> None:
    jp, us = Piece("a", "124 Inf", "Japanese", RING[0]), Piece("d", "1 Mar", "Allied", CLEAR)
    assert assess(B, F, [jp], [us], banzai=True).net == 1
    assert assess(B, F, [us], [jp], banzai=True).net == -1


def test_14_11_who_must_attack_and_be_attacked() -> None:
    us = Piece("m", "1 Mar", "Allied", CLEAR)
    jp = [Piece("a", "124 Inf", "Japanese", RING[0]), Piece("h", "35 HQ", "Japanese", RING[1]),
          Piece("s", SUPPLY, "Japanese", RING[2]), Piece("q", "Kuma Bn", "Japanese", RING[3], suppressed=True)]
    must_attack, must_be_attacked = obligations(B, F, [us, *jp], "Japanese")
    assert must_attack == {"a", "h", "q"}  # supply units need not attack (13.6); an HQ must (14.12)
    assert obligations(B, F, [us, *jp], "Allied") == ({"m"}, {"a"})  # HQs, supply, suppressed: no ZOC


def test_15_21_a_unit_ringed_by_enemy_zoc_is_surrounded() -> None:
    us = Piece("m", "1 Mar", "Allied", CLEAR)
    ring = [Piece("a", "124 Inf", "Japanese", RING[0]), Piece("b", "4 Inf", "Japanese", RING[3])]
    assert surrounded(B, F, [us, *ring], us)
    assert not surrounded(B, F, [us, ring[0]], us)
