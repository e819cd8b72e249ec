"""The Japanese set-up (25.4) and the reinforcement phases (6.0) through the game:
landings on coastal hexes (25.6b, 25.7b, 6.21) within the port limits (26.8), the
initial forces (26.6), interdiction (16.6, 26.5), the home bases (26.2), voluntary delay
(6.21), the Lost Battalion (6.25), evacuation (23.0, 25.6c, 25.7c) and the conditional
Japanese units (25.6d)."""

from __future__ import annotations

import json

import pytest

from engine.core import dice
from engine.core.errors import IllegalCommandError
from engine.core.events import Event
from engine.core.hexes import distance_between
from engine.core.sealed import Round
from engine.core.visibility import SPECTATOR, for_viewer
from engine.games.pacific_battles import queries as q
from engine.games.pacific_battles.movement import Piece
from engine.games.pacific_battles.planning import AIR_ROUND
from engine.games.pacific_battles.rules import RULES
from engine.games.pacific_battles.state import SIDES, Off, PBState, other
from engine.games.pacific_battles.testing import force_die, legal, new_game, play, position

B = q.board()
HF = q.henderson_hex()
KUKUM = B.places["Kukum"]  # coastal, no objective hex
LUNGA = B.places["Lunga Point"]  # a coastal objective hex
KOKUMBONA = B.places["Kokumbona"]  # another
START = ("11+13 Eng", "3 K SNLF (-)", "81 Inf")


# --- helpers ---------------------------------------------------------------------------------

def arriving(units: list[str | tuple[str, str]], *, side: str = "Japanese", turn: int = 2,
             pieces: dict | None = None, interdiction: int = 0, safe: bool = False, box: str = "track",
             suppressed: tuple[str, ...] = ()) -> PBState:
    """``side``'s reinforcement phase (it is the first player) with ``units`` (a name, or
    (id, unit)) due this turn on its track (or in its base), and the enemy flying
    ``interdiction`` air points on Interdiction."""
    air = {other(side): {"missions": {"interdiction": interdiction}}} if interdiction else None
    s = position(pieces or {}, phase="reinforcements_first", turn=turn, first=side, air=air, suppressed=suppressed)
    for u in units:
        pid, unit = u if isinstance(u, tuple) else (u, u)
        s.off[pid] = Off(pid, unit, side, box, turn if box == "track" else turn - 1, safe)  # in the base since before
    return s


def landings(s: PBState, unit: str) -> set[str]:
    return {c.data["hex"] for c in legal(s, kind="land") if c.data["unit"] == unit}


def of_type(events: list[Event], event_type: str) -> list[Event]:
    return [e for e in events if e.type == event_type]


# --- the Japanese set-up (25.4a) ---------------------------------------------------------------

def test_25_4a_the_japanese_set_up_on_or_within_three_hexes_of_henderson_field() -> None:
    s = new_game()
    assert s.phase == "japanese_setup" and RULES.prompt(s).side == "Japanese"
    places = legal(s)
    assert {c.type for c in places} == {"place"}
    assert {c.data["unit"] for c in places} == set(START)
    hexes = {c.data["hex"] for c in places}
    assert HF in hexes
    assert hexes == {h for h in B.terrain if distance_between(h, HF) <= 3}
    far = min(h for h in B.terrain if distance_between(h, HF) == 4)
    with pytest.raises(IllegalCommandError) as err:
        play(s, "place", unit="81 Inf", hex=far)
    assert err.value.rule == "25.4"
    with pytest.raises(IllegalCommandError):
        play(s, "place", unit="28 Inf", hex=HF)  # not one of the set-up units


def test_25_4a_and_12_8_the_set_up_stays_within_the_stacking_limit() -> None:
    s = new_game()
    s.pieces["x"] = Piece("x", "28 Inf", "Japanese", HF)  # three battalion equivalents
    s.pieces["y"] = Piece("y", "Kuma Bn", "Japanese", HF)
    s.pieces["z"] = Piece("z", "5 Y SNLF", "Japanese", HF)  # five
    assert HF in {c.data["hex"] for c in legal(s) if c.data["unit"] == "81 Inf"}
    play(s, "place", unit="81 Inf", hex=HF)  # six: the limit (12.1)
    assert HF not in {c.data["hex"] for c in legal(s, kind="place")}
    with pytest.raises(IllegalCommandError) as err:
        play(s, "place", unit="3 K SNLF (-)", hex=HF)
    assert err.value.rule == "25.4"
    assert s.pieces["81 Inf"].hex == HF and "3 K SNLF (-)" not in s.pieces


