"""First Blood ground combat: results after the roll (§7.6-§7.9, §5.1, §7.2).

The die is forced to hit a chosen cell of the attack tables; then the test
walks the decisions that follow (losses chosen by the side that suffers them,
retreats by the retreating side, advance by the attacker) and checks where
every unit ends up.
"""

from __future__ import annotations

import pytest
from fb_support import declare, illegal

from engine.core.errors import NotYourTurnError
from engine.core.events import Command
from engine.games.first_blood import tables
from engine.games.first_blood.phases import combat
from engine.games.first_blood.rules import RULES
from engine.games.first_blood.testing import force_die, play, position

US_5CF = ["us-1-1", "us-1-2", "us-1-3"]
US_5CF_B = ["us-5-1", "us-5-2", "us-5-3"]
IJ_4CF = ["ij-kuma", "ij-124-1", "ij-124-3"]
IJ_4CF_B = ["ij-4-2", "ij-124-2", "ij-4-3"]
GONE = "eliminated"


def fight(state, hexes, units, die):
    """Declare, force the die, resolve; return (combat_resolved data, all events)."""
    declare(state, hexes, units)
    force_die(state, die)
    events = play(state, "resolve")
    (r,) = [e.data for e in events if e.type == "combat_resolved"]
    return r, events


def prompt(state):
    return RULES.prompt(state)


def legal(state):
    return RULES.legal_commands(state)


def eliminated(events):
    return [e.data["unit"] for e in events if e.type == "unit_eliminated"]


# --- the tables: Tables 9 and 10 as printed (rows 1-5; row 6 is missing from the text) -----------

PRINTED_IJ = {1: ("AE", "AE", "A1", "EX"), 2: ("AE", "A2", "A1", "EX"), 3: ("A2", "A1", "EX", "EX"),
              4: ("A1", "A1", "EX", "EX"), 5: ("A1", "EX", "D1", "D1")}
PRINTED_US = {1: ("AE", "AE", "A1", "EX"), 2: ("A1", "A1", "EX", "EX"), 3: ("A1", "EX", "EX", "D1"),
              4: ("EX", "EX", "D1", "D1"), 5: ("EX", "DR", "D1", "DE")}


def test_tables_match_the_printed_rows():
    assert tables.COLUMN_LABELS == ("1:2", "1:1", "2:1", "3:1")
    for table, printed in ((tables.IJ_ATTACK_TABLE, PRINTED_IJ), (tables.US_ATTACK_TABLE, PRINTED_US)):
        assert {d: table.rows[d] for d in range(1, 6)} == printed
        assert table.reconstructed_rows == frozenset({6})
        assert set(table.rows) == {1, 2, 3, 4, 5, 6}


# Clear hexes 0707 (attackers) and 0706 (defenders): no terrain modifier, no doubling.
US_ATTACKS = {  # column: (US attackers, IJ defenders)
    "1:2": (["us-amtrac-1"], ["ij-kuma"]),  # 2 v 4
    "1:1": (["us-1-1"], ["ij-kuma"]),  # 5 v 4
    "2:1": (["us-1-1", "us-1-2"], ["ij-kuma"]),  # 10 v 4
    "3:1": (US_5CF, ["ij-kuma"]),  # 15 v 4 (not 4:1)
}
IJ_ATTACKS = {  # column: (IJ attackers, US defenders)
    "1:2": (["ij-kuma"], ["us-1-1"]),  # 4 v 5
    "1:1": (["ij-kuma", "ij-124-1"], ["us-1-1"]),  # 8 v 5
    "2:1": (["ij-kuma", "ij-124-1"], ["us-tank-1"]),  # 8 v 4
    "3:1": (IJ_4CF, ["us-tank-1"]),  # 12 v 4 (not 4:1)
}


@pytest.mark.parametrize("die", range(1, 7))
@pytest.mark.parametrize("column", tables.COLUMN_LABELS)
@pytest.mark.parametrize("side", ["US", "IJ"])
def test_each_table_cell_in_a_real_combat(side, column, die):
    attackers, defenders = (US_ATTACKS if side == "US" else IJ_ATTACKS)[column]
    s = position({**{u: "0707" for u in attackers}, **{u: "0706" for u in defenders}},
                 phase=f"{side.lower()}_combat")
    r, _ = fight(s, ["0706"], attackers, die)
    assert (r["odds"], r["modifier"], r["die"], r["total"]) == (column, 0, die, die)
    assert r["result"] == tables.TABLES[side].lookup(column, die)
    if die <= 5:
        printed = (PRINTED_US if side == "US" else PRINTED_IJ)[die]
        assert r["result"] == printed[tables.COLUMN_LABELS.index(column)]


