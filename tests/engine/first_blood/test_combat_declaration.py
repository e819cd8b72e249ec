"""First Blood ground combat: declaring attacks (§7, §7.5, §5.1, §5.3).

Who may attack which hexes, with which units, when artillery may fire, when the
combat phase may end, and attacks upon entry.  Outcomes after the roll are in
``test_combat_results.py``.
"""

from __future__ import annotations

import contextlib

import pytest
from fb_support import declare, illegal, resolved

from engine.core.errors import IllegalCommandError
from engine.core.events import Command
from engine.games.first_blood.phases import combat
from engine.games.first_blood.rules import RULES
from engine.games.first_blood.testing import force_die, play, position
from engine.selfplay import play_one

IJ_4CF = ["ij-kuma", "ij-124-1", "ij-124-3"]


def legal(state) -> list[Command]:
    return RULES.legal_commands(state)


# --- which hexes: §7 ---------------------------------------------------------------------------

def test_attack_needs_an_enemy_occupied_hex():
    s = position({"us-1-1": "0707", "ij-kuma": "0706"}, phase="us_combat")
    assert illegal(s, "attack", hex="0606").rule == "§7"
    assert illegal(s, "attack", hex="0707").rule == "§7"  # own units


def test_attack_needs_a_unit_adjacent_to_the_hex():
    s = position({"us-1-1": "0707", "ij-kuma": "0706", "ij-124-1": "0604"}, phase="us_combat")
    assert Command("attack", {"hex": "0604"}) not in legal(s)
    assert illegal(s, "attack", hex="0604").rule == "§7"


def test_units_are_added_only_after_a_hex_is_declared():
    s = position({"us-1-1": "0707", "ij-kuma": "0706"}, phase="us_combat")
    assert illegal(s, "add", unit="us-1-1").rule == "§7"
    assert illegal(s, "resolve").rule == "§7.6"


def test_defending_hexes_must_be_adjacent_to_each_other():
    """§7: several hexes only if all defending units are adjacent (0706 and 0708 are not)."""
    s = position({"us-1-1": "0707", "ij-kuma": "0706", "ij-124-1": "0708"}, phase="us_combat")
    play(s, "attack", hex="0706")
    assert Command("attack", {"hex": "0708"}) not in legal(s)
    assert illegal(s, "attack", hex="0708").rule == "§7"


def test_every_attacker_must_be_adjacent_to_every_defending_hex():
    """§7: 0605 touches 0706 but not the attacker in 0707, so it cannot be added."""
    s = position({"us-1-1": "0707", "ij-kuma": "0706", "ij-124-1": "0605"}, phase="us_combat")
    play(s, "attack", hex="0706")
    play(s, "add", unit="us-1-1")
    err = illegal(s, "attack", hex="0605")
    assert err.rule == "§7"
    assert "every attacker adjacent to every defender" in err.message


def test_a_unit_must_be_adjacent_to_every_defending_hex_to_join():
    """0805 touches 0706 but not 0606: it cannot join an attack on both (it has 0705
    of its own to attack, so the attack on both fits a plan that meets every §7 duty)."""
    s = position({"us-1-1": "0707", "us-1-2": "0805", "ij-kuma": "0706", "ij-124-1": "0606",
                  "ij-124-3": "0705"}, phase="us_combat")
    play(s, "attack", hex="0706")
    play(s, "attack", hex="0606")
    assert Command("add", {"unit": "us-1-2"}) not in legal(s)
    assert illegal(s, "add", unit="us-1-2").rule == "§7"
    play(s, "add", unit="us-1-1")
    assert s.combat.targets == ["0706", "0606"] and s.combat.attackers == ["us-1-1"]


def test_no_attack_by_proxy_through_a_friendly_hex():
    """§7: 0808 touches the attacking friend in 0707, not the defender in 0706."""
    s = position({"us-1-1": "0707", "us-1-2": "0808", "ij-kuma": "0706", "ij-124-1": "0709"},
                 phase="us_combat")
    play(s, "attack", hex="0706")
    play(s, "add", unit="us-1-1")
    assert illegal(s, "add", unit="us-1-2").rule == "§7"