def test_25_4a_the_set_up_is_hidden_from_the_allies() -> None:
    s = new_game()
    (placed,) = play(s, "place", unit="81 Inf", hex=HF)
    assert placed.type == "piece_placed"
    for viewer in ("Allied", SPECTATOR):
        stub = for_viewer(placed, viewer, RULES.sides)
        assert stub is not None and (stub.data["side"], stub.data["hex"]) == ("Japanese", HF)
        assert "id" not in stub.data and "81 Inf" not in str(stub.data)  # a stack there, not which unit
    own = for_viewer(placed, "Japanese", RULES.sides)
    assert own is not None and own.data["id"] == "81 Inf"
    view = RULES.view(s, "Allied")
    assert view["units"] == []
    assert [(st["hex"], st["units"]) for st in view["stacks"]] == [(HF, None)]
    assert "81 Inf" not in str(view)


def test_25_4a_the_set_up_ends_only_once_every_unit_is_placed() -> None:
    s = new_game()
    for unit in START[:2]:
        play(s, "place", unit=unit, hex=HF)
        assert "end_phase" not in {c.type for c in legal(s)}
        with pytest.raises(IllegalCommandError) as err:
            play(s, "end_phase")
        assert err.value.rule == "25.4"
    play(s, "place", unit=START[2], hex=HF)
    assert s.phase == "japanese_setup" and legal(s, kind="place") == []
    assert "end_phase" in {c.type for c in legal(s)}
    play(s, "end_phase")
    assert s.turn == 1 and s.phase != "japanese_setup"
    assert {s.pieces[u].hex for u in START} == {HF}


# --- landings (25.6b, 25.7b, 6.21, 26.8) --------------------------------------------------------------

@pytest.mark.parametrize("side", SIDES)
def test_25_6b_and_25_7b_land_units_land_on_coastal_hexes_free_of_the_enemy(side: str) -> None:
    enemy = "1 Mar" if side == "Japanese" else "28 Inf"
    unit = "124 Inf" if side == "Japanese" else "7 Mar"
    s = arriving([unit], side=side, pieces={"e": (enemy, LUNGA)})
    assert landings(s, unit) == set(B.coastal) - {LUNGA}
    assert HF not in B.coastal
    coast = {"Japanese": "25.6b", "Allied": "25.7b"}[side]
    for where, rule in ((HF, coast), (LUNGA, "6.21")):
        with pytest.raises(IllegalCommandError) as err:
            play(s, "land", unit=unit, hex=where)
        assert err.value.rule == rule
        if where == HF:  # the condition it fails, not all of a landing's at once
            assert err.value.message == f"{HF} is not a coastal hex: reinforcements land on the coast"
    assert unit not in s.pieces and s.off[unit].box == "track"


def test_6_21_a_landing_on_an_enemy_occupied_hex_is_refused_citing_6_21() -> None:
    s = arriving(["124 Inf"], pieces={"e": ("1 Mar", LUNGA)})
    with pytest.raises(IllegalCommandError) as err:
        play(s, "land", unit="124 Inf", hex=LUNGA)
    assert err.value.rule == "6.21"