def test_final_die_is_clamped_to_1_to_6():
    """§7.6: results above 6 count as 6, below 1 as 1."""
    s = position({**{u: "0707" for u in US_5CF}, "ij-kure-3": "0706"}, phase="us_combat")
    r, _ = fight(s, ["0706"], US_5CF, 6)  # 15 v 2: 3:1 and +1 (odds 4:1 or better)
    assert (r["odds"], r["modifier"], r["die"], r["total"]) == ("3:1", 1, 6, 6)
    s = position({"us-1-1": "0606", "ij-kuma": "0506"}, phase="us_combat")  # 0506 jungle: -1
    r, _ = fight(s, ["0506"], ["us-1-1"], 1)
    assert (r["modifier"], r["die"], r["total"], r["result"]) == (-1, 1, 1, "AE")


def test_us_air_support_adds_one_per_bomber_and_the_bomber_returns():
    """§6.8/§7.4: +1 per bomber placed on the defending hex; after the combat the bomber
    goes back to the Ground Attack box, spent for the turn."""
    s = position({"us-1-1": "0707", "ij-kuma": "0706", "us-vmsb-232": "ga", "us-vmsb-231": "ga"},
                 phase="us_combat")
    s.unit("us-vmsb-232").support = "0706"
    s.unit("us-vmsb-231").support = "0706"
    r, events = fight(s, ["0706"], ["us-1-1"], 3)
    assert (r["odds"], r["modifier"], r["die"], r["total"]) == ("1:1", 2, 3, 5)
    assert r["result"] == "DR"
    assert sorted(e.data["unit"] for e in events if e.type == "support_spent") == ["us-vmsb-231", "us-vmsb-232"]
    for b in ("us-vmsb-231", "us-vmsb-232"):
        assert s.units[b].loc == "ga" and s.units[b].support is None and s.units[b].used


# --- AE ------------------------------------------------------------------------------------------------

def test_ae_eliminates_every_attacker_but_not_remote_artillery():
    """§7.7 AE: all attackers are eliminated except artillery providing remote fire."""
    s = position({"us-1-1": "0707", "us-1-2": "0707", "us-11-4": "0909",
                  **{u: "0706" for u in IJ_4CF}}, phase="us_combat")
    r, events = fight(s, ["0706"], ["us-1-1", "us-1-2", "us-11-4"], 1)
    assert (r["attack"], r["defence"], r["odds"], r["result"]) == (14, 12, "1:1", "AE")
    assert sorted(eliminated(events)) == ["us-1-1", "us-1-2"]
    assert s.units["us-11-4"].loc == "0909"
    assert all(s.units[u].loc == "0706" for u in IJ_4CF)
    assert s.combat is None and not s.pending


# --- A1 / A2: the attacker chooses, then retreats ---------------------------------------------------------

def test_a2_attacker_chooses_two_losses_then_retreats():
    s = position({**{u: "0706" for u in IJ_4CF}, "us-1-1": "0707", "us-1-2": "0707"},
                 phase="ij_combat")
    r, _ = fight(s, ["0707"], IJ_4CF, 2)
    assert (r["attack"], r["defence"], r["odds"], r["result"]) == (12, 10, "1:1", "A2")
    p = prompt(s)
    assert (p.side, p.kind) == ("IJ", "loss")
    assert p.details["count"] == 2 and sorted(p.details["candidates"]) == sorted(IJ_4CF)
    with pytest.raises(NotYourTurnError):
        play(s, "eliminate", side="US", unit="ij-kuma")
    play(s, "eliminate", unit="ij-kuma")
    assert (prompt(s).side, prompt(s).kind, prompt(s).details["count"]) == ("IJ", "loss", 1)
    assert illegal(s, "eliminate", unit="ij-kuma").rule == "§7.7"  # already gone
    play(s, "eliminate", unit="ij-124-1")
    p = prompt(s)
    assert (p.side, p.kind) == ("IJ", "retreat") and list(p.details["units"]) == ["ij-124-3"]
    play(s, "retreat", unit="ij-124-3", to="0705")
    assert s.units["ij-124-3"].loc == "0705"
    assert s.units["us-1-1"].loc == s.units["us-1-2"].loc == "0707"
    assert s.combat is None


def test_a2_with_exactly_two_attackers_needs_no_choice():
    s = position({"ij-kuma": "0706", "ij-124-1": "0706", "us-1-1": "0707"}, phase="ij_combat")
    r, events = fight(s, ["0707"], ["ij-kuma", "ij-124-1"], 3)
    assert (r["odds"], r["result"]) == ("1:1", "A1")  # Table 9, 1:1, row 3
    # A1 with two attackers: one choice, then the survivor retreats
    assert (prompt(s).side, prompt(s).kind) == ("IJ", "loss")
    s = position({"ij-kuma": "0706", "ij-124-1": "0706", "us-1-1": "0707", "us-1-2": "0707"},
                 phase="ij_combat")
    r, events = fight(s, ["0707"], ["ij-kuma", "ij-124-1"], 3)
    assert (r["odds"], r["result"]) == ("1:2", "A2")  # 8 v 10, Table 9, 1:2, row 3
    assert sorted(eliminated(events)) == ["ij-124-1", "ij-kuma"]
    assert s.combat is None and not s.pending


