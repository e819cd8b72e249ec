"""Land movement and zones of control on the Guadalcanal map (movement.py): 11.0, 13.0."""

from __future__ import annotations

import re
from fractions import Fraction

from engine.core.events import Command
from engine.core.hexes import neighbor_ids
from engine.games.pacific_battles.board import load_board
from engine.games.pacific_battles.forces import load_forces
from engine.games.pacific_battles.movement import SUPPLY, Piece, has_zoc, movement_points, reachable, zoc_of
from engine.games.pacific_battles.rules import RULES
from engine.games.pacific_battles.testing import position

B, F = load_board(), load_forces()
P = B.places
HF, AUSTEN = P["Henderson Field"], P["Mount Austen"]


def reach(mover: Piece, *others: Piece) -> dict[str, Fraction]:
    return reachable(B, F, [mover, *others], mover)


def test_13_0_who_has_a_zoc() -> None:
    assert has_zoc(F, Piece("a", "124 Inf", "Japanese", AUSTEN))
    assert not has_zoc(F, Piece("b", "124 Inf", "Japanese", AUSTEN, suppressed=True))  # 8.2
    assert not has_zoc(F, Piece("c", "17 HQ", "Japanese", AUSTEN))
    assert not has_zoc(F, Piece("d", SUPPLY, "Japanese", AUSTEN))
    zoc = zoc_of(B, F, [Piece("a", "124 Inf", "Japanese", AUSTEN)], "Japanese")
    assert zoc == {AUSTEN, *B.neighbours(AUSTEN)}


def test_11_6_a_unit_stops_when_it_enters_an_enemy_zoc_and_never_enters_the_enemy() -> None:
    road = B.paths["Coast road"]
    us = Piece("m", "1 Mar", "Allied", road[6])
    zoc = zoc_of(B, F, [us], "Allied")
    assert road[5] in zoc and road[4] not in zoc
    r = reach(Piece("b", "Jp Bn", "Japanese", road[0]), us)
    assert r[road[5]] == 5  # marching up the road into the ZOC, where it stops ...
    assert road[6] not in r  # ... never onto the enemy (11.5, 12.6) ...
    assert all(h not in r or r[h] > i for i, h in enumerate(road) if i > 6)  # ... nor on along the road
    assert reach(Piece("b", "Jp Bn", "Japanese", road[0]))[road[8]] == 8  # which it could without the enemy


def test_13_4_leaving_a_zoc_the_first_hex_must_be_free_of_it() -> None:
    jp = Piece("j", "124 Inf", "Japanese", AUSTEN)
    zoc = zoc_of(B, F, [jp], "Japanese")
    start = next(h for h in B.neighbours(AUSTEN) if B.terrain[h] != "mountain")
    armor = Piece("t", "1 Tank", "Allied", start)  # not an infiltrator
    r = reach(armor, jp)
    first_steps = [h for h in B.neighbours(start) if h in r and r[h] == B.cost(start, h, True)]
    assert first_steps and all(h not in zoc for h in first_steps)


def test_13_5_japanese_infantry_and_raiders_may_infiltrate_one_hex() -> None:
    """Between two enemy units on opposite sides every neighbour is in an enemy ZOC: only an
    infiltrator may leave, one hex, and it stops there."""
    start = next(h for h, t in B.terrain.items() if t == "jungle" and len(neighbor_ids(h)) == 6
                 and all(B.terrain.get(n) == "jungle" for n in neighbor_ids(h)))
    ring = neighbor_ids(start)
    us = [Piece("m", "1 Mar", "Allied", ring[0]), Piece("n", "7 Mar", "Allied", ring[3])]
    free = {ring[i] for i in (1, 2, 4, 5)}
    assert free <= zoc_of(B, F, us, "Allied")
    assert set(reach(Piece("j", "Kuma Bn", "Japanese", start), *us)) == free
    assert set(reach(Piece("r", "1 Raider", "Allied", start), *[Piece(p.id, "124 Inf", "Japanese", p.hex)
                                                                 for p in us])) == free
    assert reach(Piece("k", "1 Armor", "Japanese", start), *us) == {}  # 13.4: no first hex free of ZOC
    assert reach(Piece("e", "39 Eng", "Japanese", start), *us) == {}


def test_11_4_a_unit_may_always_move_one_hex_and_8_2_suppression_halves_movement() -> None:
    mountain = next(h for h, t in B.terrain.items() if t == "mountain"
                    and any(B.terrain.get(n) == "mountain" for n in B.neighbours(h)))
    slow = Piece("d", "3 Def", "Allied", mountain, suppressed=True)  # 0-2-4, halved: 2 MP
    assert movement_points(F, slow) == 2
    r = reach(slow)
    mountain_next = [h for h in B.neighbours(mountain) if B.terrain[h] == "mountain"]
    assert all(r[h] == 2 for h in mountain_next)  # 6 MP terrain, entered on the minimum move
    assert all(h in B.neighbours(mountain) for h in r)  # and no further
    assert movement_points(F, Piece("x", "124 Inf", "Japanese", HF, suppressed=True)) == 5
    assert not any(B.terrain[h] == "mountain" for h in reach(Piece("t", "1 Tank", "Allied", mountain)))


