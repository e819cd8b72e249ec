"""The planning impulse (4.1 1) through the game: the initiative (4.1 1a, 25.2), the
command marker draws (5.0) and the markers played the instant they are drawn, the
secret simultaneous air allocation (4.1 1c, 16.3) and air superiority (16.5, 16.52)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import dice
from engine.core.errors import IllegalCommandError, NotYourTurnError, RuleError
from engine.core.events import Command, Event
from engine.core.sealed import REVEALED, SEALED, Round
from engine.core.visibility import SEEN_BY, SPECTATOR, for_viewer
from engine.games.pacific_battles import queries as q
from engine.games.pacific_battles.movement import Piece
from engine.games.pacific_battles.planning import AIR_ROUND
from engine.games.pacific_battles.rules import RULES
from engine.games.pacific_battles.state import SIDES, Off, PBState, other
from engine.games.pacific_battles.testing import force_dice, force_die, legal, new_game, play, position

NOTHING = {"superiority": 0, "interdiction": 0, "recon": 0, "strike": 0}
HF = q.henderson_hex()
LUNGA = q.board().places["Lunga Point"]
KOKUMBONA = q.board().places["Kokumbona"]


# --- helpers ---------------------------------------------------------------------------------

def end_of_turn(turn: int = 2, *, vp: tuple[int, int] = (0, 0), pools: dict[str, list[str]] | None = None,
                command: dict[str, int] | None = None, first: str = "Allied") -> PBState:
    """The last phase of ``turn`` with an empty map: its ``end_phase`` runs the victory
    check and the next turn's initiative and command marker phases (up to the allocation).
    ``vp``: (Allied, Japanese); the pools hold only ``pools`` (default: nothing)."""
    s = position({}, phase="follow_second_combat", turn=turn, first=first)
    s.vp = {"Allied": vp[0], "Japanese": vp[1]}
    s.pool = {side: sorted((pools or {}).get(side, [])) for side in SIDES}
    s.command = dict(command or {"Allied": 1, "Japanese": 1})
    return s


def next_turn(s: PBState) -> list[Event]:
    return play(s, "end_phase")


def offset(s: PBState, command: str, side: str | None, event_type: str, **data: Any) -> int:
    """Where the first ``event_type`` falls among the events ``command`` would make now (a
    dry run: decide leaves the state alone)."""
    events = RULES.decide(s, Command(command, data, side))
    return [e.type for e in events].index(event_type)


def force_draw(s: PBState, at: int, pool: list[str], name: str) -> None:
    """A dice secret under which the draw recorded ``at`` events from now is ``name``."""
    for n in range(10_000):
        secret = f"draw-{n}"
        if dice.draw(secret, s.seq + at, sorted(pool)) == name:
            s.secret = secret
            return
    raise RuntimeError("no secret found")


def of_type(events: list[Event], event_type: str) -> list[Event]:
    return [e for e in events if e.type == event_type]


def allocating(japanese: int, allied: int) -> PBState:
    """The air allocation phase, both sides still to allocate from these Reserves."""
    s = position({}, phase="air_allocation", turn=2,
                 air={"Japanese": {"reserve": japanese}, "Allied": {"reserve": allied}})
    s.round = Round(AIR_ROUND, SIDES)
    return s


def allocate(s: PBState, side: str, **missions: int) -> list[Event]:
    return play(s, "allocate", side, **{**NOTHING, **missions})


def superiority_6_to_4(allied_others: dict[str, int]) -> PBState:
    """16.52's example: the Japanese commit six points to air superiority, the Allies four
    (and ``allied_others`` to other missions)."""
    s = allocating(6, 4 + sum(allied_others.values()))
    allocate(s, "Japanese", superiority=6)
    allocate(s, "Allied", superiority=4, **allied_others)
    return s


# --- the initiative (4.1 1a, 25.2) ---------------------------------------------------------------

def test_25_2_the_us_has_the_initiative_on_turn_1() -> None:
    s = new_game()
    s.vp["Japanese"] = 3  # even were the Japanese ahead: 25.2 decides the first turn
    for unit in ("11+13 Eng", "3 K SNLF (-)", "81 Inf"):
        place = next(c for c in legal(s, "Japanese", "place") if c.data["unit"] == unit)
        play(s, "place", "Japanese", **place.data)
    events = play(s, "end_phase", "Japanese")
    (initiative,) = of_type(events, "initiative_set")
    assert initiative.data["first"] == "Allied" and initiative.data["die"] is None
    assert "25.2" in initiative.data["why"]
    assert s.turn == 1 and s.first == "Allied"
    assert of_type(events, "markers_to_draw")[0].data["side"] == "Allied"  # 4.1 1b i: the first player picks first


@pytest.mark.parametrize(("vp", "first"), [((3, 7), "Japanese"), ((8, 2), "Allied")])
def test_4_1_1a_the_side_with_more_vp_is_the_first_player(vp: tuple[int, int], first: str) -> None:
    s = end_of_turn(vp=vp, first=other(first))
    events = next_turn(s)
    (initiative,) = of_type(events, "initiative_set")
    assert initiative.data["first"] == first and initiative.data["die"] is None  # no die without a tie
    assert s.turn == 3 and s.first == first
    assert [e.data["side"] for e in of_type(events, "markers_to_draw")] == [first, other(first)]


@pytest.mark.parametrize(("die", "first"), [(2, "Allied"), (5, "Japanese")])
def test_4_1_1a_a_tie_in_vp_is_decided_by_a_die(die: int, first: str) -> None:
    s = end_of_turn(vp=(4, 4), first=other(first))
    at = offset(s, "end_phase", None, "initiative_set")
    force_dice(s, {(at, 0): die})
    events = next_turn(s)
    (initiative,) = of_type(events, "initiative_set")
    assert initiative.data["die"] == die and initiative.data["first"] == first
    assert s.first == first
    assert of_type(events, "markers_to_draw")[0].data["side"] == first


# --- command markers (5.0, 25.4d) ----------------------------------------------------------------

def test_5_1_each_side_draws_as_many_markers_as_its_command_level() -> None:
    pools = {"Allied": ["Gung Ho!", "Gung Ho!", "Recon", "Staff Planning"], "Japanese": ["Dig In", "Recon"]}
    s = end_of_turn(vp=(1, 0), pools=pools, command={"Allied": 3, "Japanese": 1})
    events = next_turn(s)
    drawn = of_type(events, "marker_drawn")
    assert [e.data["side"] for e in drawn] == ["Allied"] * 3 + ["Japanese"]  # the first player first (4.1 1b)
    assert len(s.hand["Allied"]) == 3 and len(s.pool["Allied"]) == 1
    assert sorted(s.hand["Japanese"]) == sorted(["Banzai!", drawn[-1].data["marker"]])  # Banzai! was held
    assert s.phase == "air_allocation"


def test_5_1_the_draws_are_fixed_by_the_command_level_at_the_start_of_the_phase() -> None:
    """Operation KE drawn first raises the Japanese command level, but not this phase's draws."""
    pool = ["Dig In", "Operation KE", "Recon"]
    s = end_of_turn(vp=(12, 0), pools={"Japanese": pool}, command={"Allied": 1, "Japanese": 1})
    force_draw(s, offset(s, "end_phase", None, "marker_drawn"), pool, "Operation KE")
    events = next_turn(s)
    drawn = of_type(events, "marker_drawn")
    assert [e.data["marker"] for e in drawn] == ["Operation KE"]
    assert s.command["Japanese"] == 2
    assert sorted(s.pool["Japanese"]) == ["Dig In", "Recon"]