def test_a1_us_attacker_chooses_then_retreats():
    s = position({"us-1-1": "0707", "us-1-2": "0707", "ij-kuma": "0706", "ij-124-1": "0706"},
                 phase="us_combat")
    r, _ = fight(s, ["0706"], ["us-1-1", "us-1-2"], 2)
    assert (r["odds"], r["result"]) == ("1:1", "A1")  # 10 v 8, Table 10, 1:1, row 2
    p = prompt(s)
    assert (p.side, p.kind, p.details["count"]) == ("US", "loss", 1)
    play(s, "eliminate", unit="us-1-2")
    p = prompt(s)
    assert (p.side, p.kind) == ("US", "retreat") and list(p.details["units"]) == ["us-1-1"]
    play(s, "retreat", unit="us-1-1", to="0807")
    assert s.units["us-1-1"].loc == "0807" and s.units["us-1-2"].loc == GONE


def test_remote_artillery_is_no_casualty_and_does_not_retreat():
    """§7.5/§7.7: remote-fire artillery cannot be chosen as a loss and stays put."""
    s = position({"us-1-1": "0707", "us-1-2": "0707", "us-11-4": "0909",
                  **{u: "0706" for u in IJ_4CF}}, phase="us_combat")
    r, _ = fight(s, ["0706"], ["us-1-1", "us-1-2", "us-11-4"], 2)
    assert (r["attack"], r["odds"], r["result"]) == (14, "1:1", "A1")
    assert sorted(prompt(s).details["candidates"]) == ["us-1-1", "us-1-2"]
    assert Command("eliminate", {"unit": "us-11-4"}) not in legal(s)
    assert illegal(s, "eliminate", unit="us-11-4").rule == "§7.7"
    play(s, "eliminate", unit="us-1-1")
    assert list(prompt(s).details["units"]) == ["us-1-2"]
    assert not any(c.data.get("unit") == "us-11-4" for c in legal(s))
    play(s, "retreat", unit="us-1-2", to="0807")
    assert s.units["us-11-4"].loc == "0909"


def test_remote_artillery_is_no_casualty_in_an_exchange():
    s = position({"us-1-1": "0707", "us-11-4": "0909", "ij-kuma": "0706", "ij-124-1": "0706"},
                 phase="us_combat")
    r, events = fight(s, ["0706"], ["us-1-1", "us-11-4"], 3)
    assert (r["attack"], r["defence"], r["odds"], r["result"]) == (9, 8, "1:1", "EX")
    assert "us-1-1" in eliminated(events)  # the only candidate: no choice
    assert s.units["us-11-4"].loc == "0909"


# --- EX: one each; the defender chooses its own loss ---------------------------------------------------

def test_ex_each_side_chooses_its_own_loss_then_defenders_retreat():
    s = position({"us-1-1": "0707", "us-1-2": "0707", "ij-kuma": "0706", "ij-124-1": "0706"},
                 phase="us_combat")
    r, _ = fight(s, ["0706"], ["us-1-1", "us-1-2"], 3)
    assert (r["attack"], r["defence"], r["odds"], r["result"]) == (10, 8, "1:1", "EX")
    p = prompt(s)
    assert (p.side, p.kind, p.details["count"]) == ("US", "loss", 1)
    assert sorted(p.details["candidates"]) == ["us-1-1", "us-1-2"]
    play(s, "eliminate", unit="us-1-1")
    # the defender (the side not moving in this phase) chooses its loss
    p = prompt(s)
    assert (p.side, p.kind, p.details["count"]) == ("IJ", "loss", 1)
    assert sorted(p.details["candidates"]) == ["ij-124-1", "ij-kuma"]
    assert [c.side for c in legal(s)] and all(c.type == "eliminate" for c in legal(s))
    assert RULES.legal_commands(s, "US") == []
    with pytest.raises(NotYourTurnError):
        play(s, "eliminate", side="US", unit="ij-kuma")
    assert illegal(s, "eliminate", unit="us-1-2").rule == "§7.7"
    play(s, "eliminate", side="IJ", unit="ij-kuma")
    p = prompt(s)
    assert (p.side, p.kind) == ("IJ", "retreat") and list(p.details["units"]) == ["ij-124-1"]
    play(s, "retreat", side="IJ", unit="ij-124-1", to="0705")
    # no advance after EX (§7.8: only after DE); the attacker stays
    assert s.combat is None and not s.pending
    assert s.units["us-1-2"].loc == "0707" and s.units["ij-124-1"].loc == "0705"
    assert (s.units["us-1-1"].loc, s.units["ij-kuma"].loc) == (GONE, GONE)


def test_ex_with_single_units_needs_no_choice():
    s = position({"us-1-1": "0707", "ij-kuma": "0706"}, phase="us_combat")
    r, events = fight(s, ["0706"], ["us-1-1"], 4)
    assert (r["odds"], r["result"]) == ("1:1", "EX")
    assert sorted(eliminated(events)) == ["ij-kuma", "us-1-1"]
    assert not s.pending and s.combat is None