def test_26_8_three_battalions_and_one_supply_unit_a_hex_that_is_no_port() -> None:
    s = arriving(["28 Inf", "Kuma Bn", ("s1", "Supply"), ("s2", "Supply")])
    play(s, "land", unit="28 Inf", hex=KUKUM)  # a regiment: three battalion equivalents
    assert KUKUM not in landings(s, "Kuma Bn")
    assert KUKUM in landings(s, "s1")
    with pytest.raises(IllegalCommandError) as err:
        play(s, "land", unit="Kuma Bn", hex=KUKUM)
    assert err.value.rule == "26.8"
    # which condition it fails, with the count (not every condition of a landing at once)
    assert err.value.message.startswith(f"{KUKUM} has taken 3 battalion equivalent(s) and 0 supply unit(s) this phase")
    play(s, "land", unit="s1", hex=KUKUM)
    assert KUKUM not in landings(s, "s2")
    assert s.landed[KUKUM] == [3, 1]
    neighbour = next(h for h in B.neighbours(KUKUM) if h in B.coastal)
    assert neighbour in landings(s, "Kuma Bn") and neighbour in landings(s, "s2")  # the limit is per hex


def test_26_8_an_active_port_takes_any_number() -> None:
    s = arriving(["28 Inf", "124 Inf", "Kuma Bn", ("s1", "Supply"), ("s2", "Supply")],
                 pieces={"eng": ("39 Eng", KOKUMBONA)})  # a combat effective engineer on an objective hex
    for unit in ("28 Inf", "124 Inf", "Kuma Bn", "s1"):
        play(s, "land", unit=unit, hex=KOKUMBONA)
    assert KOKUMBONA in landings(s, "s2")
    play(s, "land", unit="s2", hex=KOKUMBONA)
    assert {p.id for p in s.at(KOKUMBONA)} == {"eng", "28 Inf", "124 Inf", "Kuma Bn", "s1", "s2"}


@pytest.mark.parametrize(("where", "suppressed"), [(KOKUMBONA, True), (KUKUM, False)])
def test_26_8_a_port_needs_a_combat_effective_engineer_on_an_objective_hex(where: str, suppressed: bool) -> None:
    s = arriving(["28 Inf", "Kuma Bn"], pieces={"eng": ("39 Eng", where)},
                 suppressed=("eng",) if suppressed else ())
    play(s, "land", unit="28 Inf", hex=where)
    assert where not in landings(s, "Kuma Bn")


# --- the initial forces and interdiction (26.6, 16.6, 26.5) ---------------------------------------------

def ashore(s: PBState, landings: list[tuple[str, str]], rolls: list[int],
           order: tuple[str, ...] = ()) -> tuple[PBState, list[Event]]:
    """``s``'s landing side readies ``landings`` [(piece, hex)] and ends its phase; the
    interdictor picks the kinds in ``order`` where it has a choice (16.61).  The dice come
    out as ``rolls`` in the order rolled (a secret is searched for).  The state after, and
    the events."""
    side = seq_side(s)
    for n in range(20_000):
        t = RULES.clone(s)
        t.secret = f"ashore-{n}"
        events: list[Event] = []
        for pid, h in landings:
            events += play(t, "land", side, unit=pid, hex=h)
        if t.phase == s.phase and not t.pending:
            events += play(t, "end_phase", side)
        for kind in order:
            events += play(t, "interdict", other(side), next=kind)
        if [e.data["die"] for e in of_type(events, "interdicted")] == rolls:
            return t, events
    raise AssertionError(f"no secret gives the dice {rolls}")


def seq_side(s: PBState) -> str:
    return RULES.prompt(s).side


def test_26_6_the_ichiki_detachment_and_the_usmc_1st_echelon_are_not_interdicted() -> None:
    s = new_game()
    safe = {o.id for o in s.off.values() if o.box == "track" and o.safe}
    assert {"28 Inf", "5 Y SNLF", "1 Mar", "5 Mar", "1 Mar Div HQ", "1 Raider"} <= safe
    assert not {"124 Inf", "35 HQ", "Kuma Bn", "7 Mar", "4 Inf"} & safe
    s = position({}, phase="reinforcements_first", turn=1, first="Japanese", keep_track=True,
                 air={"Allied": {"missions": {"interdiction": 6}}})
    events = play(s, "land", unit="28 Inf", hex=KUKUM)
    assert not of_type(events, "interdicted") and s.pieces["28 Inf"].hex == KUKUM  # lands at once
    s, events = ashore(s, [("124 Inf", KOKUMBONA)], [6])  # the 35th Brigade is affected
    (roll,) = of_type(events, "interdicted")
    assert roll.data["result"] == "E" and "124 Inf" not in s.pieces