def test_5_1_a_drawn_marker_is_read_only_by_the_side_that_drew_it() -> None:
    pools = {"Allied": ["Gung Ho!", "MAGIC"], "Japanese": ["Dig In", "Staff Planning"]}
    s = end_of_turn(vp=(1, 0), pools=pools, command={"Allied": 2, "Japanese": 2})
    drawn = of_type(next_turn(s), "marker_drawn")
    assert len(drawn) == 4
    for e in drawn:
        drawer = e.data["side"]
        assert e.data[SEEN_BY] == [drawer]
        mine = for_viewer(e, drawer, RULES.sides)
        assert mine is not None and mine.data["marker"] in pools[drawer]
        for viewer in (other(drawer), SPECTATOR):
            stub = for_viewer(e, viewer, RULES.sides)
            assert stub is not None and stub.data["side"] == drawer and "marker" not in stub.data
            assert e.data["marker"] not in str(stub.data)  # that a marker was drawn, not which


def test_25_4d_the_japanese_start_with_one_banzai_in_hand_the_rest_in_the_pool() -> None:
    s = new_game()
    assert s.hand == {"Allied": [], "Japanese": ["Banzai!"]}
    assert s.pool["Japanese"].count("Banzai!") == 2  # three Banzai! markers, one of them held
    assert "Banzai!" not in s.pool["Allied"] and len(s.pool["Allied"]) == 15  # 25.5d: all US markers in the pool
    created = RULES.create("historical", {}, "test")
    (japanese,) = [e for e in created if e.type == "forces_set" and e.data["side"] == "Japanese"]
    stub = for_viewer(japanese, "Allied", RULES.sides)
    assert stub is not None and "hand" not in stub.data and "pool" not in stub.data  # 5.4: a hand is secret