# --- DR, D1 ----------------------------------------------------------------------------------------------

def test_dr_all_defenders_retreat_and_no_advance():
    s = position({"us-1-1": "0707", "us-1-2": "0707", "ij-kuma": "0706", "ij-124-1": "0706"},
                 phase="us_combat")
    r, _ = fight(s, ["0706"], ["us-1-1", "us-1-2"], 5)
    assert (r["odds"], r["result"]) == ("1:1", "DR")
    p = prompt(s)
    assert (p.side, p.kind) == ("IJ", "retreat")
    assert sorted(p.details["units"]) == ["ij-124-1", "ij-kuma"]
    play(s, "retreat", unit="ij-kuma", to="0705")
    assert list(prompt(s).details["units"]) == ["ij-124-1"]
    play(s, "retreat", unit="ij-124-1", to="0605")
    assert s.combat is None and not s.pending  # no advance offered
    assert s.units["us-1-1"].loc == s.units["us-1-2"].loc == "0707"
    assert (s.units["ij-kuma"].loc, s.units["ij-124-1"].loc) == ("0705", "0605")


def test_d1_defender_chooses_its_loss_then_the_rest_retreat():
    s = position({**{u: "0707" for u in US_5CF}, "ij-kuma": "0706", "ij-kure-3": "0706"},
                 phase="us_combat")
    r, _ = fight(s, ["0706"], US_5CF, 4)
    assert (r["attack"], r["defence"], r["odds"], r["result"]) == (15, 6, "2:1", "D1")
    p = prompt(s)
    assert (p.side, p.kind, p.details["count"]) == ("IJ", "loss", 1)
    play(s, "eliminate", unit="ij-kure-3")
    assert (prompt(s).side, prompt(s).kind) == ("IJ", "retreat")
    play(s, "retreat", unit="ij-kuma", to="0805")
    assert s.combat is None and not s.pending
    assert s.units["ij-kuma"].loc == "0805" and s.units["ij-kure-3"].loc == GONE
    assert all(s.units[u].loc == "0707" for u in US_5CF)


# --- DE and advance: §7.8 ---------------------------------------------------------------------------------

def test_de_then_advance_into_the_vacated_hex_ignoring_zoc_at_most_three():
    """§7.8: after DE the attackers may advance into the vacated hex; ZOC does not stop
    them (0706 touches IJ 4/2 in 0705, which no US unit touches) and stacking still caps
    the hex at 3."""
    s = position({**{u: "0707" for u in US_5CF}, **{u: "0606" for u in US_5CF_B},
                  "us-11-4": "0909", "ij-kuma": "0706", "ij-4-2": "0705", "ij-124-1": "0604"},
                 phase="us_combat")
    r, events = fight(s, ["0706"], US_5CF + US_5CF_B + ["us-11-4"], 4)
    assert (r["attack"], r["defence"], r["odds"], r["modifier"], r["total"]) == (34, 4, "3:1", 1, 5)
    assert r["result"] == "DE"
    assert eliminated(events) == ["ij-kuma"]
    p = prompt(s)
    assert (p.side, p.kind) == ("US", "advance")
    assert p.details["hexes"] == ["0706"]
    assert sorted(p.details["units"]) == sorted(US_5CF + US_5CF_B)  # not the remote artillery
    assert "0706" in combat.q.zoc_of(s, "IJ")
    for u in ["us-1-1", "us-1-2", "us-5-1"]:
        ev = play(s, "advance", unit=u, to="0706")
        assert [e.type for e in ev][0] == "unit_advanced"
    assert legal(s) == [Command("end_advance"), Command("undo", {"step": s.undo.steps[-1]})]
    err = illegal(s, "advance", unit="us-5-2", to="0706")
    assert err.rule == "§7.8"
    play(s, "end_advance")
    assert s.combat is None and not s.pending
    assert sorted(u for u, x in s.units.items() if x.loc == "0706") == ["us-1-1", "us-1-2", "us-5-1"]
    assert s.units["us-11-4"].loc == "0909"


def test_advance_only_into_vacated_hexes():
    s = position({**{u: "0707" for u in US_5CF}, "ij-kure-3": "0706"}, phase="us_combat")
    r, _ = fight(s, ["0706"], US_5CF, 5)
    assert r["result"] == "DE"
    assert illegal(s, "advance", unit="us-1-1", to="0806").rule == "§7.8"
    play(s, "advance", unit="us-1-1", to="0706")
    play(s, "end_advance")
    assert s.units["us-1-1"].loc == "0706" and s.units["us-1-2"].loc == "0707"