def test_26_6_august_supply_is_interdicted_and_air_goes_to_the_reserve() -> None:
    """Driven through the August allocation: the Japanese fly two points on Interdiction."""
    s = position({}, phase="air_allocation", turn=1, first="Allied",
                 air={"Japanese": {"reserve": 8}, "Allied": {"reserve": 5}})
    s.round = Round(AIR_ROUND, SIDES)
    play(s, "allocate", "Allied", superiority=0, interdiction=0, recon=0, strike=0)
    play(s, "allocate", "Japanese", superiority=0, interdiction=2, recon=0, strike=0)
    assert s.phase == "reinforcements_first" and RULES.prompt(s).side == "Allied"
    assert s.air["Allied"].reserve == 5 + 3  # 25.7a: the routine air strikes, to the Reserve
    supply = sorted(o.id for o in s.off.values() if o.side == "Allied" and o.unit == "Supply")
    assert len(supply) == 4 and not any(s.off[i].safe for i in supply)
    s, events = ashore(s, [(supply[0], LUNGA)], [4])
    (roll,) = of_type(events, "interdicted")
    assert roll.data["what"] == "a supply point" and roll.data["result"] == "D1"
    assert (s.off[supply[0]].due, s.off[supply[0]].safe) == (2, True)


def test_16_61_the_interdictor_chooses_the_order_of_the_rolls_knowing_only_unit_or_supply() -> None:
    """16.61 step 2: "The interdicting player may do this in any order he chooses."  The
    landing side readies its landings (where, for itself only); as its phase ends the
    interdictor picks what is attacked next, a unit or a supply point, while both are left."""
    s = arriving(["124 Inf", ("s1", "Supply"), ("s2", "Supply")], interdiction=2)
    s.secret = next(f"order-{n}" for n in range(1000) if dice.roll(f"order-{n}", s.seq + 6, 0) == 3)  # "-" on a 3
    play(s, "land", unit="124 Inf", hex=KUKUM)
    readied = play(s, "land", unit="s1", hex=LUNGA)
    assert "124 Inf" not in s.pieces and s.readied == {"124 Inf": KUKUM, "s1": LUNGA}
    assert any(c.type == "undo" for c in RULES.legal_commands(s, "Japanese"))  # readying rolls nothing
    for e in readied:
        seen = for_viewer(e, "Allied", RULES.sides)
        assert seen is None or (LUNGA not in str(seen.data) and "s1" not in str(seen.data))
    play(s, "land", unit="s2", hex=KUKUM)  # nothing left to land: the phase waits for its player's word (R-PB-6.0a)
    assert RULES.prompt(s).side == "Japanese" and s.phase == "reinforcements_first"
    play(s, "end_phase")  # ... then the interdictor rolls
    assert RULES.prompt(s).side == "Allied" and RULES.prompt(s).kind == "interdict"
    assert sorted(c.data["next"] for c in RULES.legal_commands(s, "Allied")) == ["supply", "unit"]
    assert "124 Inf" not in json.dumps(RULES.view(s, "Allied")) and KUKUM not in json.dumps(RULES.view(s, "Allied"))
    events = play(s, "interdict", "Allied", next="supply")
    (roll,) = of_type(events, "interdicted")
    assert roll.data["what"] == "a supply point" and roll.data["result"] == "-"
    assert RULES.prompt(s).kind == "interdict"  # a unit and a supply point left: the choice again
    events = play(s, "interdict", "Allied", next="unit")
    assert of_type(events, "interdicted")[0].data["what"] == "a unit"
    assert not s.readied and s.phase != "reinforcements_first"  # the rolls over, the phase ended


def test_16_61_one_kind_readied_leaves_no_choice_and_rolls_at_once() -> None:
    s = arriving(["124 Inf", "Kuma Bn"], interdiction=2)
    s, events = ashore(s, [("124 Inf", KUKUM), ("Kuma Bn", KOKUMBONA)], [2, 2])
    assert [e.data["what"] for e in of_type(events, "interdicted")] == ["a unit", "a unit"]
    assert not any(e.type == "decision_owed" for e in events)