# --- markers played the instant they are drawn (the Campaign Markers list) ----------------------------

@pytest.mark.parametrize("vp", [(9, 0), (0, 12)])
def test_operation_ke_without_a_10_vp_allied_lead_goes_back_to_the_pool(vp: tuple[int, int]) -> None:
    s = end_of_turn(vp=vp, pools={"Japanese": ["Operation KE"]}, command={"Allied": 1, "Japanese": 1})
    events = next_turn(s)
    (played,) = of_type(events, "marker_played")
    assert played.data["marker"] == "Operation KE" and played.data["to"] == "pool"
    assert "no effect" in played.data["effect"]
    assert s.pool["Japanese"] == ["Operation KE"] and "Operation KE" not in s.hand["Japanese"]
    assert s.in_effect["Japanese"] == [] and s.command["Japanese"] == 1
    assert "Yano Bn" not in s.off and not of_type(events, "command_raised")


def test_operation_ke_with_a_10_vp_allied_lead_takes_effect() -> None:
    s = end_of_turn(vp=(10, 0), pools={"Japanese": ["Operation KE"]}, command={"Allied": 1, "Japanese": 1})
    next_turn(s)
    assert s.in_effect["Japanese"] == ["Operation KE"] and s.pool["Japanese"] == []
    assert s.command["Japanese"] == 2
    yano = s.off["Yano Bn"]
    assert (yano.box, yano.due) == ("track", s.turn)  # the group arrives in this turn's reinforcement phase


def test_operation_ke_group_brings_five_air_strikes() -> None:
    s = end_of_turn(vp=(10, 0), pools={"Japanese": ["Operation KE"]}, command={"Allied": 1, "Japanese": 1})
    before = s.air["Japanese"].reserve + s.air["Japanese"].due
    next_turn(s)
    assert s.in_effect["Japanese"] == ["Operation KE"]
    assert s.air["Japanese"].reserve + s.air["Japanese"].due == before + 5


@pytest.mark.parametrize(("turn", "effect"), [(3, False), (4, True)])  # November -> no; December -> yes
def test_14th_corps_before_december_returns_to_the_pool(turn: int, effect: bool) -> None:
    s = end_of_turn(turn, pools={"Allied": ["14th Corps"]}, command={"Allied": 1, "Japanese": 1})
    events = next_turn(s)
    assert s.turn == turn + 1
    (played,) = of_type(events, "marker_played")
    if effect:
        assert s.in_effect["Allied"] == ["14th Corps"] and s.command["Allied"] == 2
        hq = s.off["14 Corps HQ"]
        assert (hq.box, hq.due) == ("track", s.turn)
    else:
        assert played.data["to"] == "pool" and "December" in played.data["effect"]
        assert s.pool["Allied"] == ["14th Corps"] and s.in_effect["Allied"] == []
        assert s.command["Allied"] == 1 and "14 Corps HQ" not in s.off


def test_tokyo_express_gives_supply_points_due_this_turn_safe_from_interdiction() -> None:
    s = end_of_turn(vp=(1, 0), pools={"Japanese": ["Tokyo Express"]}, command={"Allied": 1, "Japanese": 1})
    force_dice(s, {(offset(s, "end_phase", None, "marker_played"), 0): 5})
    events = next_turn(s)
    (played,) = of_type(events, "marker_played")
    assert played.data["die"] == 5 and played.data["to"] == "pool"
    supply = [o for o in s.off.values() if o.side == "Japanese" and o.unit == "Supply"]
    assert len(supply) == 5
    assert all(o.box == "track" and o.due == s.turn and o.safe for o in supply)
    assert s.pool["Japanese"] == ["Tokyo Express"]
    added = next(e for e in events if e.type == "pieces_added" and e.data["side"] == "Japanese")
    stub = for_viewer(added, "Allied", RULES.sides)
    assert stub is not None and "pieces" not in stub.data  # 18.6: the Allies learn only how many


