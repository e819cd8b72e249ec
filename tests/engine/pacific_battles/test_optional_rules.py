"""The optional rules: 27.0 (two VP for each extra marker), 29.0 (HQ artillery) and 35.1
(the historical markers at their historical dates)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalCommandError
from engine.games.pacific_battles import markers
from engine.games.pacific_battles import queries as q
from engine.games.pacific_battles.rules import RULES
from engine.games.pacific_battles.testing import legal, new_game, play


def through_setup(state) -> None:
    for _ in range(3):
        c = next(c for c in legal(state, "Japanese", "place"))
        play(state, "place", "Japanese", **c.data)
    play(state, "end_phase", "Japanese")


def test_35_1_the_historical_markers_wait_for_their_dates() -> None:
    s = new_game("hist", options={"historical_markers": True})
    for side, dates in markers.HISTORICAL.items():
        assert sorted(s.reserved[side]) == sorted(dates)
        mix = q.forces().markers[side]
        for name in dates:  # one of each is kept for its date, never drawn at random before it
            assert s.pool[side].count(name) == mix[name].count - mix[name].held - 1
    through_setup(s)
    assert s.turn == 1
    # August: the Japanese get Ironbottom Sound in the open, to use this turn
    events = [e for e in RULES.create("historical", {"historical_markers": True}, "hist")
              if e.type == "marker_scheduled"]
    assert events == []  # nothing before the first markers phase
    assert "Ironbottom Sound" in s.hand["Japanese"] and "Ironbottom Sound" not in s.reserved["Japanese"]
    assert "Operation KE" in s.reserved["Japanese"]


def test_35_1_a_scheduled_marker_takes_effect_without_its_condition() -> None:
    s = new_game("hist2", options={"historical_markers": True})
    ok, _ = markers.condition(s, "Japanese", "Operation KE", scheduled=True)
    assert ok and not markers.condition(s, "Japanese", "Operation KE")[0]  # no 10-VP Allied lead needed on its date
    assert markers.condition(s, "Allied", "14th Corps", scheduled=True)[0]


def test_27_2_two_vp_buy_one_more_marker_up_to_the_normal_picks() -> None:
    s = new_game("buy", options={"buy_markers": True})
    through_setup(s)
    # no VP on turn 1: nothing to buy, the markers phases run by themselves
    assert not s.phase.startswith("markers_")
    s2 = new_game("buy2", options={"buy_markers": True})
    s2.vp["Allied"] = 5
    through_setup(s2)
    assert s2.phase == "markers_first" and s2.first == "Allied"
    assert {"buy_marker", "end_phase"} <= {c.type for c in legal(s2, "Allied")}
    hand, pool = len(s2.hand["Allied"]), len(s2.pool["Allied"])
    play(s2, "buy_marker", "Allied")
    assert s2.vp["Allied"] == 3 and len(s2.pool["Allied"]) == pool - 1
    assert s2.bought["Allied"] == 1
    play(s2, "buy_marker", "Allied")
    assert s2.vp["Allied"] == 1  # two bought: the command level is 2, and there are no VP left anyway
    with pytest.raises(IllegalCommandError):
        play(s2, "buy_marker", "Allied")
    assert s2.phase != "markers_first" or len(s2.hand["Allied"]) >= hand


def test_29_activated_hqs_fire_artillery_from_next_to_their_supply() -> None:
    from engine.core.hexes import distance_between
    from engine.games.pacific_battles.testing import force_die, position

    b = q.board()
    hf = b.places["Henderson Field"]
    target = next(h for h in sorted(b.terrain) if distance_between(h, hf) == 2)
    near = b.neighbours(hf)[0]
    s = position({"1 Mar Div HQ": ("1 Mar Div HQ", hf), "s1": ("Supply", near, "Allied"),
                  "s2": ("Supply", near, "Allied"), "28 Inf": ("28 Inf", target)},
                 phase="initial_first_strike", options={"artillery": True}, active=("1 Mar Div HQ",))
    fire = [c.data for c in legal(s, "Allied", "artillery")]
    assert {"hq": "1 Mar Div HQ", "hex": target, "points": 2} in fire  # support value 2 (29.1 (3))
    assert all(distance_between(c["hex"], hf) <= 3 for c in fire)  # within the support radius (29.1 (2))
    events = play(s, "artillery", "Allied", hq="1 Mar Div HQ", hex=target, points=1)
    assert [e.type for e in events].count("supply_spent") == 1  # a supply point for firing (29.1 (1))
    events = play(s, "artillery", "Allied", hq="1 Mar Div HQ", hex=target, points=1)  # 29.2: in parts
    assert [e.type for e in events].count("supply_spent") == 0
    assert not legal(s, "Allied", "artillery")  # its two points are spent
    stub = next(e for e in events if e.type == "strike_placed")
    from engine.core.visibility import for_viewer

    assert "1 Mar Div HQ" not in str(for_viewer(stub, "Japanese", RULES.sides).data)  # which HQ fired stays hidden
    force_die(s, 6)
    events = play(s, "end_phase", "Allied")
    result = next(e for e in events if e.type == "strike_result")
    assert (result.data["naval"], result.data["air"]) == (2, 0)


def test_29_an_hq_out_of_reach_of_supply_or_inactive_fires_nothing() -> None:
    from engine.games.pacific_battles.testing import position

    b = q.board()
    hf = b.places["Henderson Field"]
    enemy = b.neighbours(hf)[1]
    s = position({"1 Mar Div HQ": ("1 Mar Div HQ", hf), "28 Inf": ("28 Inf", enemy)},
                 phase="initial_first_strike", options={"artillery": True}, active=("1 Mar Div HQ",))
    assert legal(s, "Allied", "artillery") == []  # no supply in or next to its hex
    s = position({"1 Mar Div HQ": ("1 Mar Div HQ", hf), "s1": ("Supply", hf, "Allied"), "28 Inf": ("28 Inf", enemy)},
                 phase="initial_first_strike", options={"artillery": True})
    assert legal(s, "Allied", "artillery") == []  # not activated
    s = position({"1 Mar Div HQ": ("1 Mar Div HQ", hf), "s1": ("Supply", hf, "Allied"), "28 Inf": ("28 Inf", enemy)},
                 phase="initial_first_strike", active=("1 Mar Div HQ",))
    assert legal(s, "Allied", "artillery") == []  # the option is off


def test_35_4_each_side_rolls_its_start_force_in_secret() -> None:
    from engine.core.visibility import for_viewer
    from engine.games.pacific_battles import variable

    seen: dict[str, set[int]] = {"Allied": set(), "Japanese": set()}
    for n in range(30):
        state = new_game(f"vf-{n}", options={"variable_forces": True})
        assert not any(e.type == "start_force" for e in RULES.create("historical", {"variable_forces": True}, "x"))
        events = []
        for _ in RULES.sides:  # 35.4 "Prior to start of play, each player rolls one die": each side's first decision
            side = RULES.prompt(state).side
            assert [c.type for c in legal(state, side)] == [variable.ROLL]
            assert legal(state, "Japanese" if side == "Allied" else "Allied") == []
            events += play(state, variable.ROLL, side)
        assert RULES.prompt(state).kind != variable.OWED
        for e in (e for e in events if e.type == "start_force"):
            side, die = e.data["side"], e.data["die"]
            seen[side].add(die)
            other = "Japanese" if side == "Allied" else "Allied"
            stub = for_viewer(e, other, RULES.sides)
            assert "die" not in stub.data and "changes" not in stub.data  # 35.4: "done in secret"
            for unit, due in variable.table()[side][die].changes:
                assert state.off[unit].due == due
        if any(e.type == "start_force" and e.data["side"] == "Japanese" and e.data["die"] >= 3 for e in events):
            assert "Kuma Bn" in [c.data["unit"] for c in legal(state, "Japanese", "place")]  # set up with 25.4a
    assert seen["Allied"] and seen["Japanese"] and len(seen["Japanese"]) > 2


def test_35_4_the_table_covers_every_die_and_moves_only_a_sides_own_units() -> None:
    from engine.games.pacific_battles import variable

    t = variable.table()
    assert all(sorted(rows) == [1, 2, 3, 4, 5, 6] for rows in t.values())
    assert t["Allied"][3].changes == () and t["Japanese"][1].changes == ()  # the printed forces are a row


def test_31_close_air_support_shifts_the_battle_and_risks_aa() -> None:
    from engine.games.pacific_battles.testing import force_dice, position

    b = q.board()
    hf = b.places["Henderson Field"]
    enemy = b.neighbours(hf)[0]
    s = position({"1 Mar": ("1 Mar", hf), "28 Inf": ("28 Inf", enemy)}, phase="initial_first_combat",
                 options={"close_air_support": True}, air={"Allied": {"missions": {"support": 3}}})
    play(s, "declare", "Allied", hex=enemy)
    play(s, "add", "Allied", unit="1 Mar")
    play(s, "close", "Allied")
    offers = [c.data for c in legal(s, "Allied", "air_support")]
    assert offers == [{"battle": 0, "points": 1}, {"battle": 0, "points": 2}]  # at most two a battle (R-PB-31)
    play(s, "air_support", "Allied", battle=0, points=2)
    assert s.air["Allied"].missions == {"support": 1, "cas": 2}
    play(s, "fight", "Allied")
    play(s, "pass", "Japanese")
    force_dice(s, {(1, 0): 3, (1, 1): 6, (2, 0): 1})  # the battle's die, ...
    from engine.games.pacific_battles.battles import assess

    a, _, _ = assess(s, s.battles[0])
    assert any(sh.rule == "31.1" and sh.value == 2 for sh in a.shifts)  # one column a point
    before = s.air["Allied"].reserve + s.air["Allied"].damaged
    events = play(s, "crt", "Allied", table="raid")
    aa = next(e for e in events if e.type == "air_changed" and "31.2" in e.data["why"])
    assert len(aa.data["dice"]) == 2 and "cas" not in s.air["Allied"].missions
    assert s.air["Allied"].damaged == sum(1 for d in aa.data["dice"] if d == 6)  # no enemy AA near: only a 6
    assert s.air["Allied"].reserve + s.air["Allied"].damaged == before + 2


def test_31_without_the_option_no_support_mission() -> None:
    from engine.games.pacific_battles.planning import check_allocate
    from engine.games.pacific_battles.testing import position

    s = position({}, phase="air_allocation")
    s.round.sides = ("Allied", "Japanese")
    s.air["Allied"].reserve = 4
    with pytest.raises(IllegalCommandError) as err:
        check_allocate(s, "Allied", {"superiority": 0, "interdiction": 0, "recon": 0, "strike": 0, "support": 2})
    assert err.value.rule == "31.0"


def test_32_supply_in_a_cleared_hex_is_captured_on_1_to_3_when_the_victor_pursues_into_it() -> None:
    from engine.games.pacific_battles.testing import force_die, position

    b = q.board()
    hf = b.places["Henderson Field"]
    enemy = b.neighbours(hf)[0]
    spots = {"1 Mar": ("1 Mar", hf), "Kuma Bn": ("Kuma Bn", enemy),
             "j1": ("Supply", enemy, "Japanese"), "j2": ("Supply", enemy, "Japanese")}
    s = position(spots, phase="initial_first_combat", options={"capture_supply": True})
    play(s, "declare", "Allied", hex=enemy)
    play(s, "add", "Allied", unit="1 Mar")
    play(s, "close", "Allied")
    play(s, "fight", "Allied")
    play(s, "pass", "Japanese")
    force_die(s, 6)
    events = play(s, "crt", "Allied", table="assault")
    assert next(e for e in events if e.type == "battle_resolved").data["result"] == "DE"
    assert "Kuma Bn" not in s.pieces and {"j1", "j2"} <= set(s.pieces)  # the supply waits (32.0)
    assert {"unit": "1 Mar", "to": enemy} in [c.data for c in legal(s, "Allied", "pursue")]
    events = play(s, "pursue", "Allied", unit="1 Mar", to=enemy)
    rolls = [e for e in events if e.type == "pieces_removed" and e.data.get("die")]
    assert len(rolls) == 2 and "j1" not in s.pieces and "j2" not in s.pieces
    captured = sum(1 for e in rolls if e.data["die"] <= 3)
    ours = [p for p in s.at(enemy) if p.side == "Allied" and p.unit == "Supply"]
    assert len(ours) == captured  # 1-3 captured, 4-6 eliminated (32.1)


def test_32_without_the_option_supply_goes_with_its_defenders() -> None:
    from engine.games.pacific_battles.testing import force_die, position

    b = q.board()
    hf = b.places["Henderson Field"]
    enemy = b.neighbours(hf)[0]
    s = position({"1 Mar": ("1 Mar", hf), "Kuma Bn": ("Kuma Bn", enemy), "j1": ("Supply", enemy, "Japanese")},
                 phase="initial_first_combat")
    play(s, "declare", "Allied", hex=enemy)
    play(s, "add", "Allied", unit="1 Mar")
    play(s, "close", "Allied")
    play(s, "fight", "Allied")
    play(s, "pass", "Japanese")
    force_die(s, 6)
    play(s, "crt", "Allied", table="assault")
    assert "j1" not in s.pieces and s.at(enemy) == []


def test_34_deception_markers_are_stacks_that_are_nothing_and_go_when_an_enemy_comes_near() -> None:
    from engine.core.hexes import distance_between
    from engine.games.pacific_battles.testing import position

    s = new_game("dec", options={"deception": True})
    decoys = [o.id for o in s.off.values() if o.unit == "Deception"]
    assert len(decoys) == 6 and all(s.off[i].due == 0 for i in decoys)  # 35.2: six at the set-up
    assert [c for c in legal(s, "Japanese", "place") if c.data["unit"] in decoys] == []  # next to units only
    unit = next(c for c in legal(s, "Japanese", "place") if c.data["unit"] == "81 Inf")
    play(s, "place", "Japanese", **unit.data)
    spots = {c.data["hex"] for c in legal(s, "Japanese", "place") if c.data["unit"] == decoys[0]}
    assert unit.data["hex"] in spots and all(distance_between(h, unit.data["hex"]) <= 1 for h in spots)  # 34.1
    far = next(h for h in sorted(spots) if h != unit.data["hex"])
    play(s, "place", "Japanese", unit=decoys[0], hex=far)
    allied = RULES.view(s, "Allied")
    stack = next(st for st in allied["stacks"] if st["hex"] == far)
    # nothing tells it from a stack of units: no Allied unit is near, so no ZOC is told (18.4)
    assert stack == {"hex": far, "side": "Japanese", "zoc": None, "fortified": False, "units": None}
    assert decoys[0] in leaks_needles(s)  # its id is a secret from the Allies

    # 34.3: the instant an enemy land unit is next to it, it is shown and removed
    b = q.board()
    spot = b.places["Koli Point"]
    near = b.neighbours(spot)[0]
    s = position({"d1": ("Deception", spot, "Japanese"), "1 Mar": ("1 Mar", b.neighbours(near)[0])},
                 phase="initial_first_movement", options={"deception": True})
    moves = {c.data["to"] for c in legal(s, "Allied", "move") if c.data["unit"] == "1 Mar"}
    target = next(h for h in sorted(moves) if distance_between(h, spot) == 1)
    events = play(s, "move", "Allied", unit="1 Mar", to=target)
    gone = [e for e in events if e.type == "pieces_removed"]
    assert gone and "d1" not in s.pieces
    from engine.core.visibility import for_viewer

    stub = for_viewer(gone[0], "Allied", RULES.sides)
    assert "d1" not in str(stub.data) and stub.data["deception"] == 1  # shown as a deception, no id


def leaks_needles(state) -> list[str]:
    from engine.games.pacific_battles.leaks import hidden_things

    return hidden_things(state, "Allied")


def test_34_a_move_that_shows_a_deception_marker_cannot_be_taken_back() -> None:
    """The move that found the marker showed the mover that the stack was nothing: taken
    back, the marker would be on the map again and known for a fake (docs/undo.md)."""
    from engine.core.hexes import distance_between
    from engine.games.pacific_battles.testing import position

    b = q.board()
    spot = b.places["Koli Point"]
    near = b.neighbours(spot)[0]
    s = position({"d1": ("Deception", spot, "Japanese"), "1 Mar": ("1 Mar", b.neighbours(near)[0]),
                  "2 Mar": ("2 Mar", b.neighbours(near)[0])},
                 phase="initial_first_movement", options={"deception": True})
    far = next(c for c in legal(s, "Allied", "move") if c.data["unit"] == "2 Mar"
               and distance_between(c.data["to"], spot) > 2)
    play(s, "move", "Allied", **far.data)  # shows nothing: may be taken back
    assert [c.type for c in legal(s, "Allied", "undo")] == ["undo"]
    target = next(c.data["to"] for c in legal(s, "Allied", "move") if c.data["unit"] == "1 Mar"
                  and distance_between(c.data["to"], spot) == 1)
    play(s, "move", "Allied", unit="1 Mar", to=target)
    assert "d1" not in s.pieces
    assert legal(s, "Allied", "undo") == []  # the reveal is a barrier: nothing before it comes back
    with pytest.raises(IllegalCommandError):
        play(s, "undo", "Allied", step=s.seq - 1)