def test_a_stack_defends_as_a_whole():
    """§7: a hex is attacked with every unit in it; the defence adds them all."""
    s = position({"us-1-1": "0707", "us-1-2": "0707", "ij-kuma": "0706", "ij-kure-3": "0706"},
                 phase="us_combat")
    a = declare(s, ["0706"], ["us-1-1", "us-1-2"])
    assert (a["attack"], a["defence"], a["odds"]) == (10, 6, "1:1")
    force_die(s, 2)
    r = resolved(play(s, "resolve"))
    assert sorted(r["defenders"]) == ["ij-kuma", "ij-kure-3"]
    assert r["result"] == "A1"  # Table 10, 1:1, row 2
    assert s.units["ij-kuma"].defended and s.units["ij-kure-3"].defended


def test_a_hex_already_attacked_cannot_be_attacked_again():
    # ij-124-1 in 0604 (next to us-1-2) keeps the phase open after the first combat
    s = position({"us-1-1": "0707", "us-1-2": "0605", "ij-kuma": "0706", "ij-124-1": "0604"},
                 phase="us_combat")
    declare(s, ["0706"], ["us-1-1"])
    force_die(s, 2)
    assert resolved(play(s, "resolve"))["result"] == "A1"  # the lone attacker is eliminated
    assert s.units["us-1-1"].loc == "eliminated" and s.units["ij-kuma"].loc == "0706"
    # us-1-2 is next to 0706 too, but the units there have been attacked this phase
    err = illegal(s, "attack", hex="0706")
    assert err.rule == "§7" and "already been attacked" in err.message


def test_a_unit_takes_part_in_only_one_combat_per_phase():
    """§7: us-1-1 touches 0706 and 0708 (not adjacent to each other); after fighting
    0706 it cannot join the attack on 0708."""
    s = position({"us-1-1": "0707", "us-1-2": "0808", "ij-kuma": "0706", "ij-124-1": "0708"},
                 phase="us_combat")
    declare(s, ["0706"], ["us-1-1"])
    force_die(s, 5)
    assert resolved(play(s, "resolve"))["result"] == "DR"  # Table 10, 1:1, row 5
    play(s, "retreat", unit="ij-kuma", to="0705")
    assert s.combat is None and s.units["us-1-1"].loc == "0707"
    play(s, "attack", hex="0708")
    assert Command("add", {"unit": "us-1-1"}) not in legal(s)
    err = illegal(s, "add", unit="us-1-1")
    assert err.rule == "§7" and "already taken part" in err.message
    play(s, "add", unit="us-1-2")  # the other neighbour of 0708 may


def test_cancel_attack_frees_the_units():
    s = position({"us-1-1": "0707", "ij-kuma": "0706"}, phase="us_combat")
    declare(s, ["0706"], ["us-1-1"])
    play(s, "cancel_attack")
    assert s.combat is None and not s.units["us-1-1"].fought
    assert illegal(s, "cancel_attack").rule == "§7"
    declare(s, ["0706"], ["us-1-1"])
    assert s.combat.attackers == ["us-1-1"]


def test_a_combat_is_finished_with_its_retreats_before_the_next_is_declared():
    """§7.6: one combat must be fully resolved, retreats included, before the next."""
    s = position({"us-1-1": "0707", "us-1-2": "0808", "ij-kuma": "0706", "ij-124-1": "0708"},
                 phase="us_combat")
    declare(s, ["0706"], ["us-1-1"])
    force_die(s, 5)
    play(s, "resolve")  # DR: the IJ must retreat Kuma first
    assert RULES.prompt(s).side == "IJ"
    assert RULES.legal_commands(s, "US") == []
    assert illegal(s, "attack", hex="0708").rule == "§7.9"


# --- mandatory combat: §7 -------------------------------------------------------------------------