@pytest.mark.parametrize(("die", "turns"), [(4, 1), (6, 2)])
def test_16_62_a_delay_puts_the_unit_back_on_the_track_and_it_is_not_interdicted_again(die: int,
                                                                                       turns: int) -> None:
    s = arriving(["124 Inf", "Kuma Bn"], interdiction=2)
    t, events = ashore(s, [("124 Inf", KUKUM)], [die])
    assert of_type(events, "interdicted")[0].data["result"] == f"D{turns}"
    o = t.off["124 Inf"]
    assert (o.box, o.due, o.safe) == ("track", 2 + turns, True) and "124 Inf" not in t.pieces
    again = arriving([], interdiction=2, turn=o.due)  # the turn it is due: it is received without another roll
    again.off["124 Inf"] = o
    events = play(again, "land", unit="124 Inf", hex=KUKUM)
    assert not of_type(events, "interdicted") and again.pieces["124 Inf"].hex == KUKUM


def test_16_62_an_elimination_breaks_a_regiment_one_battalion_lost_the_rest_delayed() -> None:
    s = arriving(["28 Inf", "Kuma Bn"], interdiction=4)
    s, _ = ashore(s, [("28 Inf", KUKUM)], [6])
    assert "28 Inf" not in s.pieces and "28 Inf" not in s.off
    left = [o for o in s.off.values() if o.unit == "Jp Bn" and o.box == "track"]
    assert len(left) == 2  # three battalions (26.7), one lost
    assert all((o.box, o.due, o.safe) == ("track", 4, True) for o in left)
    lost = [o for o in s.off.values() if o.unit == "Jp Bn" and o.box == "replace"]
    assert len(lost) == 1  # the battalion lost may be refitted (7.5), as any unit eliminated
    assert s.vp == {"Allied": 1, "Japanese": 0}  # one Japanese battalion equivalent eliminated


@pytest.mark.parametrize(("unit", "box", "vp"), [("Kuma Bn", "replace", 1), ("35 HQ", "replace", 4),
                                                 ("Supply", None, 0)])
def test_16_62_an_elimination_of_a_unit_that_cannot_break_down(unit: str, box: str | None, vp: int) -> None:
    s = arriving([("u", unit), "124 Inf"], interdiction=6)
    s, _ = ashore(s, [("u", KUKUM)], [5])
    assert "u" not in s.pieces
    assert (s.off["u"].box if "u" in s.off else None) == box  # supply goes back to the counter mix
    assert s.vp["Allied"] == vp  # the Victory Point Tables: 1 a battalion, 4 an HQ, 0 supply


def test_16_62_the_japanese_score_two_vp_for_a_us_battalion_lost_to_interdiction() -> None:
    s = arriving(["7 Mar", "164 Inf"], side="Allied", interdiction=6)
    s, _ = ashore(s, [("7 Mar", LUNGA)], [5])
    assert s.vp == {"Allied": 0, "Japanese": 2}
    left = [o for o in s.off.values() if o.unit == "USMC Bn" and o.box == "track"]
    assert len(left) == 2 and all(o.due == 4 and o.safe for o in left)
    assert [o.box for o in s.off.values() if o.unit == "USMC Bn" and o.box != "track"] == ["replace"]


def test_16_62_aa_damages_one_interdicting_air_point_and_the_unit_lands() -> None:
    s = arriving(["Kuma Bn", "124 Inf", "35 HQ"], interdiction=2)
    s, events = ashore(s, [("Kuma Bn", KUKUM), ("124 Inf", KOKUMBONA)], [1])
    assert of_type(events, "interdicted")[0].data["result"] == "AA"
    assert s.pieces["Kuma Bn"].hex == KUKUM
    allied = s.air["Allied"]
    assert allied.missions == {"interdiction": 1} and allied.damaged == 1
    # one point left: below the "2" column, so no more rolls (16.62 3) and the 124th lands
    assert len(of_type(events, "interdicted")) == 1 and s.pieces["124 Inf"].hex == KOKUMBONA