def test_advance_closes_by_itself_once_every_attacker_has_moved():
    s = position({"us-1-1": "0707", "us-1-2": "0707", "ij-kure-3": "0706"}, phase="us_combat")
    r, _ = fight(s, ["0706"], ["us-1-1", "us-1-2"], 5)  # 10 v 2: 3:1 and +1: total 6
    assert (r["odds"], r["modifier"], r["total"], r["result"]) == ("3:1", 1, 6, "DE")
    play(s, "advance", unit="us-1-1", to="0706")
    play(s, "advance", unit="us-1-2", to="0706")
    assert s.combat is None and not s.pending


def test_ij_advance_into_an_air_strip_destroys_it():
    """§7.8 with §6.3: an IJ unit advancing into an air strip hex destroys the strip and
    the USAF units on it.  (IJ DE needs 3:1 with +1 and die 5: the reconstructed row 6.)"""
    s = position({**{u: "0707" for u in IJ_4CF}, "us-amtrac-1": "0708", "us-vmf-224": "strip:0708"},
                 phase="ij_combat")
    assert s.strips["0708"].status == "oper"
    r, _ = fight(s, ["0708"], IJ_4CF, 5)
    assert (r["odds"], r["modifier"], r["total"], r["result"]) == ("3:1", 1, 6, "DE")
    assert (prompt(s).side, prompt(s).kind) == ("IJ", "advance")
    events = play(s, "advance", unit="ij-kuma", to="0708")
    (e,) = [e for e in events if e.type == "strip_overrun"]
    assert e.data["usaf"] == ["us-vmf-224"]
    assert s.strips["0708"].status == "dest" and s.units["us-vmf-224"].loc == GONE


# --- Retreats: §7.9 --------------------------------------------------------------------------------------

def _dr_against(units, target, attackers):
    """A US combat that ends DR (1:1, die 5) against ``target``."""
    s = position(units, phase="us_combat")
    r, _ = fight(s, [target], attackers, 5)
    assert (r["odds"], r["result"]) == ("1:1", "DR")
    return s


def retreat_hexes(state, uid):
    return sorted(c.data["to"] for c in legal(state)
                  if c.type == "retreat" and c.data["unit"] == uid and c.data["to"] is not None)


def test_retreat_not_into_enemy_zoc_even_with_friends_there():
    """IJ 124/1 in 0606 is in the ZOC of the US unit in 0707: Kuma may not join it.
    (US 1/2 in 0507 will attack 0606, so 1/1 may attack 0706 alone, R-7a.)"""
    s = _dr_against({"us-1-1": "0707", "us-1-2": "0507", "ij-kuma": "0706", "ij-124-1": "0606"},
                    "0706", ["us-1-1"])
    assert retreat_hexes(s, "ij-kuma") == ["0605", "0705", "0805"]
    assert illegal(s, "retreat", unit="ij-kuma", to="0606").rule == "§7.9"
    assert illegal(s, "retreat", unit="ij-kuma", to="0806").rule == "§7.9"  # plain enemy ZOC
    assert illegal(s, "retreat", unit="ij-kuma", to="0707").rule == "§7.9"  # enemy units
    assert illegal(s, "retreat", unit="ij-kuma", to="0704").rule == "§7.9"  # not adjacent


def test_retreat_not_across_a_river_except_at_the_bridge():
    """From 0910 attacked out of 1010: 0809 is across the Lunga (not in US ZOC) and is
    refused; 0909 is across the bridge and allowed."""
    s = _dr_against({"us-1-1": "1010", "ij-kuma": "0910"}, "0910", ["us-1-1"])
    assert retreat_hexes(s, "ij-kuma") == ["0810", "0909"]
    assert illegal(s, "retreat", unit="ij-kuma", to="0809").rule == "§7.9"
    play(s, "retreat", unit="ij-kuma", to="0909")
    assert s.units["ij-kuma"].loc == "0909"


def test_retreat_over_the_bridge_as_the_only_route():
    s = _dr_against({"us-1-1": "1010", "us-1-2": "0810", "ij-kuma": "0910", "ij-124-1": "0910"},
                    "0910", ["us-1-1", "us-1-2"])
    assert retreat_hexes(s, "ij-kuma") == retreat_hexes(s, "ij-124-1") == ["0909"]


def test_no_retreat_route_means_elimination():
    """1209 (Lunga Point): sea to the north, the Lunga to the west and south-west, and
    the attacker's ZOC over 1208: the defender is eliminated at once."""
    s = position({"us-1-1": "1109", "ij-kuma": "1209"}, phase="us_combat")
    r, events = fight(s, ["1209"], ["us-1-1"], 5)
    assert r["result"] == "DR"
    assert eliminated(events) == ["ij-kuma"]
    (e,) = [e for e in events if e.type == "unit_eliminated"]
    assert "§7.9" in e.data["reason"]
    assert not s.pending