def test_combat_is_mandatory_for_units_in_enemy_zoc():
    """§7: the phase may not end while an own unit that has not fought touches an enemy
    hex not yet attacked, and "all attacking units in enemy ZOC must attack": IJ Kuma
    may not attack 0707 without IJ 124/1, which touches nothing else (R-7a).
    An unused IJN destroyer (it could bombard, §7.10) keeps the IJ phase open."""
    s = position({"us-1-1": "0707", "ij-kuma": "0706", "ij-124-1": "0606",
                  "ij-dd-yudachi": "ijn_reserve"}, phase="ij_combat")
    assert sorted(combat.obligations(s, "IJ")) == [("ij-124-1", "0707"), ("ij-kuma", "0707")]
    assert Command("end_phase") not in legal(s)
    err = illegal(s, "end_phase")
    assert err.rule == "§7"

    declare(s, ["0707"], ["ij-kuma"])
    assert illegal(s, "end_phase").rule == "§7.6"  # an attack is being declared
    assert Command("resolve") not in legal(s)
    err = illegal(s, "resolve")
    assert err.rule == "§7" and "IJ 124/1 could then attack nothing" in err.message
    play(s, "add", unit="ij-124-1")
    force_die(s, 1)
    r = resolved(play(s, "resolve"))
    assert (r["odds"], r["result"]) == ("1:1", "AE")  # 8 v 5, Table 9, row 1
    assert sorted(r["attackers"]) == ["ij-124-1", "ij-kuma"]
    assert s.units["ij-124-1"].loc == s.units["ij-kuma"].loc == "eliminated"
    assert combat.obligations(s, "IJ") == []
    assert Command("end_phase") in legal(s)
    play(s, "end_phase")
    assert s.phase != "ij_combat"


def test_every_adjacent_enemy_hex_must_be_attacked():
    """§7: us-1-1 touches two enemy hexes that cannot be attacked together; each is owed
    a combat, and ending the phase is refused until the second has been attacked."""
    s = position({"us-1-1": "0707", "us-1-2": "0808", "ij-kuma": "0706", "ij-124-1": "0708"},
                 phase="us_combat")
    with pytest.raises(IllegalCommandError) as excinfo:
        play(s, "end_phase")
    assert excinfo.value.rule == "§7"
    declare(s, ["0706"], ["us-1-1"])
    force_die(s, 5)
    play(s, "resolve")  # DR
    play(s, "retreat", unit="ij-kuma", to="0705")
    assert combat.obligations(s, "US") == [("us-1-2", "0708")]
    assert illegal(s, "end_phase").rule == "§7"


def test_an_enemy_hex_that_could_be_included_may_not_be_left_unattacked():
    """§7 / Figure 6: us-1-1 touches the weak 0706 and the strong 0606, which touch each
    other, and no other US unit touches 0606.  Both must be attacked ('even if at
    unfavourable odds'), so us-1-1 may not spend its one combat on 0706 alone: either
    that resolve is refused, or the phase may not end with 0606 unattacked."""
    s = position({"us-1-1": "0707", "ij-kure-3": "0706", **{u: "0606" for u in IJ_4CF}},
                 phase="us_combat")
    declare(s, ["0706"], ["us-1-1"])
    force_die(s, 4)
    try:
        play(s, "resolve")  # 5 v 2, 2:1, row 4: D1
    except IllegalCommandError as exc:
        assert exc.rule == "§7"
        return
    assert s.phase == "us_combat", "the combat phase ended with 0606 never attacked"
    assert not all(s.units[u].defended for u in IJ_4CF)
    assert illegal(s, "end_phase").rule == "§7"


# --- artillery: §7.5 --------------------------------------------------------------------------------

def test_adjacent_artillery_fires_directly_and_is_an_ordinary_attacker():
    s = position({"us-11-2": "0707", "ij-kuma": "0706"}, phase="us_combat")
    a = declare(s, ["0706"], ["us-11-2"])
    assert s.combat.attackers == ["us-11-2"] and s.combat.artillery == []
    assert (a["attack"], a["defence"]) == (3, 4)
    assert Command("resolve") in legal(s)