def test_16_62_after_aa_the_next_unit_is_attacked_on_the_weaker_column() -> None:
    s = arriving(["Kuma Bn", "124 Inf", "35 HQ"], interdiction=4)
    s, events = ashore(s, [("Kuma Bn", KUKUM), ("124 Inf", KOKUMBONA)], [1, 6])
    assert s.air["Allied"].missions == {"interdiction": 3}
    roll = of_type(events, "interdicted")[1]
    assert roll.data["points"] == 3 and roll.data["result"] == "D2"  # the "2" column; on the "4" a 6 is E
    assert s.off["124 Inf"].due == 4


def test_16_62_a_delayed_unit_does_not_show_the_interdictor_where_it_was_to_land() -> None:
    s = arriving(["124 Inf", "Kuma Bn"], interdiction=2)
    s, events = ashore(s, [("124 Inf", KUKUM)], [4])
    assert s.off["124 Inf"].due == 3  # delayed: it never reaches the hex
    for e in events:
        seen = for_viewer(e, "Allied", RULES.sides)
        assert seen is None or KUKUM not in str(seen.data)


# --- the home base (26.2) ------------------------------------------------------------------------------

def test_26_2_a_unit_sent_to_the_home_base_is_not_interdicted_and_stays_there() -> None:
    s = arriving(["4 Inf", "Kuma Bn"], interdiction=6)
    force_die(s, 6)
    events = play(s, "to_base", unit="4 Inf")
    assert not of_type(events, "interdicted")
    assert s.off["4 Inf"].box == "base"
    assert {c.data["unit"] for c in legal(s, kind="to_base")} == {"Kuma Bn"}  # only from the track
    stub = for_viewer(events[0], "Allied", RULES.sides)
    assert stub is not None and "4 Inf" not in str(stub.data)
    play(s, "end_phase")
    assert s.off["4 Inf"].box == "base"  # it waits in the base
    assert (s.off["Kuma Bn"].box, s.off["Kuma Bn"].due) == ("track", 3)  # 6.21: held to the next turn


def test_26_2_a_unit_moving_from_the_home_base_to_the_map_is_interdicted() -> None:
    s = arriving(["4 Inf", "Kuma Bn"], interdiction=2, box="base")
    assert KUKUM in landings(s, "4 Inf")
    s, events = ashore(s, [("4 Inf", KUKUM)], [4])
    assert of_type(events, "interdicted")[0].data["result"] == "D1"
    assert (s.off["4 Inf"].box, s.off["4 Inf"].due) == ("track", 3)


def test_26_2_a_unit_placed_in_the_base_moves_to_the_map_only_in_a_later_phase() -> None:
    s = arriving(["4 Inf", "Kuma Bn"])
    play(s, "to_base", unit="4 Inf")
    assert landings(s, "4 Inf") == set()


# --- voluntary delay (6.21) and the Lost Battalion (6.25) ----------------------------------------------

def test_6_21_reinforcements_not_placed_wait_for_the_next_turn_still_open_to_interdiction() -> None:
    s = arriving(["124 Inf", "Kuma Bn", ("s1", "Supply")])
    play(s, "land", unit="Kuma Bn", hex=KUKUM)
    events = play(s, "end_phase")
    for pid in ("124 Inf", "s1"):
        o = s.off[pid]
        assert (o.box, o.due, o.safe) == ("track", 3, False)
    held = next(e for e in events if e.type == "off_moved")
    stub = for_viewer(held, "Allied", RULES.sides)
    assert stub is not None and stub.data["delayed"] == 2 and "ids" not in stub.data
    assert "124 Inf" not in str(stub.data)
    assert s.phase == "reinforcements_second"


def test_6_25_a_reinforcement_due_after_the_last_turn_never_arrives() -> None:
    s = position({}, phase="follow_second_combat", turn=7, first="Japanese")
    assert s.last_turn == 7
    s.off["124 Inf"] = Off("124 Inf", "124 Inf", "Japanese", "track", 8, True)
    play(s, "end_phase")
    assert s.result is not None and s.phase == "game_over"
    assert "124 Inf" not in s.pieces and s.off["124 Inf"].box == "track"