def test_attackers_without_a_retreat_route_are_eliminated():
    """A1 against 1209: the survivor in 1109 cannot cross the Lunga to 1110, and 1208,
    1108, 1008 are in IJ ZOC (from 1209, 1007, 1009) or IJ-held (1009): eliminated."""
    s = position({"us-1-1": "1109", "us-1-2": "1109", "ij-kuma": "1209", "ij-124-1": "1009",
                  "ij-124-3": "1007"}, phase="us_combat")
    s.unit("ij-124-1").defended = True  # attacked earlier this phase, so not owed (§7)
    r, _ = fight(s, ["1209"], ["us-1-1", "us-1-2"], 1)
    assert (r["odds"], r["result"]) == ("2:1", "A1")
    assert prompt(s).side == "US"
    events = play(s, "eliminate", unit="us-1-1")
    assert eliminated(events) == ["us-1-1", "us-1-2"]
    (e,) = [e for e in events if e.type == "unit_eliminated" and e.data["unit"] == "us-1-2"]
    assert "§7.9" in e.data["reason"]


def test_extended_retreat_when_the_hex_would_be_overstacked():
    """§7.9: retreating into a full hex, the unit may keep retreating ..."""
    s = _dr_against({"us-1-1": "0707", "ij-kuma": "0706", **{u: "0705" for u in IJ_4CF_B}},
                    "0706", ["us-1-1"])
    play(s, "retreat", unit="ij-kuma", to="0705")
    p = prompt(s)
    assert (p.side, p.kind) == ("IJ", "retreat")
    assert p.details["units"]["ij-kuma"]["extended"] is True
    assert Command("retreat", {"unit": "ij-kuma", "to": None}) in legal(s)
    assert retreat_hexes(s, "ij-kuma") == ["0604", "0605", "0704", "0804", "0805"]
    assert illegal(s, "retreat", unit="ij-kuma", to="0706").rule == "§7.9"  # back where it came from
    play(s, "retreat", unit="ij-kuma", to="0604")
    assert s.units["ij-kuma"].loc == "0604" and not s.pending and s.combat is None


def test_extended_retreat_may_stop_and_the_unit_is_eliminated():
    """... or opt not to, and be eliminated."""
    s = _dr_against({"us-1-1": "0707", "ij-kuma": "0706", **{u: "0705" for u in IJ_4CF_B}},
                    "0706", ["us-1-1"])
    play(s, "retreat", unit="ij-kuma", to="0705")
    events = play(s, "retreat", unit="ij-kuma", to=None)
    assert eliminated(events) == ["ij-kuma"]
    assert all(s.units[u].loc == "0705" for u in IJ_4CF_B)
    assert not s.pending


def test_an_ordinary_retreat_cannot_stop():
    s = _dr_against({"us-1-1": "0707", "ij-kuma": "0706"}, "0706", ["us-1-1"])
    assert Command("retreat", {"unit": "ij-kuma", "to": None}) not in legal(s)
    assert illegal(s, "retreat", unit="ij-kuma", to=None).rule == "§7.9"


def test_retreat_into_a_hex_with_room_is_not_extended():
    s = _dr_against({"us-1-1": "0707", "ij-kuma": "0706", "ij-4-2": "0705", "ij-124-2": "0705"},
                    "0706", ["us-1-1"])
    play(s, "retreat", unit="ij-kuma", to="0705")
    assert not s.pending and s.units["ij-kuma"].loc == "0705"


# --- Attack upon entry: §5.1, §5.3, §7.8 ------------------------------------------------------------------

def _landing(extra=None):
    units = {"us-2-3": "entry:us-east-1", "us-7-1": "entry:us-east-1", "ij-kuma": "0701", "ij-124-1": "0702"}
    units.update(extra or {})
    return position(units, phase="us_combat")


def test_attack_upon_entry_success_means_entering_the_hex():
    """§5.1/§7.8: after DR the defender retreats and the attackers MUST enter the hex."""
    s = _landing()
    r, events = fight(s, ["0701"], ["us-2-3", "us-7-1"], 5)
    assert (r["attack"], r["defence"], r["odds"], r["result"]) == (10, 8, "1:1", "DR")
    assert r["origin"] == "entry:us-east-1"
    assert (prompt(s).side, prompt(s).kind) == ("IJ", "retreat")
    events = play(s, "retreat", unit="ij-kuma", to="0601")
    moved = [(e.data["unit"], e.data["to"]) for e in events if e.type == "unit_advanced"]
    assert sorted(moved) == [("us-2-3", "0701"), ("us-7-1", "0701")]
    assert s.units["us-2-3"].loc == s.units["us-7-1"].loc == "0701"
    assert s.combat is None and not s.pending


def test_attack_upon_entry_after_de_enters_without_a_choice():
    s = _landing({"us-7-2": "entry:us-east-1"})
    s.unit("ij-kuma").loc = "eliminated"
    s.unit("ij-kure-3").loc = "0701"
    r, events = fight(s, ["0701"], ["us-2-3", "us-7-1", "us-7-2"], 5)  # 15 v 4: 3:1
    assert (r["defence"], r["odds"], r["result"]) == (4, "3:1", "DE")
    assert sorted(e.data["unit"] for e in events if e.type == "unit_advanced") == ["us-2-3", "us-7-1", "us-7-2"]
    assert not s.pending and s.combat is None