def test_artillery_adjacent_to_only_some_defending_hexes_cannot_join():
    """It must touch every defending hex to fire directly, and remote fire is at
    non-adjacent hexes only."""
    s = position({"us-1-1": "0707", "us-11-2": "0805", "ij-kuma": "0706", "ij-124-1": "0606",
                  "ij-124-3": "0705"}, phase="us_combat")  # 0705: what us-11-2 may attack instead
    declare(s, ["0706", "0606"], ["us-1-1"])
    assert illegal(s, "add", unit="us-11-2").rule == "§7"


def test_remote_artillery_cannot_attack_alone():
    """§7.5: two times nothing is nothing: resolve needs a direct attacker."""
    s = position({"us-11-2": "0909", "us-1-1": "0606", "ij-kuma": "0706"}, phase="us_combat")
    declare(s, ["0706"], ["us-11-2"])
    assert s.combat.artillery == ["us-11-2"] and s.combat.attackers == []
    assert Command("resolve") not in legal(s)
    assert illegal(s, "resolve").rule == "§7.5"
    play(s, "add", unit="us-1-1")
    assert Command("resolve") in legal(s)


def test_remote_artillery_is_capped_at_twice_the_direct_attackers():
    """§7.5: artillery may be at most two thirds of the total: 2 direct + 8 artillery
    counts 2 + 4 = 6."""
    s = position({"us-amtrac-1": "0707", "us-11-4": "0909", "us-11-5": "0909", "ij-kure-3": "0706"},
                 phase="us_combat")
    a = declare(s, ["0706"], ["us-amtrac-1", "us-11-4", "us-11-5"])
    assert s.combat.artillery == ["us-11-4", "us-11-5"]
    assert (a["attack"], a["defence"], a["odds"]) == (6, 2, "3:1")
    force_die(s, 3)
    r = resolved(play(s, "resolve"))
    assert (r["attack"], r["odds"], r["modifier"]) == (6, "3:1", 0)  # 6 < 4 x 2: no +1


def test_remote_artillery_below_the_cap_counts_in_full():
    s = position({"us-1-1": "0707", "us-11-4": "0909", "ij-kuma": "0706"}, phase="us_combat")
    a = declare(s, ["0706"], ["us-1-1", "us-11-4"])
    assert (a["attack"], a["defence"], a["odds"]) == (9, 4, "2:1")


def test_remote_artillery_needs_every_defending_hex_in_range():
    """§7.5: range 5 counts both hexes: 0311 reaches 0709 (4 away) but not 0708.  US 1/2
    in 0807 can attack 0708 on its own, so the gun may fire at 0709."""
    s = position({"us-11-2": "0311", "us-1-1": "0808", "us-1-2": "0807", "ij-kuma": "0709", "ij-124-1": "0708"},
                 phase="us_combat")
    declare(s, ["0709"], ["us-11-2"])
    assert illegal(s, "attack", hex="0708").rule == "§7"  # would leave the artillery out of range
    play(s, "cancel_attack")
    declare(s, ["0708"], ["us-1-2"])
    assert illegal(s, "add", unit="us-11-2").rule == "§7.5"


def test_remote_artillery_is_not_offered_where_it_would_leave_only_a_cancel():
    """Without US 1/2, US 1/1 is the only unit touching 0708 and 0709 and must attack both
    together (§7, R-7a).  The gun in 0311 reaches 0709 only: with its fire the attack could
    never take in 0708, and could then neither be resolved nor grow: it is not offered,
    and the refusal says why.  (A bot once went round that dead end, added the gun, added
    US 1/1, cancelled, for ever.)"""
    s = position({"us-11-2": "0311", "us-1-1": "0808", "ij-kuma": "0709", "ij-124-1": "0708"},
                 phase="us_combat")
    play(s, "attack", hex="0709")
    assert Command("add", {"unit": "us-11-2"}) not in legal(s)
    err = illegal(s, "add", unit="us-11-2")
    assert err.rule == "§7" and "in range of each gun" in err.message and "§7.5" in err.message
    play(s, "add", unit="us-1-1")
    play(s, "attack", hex="0708")
    assert Command("resolve") in legal(s)
    assert Command("add", {"unit": "us-11-2"}) not in legal(s)  # 0708 is out of its range
    start = position({"us-11-2": "0311", "us-11-1": "0311", "us-1-1": "0808", "ij-kuma": "0709",
                      "ij-124-1": "0708"}, phase="us_combat")
    steps = [d for d in _declarations(start) if d.combat is not None]
    assert len(steps) > 3
    for d in steps:  # every declaration reachable step by step can still be resolved
        assert {c.type for c in legal(d)} & {"resolve", "attack", "add"}, (d.combat.targets, d.combat.artillery)