def test_new_guinea_diversion_removes_three_air_strikes_from_the_reserve() -> None:
    s = end_of_turn(vp=(1, 0), pools={"Japanese": ["New Guinea Diversion"]}, command={"Allied": 1, "Japanese": 1})
    s.air["Japanese"].reserve = 8
    next_turn(s)
    assert s.air["Japanese"].reserve == 5
    assert s.removed["Japanese"] == ["New Guinea Diversion"] and s.pool["Japanese"] == []
    assert s.vp == {"Allied": 1, "Japanese": 0}  # no enemy action: nobody scores for them


@pytest.mark.parametrize("vp", [(9, 0), (10, 0)])
def test_usmc_relief_needs_a_10_vp_us_lead_and_raises_no_command_level(vp: tuple[int, int]) -> None:
    s = end_of_turn(vp=vp, pools={"Allied": ["USMC Relief"]})
    (played,) = of_type(next_turn(s), "marker_played")
    relief = {"25 Div HQ", "27 Inf", "35 Inf", "161 Inf"}
    if vp[0] - vp[1] >= 10:
        assert s.in_effect["Allied"] == ["USMC Relief"]
        assert relief <= {o.id for o in s.off.values() if o.box == "track" and o.due == s.turn}
    else:
        assert played.data["to"] == "pool" and s.pool["Allied"] == ["USMC Relief"] and s.in_effect["Allied"] == []
        assert not relief & set(s.off)
    assert s.command["Allied"] == 1  # unlike 14th Corps, the marker does not raise it


@pytest.mark.parametrize("engineer", [False, True])
def test_cactus_air_force_needs_a_combat_effective_us_engineer_on_henderson_field(engineer: bool) -> None:
    s = end_of_turn(vp=(1, 0), pools={"Allied": ["Cactus Air Force"]})
    if engineer:
        s.pieces["eng"] = Piece("eng", "1 Eng", "Allied", HF)
    force_dice(s, {(offset(s, "end_phase", None, "marker_played"), 0): 3})
    (played,) = of_type(next_turn(s), "marker_played")
    assert s.pool["Allied"] == ["Cactus Air Force"]  # back to the pool either way
    assert s.air["Allied"].due == (3 if engineer else 0)
    assert ("no effect" in played.data["effect"]) is not engineer


def test_16_31_marker_air_strikes_arrive_with_the_routine_air_after_the_allocation() -> None:
    """R-PB-16.31: Battle of Santa Cruz Islands' air strikes fly from the next turn's allocation."""
    s = end_of_turn(vp=(0, 1), pools={"Japanese": ["Battle of Santa Cruz Islands"]})
    force_dice(s, {(offset(s, "end_phase", None, "marker_played"), 0): 4})
    next_turn(s)
    assert s.phase == "air_allocation" and s.removed["Japanese"] == ["Battle of Santa Cruz Islands"]
    assert (s.air["Japanese"].reserve, s.air["Japanese"].due) == (8, 4)
    assert max(c.data["strike"] for c in legal(s, "Japanese", "allocate")) == 8  # not yet in the Reserve
    allocate(s, "Allied")
    allocate(s, "Japanese")
    assert s.phase == "reinforcements_first" and s.first == "Japanese"
    assert (s.air["Japanese"].reserve, s.air["Japanese"].due) == (8 + 2 + 4, 0)  # routine air and the marker's


def test_disease_losses_are_chosen_by_their_owner_on_guadalcanal_and_score_nothing() -> None:
    s = end_of_turn(vp=(0, 1), pools={"Japanese": ["Disease"]})
    s.pieces = {"k": Piece("k", "Kuma Bn", "Japanese", KOKUMBONA), "r": Piece("r", "28 Inf", "Japanese", KOKUMBONA),
                "js": Piece("js", "Supply", "Japanese", KOKUMBONA), "m": Piece("m", "1 Mar", "Allied", LUNGA)}
    s.off["base"] = Off("base", "Kuma Bn", "Japanese", "base")
    force_dice(s, {(offset(s, "end_phase", None, "marker_played"), 0): 2})
    next_turn(s)
    assert RULES.prompt(s).acting == ("Japanese",) and RULES.prompt(s).kind == "losses"
    assert {c.data["unit"] for c in legal(s, "Japanese", "lose")} == {"k", "r", "js"}  # not the base, not the US
    vp = dict(s.vp)
    play(s, "lose", "Japanese", unit="k")
    play(s, "lose", "Japanese", unit="js")  # a supply point counts as one
    assert s.pending == [] and set(s.pieces) == {"r", "m"}
    assert s.off["k"].box == "replace" and s.vp == vp