def test_attack_upon_entry_failure_eliminates_all_attackers():
    s = _landing()
    r, events = fight(s, ["0701"], ["us-2-3", "us-7-1"], 1)
    assert r["result"] == "AE"
    assert sorted(eliminated(events)) == ["us-2-3", "us-7-1"]
    assert s.units["ij-kuma"].loc == "0701"


def test_attack_upon_entry_overstacking_is_settled_by_losses():
    """§5.1: four units landing on one beach enter together; the owner then removes
    units until the hex holds three."""
    s = _landing({"us-7-2": "entry:us-east-1", "us-7-3": "entry:us-east-1"})
    attackers = ["us-2-3", "us-7-1", "us-7-2", "us-7-3"]
    r, _ = fight(s, ["0701"], attackers, 5)
    assert (r["attack"], r["defence"], r["odds"], r["result"]) == (20, 8, "2:1", "D1")
    p = prompt(s)
    assert (p.side, p.kind, p.details["count"]) == ("US", "loss", 1)
    assert sorted(p.details["candidates"]) == attackers
    assert all(s.units[u].loc == "0701" for u in attackers)
    play(s, "eliminate", unit="us-7-3")
    assert sorted(u for u, x in s.units.items() if x.loc == "0701") == ["us-2-3", "us-7-1", "us-7-2"]
    assert not s.pending


def test_air_support_may_back_an_attack_upon_entry():
    """§5.3: bombers in Ground Attack may support (+1 each)."""
    s = _landing({"us-vmsb-232": "ga"})
    s.unit("us-vmsb-232").support = "0701"
    declare(s, ["0701"], ["us-2-3", "us-7-1"])
    a = combat.assess(s, s.combat)
    assert (a["attack"], a["defence"], a["modifier"]) == (10, 8, 1)


def test_artillery_on_the_entry_point_may_be_taken_as_a_casualty():
    """§5.3: artillery on the entry point may not attack but can be taken as a casualty."""
    s = _landing({"us-11-1": "entry:us-east-1"})
    r, _ = fight(s, ["0701"], ["us-2-3", "us-7-1"], 3)
    assert (r["attack"], r["odds"], r["result"]) == (10, "1:1", "EX")
    p = prompt(s)
    assert (p.side, p.kind) == ("US", "loss")
    assert sorted(p.details["candidates"]) == ["us-11-1", "us-2-3", "us-7-1"]
    play(s, "eliminate", unit="us-11-1")
    assert s.units["us-11-1"].loc == GONE
    # Kuma was the only defender: gone in the exchange, the landing party enters
    assert s.units["us-2-3"].loc == s.units["us-7-1"].loc == "0701"


def test_a_unit_on_the_beach_that_did_not_attack_is_not_an_attacker():
    """§7.7 EX eliminates 'one attacking unit'; §5.3 lets artillery on the entry point be
    taken as a casualty, nothing else that stayed out of the attack."""
    s = _landing({"us-7-2": "entry:us-east-1"})
    r, _ = fight(s, ["0701"], ["us-2-3", "us-7-1"], 3)
    assert r["result"] == "EX"
    assert sorted(prompt(s).details["candidates"]) == ["us-2-3", "us-7-1"]


def test_a_second_landing_party_may_still_attack_after_the_first_clears_its_beach():
    """§5.3: both east beaches were held when the US landed on both; clearing 0701 first
    must not strand the party on the 0702 beach (it cannot move in the combat phase)."""
    s = position({"us-2-3": "entry:us-east-1", "us-7-2": "entry:us-east-1", "us-7-1": "entry:us-east-2",
                  "ij-kuma": "0701", "ij-kure-3": "0702"}, phase="us_combat")
    r, _ = fight(s, ["0701"], ["us-2-3", "us-7-2"], 5)
    assert (r["odds"], r["result"]) == ("1:1", "DR")  # 10 v 8
    play(s, "retreat", unit="ij-kuma", to="0601")
    assert s.units["us-2-3"].loc == s.units["us-7-2"].loc == "0701"
    assert s.phase == "us_combat", "the landing party on the 0702 beach was left stranded"
    r, _ = fight(s, ["0702"], ["us-7-1"], 5)  # 5 v 4 doubled: 1:2
    assert (r["attack"], r["defence"], r["origin"]) == (5, 4, "entry:us-east-2")


def _blocked_box_d(ij_units):
    # 0000 is clear; the other hexes box D leads to are jungle
    units = {"us-amtrac-1": "0000", "us-1-2": "0001", "us-1-1": "0002", "us-5-1": "0003", "us-5-2": "0004"}
    units.update({u: "box:D" for u in ij_units})
    s = position(units, phase="ij_combat")
    for u in ij_units:
        s.unit(u).boxes = ["C", "D"]
    return s