def test_11_71_a_battalion_marches_ten_hexes_of_coast_road() -> None:
    road = B.paths["Coast road"]
    bn = Piece("b", "Jp Bn", "Japanese", road[0])
    r = reach(bn)
    assert r[road[10]] == 10 and road[11] not in r or r[road[11]] > 10
    assert max(i for i, h in enumerate(road) if h in r and r[h] == i) == 10


def test_20_2_an_engineer_bridges_the_river_hexsides_of_its_start_hex() -> None:
    from engine.games.pacific_battles import queries as q
    from engine.games.pacific_battles.movement import bridged_sides
    from engine.games.pacific_battles.testing import legal, position

    side, _ = next((s, r) for s, r in sorted(B.rivers.items(), key=lambda kv: sorted(kv[0]))
                   if s not in B.bridges and frozenset(s) not in B.links)
    a, b = sorted(side)
    mover = Piece("m", "USMC Bn", "Allied", a)
    plain = reachable(B, F, [mover], mover)
    over = reachable(B, F, [mover], mover, bridged=bridged_sides(B, [a]))
    assert over[b] < plain[b]  # the river's extra cost is gone (11.72's 2 points, R-PB-TEC)
    assert plain[b] - over[b] == 2
    assert bridged_sides(B, [a]) >= {side}
    # in a game: the engineer's start hex bridges for the others, not for itself (20.2: "all other")
    s = position({"1 Eng": ("1 Eng", a), "1 Raider": ("1 Raider", a)}, phase="initial_first_movement")
    s.bridging = {a}
    costs = {c.data["unit"]: c for c in legal(s, "Allied", "move") if c.data["to"] == b}
    assert set(costs) == {"1 Eng", "1 Raider"}
    assert q.board().cost(a, b, False, bridged=True) < q.board().cost(a, b, False)
    from engine.games.pacific_battles.impulse import moves
    assert moves(s, "1 Raider")[b] < moves(s, "1 Eng")[b]


def test_a_refused_move_says_which_limit_keeps_the_unit_out() -> None:
    """11.0-13.4: the reason names what stops the unit, found by the same search with one
    limit lifted at a time: an enemy stack's hex, the zones of control, the movement points,
    or no way at all (a tank and the mountains)."""
    import pytest

    from engine.core.errors import RuleError
    from engine.core.events import Command
    from engine.games.pacific_battles.rules import RULES
    from engine.games.pacific_battles.testing import position

    road = B.paths["Coast road"]
    mountain = next(h for h, t in B.terrain.items() if t == "mountain")
    tank = Piece("t", "1 Tank", "Allied", road[18])
    s = position({"1 Mar": ("1 Mar", road[0]), "124 Inf": ("124 Inf", road[6]), "1 Tank": ("1 Tank", road[18])},
                 phase="initial_first_movement", first="Allied")

    def refusal(unit: str, to: str) -> tuple[str, str]:
        with pytest.raises(RuleError) as caught:
            RULES.decide(s, Command("move", {"unit": unit, "to": to}, "Allied"))
        return caught.value.rule, str(caught.value)

    rule, text = refusal("1 Mar", road[6])
    assert rule == "11.5" and "holds enemy units" in text
    marines, enemy = Piece("m", "1 Mar", "Allied", road[0]), Piece("j", "124 Inf", "Japanese", road[6])
    free = reachable(B, F, [], marines, frozenset(), {road[6]})
    zoc_bound = sorted(set(free) - set(reachable(B, F, [marines, enemy], marines)))
    assert zoc_bound  # hexes its movement points reach, past the enemy's ZOC
    rule, text = refusal("1 Mar", zoc_bound[0])
    assert rule == "11.6" and "zones of control" in text and "movement points" not in text
    far = sorted(set(reachable(B, F, [], tank, unlimited=True)) - set(reachable(B, F, [], tank)))
    rule, text = refusal("1 Tank", far[0])  # a way there, too long
    assert rule == "11.3" and re.search(r"costs 1 Tank [\d.]+ movement points, more than its [\d.]+ left", text)
    if mountain not in reachable(B, F, [], tank, unlimited=True):
        rule, text = refusal("1 Tank", mountain)
        assert rule == "11.0" and "no way to" in text
    rule, text = refusal("1 Mar", "9999")
    assert rule == "11.0" and "not a land hex" in text


def test_a_command_names_the_place_of_its_hex() -> None:
    """The lists of moves, landings and strikes name a hex as the prompt does ("1532,
    Henderson Field"): the map prints no hex numbers, only places (a phone player could not
    tell 0020 from 1630 in a list of 114)."""
    s = position({"1 Mar": ("1 Mar", "1430")}, phase="initial_allied_movement")
    labels = [RULES.label(s, Command(t, d, "Allied")) for t, d in (
        ("move", {"unit": "1 Mar", "to": "1532"}), ("land", {"unit": "1 Mar", "hex": "1532"}),
        ("strike", {"hex": "1532", "points": 1}))]
    assert all("1532, Henderson Field" in label for label in labels), labels
    assert RULES.label(s, Command("move", {"unit": "1 Mar", "to": "1431"}, "Allied")).endswith("to 1431")