def test_weather_damages_an_air_unit_of_each_side_and_costs_each_a_supply_point() -> None:
    s = end_of_turn(vp=(0, 1), pools={"Japanese": ["Weather"]})
    s.pieces = {"js": Piece("js", "Supply", "Japanese", KOKUMBONA), "as": Piece("as", "Supply", "Allied", LUNGA)}
    next_turn(s)
    assert [(s.air[sd].reserve, s.air[sd].damaged) for sd in ("Japanese", "Allied")] == [(7, 1), (4, 1)]
    assert [d["side"] for d in s.pending] == ["Japanese", "Allied"]
    play(s, "lose", "Japanese", unit="js")
    assert legal(s, "Allied", "lose") == [Command("lose", {"unit": "as"})]
    play(s, "lose", "Allied", unit="as")
    assert s.pieces == {} and s.pending == [] and s.phase == "air_allocation"


def test_magic_shows_the_japanese_track_to_the_us_only_and_delays_one_turn() -> None:
    s = position({"m": ("1 Mar", LUNGA)}, phase="reinforcements_first", turn=3, first="Allied")
    s.hand["Allied"] = ["MAGIC"]
    s.off["A9"] = Off("A9", "Supply", "Allied", "track", 3)
    for unit, due in (("2 HQ", 3), ("4 Inf", 3), ("16 Inf", 4)):
        s.off[unit] = Off(unit, unit, "Japanese", "track", due)
    assert Command("play", {"marker": "MAGIC", "target": None}) in legal(s, "Allied")
    events = play(s, "play", "Allied", marker="MAGIC", target=None)
    (shown,) = of_type(events, "track_examined")
    assert sorted(u for u, _, _ in shown.data["units"]) == ["16 Inf", "2 HQ", "4 Inf"]
    for viewer in ("Japanese", SPECTATOR):
        stub = for_viewer(shown, viewer, RULES.sides)
        assert stub is None or "units" not in stub.data and "4 Inf" not in str(stub.data)
    assert set(legal(s, "Allied")) >= {Command("delay_turn", {"turn": 3}), Command("delay_turn", {"turn": 4}),
                                       Command("pass")}
    play(s, "delay_turn", "Allied", turn=3)
    assert [s.off[u].due for u in ("2 HQ", "4 Inf", "16 Inf")] == [4, 4, 4]
    assert "MAGIC" in s.pool["Allied"] and s.hand["Allied"] == []  # back to the pool


def test_5_4_the_opponent_cannot_tell_from_the_game_what_markers_are_held() -> None:
    """R-PB-5.4: whether or not the Japanese hold markers, the game waits for them in the
    same phases and the Allies read the same events, through the Japanese follow-on
    impulse and the end of the turn."""
    seen = []
    for hand in ([], ["Banzai!", "Dig In", "Recon", "Staff Planning"]):
        s = position({"m": ("1 Mar", LUNGA), "j": ("Kuma Bn", KOKUMBONA)}, phase="follow_first_combat", turn=2)
        s.pool = {"Allied": [], "Japanese": []}
        s.hand["Japanese"] = hand
        history = []
        for _ in range(20):
            if (s.turn, s.phase) == (3, "air_allocation"):
                break
            prompt = RULES.prompt(s)
            assert Command("end_phase") in legal(s, prompt.side)
            events = play(s, "end_phase", prompt.side)
            history.append((prompt.side, prompt.waiting, [for_viewer(e, "Allied", RULES.sides) for e in events]))
        assert (s.turn, s.phase) == (3, "air_allocation")
        seen.append(history)
    assert seen[0] == seen[1]