# --- evacuation (23.0, 24.5, 25.6c, 25.7c) -------------------------------------------------------------

def test_25_6c_the_japanese_evacuate_only_after_operation_ke_from_coastal_objective_hexes() -> None:
    pieces = {"28 Inf": ("28 Inf", KOKUMBONA), "35 HQ": ("35 HQ", KOKUMBONA), "Kuma Bn": ("Kuma Bn", KUKUM),
              "js": ("Supply", KOKUMBONA, "Japanese"), "4 Inf": ("4 Inf", HF)}
    s = position(pieces, phase="reinforcements_first", turn=5, first="Japanese")
    assert legal(s, kind="evacuate") == []
    with pytest.raises(IllegalCommandError) as err:
        play(s, "evacuate", unit="28 Inf")
    assert err.value.rule == "23.0"
    s.in_effect["Japanese"].append("Operation KE")
    s.forget()  # (edited in place: what it worked out of it before is stale)
    assert {c.data["unit"] for c in legal(s, kind="evacuate")} == {"28 Inf", "35 HQ"}
    play(s, "evacuate", unit="28 Inf")
    assert s.vp["Japanese"] == 3  # 1 a battalion equivalent
    play(s, "evacuate", unit="35 HQ")
    assert s.vp["Japanese"] == 3 + 4  # 4 an HQ
    assert s.off["28 Inf"].box == "evacuated" and "28 Inf" not in s.pieces
    for pid in ("Kuma Bn", "4 Inf"):  # a coastal hex that is no objective; inland
        with pytest.raises(IllegalCommandError):
            play(s, "evacuate", unit=pid)
    assert s.vp["Allied"] == 0


def test_25_7c_the_us_evacuates_only_usmc_units_after_usmc_relief() -> None:
    pieces = {"1 Mar": ("1 Mar", LUNGA), "hq": ("1 Mar Div HQ", LUNGA), "164 Inf": ("164 Inf", LUNGA),
              "7 Mar": ("7 Mar", KUKUM)}
    s = position(pieces, phase="reinforcements_first", turn=5, first="Allied")
    assert legal(s, kind="evacuate") == []
    s.in_effect["Allied"].append("USMC Relief")
    s.forget()  # (edited in place: what it worked out of it before is stale)
    assert {c.data["unit"] for c in legal(s, kind="evacuate")} == {"1 Mar", "hq"}  # not the Army's 164th
    play(s, "evacuate", unit="1 Mar")
    play(s, "evacuate", unit="hq")
    assert s.vp == {"Allied": 3 + 5, "Japanese": 0}  # 1 a USMC battalion equivalent, 5 a USMC HQ
    with pytest.raises(IllegalCommandError) as err:
        play(s, "evacuate", unit="164 Inf")
    assert err.value.rule == "23.0"


# --- the conditional Japanese units (25.6d) ------------------------------------------------------------

OPTIONAL = {"6 HQ", "21 HQ", "13 Inf", "23 Inf", "45 Inf", "170 Inf", "61 Recon", "8 Armor"}


def test_25_6d_the_optional_units_are_bought_for_two_vp_each_after_operation_ke() -> None:
    s = position({}, phase="reinforcements_first", turn=5, first="Japanese")
    s.vp["Japanese"] = 5
    assert legal(s, kind="buy") == []
    with pytest.raises(IllegalCommandError) as err:
        play(s, "buy", unit="13 Inf")
    assert err.value.rule == "25.6d"
    s.in_effect["Japanese"].append("Operation KE")
    s.forget()  # (edited in place: what it worked out of it before is stale)
    assert {c.data["unit"] for c in legal(s, kind="buy")} == OPTIONAL
    play(s, "buy", unit="13 Inf")
    assert s.vp["Japanese"] == 3
    o = s.off["13 Inf"]
    assert (o.box, o.due, o.safe) == ("track", 5, False)  # due now, open to interdiction
    assert KUKUM in landings(s, "13 Inf")
    assert {c.data["unit"] for c in legal(s, kind="buy")} == OPTIONAL - {"13 Inf"}  # unit by unit
    play(s, "land", unit="13 Inf", hex=KUKUM)
    assert s.pieces["13 Inf"].hex == KUKUM
    assert "13 Inf" not in {c.data["unit"] for c in legal(s, kind="buy")}