def test_remote_artillery_not_from_enemy_zoc():
    """Ruling R-7.5a: artillery in enemy ZOC must fight what it touches, not fire afar."""
    s = position({"us-1-1": "0707", "us-11-4": "0909", "ij-kuma": "0706", "ij-124-1": "0910"},
                 phase="us_combat")
    declare(s, ["0706"], ["us-1-1"])
    assert Command("add", {"unit": "us-11-4"}) not in legal(s)
    assert illegal(s, "add", unit="us-11-4").rule == "§7.5"


def test_artillery_supports_only_one_combat():
    """§7: remote fire support counts as taking part in a combat."""
    s = position({"us-1-1": "0707", "us-1-2": "0808", "us-11-4": "0909",
                  "ij-kuma": "0706", "ij-124-1": "0708"}, phase="us_combat")
    declare(s, ["0706"], ["us-1-1", "us-11-4"])
    force_die(s, 4)
    assert resolved(play(s, "resolve"))["result"] == "D1"  # 9 v 4, Table 10, 2:1, row 4
    assert s.units["us-11-4"].fought
    declare(s, ["0708"], ["us-1-2"])
    err = illegal(s, "add", unit="us-11-4")
    assert err.rule == "§7" and "already taken part" in err.message


# --- attack upon entry: §5.1, §5.3 -------------------------------------------------------------------

def test_us_may_not_attack_on_entry_while_an_east_entry_hex_is_free():
    """§5.3: only if ALL entry hexes (0701 and 0702 in the east) hold enemy units."""
    s = position({"us-2-3": "entry:us-east-1", "ij-kuma": "0701"}, phase="us_combat")
    assert combat.entry_attack_targets(s, "us-2-3") == []
    assert Command("attack", {"hex": "0701"}) not in legal(s)
    assert illegal(s, "attack", hex="0701").rule == "§7"


def test_us_may_attack_on_entry_when_both_east_entry_hexes_are_held():
    s = position({"us-2-3": "entry:us-east-1", "us-7-1": "entry:us-east-1",
                  "ij-kuma": "0701", "ij-124-1": "0702"}, phase="us_combat")
    assert combat.entry_attack_targets(s, "us-2-3") == ["0701"]
    assert Command("attack", {"hex": "0701"}) in legal(s)
    a = declare(s, ["0701"], ["us-2-3", "us-7-1"])
    assert s.combat.origin == "entry:us-east-1"
    # §5.1: the defenders are doubled
    assert (a["attack"], a["defence"], a["odds"]) == (10, 8, "1:1")


def test_attack_upon_entry_is_against_one_hex_from_one_place():
    s = position({"us-2-3": "entry:us-east-1", "us-7-1": "entry:us-east-2",
                  "ij-kuma": "0701", "ij-124-1": "0702"}, phase="us_combat")
    declare(s, ["0701"], ["us-2-3"])
    assert illegal(s, "attack", hex="0702").rule == "§5.1"
    assert illegal(s, "add", unit="us-7-1").rule == "§5.1"  # the other beach points to 0702