def test_17_3_naval_markers_are_not_flown_at_interdiction() -> None:
    """R-PB-17.3: every naval marker here is played in a bombardment phase."""
    s = position({}, phase="reinforcements_first", turn=2, first="Allied")
    s.hand["Japanese"] = ["Banzai!", "Ironbottom Sound", "The Bombardment"]
    s.off["7 Mar"] = Off("7 Mar", "7 Mar", "Allied", "track", 2)
    s.off["164 Inf"] = Off("164 Inf", "164 Inf", "Allied", "track", 2)
    assert legal(s, "Japanese") == []
    force_die(s, 6)
    events = play(s, "land", "Allied", unit="7 Mar", hex=LUNGA)
    assert not of_type(events, "interdicted") and s.pieces["7 Mar"].hex == LUNGA
    assert s.hand["Japanese"] == ["Banzai!", "Ironbottom Sound", "The Bombardment"]


# --- the secret air allocation (4.1 1c, 16.3) ------------------------------------------------------

def test_4_1_1c_i_the_mission_boxes_return_to_the_reserve_before_the_allocation() -> None:
    s = end_of_turn(vp=(1, 0))
    s.air["Japanese"].reserve, s.air["Japanese"].missions = 2, {"superiority": 2, "struck": 3}
    s.air["Japanese"].damaged = 1
    next_turn(s)
    assert s.phase == "air_allocation"
    assert (s.air["Japanese"].reserve, s.air["Japanese"].missions, s.air["Japanese"].damaged) == (7, {}, 1)
    assert {c.data["superiority"] for c in legal(s, "Japanese", "allocate")} == set(range(8))


@pytest.mark.parametrize("order", [("Japanese", "Allied"), ("Allied", "Japanese")])
def test_4_1_1c_both_sides_allocate_in_either_order(order: tuple[str, str]) -> None:
    s = allocating(8, 5)
    assert set(RULES.prompt(s).acting) == {"Allied", "Japanese"}
    choice = {"Japanese": {"superiority": 3, "strike": 4}, "Allied": {"interdiction": 2, "recon": 1}}
    first, second = order
    events = allocate(s, first, **choice[first])
    assert [e.type for e in events] == [SEALED]
    assert RULES.prompt(s).acting == (second,)
    events = allocate(s, second, **choice[second])
    (revealed,) = of_type(events, REVEALED)
    assert SEEN_BY not in revealed.data  # public
    assert revealed.data["decisions"] == {side: {**NOTHING, **choice[side]} for side in SIDES}
    assert s.air["Japanese"].missions == {"superiority": 3, "strike": 4} and s.air["Japanese"].reserve == 1
    assert s.air["Allied"].missions == {"interdiction": 2, "recon": 1} and s.air["Allied"].reserve == 2


def test_4_1_1c_a_sealed_allocation_is_a_stub_to_the_other_side() -> None:
    s = allocating(8, 5)
    (sealed,) = allocate(s, "Japanese", superiority=5, interdiction=2)
    for viewer in ("Allied", SPECTATOR):
        stub = for_viewer(sealed, viewer, RULES.sides)
        assert stub is not None and stub.data["kind"] == AIR_ROUND and stub.data["sealed"] is True
        assert "decision" not in stub.data and "superiority" not in str(stub.data)
    own = for_viewer(sealed, "Japanese", RULES.sides)
    assert own is not None and own.data["decision"] == {**NOTHING, "superiority": 5, "interdiction": 2}


def test_4_1_1c_the_second_side_cannot_tell_what_the_first_chose() -> None:
    a, b = allocating(8, 5), allocating(8, 5)
    allocate(a, "Japanese", superiority=8)
    allocate(b, "Japanese", interdiction=6, recon=1)
    assert legal(a, "Allied") == legal(b, "Allied") != []
    assert RULES.prompt(a) == RULES.prompt(b)
    assert RULES.view(a, "Allied") == RULES.view(b, "Allied")


def test_4_1_1c_a_side_allocates_once_a_turn() -> None:
    s = allocating(8, 5)
    allocate(s, "Japanese", superiority=2)
    assert legal(s, "Japanese") == []
    with pytest.raises(RuleError) as err:
        allocate(s, "Japanese", superiority=4)
    assert isinstance(err.value, NotYourTurnError) and "Allied" in str(err.value)
    assert err.value.rule == "4.1" and "sealed already" in err.value.message  # every refusal cites its section
    assert s.round.for_side("Japanese") == {**NOTHING, "superiority": 2}


