"""§7 mandatory combat (ruling R-7a): every attack must fit a plan that meets as many
obligations as any plan can; "all attacking units in enemy ZOC must attack at least one
hex" and "all defending units in an attacker's ZOC must be attacked"."""

from __future__ import annotations

from fb_support import declare, illegal, resolved

from engine.core.events import Command
from engine.games.first_blood.phases import combat
from engine.games.first_blood.rules import RULES
from engine.games.first_blood.testing import force_die, play, position


def legal(state) -> list[Command]:
    return RULES.legal_commands(state)


def test_7_a_unit_in_enemy_zoc_may_not_be_left_out_of_every_attack():
    """The issue's position: US 1/1 in 0707, 1 Eng in 0705, IJ Kuma in 0706.  Attacking
    0706 with 1/1 alone would leave the engineer, which touches only 0706, without a
    combat; with both it may be resolved, and then the phase may end."""
    s = position({"us-1-1": "0707", "us-engineer-1": "0705", "ij-kuma": "0706"}, phase="us_combat")
    declare(s, ["0706"], ["us-1-1"])
    assert Command("resolve") not in legal(s)
    err = illegal(s, "resolve")
    assert err.rule == "§7"
    assert "US 1 Eng could then attack nothing" in err.message
    assert Command("add", {"unit": "us-engineer-1"}) in legal(s)
    play(s, "add", unit="us-engineer-1")
    assert Command("resolve") in legal(s)
    force_die(s, 6)
    r = resolved(play(s, "resolve"))
    assert sorted(r["attackers"]) == ["us-1-1", "us-engineer-1"]
    assert s.units["us-engineer-1"].fought
    while RULES.prompt(s).kind == "advance":
        play(s, "end_advance")
    assert combat.obligations(s, "US") == []
    assert s.phase != "us_combat"  # nothing is owed: the phase ended


def test_7_a_combined_attack_may_not_take_the_units_another_hex_needs():
    """us-1-1 and us-1-2 in 0707 touch IJ Kuma in 0706 and IJ 124/1 in 0708, which do not
    touch each other.  Both may attack 0706 only if nobody is left for 0708: here one
    must go to each, so the second unit is not offered for 0706."""
    s = position({"us-1-1": "0707", "us-1-2": "0707", "ij-kuma": "0706", "ij-124-1": "0708"},
                 phase="us_combat")
    declare(s, ["0706"], ["us-1-1"])
    assert Command("add", {"unit": "us-1-2"}) not in legal(s)
    err = illegal(s, "add", unit="us-1-2")
    assert err.rule == "§7" and "every enemy hex touching one is attacked" in err.message
    force_die(s, 1)
    assert resolved(play(s, "resolve"))["result"] == "AE"  # Table 10, 1:1, row 1
    assert combat.obligations(s, "US") == [("us-1-2", "0708")]
    assert Command("end_phase") not in legal(s)
    declare(s, ["0708"], ["us-1-2"])
    assert Command("resolve") in legal(s)


def test_7_a_an_obligation_lapses_only_when_no_plan_can_meet_it():
    """us-1-1 alone touches 0706 and 0708, which do not touch each other: no plan attacks
    both, so the best plan meets two of the three obligations.  Either hex may be
    attacked, and once it has been, the phase may end with the other unattacked."""
    s = position({"us-1-1": "0707", "ij-kuma": "0706", "ij-124-1": "0708"}, phase="us_combat")
    attacks = sorted(c.data["hex"] for c in legal(s) if c.type == "attack")
    assert attacks == ["0706", "0708"]
    declare(s, ["0708"], ["us-1-1"])
    assert Command("resolve") in legal(s)
    force_die(s, 6)
    play(s, "resolve")
    while RULES.prompt(s).kind == "advance":
        play(s, "end_advance")
    assert combat.obligations(s, "US") == []
    assert s.phase != "us_combat"  # the obligation on 0706 lapsed: the phase ended
    assert not s.units["ij-kuma"].defended


def test_7_a_when_no_plan_meets_all_the_best_one_still_binds():
    """us-1-1 in 0707 touches 0706 and 0708 (apart); us-1-2 in 0805 touches only 0706.
    The best plan meets all four obligations (1-1 on 0708, 1-2 on 0706): us-1-1 is not
    offered for 0706, alone or with us-1-2, and says why."""
    s = position({"us-1-1": "0707", "us-1-2": "0805", "ij-kuma": "0706", "ij-124-1": "0708"},
                 phase="us_combat")
    play(s, "attack", hex="0706")
    adds = sorted(c.data["unit"] for c in legal(s) if c.type == "add")
    assert adds == ["us-1-2"]
    err = illegal(s, "add", unit="us-1-1")
    assert err.rule == "§7" and "fits no plan" in err.message
    play(s, "add", unit="us-1-2")
    assert Command("add", {"unit": "us-1-1"}) not in legal(s)
    assert Command("resolve") in legal(s)


def test_7_a_the_count_of_obligations_met_is_said_when_no_plan_meets_them_all():
    """us-1-1 in 0707 touches 0706 and 0606 (which touch each other) and 0708 (apart from
    them): no plan meets all four obligations, the best meets three by attacking 0706
    and 0606 together, and attacking 0708 (two) is refused with the count."""
    s = position({"us-1-1": "0707", "ij-kuma": "0706", "ij-124-1": "0708", "ij-124-3": "0606"},
                 phase="us_combat")
    assert sorted(c.data["hex"] for c in legal(s) if c.type == "attack") == ["0606", "0706"]
    err = illegal(s, "attack", hex="0708")
    assert err.rule == "§7" and "3 of the 4 combat obligations" in err.message
    declare(s, ["0706"], ["us-1-1"])
    assert Command("resolve") not in legal(s)
    assert Command("attack", {"hex": "0606"}) in legal(s)
    play(s, "attack", hex="0606")
    assert Command("resolve") in legal(s)