US_CONDITIONAL = {"43 Div HQ", "103 Inf", "169 Inf", "172 Inf", "3 Mar", "3 Raider", "4 Raider"}


def test_25_7d_the_us_conditional_units_are_bought_for_two_vp_each_after_usmc_relief() -> None:
    """25.7d, reconstructed (the chart names none, R-PB-25.7d): the US reserve that stayed off
    the island, bought unit by unit once the USMC Relief marker is in effect."""
    s = position({}, phase="reinforcements_first", turn=6, first="Allied")
    s.vp["Allied"] = 3
    assert legal(s, kind="buy") == []
    with pytest.raises(IllegalCommandError) as err:
        play(s, "buy", unit="103 Inf")
    assert err.value.rule == "25.7d" and "USMC Relief" in str(err.value)
    s.in_effect["Allied"].append("USMC Relief")
    s.forget()  # (edited in place: what it worked out of it before is stale)
    assert {c.data["unit"] for c in legal(s, kind="buy")} == US_CONDITIONAL
    play(s, "buy", unit="103 Inf")
    assert s.vp["Allied"] == 1
    assert (s.off["103 Inf"].box, s.off["103 Inf"].due, s.off["103 Inf"].safe) == ("track", 6, False)
    assert legal(s, kind="buy") == []  # one VP left: no more
    jp = RULES.view(s, "Japanese")
    assert "103 Inf" not in json.dumps(jp)  # what was bought is the buyer's secret (18.6); its cost is not


def test_16_61_a_readied_landing_shows_its_hex_to_its_own_side_only() -> None:
    s = arriving(["124 Inf", "Kuma Bn"], interdiction=2)
    play(s, "land", unit="124 Inf", hex=KUKUM)
    own = {o["id"]: o for o in RULES.view(s, "Japanese")["sides"]["Japanese"]["track"]}
    assert own["124 Inf"]["readied"] == KUKUM and "readied" not in own["Kuma Bn"]
    assert KUKUM not in json.dumps(RULES.view(s, "Allied")) and "124 Inf" not in json.dumps(RULES.view(s, "Allied"))
    assert "124 Inf" not in {c.data["unit"] for c in legal(s, kind="land")}  # readied once


def test_ending_the_reinforcement_phase_names_what_stays_behind() -> None:
    s = arriving(["124 Inf", "Kuma Bn", ("s1", "Supply")])
    assert RULES.end_phase_notes(s) == [
        "2 unit(s) and 1 supply point(s) due now stay on the track for next turn (6.21)"]
    play(s, "land", unit="124 Inf", hex=KUKUM)
    play(s, "land", unit="Kuma Bn", hex=KOKUMBONA)
    assert RULES.end_phase_notes(s) == ["1 supply point(s) due now stay on the track for next turn (6.21)"]


def test_r_pb_6_0a_the_phase_waits_for_its_players_word_while_its_last_landing_can_be_taken_back() -> None:
    """Sending the last unit home ended the phase at once, the interdiction rolled, and the
    player could not think again: now the phase waits for "End" while a step of it can
    still be taken back; a phase with nothing done still ends by itself."""
    s = arriving(["4 Inf"])
    play(s, "to_base", unit="4 Inf")
    assert s.phase == "reinforcements_first" and s.off["4 Inf"].box == "base"
    assert RULES.prompt(s).text.startswith("Your reinforcements are landed, sent to your base or held: end the phase")
    assert {c.type for c in legal(s)} >= {"end_phase", "undo"}
    play(s, "undo", step=s.undo.steps[-1])
    assert s.off["4 Inf"].box == "track" and s.phase == "reinforcements_first"
    play(s, "to_base", unit="4 Inf")
    play(s, "end_phase")
    assert s.phase != "reinforcements_first" and s.off["4 Inf"].box == "base"
