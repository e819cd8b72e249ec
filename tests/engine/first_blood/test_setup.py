"""First Blood initial set-up (§3): the US inside the blue line, then the IJ in boxes A or D.

The game is driven from ``RULES.create`` through the legal commands only: each
step plays the first legal ``place`` command, as a bot that knows nothing would.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core.errors import IllegalCommandError, NotYourTurnError
from engine.core.events import Command
from engine.core.game import replay
from engine.core.hexes import parse_hex_id
from engine.games.first_blood.board import load_board
from engine.games.first_blood.oob import load_oob
from engine.games.first_blood.phases import setup
from engine.games.first_blood.rules import RULES
from engine.games.first_blood.sequence import TURN
from engine.games.first_blood.state import FBState, is_map_hex

OOB = load_oob()
US_GROUND_AT_START = sorted(u for u, s in OOB.items() if s.side == "US" and s.kind == "ground" and s.arrives == 0)
US_AIR_AT_START = sorted(u for u, s in OOB.items() if s.side == "US" and s.kind != "ground" and s.arrives == 0)
IJ_AT_START = sorted(u for u, s in OOB.items() if s.side == "IJ" and s.arrives == 0)
US_INF = "us-1-1"


def new_game() -> FBState:
    return replay(RULES, RULES.create("campaign", {}, "s"))


def step(state: FBState, command: Command) -> list:
    events = RULES.decide(state, command)
    for e in events:
        RULES.apply(state, e)
    return events


def drive(state: FBState, phases: tuple[str, ...]) -> list[Command]:
    """Place with the first legal command while the game is in one of ``phases``, and end
    each set-up once all is placed (the player's word hands the game over)."""
    played = []
    for _ in range(500):
        if state.phase not in phases:
            return played
        commands = [c for c in RULES.legal_commands(state) if c.type != "undo"]
        assert commands, f"nothing to do in {state.phase}"
        if commands == [Command("end_phase")]:
            assert state.phase == "us_setup" and not setup.unplaced(state, "US")
            step(state, commands[0])
            continue
        assert all(c.type == "place" for c in commands)
        step(state, commands[0])
        played.append(commands[0])
    raise AssertionError("set-up did not finish")


def targets(state: FBState, uid: str) -> set[str]:
    return {c.data["to"] for c in RULES.legal_commands(state) if c.type == "place" and c.data["unit"] == uid}


def illegal(state: FBState, **data) -> IllegalCommandError:
    before = state.to_json()
    with pytest.raises(IllegalCommandError) as excinfo:
        step(state, Command("place", data))
    assert state.to_json() == before
    return excinfo.value


def setup_area() -> set[str]:
    out = set()
    for h in load_board().hexes:
        row, col = parse_hex_id(h)
        if 2 <= row <= 12 and 2 <= col <= 15:
            out.add(h)
    return out


# --- the start ---------------------------------------------------------------------------------

def test_new_game_waits_for_the_us_set_up():
    state = new_game()
    prompt = RULES.prompt(state)
    assert (prompt.side, prompt.kind) == ("US", "us_setup")
    assert (state.phase, state.turn) == ("us_setup", 0)
    assert RULES.legal_commands(state, "IJ") == []
    commands = RULES.legal_commands(state)
    assert commands and all(c.type == "place" for c in commands)
    assert {c.data["unit"] for c in commands} >= set(US_GROUND_AT_START)
    assert all(OOB[c.data["unit"]].side == "US" for c in commands)


def test_ij_may_not_act_during_the_us_set_up():
    state = new_game()
    with pytest.raises(NotYourTurnError):
        RULES.decide(state, Command("place", {"unit": "ij-kuma", "to": "box:A"}, "IJ"))


def test_strips_at_start_henderson_operational_fighter_strip_destroyed():
    state = new_game()
    assert {h: (s.status, s.built) for h, s in state.strips.items()} == {
        "0708": ("oper", True), "0709": ("oper", True), "0605": ("dest", False), "0705": ("dest", False)}


def test_all_at_start_us_units_await_placement_others_wait_in_the_pool():
    state = new_game()
    for uid in US_GROUND_AT_START + US_AIR_AT_START:
        assert state.units[uid].loc == "arriving"
    for uid, s in OOB.items():
        if s.arrives > 0:
            assert state.units[uid].loc == "pool", uid


# --- §3 the US sets up inside the blue line ---------------------------------------------------

def test_us_ground_units_set_up_on_land_inside_rows_02_12_cols_02_15():
    state = new_game()
    area = setup_area()
    assert {"0202", "0215", "1209", "0709", "0507"} <= area
    for uid in US_GROUND_AT_START:
        assert targets(state, uid) == area, uid


@pytest.mark.parametrize("to", ["0101", "0216", "0201", "0116", "0220", "0618", "0619", "0701", "1301"])
def test_us_ground_unit_outside_the_blue_line_is_refused(to):
    state = new_game()
    err = illegal(state, unit=US_INF, to=to)
    assert err.rule == "§3"
    assert state.units[US_INF].loc == "arriving"


@pytest.mark.parametrize("to", ["1215", "0221", "box:A", "entry:us-east-1", "cap", "usaf_reserve"])
def test_us_ground_unit_off_the_land_is_refused(to):
    state = new_game()
    assert illegal(state, unit=US_INF, to=to).rule == "§3"


def test_us_may_not_place_ij_units():
    state = new_game()
    assert illegal(state, unit="ij-kuma", to="box:A").rule == "§3"


def test_set_up_stacking_at_most_three_per_hex():
    state = new_game()
    first, fourth = US_GROUND_AT_START[:3], US_GROUND_AT_START[3]
    for uid in first:
        step(state, Command("place", {"unit": uid, "to": "0709"}))
    assert [u for u in US_GROUND_AT_START if state.units[u].loc == "0709"] == first
    assert "0709" not in targets(state, fourth)
    assert targets(state, fourth) == setup_area() - {"0709"}
    err = illegal(state, unit=fourth, to="0709")
    assert err.rule == "§3"
    step(state, Command("place", {"unit": fourth, "to": "0708"}))
    assert state.units[fourth].loc == "0708"


def test_us_sets_up_usaf_fighters_on_henderson_or_cap_and_bombers_on_henderson_or_ga():
    # R-3a
    state = new_game()
    fighters = [u for u in US_AIR_AT_START if OOB[u].kind == "fighter"]
    bombers = [u for u in US_AIR_AT_START if OOB[u].kind == "bomber"]
    assert fighters and bombers
    for uid in US_AIR_AT_START:
        assert state.units[uid].loc == "arriving", uid
    for uid in fighters:
        assert targets(state, uid) == {"strip:0708", "strip:0709", "cap"}
    for uid in bombers:
        assert targets(state, uid) == {"strip:0708", "strip:0709", "ga"}
    assert illegal(state, unit=fighters[0], to="ga").rule == "§3"
    assert illegal(state, unit=bombers[0], to="cap").rule == "§3"
    assert illegal(state, unit=fighters[0], to="usaf_reserve").rule == "§3"
    step(state, Command("place", {"unit": fighters[0], "to": "cap"}))
    step(state, Command("place", {"unit": bombers[0], "to": "strip:0708"}))
    assert state.units[fighters[0]].loc == "cap"
    assert state.units[bombers[0]].loc == "strip:0708"


# --- §3 then the IJ sets up in boxes A or D ------------------------------------------------------

def test_after_the_us_the_ij_sets_up_in_box_a_or_d_only():
    state = new_game()
    drive(state, ("us_setup",))
    prompt = RULES.prompt(state)
    assert (prompt.side, prompt.kind) == ("IJ", "ij_setup")
    assert RULES.legal_commands(state, "US") == []
    commands = RULES.legal_commands(state)
    assert {c.data["unit"] for c in commands} == set(IJ_AT_START)
    for uid in IJ_AT_START:
        assert targets(state, uid) == {"box:A", "box:D"}
    uid = IJ_AT_START[0]
    for to in ("box:B", "box:C", "entry:ij-east-koli", "0020", "0000", "ijn_reserve"):
        assert illegal(state, unit=uid, to=to).rule == "§3"


def test_ij_set_up_has_no_stacking_limit_in_a_box():
    state = new_game()
    drive(state, ("us_setup",))
    for uid in IJ_AT_START[:-1]:
        step(state, Command("place", {"unit": uid, "to": "box:D"}))
        assert state.phase == "ij_setup"
    assert Counter(state.units[u].loc for u in IJ_AT_START[:-1]) == {"box:D": len(IJ_AT_START) - 1}


def test_full_set_up_leads_to_sep_i_with_the_ij_to_act():
    state = new_game()
    played = drive(state, ("us_setup", "ij_setup"))
    assert state.turn == 1
    assert state.phase in TURN
    assert RULES.prompt(state).side == "IJ"
    assert state.phase == "ij_reinforcements"  # Sep I has IJ arrivals to place
    assert {h: s.status for h, s in state.strips.items()} == {
        "0708": "oper", "0709": "oper", "0605": "dest", "0705": "dest"}
    # every at-start ground unit was placed once, by the side that owns it, where §3 allows
    placed = {c.data["unit"]: c.data["to"] for c in played}
    assert set(placed) == set(US_GROUND_AT_START) | set(US_AIR_AT_START) | set(IJ_AT_START)
    assert len(played) == len(placed)  # each unit placed once
    area = setup_area()
    for uid in US_GROUND_AT_START:
        assert state.units[uid].loc == placed[uid]
        assert state.units[uid].loc in area
    stacks = Counter(state.units[u].loc for u in US_GROUND_AT_START)
    assert max(stacks.values()) <= 3
    for uid in IJ_AT_START:
        u = state.units[uid]
        assert u.loc in ("box:A", "box:D")
        assert u.boxes == [u.loc[4:]]
        assert u.box_arrival == 0
    for uid in US_AIR_AT_START:
        allowed = {"strip:0708", "strip:0709", "cap" if OOB[uid].kind == "fighter" else "ga"}
        assert placed[uid] in allowed
        assert state.units[uid].loc == placed[uid]
    assert not any(state.units[u].loc == "arriving" for u in US_GROUND_AT_START + US_AIR_AT_START + IJ_AT_START)
    assert not any(is_map_hex(state.units[u].loc) for u in IJ_AT_START)


def test_set_up_replays_from_its_events():
    state = new_game()
    log = list(RULES.create("campaign", {}, "s"))
    for _ in range(500):
        if state.phase not in ("us_setup", "ij_setup"):
            break
        events = step(state, RULES.legal_commands(state)[0])
        log.extend(events)
    assert replay(RULES, log).to_json() == state.to_json()


def test_ij_at_start_units_must_move_in_sep_i():
    # §3/§6.5: the at-start units did not arrive as reinforcements in Sep I, so they
    # must leave their box (or enter the map) in the first IJ movement phase
    state = new_game()
    drive(state, ("us_setup", "ij_setup", "ij_reinforcements"))
    assert (state.phase, state.turn) == ("ij_movement", 1)
    assert "end_phase" not in [c.type for c in RULES.legal_commands(state)]
    with pytest.raises(IllegalCommandError) as excinfo:
        step(state, Command("end_phase"))
    assert excinfo.value.rule == "§6.5"
    for uid in IJ_AT_START:
        box = state.units[uid].loc
        to = "box:B" if box == "box:A" else "box:C"
        step(state, Command("move", {"unit": uid, "to": to}))
        assert state.units[uid].loc == to
        assert state.units[uid].mf_left == OOB[uid].mf - (OOB[uid].mf + 1) // 2
    assert "end_phase" in [c.type for c in RULES.legal_commands(state)]