def test_us_artillery_on_an_entry_point_may_not_attack_on_entry():
    s = position({"us-11-1": "entry:us-east-1", "us-2-3": "entry:us-east-1",
                  "ij-kuma": "0701", "ij-124-1": "0702"}, phase="us_combat")
    assert combat.entry_attack_targets(s, "us-11-1") == []
    declare(s, ["0701"], ["us-2-3"])
    assert illegal(s, "add", unit="us-11-1").rule == "§5.1"


def _ij_blocked_in_box_d(state_units, boxes=("C", "D")):
    """Every hex box D leads to holds US units; the IJ unit has already been in C."""
    units = {"us-1-1": "0000", "us-1-2": "0001", "us-1-3": "0002", "us-5-1": "0003", "us-5-2": "0004"}
    units.update(state_units)
    s = position(units, phase="ij_combat")
    for uid, loc in state_units.items():
        if loc == "box:D":
            s.unit(uid).boxes = list(boxes)
    return s


def test_ij_attacks_from_below_when_blocked_and_no_other_box():
    """§5.3: every entry hex of the box US-held and no box left to move to: the IJ may
    attack from below, against doubled defenders."""
    s = _ij_blocked_in_box_d({"ij-kuma": "box:D", "ij-124-1": "box:D"})
    assert combat.entry_attack_targets(s, "ij-kuma") == ["0004", "0003", "0002", "0001", "0000"]
    a = declare(s, ["0002"], ["ij-kuma", "ij-124-1"])
    assert s.combat.origin == "box:D"
    assert (a["attack"], a["defence"], a["odds"]) == (8, 10, "1:2")


def test_ij_may_not_attack_from_below_while_another_box_is_open():
    s = _ij_blocked_in_box_d({"ij-kuma": "box:D"}, boxes=("D",))
    assert combat.entry_attack_targets(s, "ij-kuma") == []
    assert Command("attack", {"hex": "0002"}) not in legal(s)


def test_ij_may_not_attack_from_below_while_an_entry_hex_is_free():
    s = _ij_blocked_in_box_d({"ij-kuma": "box:D"})
    s.unit("us-5-2").loc = "eliminated"  # 0004 is empty when the combat phase starts
    s.blocked = combat.blocked_entries(s, "IJ")
    assert combat.entry_attack_targets(s, "ij-kuma") == []


def test_ij_reinforcements_placed_in_the_box_this_turn_may_not_attack_from_below():
    """§5.2/§6.5: units placed in a box this turn cannot move, so cannot enter either."""
    s = _ij_blocked_in_box_d({"ij-kuma": "box:D"})
    s.unit("ij-kuma").box_arrival = s.turn
    assert combat.entry_attack_targets(s, "ij-kuma") == []


def test_ij_artillery_attacks_from_below_only_by_direct_fire():
    """§5.3: 'Artillery units may attack with direct fire but not with artillery support.'"""
    s = _ij_blocked_in_box_d({"ij-kuma": "box:D", "ij-mtn-2": "box:D", "ij-hvy-4": "0204"})
    declare(s, ["0002"], ["ij-kuma", "ij-mtn-2"])
    assert s.combat.attackers == ["ij-kuma", "ij-mtn-2"]
    assert illegal(s, "add", unit="ij-hvy-4").rule == "§7.5"  # 0204 is in range, but no support


def test_5_3_us_artillery_on_the_map_may_support_an_attack_upon_entry():
    """§5.3 denies artillery support only when "IJ units attack from off-map movement
    boxes" and bars only US artillery *on entry points* from the landing; US 11/4 in 0704
    (range 6, out of IJ ZOC) may give remote fire to the landing on 0701 (R-5.1b)."""
    s = position({"us-2-3": "entry:us-east-1", "us-7-1": "entry:us-east-1", "us-11-4": "0704",
                  "ij-kuma": "0701", "ij-124-1": "0702"}, phase="us_combat")
    a = declare(s, ["0701"], ["us-2-3", "us-7-1", "us-11-4"])
    assert s.combat.artillery == ["us-11-4"] and s.combat.origin == "entry:us-east-1"
    assert (a["attack"], a["defence"]) == (10 + 4, 8)  # 11/4 fires 4 beside the landing 10
    # the other order: artillery first, then the landing party
    play(s, "cancel_attack")
    declare(s, ["0701"], ["us-11-4", "us-2-3"])
    assert s.combat.origin == "entry:us-east-1" and s.combat.attackers == ["us-2-3"]