def test_ij_attack_from_below_success_enters_the_hex():
    s = _blocked_box_d(IJ_4CF)
    r, events = fight(s, ["0000"], IJ_4CF, 5)
    assert (r["attack"], r["defence"], r["odds"], r["result"]) == (12, 4, "3:1", "D1")  # doubled 2
    assert eliminated(events) == ["us-amtrac-1"]
    assert sorted((e.data["unit"], e.data["frm"], e.data["to"]) for e in events
                  if e.type == "unit_advanced") == [(u, "box:D", "0000") for u in sorted(IJ_4CF)]


def test_ij_attack_from_below_failure_eliminates_the_attackers():
    s = _blocked_box_d(["ij-kuma", "ij-124-1"])
    s.unit("us-amtrac-1").loc = GONE
    s.unit("us-1-3").loc = "0000"
    r, events = fight(s, ["0000"], ["ij-kuma", "ij-124-1"], 4)
    assert (r["attack"], r["defence"], r["odds"], r["result"]) == (8, 10, "1:2", "A1")
    if s.pending:
        play(s, "eliminate", unit="ij-kuma")
    assert s.units["ij-kuma"].loc == s.units["ij-124-1"].loc == GONE
    assert s.units["us-1-3"].loc == "0000"


# --- §7.2: an IJ attack on an air strip hex disrupts engineering work --------------------------------------

def test_ij_attack_on_an_air_strip_removes_the_work_marker():
    """§7.2: even an attack that fails (here AE before any roll) disrupts the work."""
    s = position({"us-engineer-1": "0605", "us-1-1": "0605", "ij-kure-3": "0606"},
                 phase="ij_combat", strips={"0605": {"work": 1, "worked_turn": 0}})
    r, events = fight(s, ["0605"], ["ij-kure-3"], 3)
    assert (r["attack"], r["defence"], r["die"], r["result"]) == (2, 8, None, "AE")
    (e,) = [e for e in events if e.type == "work_disrupted"]
    assert e.data["hex"] == "0605"
    assert s.strips["0605"].work == 0


def test_ij_attack_on_an_air_strip_without_work_changes_nothing():
    s = position({"us-engineer-1": "0605", "ij-kuma": "0606"}, phase="ij_combat")
    status = s.strips["0605"].status
    _, events = fight(s, ["0605"], ["ij-kuma"], 4)
    assert not [e for e in events if e.type == "work_disrupted"]
    assert s.strips["0605"].status == status


def test_us_attack_does_not_disrupt_work():
    """§7.2 is about IJ attacks; a US attack out of a strip hex leaves its work alone."""
    # us-1-2 in 0505 still owes a combat against 0504: the phase stays open
    s = position({"us-engineer-1": "0605", "us-1-1": "0605", "ij-kuma": "0606",
                  "us-1-2": "0505", "ij-124-1": "0504"}, phase="us_combat", strips={"0605": {"work": 2}})
    _, events = fight(s, ["0606"], ["us-1-1", "us-engineer-1"], 4)  # §7: both are in IJ ZOC
    assert not [e for e in events if e.type == "work_disrupted"]
    assert s.strips["0605"].work == 2


def test_5_1_artillery_that_lands_with_an_attack_upon_entry_has_fought():
    """R-5.1a: US artillery on the entry point lands with the party that cleared 0701.
    It has been through that combat, so it owes no second attack on IJ 124/1 in 0702
    (which touches 0701), and the phase may end once 0702 is dealt with."""
    s = _landing({"us-11-1": "entry:us-east-1"})
    r, _ = fight(s, ["0701"], ["us-2-3", "us-7-1"], 5)
    assert (r["result"], r["landing"]) == ("DR", ["us-11-1"])
    play(s, "retreat", unit="ij-kuma", to="0601")
    assert s.units["us-11-1"].loc == "0701" and s.units["us-11-1"].fought
    assert combat.obligations(s, "US") == []


def test_5_1_a1_against_a_landing_eliminates_it_without_asking():
    """§5.1: 'if the attack does not clear the hex ... the reinforcement units are
    eliminated', all of them, so an A1 or A2 asks nobody which unit is the loss."""
    s = _landing()
    r, events = fight(s, ["0701"], ["us-2-3", "us-7-1"], 2)
    assert r["result"] == "A1"  # Table 10, 1:1, row 2
    assert not s.pending and s.combat is None
    assert sorted(eliminated(events)) == ["us-2-3", "us-7-1"]


def test_7_9_a_refused_retreat_says_why():
    """The reason comes from the check that lists the retreats (``retreat_refusal``)."""
    s = _landing()
    fight(s, ["0701"], ["us-2-3", "us-7-1"], 5)  # DR: IJ Kuma retreats from 0701
    err = illegal(s, "retreat", unit="ij-kuma", to="0703")
    assert (err.rule, err.message) == (
        "§7.9", "0703 is not next to 0701 (a retreat goes one hex at a time, on the map)")