@pytest.mark.parametrize("missions", [{"superiority": 9}, {"superiority": 5, "strike": 2, "recon": 2},
                                      {"interdiction": 6, "strike": 3}])
def test_16_2_no_more_points_than_the_reserve(missions: dict[str, int]) -> None:
    s = allocating(8, 5)
    with pytest.raises(IllegalCommandError) as err:
        allocate(s, "Japanese", **missions)
    assert err.value.rule == "16.2"
    assert s.round.waiting == ("Allied", "Japanese")  # nothing sealed


@pytest.mark.parametrize("points", [1, 3, 5])
def test_26_5_interdiction_takes_two_four_or_six_points(points: int) -> None:
    s = allocating(8, 5)
    with pytest.raises(IllegalCommandError) as err:
        allocate(s, "Japanese", interdiction=points)
    assert err.value.rule == "26.5"
    offered = {c.data["interdiction"] for c in legal(s, "Japanese", "allocate")}
    assert offered == {0, 2, 4, 6}
    allocate(s, "Japanese", interdiction=points + 1)  # 2, 4 and 6 are taken
    assert s.round.for_side("Japanese")["interdiction"] == points + 1


# --- air superiority (16.5, 16.52) -------------------------------------------------------------------

def test_16_52_only_the_side_with_more_superiority_points_may_fire_at_other_missions() -> None:
    s = superiority_6_to_4({"interdiction": 2, "strike": 3})
    assert s.phase == "air_superiority"
    assert s.air["Allied"].missions == {"superiority": 4, "interdiction": 2, "strike": 3}  # no die rolled yet
    assert s.air["Allied"].damaged == s.air["Japanese"].damaged == 0
    assert RULES.prompt(s).acting == ("Japanese",)
    assert legal(s, "Japanese") == [Command("fire", {"at_others": n}) for n in (0, 1, 2)]  # "two or one"
    assert legal(s, "Allied") == []
    with pytest.raises(NotYourTurnError):
        play(s, "fire", "Allied", at_others=0)
    with pytest.raises(IllegalCommandError):
        play(s, "fire", "Japanese", at_others=3)


def test_16_52_firing_more_than_the_excess_is_refused_citing_16_52() -> None:
    s = superiority_6_to_4({"interdiction": 2, "strike": 3})
    with pytest.raises(IllegalCommandError) as err:
        play(s, "fire", "Japanese", at_others=3)
    assert err.value.rule == "16.52"


def test_16_52_equal_forces_or_no_other_missions_leave_no_choice() -> None:
    s = allocating(4, 7)
    allocate(s, "Japanese", superiority=4)
    events = allocate(s, "Allied", superiority=4, strike=3)
    assert not of_type(events, "decision_owed") and s.pending == []  # 16.52.1: all fire at superiority
    (fired,) = of_type(events, "superiority_fired")
    assert [shot["at"] for shots in fired.data["fires"].values() for shot in shots] == ["superiority"] * 2
    assert s.air["Allied"].missions["strike"] == 3
    s = superiority_6_to_4({})  # the excess has nothing else to fire at
    assert s.pending == [] and s.phase.startswith("reinforcements_")


def test_16_52_the_first_example_two_points_roll_a_5_and_the_firer_places_the_losses() -> None:
    s = superiority_6_to_4({"interdiction": 2, "strike": 3})
    at = offset(s, "fire", "Japanese", "superiority_fired", at_others=2)
    # dice: the Allies' four (a 1: one damage), the Japanese four at superiority (a 1: one
    # damage), the Japanese two at other missions (a 5)
    force_dice(s, {(at, 0): 1, (at, 1): 1, (at, 2): 5})
    events = play(s, "fire", "Japanese", at_others=2)
    (fired,) = of_type(events, "superiority_fired")
    assert fired.data["fires"]["Allied"] == [{"at": "superiority", "points": 4, "die": 1, "eliminated": 0,
                                              "damaged": 1}]  # the Allies must fire all four at superiority
    assert fired.data["fires"]["Japanese"][1] == {"at": "others", "points": 2, "die": 5, "eliminated": 1,
                                                  "damaged": 1}  # "one elimination and one damage"
    assert RULES.prompt(s).acting == ("Japanese",) and RULES.prompt(s).kind == "air_hits"
    assert {c.data["mission"] for c in legal(s, "Japanese", "hit")} == {"interdiction", "strike"}
    play(s, "hit", "Japanese", mission="interdiction", kind="E")
    assert legal(s, "Japanese", "hit") == [Command("hit", {"mission": m, "kind": "D"})
                                           for m in ("interdiction", "strike")]
    play(s, "hit", "Japanese", mission="strike", kind="D")
    allied = s.air["Allied"]
    assert allied.missions == {"superiority": 3, "interdiction": 1, "strike": 2}
    assert (allied.eliminated, allied.damaged) == (1, 2)
    assert s.vp == {"Allied": 0, "Japanese": 1}  # one US air unit eliminated: 1 VP to the Japanese
    assert s.pending == []