def _declarations(state, depth=5):
    """Every declaration reachable with attack/add commands, depth-first."""
    yield state
    if depth == 0:
        return
    for c in legal(state):
        if c.type in ("attack", "add"):
            nxt = state.clone()
            play(nxt, c.type, **c.data)
            yield from _declarations(nxt, depth - 1)


@pytest.mark.parametrize("units", [
    {"ij-kuma": "box:D", "ij-124-1": "box:D"},  # attack from below: one hex only
    {"ij-kuma": "box:D", "ij-124-1": "0103", "ij-124-3": "0104"},  # from below and on the map
])
def test_7_no_declaration_step_leads_only_to_cancel(units):
    """Issue 10 item 6: attacking from a box offered a second hex after which only
    'cancel' was legal.  Every step offered now has a completion that may be resolved."""
    s = _ij_blocked_in_box_d(units)
    seen = 0
    for d in _declarations(s):
        if d.combat is None:
            continue
        seen += 1
        nxt = {c.type for c in legal(d)}
        assert nxt & {"resolve", "attack", "add"}, (d.combat.targets, d.combat.attackers)
    assert seen > 3
    s2 = _ij_blocked_in_box_d({"ij-kuma": "box:D", "ij-124-1": "box:D"})
    play(s2, "attack", hex="0002")
    assert not [c for c in legal(s2) if c.type == "attack"]
    assert illegal(s2, "attack", hex="0001").rule == "§7"


def test_the_combat_commands_are_the_ones_named_for_deciding():
    """FirstBlood._iter_legal skips gen_combat for a command not of combat.COMMANDS:
    every command it lists in a whole game's combat phases is of those."""
    state, seen = RULES.blank(), set()
    for event in play_one("first_blood", seed=5, index=0, check_leaks=False).events:
        RULES.apply(state, event)
        if state.phase.endswith("_combat") and not state.pending and state.result is None:
            for side in ("US", "IJ"):
                with contextlib.suppress(KeyError):  # between two events of one command (a combat half resolved)
                    seen |= {c.type for c in combat.gen_combat(state, side)}
    assert {"attack", "add", "resolve", "cancel_attack"} <= seen <= set(combat.COMMANDS)


# --- "what if": the odds while moving ------------------------------------------------------------

def test_a_what_if_preview_while_moving_gives_the_odds_from_the_hexes_planned():
    """A player needs "what odds would these units get against that hex" while moving: the
    same answer the declaration would give from the hexes planned, the units not moved."""
    s = position({"us-1-1": "0909", "us-1-2": "0910", "ij-kuma": "0706"}, phase="us_movement")
    plain = RULES.preview_attack(s, "US", ["0706"], ["us-1-1", "us-1-2"], {"us-1-1": "0707", "us-1-2": "0606"})
    declared = position({"us-1-1": "0707", "us-1-2": "0606", "ij-kuma": "0706"}, phase="us_combat")
    play(declared, "attack", hex="0706")
    play(declared, "add", unit="us-1-1")
    play(declared, "add", unit="us-1-2")
    real = combat.assess(declared, declared.combat)
    assert plain["what_if"] is True
    assert {k: plain[k] for k in ("attack", "defence", "odds", "modifier")} == \
        {k: real[k] for k in ("attack", "defence", "odds", "modifier")}
    with pytest.raises(IllegalCommandError) as err:
        RULES.preview_attack(s, "US", ["0706"], ["us-1-1"], {"us-1-1": "0909"})  # not next to it
    assert err.value.rule == "§7" and "not next to" in str(err.value)
    with pytest.raises(IllegalCommandError):
        RULES.preview_attack(s, "US", ["0706"], ["ij-kuma"], {})
    assert s.units["us-1-1"].loc == "0909"  # nothing moved