def test_16_52_the_second_example_six_points_roll_a_6_and_the_excess_is_lost() -> None:
    s = superiority_6_to_4({"interdiction": 2, "strike": 3})
    at = offset(s, "fire", "Japanese", "superiority_fired", at_others=0)
    force_dice(s, {(at, 0): 3, (at, 1): 6})  # the Allies' four roll a 3 (one elimination)
    events = play(s, "fire", "Japanese", at_others=0)
    (fired,) = of_type(events, "superiority_fired")
    assert fired.data["fires"]["Japanese"] == [{"at": "superiority", "points": 6, "die": 6, "eliminated": 3,
                                                "damaged": 3}]  # all six fire: losses are simultaneous (16.51)
    allied = s.air["Allied"]
    assert "superiority" not in allied.missions  # the four wiped out ...
    assert (allied.eliminated, allied.damaged) == (3, 1)
    assert allied.missions == {"interdiction": 2, "strike": 3}  # ... the two damages left over are lost
    assert s.air["Japanese"].eliminated == 1 and s.air["Japanese"].missions == {"superiority": 5}
    assert s.vp == {"Allied": 2, "Japanese": 3}  # 2 VP per Japanese air unit, 1 per US air unit
    assert s.pending == []


def test_16_52_a_single_other_mission_takes_the_losses_without_asking() -> None:
    s = superiority_6_to_4({"strike": 3})
    at = offset(s, "fire", "Japanese", "superiority_fired", at_others=2)
    force_dice(s, {(at, 0): 1, (at, 1): 1, (at, 2): 5})
    play(s, "fire", "Japanese", at_others=2)
    assert s.pending == []
    assert s.air["Allied"].missions == {"superiority": 3, "strike": 1}
    assert s.vp["Japanese"] == 1


def test_16_52_more_than_eight_points_fire_on_the_eight_column() -> None:
    """R-PB-16.52b: without the optional 30.0, ten points fire as eight."""
    s = allocating(10, 10)
    allocate(s, "Japanese", superiority=10)
    at = offset(s, "allocate", "Allied", "superiority_fired", **{**NOTHING, "superiority": 10})
    force_dice(s, {(at, 0): 1, (at, 1): 6})  # the Allies' die, the Japanese die
    allocate(s, "Allied", superiority=10)
    assert (s.air["Allied"].eliminated, s.air["Allied"].damaged) == (4, 3)  # the 8 column, a 6
    assert (s.air["Japanese"].eliminated, s.air["Japanese"].damaged) == (1, 1)  # the 8 column, a 1
    assert s.vp == {"Allied": 2, "Japanese": 4}


def _thirty_losses(secret: str) -> tuple[int, int]:
    """The Allied losses (eliminated, damaged) to ten Japanese superiority points under 30.0."""
    s = position({}, phase="air_allocation", turn=2, options={"more_superiority": True}, secret=secret,
                 air={"Japanese": {"reserve": 10}, "Allied": {"reserve": 10}})
    s.round = Round(AIR_ROUND, SIDES)
    allocate(s, "Japanese", superiority=10)
    allocate(s, "Allied", superiority=10)
    return s.air["Allied"].eliminated, s.air["Allied"].damaged


def test_30_0_the_points_above_eight_fire_as_a_separate_combat_with_its_own_die() -> None:
    from engine.games.pacific_battles import tables

    one_die = {tuple(a + b for a, b in zip(tables.air_superiority(8, d), tables.air_superiority(2, d), strict=True))
               for d in range(1, 7)}
    seen = {_thirty_losses(f"thirty-{n}") for n in range(40)}
    assert seen - one_die  # some total no single die gives both combats
