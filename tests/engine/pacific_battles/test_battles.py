"""Land combat phases played through the engine's commands (14.0, 15.0, the Banzai!,
Gung Ho! and Recon markers), fog of war (18.0), the end-of-turn victory check (24.0,
25.3) and the leak checker, on positions built with ``testing.position``."""

from __future__ import annotations

import json

import pytest

from engine.core.errors import IllegalCommandError, NotYourTurnError
from engine.core.events import Event
from engine.core.game import Emitter
from engine.core.hexes import distance_between, neighbor_ids
from engine.core.visibility import for_viewer
from engine.games.pacific_battles import battles, combat, flow, leaks, queries, tables
from engine.games.pacific_battles.queries import board, forces
from engine.games.pacific_battles.rules import RULES
from engine.games.pacific_battles.state import SIDES, PBState, other
from engine.games.pacific_battles.testing import force_dice, force_die, legal, play, position

B = board()
HF = B.places["Henderson Field"]
C = "1422"  # clear, ringed by clear ground with no river: no terrain shift (14.33)
R = B.neighbours(C)
TAIVU = B.places["Taivu Point"]  # a cape: two land neighbours
FAR_J, FAR_A = "0020", "0025"  # reserves far from everything: the turn stops at their movement phase


def combat_position(pieces: dict, *, first: str = "Allied", hand: dict[str, list[str]] | None = None,
                    **kw: object) -> PBState:
    s = position({"Yano Bn": ("Yano Bn", FAR_J), "2 Raider": ("2 Raider", FAR_A), **pieces},
                 phase="initial_first_combat", first=first, **kw)
    s.hand = {sd: list((hand or {}).get(sd, [])) for sd in SIDES}
    return s


def declare(s: PBState, side: str, hexes: list[str], attackers: list[str]) -> None:
    play(s, "declare", side, hex=hexes[0])
    for a in attackers:
        play(s, "add", side, unit=a)
    for h in hexes[1:]:
        play(s, "add_hex", side, hex=h)
    play(s, "close", side)


def fight(s: PBState, side: str, hexes: list[str], attackers: list[str], *, table: str = "assault",
          die: int, react: str | None = None, chooser: str | None = None) -> list[Event]:
    """One battle declared, fought, the defender's window (``react``: a marker played on it),
    the CRT chosen and the die forced; the events of the roll."""
    declare(s, side, hexes, attackers)
    play(s, "fight", side)
    if react is not None:
        play(s, "play", other(side), marker=react, target="0")
    play(s, "pass", other(side))
    force_dice(s, {(1, 0): die})  # the decision is made, then the die rolled (battles.do_crt)
    return play(s, "crt", chooser or side, table=table)


def fight_declared(s: PBState, side: str, *, table: str = "assault", die: int) -> list[Event]:
    play(s, "fight", side)
    play(s, "pass", other(side))
    force_dice(s, {(1, 0): die})
    return play(s, "crt", side, table=table)


def resolved(events: list[Event]) -> dict:
    return next(e.data for e in events if e.type == "battle_resolved")


def types(state: PBState, side: str) -> set[str]:
    return {c.type for c in legal(state, side)}


def vp_events(events: list[Event]) -> list[tuple[str, int]]:
    return [(e.data["side"], e.data["points"]) for e in events if e.type == "vp_scored"]


# --- 14.12, 14.41: the rulebook's examples ---------------------------------------------------------

def test_14_12_an_hq_with_support_1_attacking_alone_uses_the_25_49_column() -> None:
    s = combat_position({"35 HQ": ("35 HQ", R[0]), "1 Para": ("1 Para", C)}, first="Japanese", active=("35 HQ",))
    assert battles.unmet(s, "Japanese") == (["35 HQ"], [C])  # an HQ in an enemy ZOC must attack
    r = resolved(fight(s, "Japanese", [C], ["35 HQ"], table="raid", die=3))
    assert (r["attack"], r["base"], r["column"]) == (0, "24%-", "25-49%")
    assert [(v, rule) for v, _, rule in r["shifts"]] == [(1, "10.3")]


def test_14_12_an_inactive_hq_attacking_alone_uses_the_lowest_column() -> None:
    s = combat_position({"35 HQ": ("35 HQ", R[0]), "1 Para": ("1 Para", C)}, first="Japanese")
    r = resolved(fight(s, "Japanese", [C], ["35 HQ"], table="raid", die=3))
    assert (r["column"], r["shifts"]) == ("24%-", [])


def test_14_41_the_allies_play_recon_and_choose_the_assault_crt_for_a_japanese_attack() -> None:
    s = combat_position({"124 Inf": ("124 Inf", R[0]), "Kuma Bn": ("Kuma Bn", R[1]), "1 Armor": ("1 Armor", R[2]),
                         "1 Raider": ("1 Raider", C), "1 LVT": ("1 LVT", C)},
                        first="Japanese", hand={"Allied": ["Recon"]})
    in_pool = s.pool["Allied"].count("Recon")
    declare(s, "Japanese", [C], ["124 Inf", "Kuma Bn", "1 Armor"])
    play(s, "fight", "Japanese")
    assert s.pending[0] == {"side": "Allied", "kind": "react"}  # the defender's window (14.41)
    assert {"marker": "Recon", "target": "0"} in [c.data for c in legal(s, "Allied", "play")]
    play(s, "play", "Allied", marker="Recon", target="0")
    play(s, "pass", "Allied")
    assert s.pending[0]["kind"] == "crt" and s.pending[0]["side"] == "Allied"
    assert legal(s, "Japanese") == []
    with pytest.raises(NotYourTurnError):
        play(s, "crt", "Japanese", table="raid")
    force_dice(s, {(1, 0): 4})
    r = resolved(play(s, "crt", "Allied", table="assault"))
    assert (r["table"], r["chooser"], r["attacker"]) == ("assault", "Allied", "Japanese")  # still the defender
    assert (r["attack"], r["defence"], r["column"]) == (9, 3, "300-399%")
    assert r["result"] == "DE"  # the Assault CRT's 300-399% column, a 4
    assert s.pool["Allied"].count("Recon") == in_pool + 1 and s.hand["Allied"] == []  # back to the pool


def test_14_41_without_recon_the_attacker_chooses() -> None:
    s = combat_position({"124 Inf": ("124 Inf", R[0]), "1 Raider": ("1 Raider", C)}, first="Japanese")
    declare(s, "Japanese", [C], ["124 Inf"])
    play(s, "fight", "Japanese")
    assert types(s, "Allied") == {"pass"}  # asked all the same: holding nothing is no tell
    play(s, "pass", "Allied")
    assert s.pending[0] == {"side": "Japanese", "kind": "crt", "battle": 0}


# --- 14.11-14.27: mandatory combat, declaring every battle first -----------------------------------

def _two_hexes() -> tuple[str, str, str]:
    """X = C, Y two hexes off; (Y, a hex next to both, a hex next to X only)."""
    y = next(h for h in sorted(B.terrain) if distance_between(h, C) == 2 and len(B.neighbours(h)) == 6)
    both = next(h for h in R if distance_between(h, y) == 1)
    only_x = next(h for h in R if distance_between(h, y) > 1 and distance_between(h, both) > 1)
    return y, both, only_x


def test_14_11_14_13_14_14_14_27_fight_only_once_every_obligation_is_declared() -> None:
    y, both, only_x = _two_hexes()
    s = combat_position({"124 Inf": ("124 Inf", C), "Kuma Bn": ("Kuma Bn", y),
                         "1 Mar": ("1 Mar", both), "5 Mar": ("5 Mar", only_x)})
    assert battles.unmet(s, "Allied") == (["1 Mar", "5 Mar"], sorted([C, y]))
    assert not {"fight", "end_phase"} & types(s, "Allied")
    with pytest.raises(IllegalCommandError) as err:
        play(s, "end_phase", "Allied")
    assert err.value.rule == "14.11"
    play(s, "declare", "Allied", hex=C)
    play(s, "add", "Allied", unit="5 Mar")
    assert {"hex": y} not in [c.data for c in legal(s, "Allied", "add_hex")]  # 5 Mar is not next to Y
    with pytest.raises(IllegalCommandError) as err:
        play(s, "add_hex", "Allied", hex=y)
    assert err.value.rule == "14.23"
    play(s, "close", "Allied")
    assert battles.unmet(s, "Allied") == (["1 Mar"], [y])
    assert "fight" not in types(s, "Allied")
    assert {"hex": C} not in [c.data for c in legal(s, "Allied", "declare")]  # 14.27: once a phase
    with pytest.raises(IllegalCommandError):
        play(s, "declare", "Allied", hex=C)
    play(s, "declare", "Allied", hex=y)
    assert [c.data["unit"] for c in legal(s, "Allied", "add")] == ["1 Mar"]  # 14.14: 5 Mar attacks once
    with pytest.raises(IllegalCommandError):
        play(s, "add", "Allied", unit="5 Mar")
    play(s, "add", "Allied", unit="1 Mar")
    play(s, "close", "Allied")
    assert battles.unmet(s, "Allied") == ([], [])
    assert "fight" in types(s, "Allied")


def test_14_13_14_21_a_unit_in_two_enemy_zocs_attacks_both_hexes_in_one_battle() -> None:
    y, both, _ = _two_hexes()
    s = combat_position({"124 Inf": ("124 Inf", C), "Kuma Bn": ("Kuma Bn", y), "1 Mar": ("1 Mar", both)})
    play(s, "declare", "Allied", hex=C)
    play(s, "add", "Allied", unit="1 Mar")
    assert battles.unmet(s, "Allied")[1] == [y]  # Y is still owed a battle
    assert "fight" not in types(s, "Allied")
    play(s, "add_hex", "Allied", hex=y)  # 14.21: one combined attack on both hexes
    play(s, "close", "Allied")
    assert "fight" in types(s, "Allied")
    assert s.battles[0]["defenders"] == sorted([C, y])
    r = resolved(fight_declared(s, "Allied", die=3))
    assert (r["hexes"], r["attack"], r["defence"]) == (sorted([C, y]), 6, 7)


def test_14_11_a_declaration_leaving_an_obligation_unmeetable_does_not_skip_the_combat() -> None:
    y, both, _ = _two_hexes()
    s = combat_position({"124 Inf": ("124 Inf", C), "Kuma Bn": ("Kuma Bn", y), "1 Mar": ("1 Mar", both)})
    play(s, "declare", "Allied", hex=C)
    play(s, "add", "Allied", unit="1 Mar")
    try:
        play(s, "close", "Allied")  # Y is owed a battle, and 1 Mar, the only unit next to it, is taken
    except IllegalCommandError as err:
        assert err.rule in ("14.11", "14.21")
    else:
        assert s.phase == "initial_first_combat" and s.battles


def test_14_11_no_battle_owed_against_units_without_a_zoc() -> None:
    s = combat_position({"1 Mar": ("1 Mar", R[0]), "35 HQ": ("35 HQ", C), "j1": ("Supply", C, "Japanese"),
                         "Kuma Bn": ("Kuma Bn", R[3])}, suppressed=("Kuma Bn",))
    assert battles.unmet(s, "Allied") == ([], [])  # HQ, supply and suppressed units have no ZOC
    assert "end_phase" in types(s, "Allied")
    assert {"hex": C} in [c.data for c in legal(s, "Allied", "declare")]  # attacking them is allowed


# --- 15.2, 15.21, 15.4: eliminations and pursuit -------------------------------------------------

def test_15_42_a_de_result_eliminates_the_defenders_scores_vp_and_allows_a_one_hex_pursuit() -> None:
    s = combat_position({"Kuma Bn": ("Kuma Bn", C), "1 Mar": ("1 Mar", R[0]), "5 Mar": ("5 Mar", R[1])})
    events = fight(s, "Allied", [C], ["1 Mar", "5 Mar"], die=3)
    r = resolved(events)
    assert (r["column"], r["result"], r["surrounded"]) == ("400%+", "DE", [])
    assert "Kuma Bn" not in s.pieces and s.off["Kuma Bn"].box == "replace"  # not surrounded: replaceable
    assert vp_events(events) == [("Allied", 1)] and s.vp["Allied"] == 1  # a Japanese battalion equivalent
    assert s.pending[0]["kind"] == "pursue" and s.pending[0]["side"] == "Allied"
    assert sorted((c.data["unit"], c.data["to"]) for c in legal(s, "Allied", "pursue")) == [
        ("1 Mar", C), ("5 Mar", C)]  # one hex, into the cleared hex only
    play(s, "pursue", "Allied", unit="1 Mar", to=C)
    assert [c.data for c in legal(s, "Allied", "pursue")] == [{"unit": "5 Mar", "to": C}]
    play(s, "stop", "Allied")
    assert (s.pieces["1 Mar"].hex, s.pieces["5 Mar"].hex) == (C, R[1])
    assert not s.pending


def test_24_4_the_japanese_score_two_a_us_battalion_and_five_a_us_hq() -> None:
    s = combat_position({"124 Inf": ("124 Inf", R[0]), "4 Inf": ("4 Inf", R[1]),
                         "1 Raider": ("1 Raider", C), "1 Mar Div HQ": ("1 Mar Div HQ", C)}, first="Japanese")
    events = fight(s, "Japanese", [C], ["124 Inf", "4 Inf"], die=3)  # 12 against 3: 400%+
    assert resolved(events)["result"] == "DE"
    assert sorted(vp_events(events)) == [("Japanese", 2), ("Japanese", 5)]
    assert s.vp == {"Allied": 0, "Japanese": 7}


def test_15_21_surrounded_defenders_go_to_the_permanently_eliminated_box() -> None:
    s = combat_position({"Kuma Bn": ("Kuma Bn", C), "1 Mar": ("1 Mar", R[0]), "5 Mar": ("5 Mar", R[3])})
    pieces = list(s.pieces.values())
    assert combat.surrounded(B, forces(), pieces, s.pieces["Kuma Bn"])  # every neighbour in an Allied ZOC
    r = resolved(fight(s, "Allied", [C], ["1 Mar", "5 Mar"], die=3))
    assert (r["result"], r["surrounded"]) == ("DE", ["Kuma Bn"])
    assert s.off["Kuma Bn"].box == "dead"
    assert s.vp["Allied"] == 1  # eliminated all the same (24.4)


def test_15_21_a_battalion_lost_from_a_surrounded_regiment_is_permanently_eliminated() -> None:
    s = combat_position({"124 Inf": ("124 Inf", C), "1 Mar": ("1 Mar", R[0]), "5 Mar": ("5 Mar", R[3])})
    r = resolved(fight(s, "Allied", [C], ["1 Mar", "5 Mar"], table="raid", die=4))  # 12 to 5: 200-299%, a 4: DL
    assert (r["result"], r["surrounded"]) == ("DL", ["124 Inf"])
    play(s, "break", "Japanese", unit="124 Inf")
    lost = s.pending[0]["among"][0]
    play(s, "lose", "Japanese", unit=lost)
    assert s.off[lost].box == "dead"


# --- 15.3: retreats -----------------------------------------------------------------------------

def test_15_3_the_owner_retreats_each_unit_one_at_a_time() -> None:
    s = combat_position({"j1": ("Jp Bn", C), "Kuma Bn": ("Kuma Bn", C), "1 Mar": ("1 Mar", R[0]),
                         "5 Mar": ("5 Mar", R[1])})
    r = resolved(fight(s, "Allied", [C], ["1 Mar", "5 Mar"], die=1))  # 12 to 4: 300-399%, a 1: DR1
    assert r["result"] == "DR1"
    assert s.pending[0]["kind"] == "retreat" and s.pending[0]["side"] == "Japanese"
    assert legal(s, "Allied") == []
    zoc = {R[0], R[1], *B.neighbours(R[0]), *B.neighbours(R[1])}
    moved = []
    for _ in range(2):
        options = legal(s, "Japanese", "retreat")
        (unit,) = {c.data["unit"] for c in options}  # one unit at a time (15.33.1)
        hexes = {c.data["to"] for c in options}
        assert hexes and all(distance_between(h, C) == 1 and h not in zoc for h in hexes)  # 15.33.7
        to = sorted(hexes)[0]
        play(s, "retreat", "Japanese", unit=unit, to=to)
        assert s.pieces[unit].hex == to
        moved.append(unit)
    assert sorted(moved) == ["Kuma Bn", "j1"]
    assert s.pending[0]["kind"] == "pursue"  # the hex is cleared: DR1 lets the attackers pursue


def test_15_33_a_unit_that_cannot_retreat_is_eliminated() -> None:
    n1, n2 = B.neighbours(TAIVU)
    s = combat_position({"Kuma Bn": ("Kuma Bn", TAIVU), "j1": ("Supply", TAIVU, "Japanese"),
                         "1 Mar": ("1 Mar", n1), "5 Mar": ("5 Mar", n2)})
    events = fight(s, "Allied", [TAIVU], ["1 Mar", "5 Mar"], die=1)  # 12 to 2: 400%+, a 1: DR2
    r = resolved(events)
    assert (r["column"], r["result"]) == ("400%+", "DR2")
    removed = {e.data["ids"][0]: e.data for e in events if e.type == "pieces_removed"}
    assert removed["Kuma Bn"]["why"] == "no hex to retreat to (15.33)"
    assert removed["j1"]["why"] == "supply units are eliminated if forced to retreat (15.33.9)"
    assert removed["j1"]["box"] == "mix"  # 7.8.6
    assert s.off["Kuma Bn"].box == "dead"  # on a cape held by the enemy: surrounded (15.21)
    assert not any(p.side == "Japanese" for p in s.at(TAIVU))


def test_13_8_15_33_3_a_regiment_retreating_into_an_enemy_zoc_loses_one_battalion() -> None:
    s = combat_position({"124 Inf": ("124 Inf", C), "1 Mar": ("1 Mar", R[0]), "5 Mar": ("5 Mar", R[3]),
                         "7 Mar": ("7 Mar", R[1])})
    r = resolved(fight(s, "Allied", [C], ["1 Mar", "5 Mar", "7 Mar"], die=1))  # 18 to 5: 300-399%, DR1
    assert r["result"] == "DR1"
    options = legal(s, "Japanese", "retreat")
    assert options and all(c.data["unit"] == "124 Inf" for c in options)  # every way out is in a ZOC
    to = options[0].data["to"]
    events = play(s, "retreat", "Japanese", unit="124 Inf", to=to)
    left = [p for p in s.at(to) if p.side == "Japanese"]
    assert [p.unit for p in left] == ["Jp Bn", "Jp Bn"]  # broken down, one battalion eliminated
    assert [e.data["why"] for e in events if e.type == "pieces_removed"] == ["retreated into an enemy ZOC (13.8)"]


# --- 15.5 Banzai!, Gung Ho! --------------------------------------------------------------------------

def test_15_5_banzai_turns_a_contact_into_ae_when_the_japanese_attack() -> None:
    s = combat_position({"124 Inf": ("124 Inf", R[0]), "1 Mar": ("1 Mar", C)}, first="Japanese",
                        hand={"Japanese": ["Banzai!"]})
    in_pool = s.pool["Japanese"].count("Banzai!")
    declare(s, "Japanese", [C], ["124 Inf"])
    assert {"marker": "Banzai!", "target": "0"} in [c.data for c in legal(s, "Japanese", "play")]
    play(s, "play", "Japanese", marker="Banzai!", target="0")  # before the die (15.5)
    play(s, "fight", "Japanese")
    play(s, "pass", "Allied")
    force_dice(s, {(1, 0): 1})
    events = play(s, "crt", "Japanese", table="raid")
    r = resolved(events)
    # 6 to 6 is 100-149%, Banzai! one right: 150-199%, where the Raid CRT's 1 is a C
    assert (r["base"], r["column"], r["banzai"], r["result"]) == ("100-149%", "150-199%", True, "AE")
    assert [(v, rule) for v, _, rule in r["shifts"]] == [(1, "15.5")]
    assert "124 Inf" not in s.pieces and s.off["124 Inf"].box == "replace"
    assert vp_events(events) == [("Allied", 3)]
    assert s.pool["Japanese"].count("Banzai!") == in_pool + 1  # back to the pool


def banzai_attack(unit: str) -> PBState:
    """``unit`` attacks the 1st Marines at C with Banzai! played on the battle, fought and
    passed by the Allies: the CRT is to be chosen."""
    s = combat_position({unit: (unit, R[0]), "1 Mar": ("1 Mar", C)}, first="Japanese", hand={"Japanese": ["Banzai!"]})
    declare(s, "Japanese", [C], [unit])
    play(s, "play", "Japanese", marker="Banzai!", target="0")
    play(s, "fight", "Japanese")
    play(s, "pass", "Allied")
    return s


def test_15_5_the_preview_shows_the_results_banzai_gives_and_a_raid_may_then_eliminate() -> None:
    """R-PB-15.5: the marker's text ("treat Bloodbath and Contact results as AE when Japanese
    are attacking") prevails over R-PB-CRT's "a Raid never eliminates a whole force", and the
    CRT preview both sides read shows the results as they will be applied."""
    s = banzai_attack("124 Inf")
    for side in ("Japanese", "Allied"):
        preview = RULES.view(s, side)["battle_preview"]
        assert preview["column"] == "150-199%" and preview["markers"] == ["Banzai!"]
        assert tables.RAID.lookup("150-199%", 1) == "C"  # printed ...
        assert preview["tables"]["raid"][0] == "AE"  # ... and as applied
        assert "C" not in preview["tables"]["raid"] and "BB" not in preview["tables"]["assault"]


def test_15_5_banzai_japanese_ignore_a_retreat_result() -> None:
    s = banzai_attack("Kuma Bn")
    force_dice(s, {(1, 0): 1})
    events = play(s, "crt", "Japanese", table="raid")
    r = resolved(events)
    assert (r["column"], r["result"]) == ("25-49%", "AR")  # 1 to 6 is 24%-, one right
    assert s.pieces["Kuma Bn"].hex == R[0] and not s.pending
    assert not any(e.type == "pieces_moved" for e in events)


def test_15_5_banzai_turns_a_contact_into_de_when_the_japanese_defend() -> None:
    s = combat_position({"124 Inf": ("124 Inf", C), "1 Mar": ("1 Mar", R[0])}, hand={"Japanese": ["Banzai!"]})
    r = resolved(fight(s, "Allied", [C], ["1 Mar"], table="raid", die=2, react="Banzai!"))
    # 6 to 5 is 100-149%, Banzai! one left for the Japanese defending: 75-99%, the Raid CRT's 2 is a C
    assert (r["column"], r["result"]) == ("75-99%", "DE")
    assert "124 Inf" not in s.pieces


def test_gung_ho_shifts_a_battle_with_usmc_infantry_one_column_for_the_us() -> None:
    s = combat_position({"1 Mar": ("1 Mar", R[0]), "124 Inf": ("124 Inf", C), "164 Inf": ("164 Inf", TAIVU),
                         "Kuma Bn": ("Kuma Bn", B.neighbours(TAIVU)[0])}, hand={"Allied": ["Gung Ho!"]})
    declare(s, "Allied", [C], ["1 Mar"])
    declare(s, "Allied", [B.neighbours(TAIVU)[0]], ["164 Inf"])
    plays = [c.data for c in legal(s, "Allied", "play")]
    assert plays == [{"marker": "Gung Ho!", "target": "0"}]  # not the Army's battle
    play(s, "play", "Allied", marker="Gung Ho!", target="0")
    play(s, "fight", "Allied")
    play(s, "pass", "Japanese")
    force_dice(s, {(1, 0): 3})
    r = resolved(play(s, "crt", "Allied", table="raid"))
    assert (r["base"], r["column"]) == ("100-149%", "150-199%")
    assert [(v, rule) for v, _, rule in r["shifts"]] == [(1, "Allied markers")]


def test_gung_ho_helps_the_us_defending_too() -> None:
    s = combat_position({"124 Inf": ("124 Inf", R[0]), "1 Raider": ("1 Raider", C)}, first="Japanese",
                        hand={"Allied": ["Gung Ho!"]})
    r = resolved(fight(s, "Japanese", [C], ["124 Inf"], table="raid", die=3, react="Gung Ho!"))
    assert (r["base"], r["column"]) == ("300-399%", "200-299%")  # 6 to 2, one left
    assert [(v, rule) for v, _, rule in r["shifts"]] == [(-1, "Allied markers")]


def test_21_2_15_45_a_fortified_defender_ignores_a_one_hex_retreat_and_there_is_no_pursuit() -> None:
    s = combat_position({"j1": ("Jp Bn", C), "Kuma Bn": ("Kuma Bn", C), "1 Mar": ("1 Mar", R[0]),
                         "5 Mar": ("5 Mar", R[1]), "7 Mar": ("7 Mar", R[2])}, fortified=(C,))
    events = fight(s, "Allied", [C], ["1 Mar", "5 Mar", "7 Mar"], die=2)
    r = resolved(events)
    # 18 to 4 is 400%+, the Japanese fortification two left (21.1): 200-299%, the Assault CRT's 2: DR1
    assert (r["column"], r["result"]) == ("200-299%", "DR1")
    assert [(v, rule) for v, _, rule in r["shifts"]] == [(-2, "21.1")]
    assert {p.id for p in s.at(C)} == {"j1", "Kuma Bn"} and C in s.fortified
    assert not s.pending and not any(e.type == "pieces_moved" for e in events)


# --- 15.23, 15.24: bloodbath -----------------------------------------------------------------------

def test_15_23_15_24_a_bloodbath_costs_each_side_half_its_factors_chosen_by_the_owner() -> None:
    s = combat_position({"124 Inf": ("124 Inf", C), "1 Mar": ("1 Mar", R[0])})
    events = fight(s, "Allied", [C], ["1 Mar"], die=1)  # 6 to 5: 100-149%, the Assault CRT's 1: BB
    assert resolved(events)["result"] == "BB"
    owed = s.pending
    assert [(d["side"], d["need"], d["measure"]) for d in owed] == [("Allied", 3, "attack"),
                                                                    ("Japanese", 3, "defence")]
    assert legal(s, "Japanese") == []  # the attacker's losses first; each owner chooses its own (15.2)
    # the cheapest loss first: breaking down costs one battalion (2 VP), the regiment whole six
    assert [c.type for c in legal(s, "Allied") if c.type != "undo"] == ["break", "lose"]
    play(s, "lose", "Allied", unit="1 Mar")
    assert s.vp["Japanese"] == 6  # a regiment: three US battalion equivalents
    play(s, "break", "Japanese", unit="124 Inf")  # three 1-2-10 battalions, defence 2 each
    bns = s.pending[0]["among"]
    assert len(bns) == 3 and {s.pieces[b].unit for b in bns} == {"Jp Bn"}
    play(s, "lose", "Japanese", unit=bns[0])
    assert s.pending and s.pending[0]["need"] == 1
    play(s, "lose", "Japanese", unit=bns[1])
    assert not s.pending
    assert [p.id for p in s.at(C)] == [bns[2]]  # half of six defence factors lost, one battalion stays
    assert s.vp["Allied"] == 2


def test_15_23_zero_attack_units_in_a_bloodbath_are_eliminated_in_addition() -> None:
    s = combat_position({"124 Inf": ("124 Inf", C), "1 Mar": ("1 Mar", R[0]),
                         "1 Mar Div HQ": ("1 Mar Div HQ", R[1])})  # not activated: no shift
    events = fight(s, "Allied", [C], ["1 Mar", "1 Mar Div HQ"], die=1)
    assert resolved(events)["result"] == "BB"
    assert s.off["1 Mar Div HQ"].box == "replace"
    assert ("Japanese", 5) in vp_events(events)
    assert s.pending[0]["side"] == "Allied" and s.pending[0]["among"] == ["1 Mar"]


def test_15_24_an_attacker_broken_down_loses_half_the_battalions_attack() -> None:
    s = combat_position({"124 Inf": ("124 Inf", C), "1 Mar": ("1 Mar", R[0])})
    fight(s, "Allied", [C], ["1 Mar"], die=1)
    play(s, "break", "Allied", unit="1 Mar")
    bns = s.pending[0]["among"]
    play(s, "lose", "Allied", unit=bns[0])
    play(s, "lose", "Allied", unit=bns[1])  # 2 of the 3 attack factors: at least half
    assert s.pending[0]["side"] == "Japanese"  # the Allied loss is fulfilled
    assert bns[2] in s.pieces


# --- 18.0: fog of war ------------------------------------------------------------------------------

def test_18_1_18_4_18_5_adjacent_enemy_stacks_are_examined_at_the_start_of_the_combat_phase() -> None:
    far_hq = B.neighbours(FAR_J)[0]
    s = position({"1 Mar": ("1 Mar", R[0]), "124 Inf": ("124 Inf", C), "Yano Bn": ("Yano Bn", FAR_J),
                  "17 HQ": ("17 HQ", far_hq), "2 Raider": ("2 Raider", FAR_A)},
                 phase="initial_first_movement", fortified=(FAR_J,))
    before = {st["hex"]: st for st in RULES.view(s, "Allied")["stacks"]}
    assert before[C]["units"] is None  # adjacent, but not yet the combat phase
    events = play(s, "end_phase", "Allied")
    events += play(s, "end_phase", "Allied")  # the strike phase ends by the player's word (R-PB-5.4)
    assert s.phase == "initial_first_combat"
    examined = next(e for e in events if e.type == "examined")
    assert examined.data["rule"] == "18.1" and examined.data["hexes"] == [C]
    seen = for_viewer(examined, "Japanese", SIDES)
    assert "124 Inf" not in json.dumps(seen.data)
    view = RULES.view(s, "Allied")
    stacks = {st["hex"]: st for st in view["stacks"]}
    assert [u["unit"] for u in stacks[C]["units"]] == ["124 Inf"]
    assert stacks[C]["zoc"] is True  # next to the Marines: told (18.4)
    # far from every Allied unit: whether they have a ZOC is not told (18.4); fortified, always (18.5)
    assert stacks[FAR_J] == {"hex": FAR_J, "side": "Japanese", "zoc": None, "fortified": True, "units": None}
    assert stacks[far_hq] == {"hex": far_hq, "side": "Japanese", "zoc": None, "fortified": False, "units": None}
    text = json.dumps(view)
    assert "Yano Bn" not in text and "17 HQ" not in text
    jp = {st["hex"]: st for st in RULES.view(s, "Japanese")["stacks"]}
    assert all(st["units"] is None for st in jp.values())  # not the Japanese combat phase


def test_18_4_a_suppressed_stack_is_announced_without_a_zoc() -> None:
    s = combat_position({"1 Mar": ("1 Mar", R[0]), "124 Inf": ("124 Inf", C),
                         "7 Mar": ("7 Mar", B.neighbours(FAR_J)[0])}, suppressed=("Yano Bn",))
    stacks = {st["hex"]: st for st in RULES.view(s, "Allied")["stacks"]}
    assert (stacks[FAR_J]["zoc"], stacks[FAR_J]["units"]) == (False, None)
    assert stacks[C]["zoc"] is True


def test_18_4_a_stack_has_a_zoc_or_not_only_for_a_side_next_to_it() -> None:
    """Told at the instant a unit moves next to it (18.4), not before: two positions that
    differ only in a far stack's ZOC (suppressed or not) look the same to the Allies."""
    views = []
    for suppressed in ((), ("Yano Bn",)):
        s = combat_position({"1 Mar": ("1 Mar", R[0]), "124 Inf": ("124 Inf", C)}, suppressed=suppressed)
        view = RULES.view(s, "Allied")
        assert {st["hex"]: st["zoc"] for st in view["stacks"]} == {C: True, FAR_J: None}
        views.append(view)
    assert views[0]["stacks"] == views[1]["stacks"]
    spectator = {st["hex"]: st["zoc"] for st in RULES.view(s, None)["stacks"]}
    assert spectator[C] is True and spectator[FAR_J] is None and spectator[FAR_A] is None


# --- 24.0, 25.3: the end of the turn ----------------------------------------------------------------

def end_of_turn(s: PBState) -> Emitter:
    em = Emitter(RULES, s)
    flow.end_of_turn(em)
    return em


def test_24_1_an_activated_henderson_field_is_worth_5_and_each_japanese_objective_1() -> None:
    o = B.objectives
    s = position({"1 Eng": ("1 Eng", HF), "Kuma Bn": ("Kuma Bn", o[0]), "Jp Bn": ("Jp Bn", o[1]),
                  "j1": ("Supply", o[2], "Japanese"), "1 Mar": ("1 Mar", o[3])}, phase="victory", turn=3)
    em = end_of_turn(s)
    assert sorted(vp_events(em.events)) == [("Allied", 5), ("Japanese", 2)]  # supply alone holds nothing
    assert em.state.vp == {"Allied": 5, "Japanese": 2} and em.state.result is None


def test_26_1_no_henderson_vp_in_august_nor_with_a_suppressed_engineer() -> None:
    assert vp_events(end_of_turn(position({"1 Eng": ("1 Eng", HF)}, phase="victory", turn=1)).events) == []
    s = position({"1 Eng": ("1 Eng", HF), "1 Mar": ("1 Mar", HF)}, phase="victory", turn=3, suppressed=("1 Eng",))
    assert vp_events(end_of_turn(s).events) == []
    s = position({"11+13 Eng": ("11+13 Eng", HF)}, phase="victory", turn=3)
    assert vp_events(end_of_turn(s).events) == [("Japanese", 5)]


def test_25_3_sudden_death_with_henderson_field_and_every_objective() -> None:
    pieces = {f"a{i}": ("USMC Bn", h) for i, h in enumerate(B.objectives)}
    s = position({"1 Eng": ("1 Eng", HF), **pieces}, phase="victory", turn=3)
    em = end_of_turn(s)
    assert em.state.result["winner"] == "Allied" and em.state.result["level"] == "Sudden Death Victory"
    assert "25.3" in em.state.result["reason"]
    pieces = {f"j{i}": ("Jp Bn", h) for i, h in enumerate(B.objectives)}
    s = position({"11+13 Eng": ("11+13 Eng", HF), **pieces}, phase="victory", turn=3)
    assert end_of_turn(s).state.result["winner"] == "Japanese"
    pieces.pop("j0")
    s = position({"11+13 Eng": ("11+13 Eng", HF), **pieces}, phase="victory", turn=3)
    assert end_of_turn(s).state.result is None  # one objective short


def test_24_2_the_last_turn_ends_the_game_with_the_level_of_victory() -> None:
    s = position({"1 Eng": ("1 Eng", HF), "Kuma Bn": ("Kuma Bn", FAR_J)}, phase="follow_second_combat",
                 turn=7, first="Allied")
    assert s.last_turn == 7
    s.vp = {"Allied": 21, "Japanese": 10}
    events = play(s, "end_phase", "Japanese")
    assert vp_events(events) == [("Allied", 5)]
    assert (s.result["winner"], s.result["level"]) == ("Allied", "Marginal Victory")  # a margin of 16
    assert "Allied 26 VP, Japanese 10 VP (24.2)" in s.result["reason"]
    assert RULES.prompt(s).kind == "game_over" and legal(s) == []


def test_24_2_a_margin_of_fifteen_or_less_is_a_draw() -> None:
    s = position({"Kuma Bn": ("Kuma Bn", FAR_J)}, phase="victory", turn=7)
    s.vp = {"Allied": 10, "Japanese": 25}
    em = end_of_turn(s)
    assert (em.state.result["winner"], em.state.result["level"]) == ("draw", "Draw")


# --- the leak checker ------------------------------------------------------------------------------

def test_the_leak_checker_finds_a_planted_unexamined_unit_name_as_a_whole_word() -> None:
    s = position({"1 Mar": ("1 Mar", HF), "4 Inf": ("4 Inf", FAR_J)}, phase="initial_first_movement")
    needles = leaks.hidden_things(s, "Allied")
    assert "4 Inf" in needles and "24 Inf" not in needles and "1 Mar" not in needles
    view = RULES.view(s, "Allied")
    assert leaks.find(needles, json.dumps(view)) == []  # the real view leaks nothing
    planted = {**view, "note": "the 4 Inf regiment is there"}
    assert leaks.find(needles, json.dumps(planted)) == ["4 Inf"]
    assert leaks.find(needles, json.dumps({**view, "note": "the 24 Inf regiment"})) == []
    theirs = leaks.hidden_things(s, "Japanese")
    assert "1 Mar" in theirs and "4 Inf" not in theirs  # the other way round for the Japanese


def _assault_position(die: int, table: str):
    b = B
    target = next(h for h in sorted(b.coastal) if any(n in b.sea for n in neighbor_ids(h))
                  and b.terrain[h] in ("clear", "cultivated"))
    start = next(h for h in sorted(b.coastal) if distance_between(h, target) > 6)
    s = position({"1 LVT": ("1 LVT", start), "1 Mar": ("1 Mar", start), "Kuma Bn": ("Kuma Bn", target)},
                 phase="initial_first_movement")
    assert {"carrier": "1 LVT", "target": target} in [c.data for c in legal(s, "Allied", "assault")]
    play(s, "assault", "Allied", carrier="1 LVT", target=target)
    sea = s.pieces["1 Mar"].hex
    assert sea in B.sea and s.pieces["1 LVT"].hex == sea and s.assaults == {"1 LVT": target, "1 Mar": target}
    assert s.phase == "initial_first_strike"  # nothing else could move: the movement phase ended by itself
    play(s, "end_phase", "Allied")
    assert s.phase == "initial_first_combat"
    with pytest.raises(IllegalCommandError):
        play(s, "end_phase", "Allied")  # 22.3: the assault must be fought
    play(s, "declare", "Allied", hex=target)
    play(s, "add", "Allied", unit="1 Mar")
    play(s, "add", "Allied", unit="1 LVT")
    play(s, "close", "Allied")
    play(s, "fight", "Allied")
    play(s, "pass", "Japanese")
    force_die(s, die)
    play(s, "crt", "Allied", table=table)
    return s, target


def test_22_3_an_assault_from_the_sea_lands_when_it_clears_the_hex() -> None:
    s, target = _assault_position(6, "assault")  # 6 against 2: DE, pursuit allowed
    while s.pending and s.pending[0]["kind"] == "pursue":
        play(s, "stop", "Allied")
    assert s.pieces["1 Mar"].hex == target and s.pieces["1 LVT"].hex == target and not s.assaults


def test_22_3_an_assault_from_the_sea_that_does_not_clear_the_hex_is_eliminated() -> None:
    s, target = _assault_position(1, "raid")  # a raid never clears the hex
    while s.pending:
        d = s.pending[0]
        c = legal(s, d["side"])[0]
        play(s, c.type, d["side"], **c.data)
    assert "1 Mar" not in s.pieces and "1 LVT" not in s.pieces
    assert s.off["1 Mar"].box in ("replace", "dead") and s.vp["Japanese"] >= 6  # 3 battalions x 2 VP (24.4)


def test_14_3_both_sides_see_the_battle_to_fight_with_every_shift_and_both_tables() -> None:
    s = position({"1 Mar": ("1 Mar", HF), "124 Inf": ("124 Inf", B.neighbours(HF)[0])}, phase="initial_first_combat")
    play(s, "declare", "Allied", hex=B.neighbours(HF)[0])
    play(s, "add", "Allied", unit="1 Mar")
    play(s, "close", "Allied")
    assert RULES.view(s, "Japanese")["battle_preview"] is None
    play(s, "fight", "Allied")
    play(s, "pass", "Japanese")
    for side in ("Allied", "Japanese", None):
        p = RULES.view(s, side)["battle_preview"]
        assert (p["attack"], p["defence"], p["chooser"]) == (6, 5, "Allied")
        assert set(p["tables"]) == {"raid", "assault"} and all(len(r) == 6 for r in p["tables"].values())
        assert p["column"] == battles.assess(s, s.battles[0])[0].column


def test_12_2_a_hex_over_the_stacking_limit_is_found_for_its_side_only() -> None:
    s = combat_position({"1 Mar": ("1 Mar", R[0]), "124 Inf": ("124 Inf", C), "4 Inf": ("4 Inf", C),
                         "Kuma Bn": ("Kuma Bn", C)})
    assert queries.stack_of(s, C, "Japanese") == 7 > queries.STACK_LIMIT  # two regiments and a battalion
    assert queries.overstacked(s, "Japanese") == [C]
    assert queries.overstacked(s, "Allied") == []
    under = combat_position({"1 Mar": ("1 Mar", R[0]), "124 Inf": ("124 Inf", C), "Kuma Bn": ("Kuma Bn", C)})
    assert queries.overstacked(under, "Japanese") == []


def test_15_35_units_that_retreated_into_a_hex_they_overstack_add_nothing_to_its_defence() -> None:
    s = combat_position({"1 Mar": ("1 Mar", R[0]), "124 Inf": ("124 Inf", C), "4 Inf": ("4 Inf", C),
                         "Kuma Bn": ("Kuma Bn", C)})
    defenders = s.at(C)
    assert sum(queries.battalions(p.unit) for p in defenders) == 7  # two regiments and a battalion (12.1: six)
    assert sum(queries.battalions(p.unit) for p in battles.counted(s, defenders)) <= 6  # 12.5.3
    s.retreated.add("Kuma Bn")  # it retreated here this phase (15.35)
    assert {p.id for p in battles.counted(s, defenders)} == {"124 Inf", "4 Inf"}
    alone = combat_position({"1 Mar": ("1 Mar", R[0]), "124 Inf": ("124 Inf", C), "Kuma Bn": ("Kuma Bn", C)})
    alone.retreated.add("Kuma Bn")  # not over-stacking: it defends normally
    assert {p.id for p in battles.counted(alone, alone.at(C))} == {"124 Inf", "Kuma Bn"}


def test_15_35_a_retreat_is_remembered_until_the_phase_ends() -> None:
    s = combat_position({"1 Mar": ("1 Mar", R[0]), "124 Inf": ("124 Inf", C)})
    RULES.apply(s, Event("pieces_moved", {"ids": ["124 Inf"], "to": R[1], "counts": False, "retreat": True,
                                          "unit": "124 Inf", "from": C}, "Japanese"))
    assert s.retreated == {"124 Inf"} and s.pieces["124 Inf"].hex == R[1]
    assert RULES.state_from_json(RULES.state_to_json(s)).retreated == {"124 Inf"}  # snapshots keep it
    RULES.apply(s, Event("phase_began", {"phase": "initial_second_movement", "turn": s.turn}, None))
    assert s.retreated == set()


def test_18_4_a_retreat_is_reckoned_with_the_zocs_its_owner_was_told() -> None:
    """R-PB-18.4: an enemy stack the retreating side was not told of counts as having a ZOC,
    so its retreats are the same whether the stack has one or not."""
    ring2 = sorted(h for h in B.terrain if distance_between(h, C) == 3 and distance_between(h, R[3]) == 2)
    listed = {}
    for stack in ("1 Mar Div HQ", "7 Mar"):
        s = combat_position({"Kuma Bn": ("Kuma Bn", C), "1 Mar": ("1 Mar", R[0]), "5 Mar": ("5 Mar", R[1]),
                             "x": (stack, ring2[0])})
        resolved(fight(s, "Allied", [C], ["1 Mar", "5 Mar"], die=1))
        listed[stack] = sorted(json.dumps(c.to_json(), sort_keys=True) for c in legal(s, "Japanese", "retreat"))
    assert listed["1 Mar Div HQ"] == listed["7 Mar"] and listed["7 Mar"]


def test_14_11_a_hex_left_unattackable_by_a_declared_battle_is_named_with_the_way_out() -> None:
    """No dead end: the 1st Marines, next to two Japanese stacks, are declared against one;
    the other must still be attacked and nobody free can: the prompt names it and the way
    out (take the battle out again, declare it with both hexes, 14.22), which works."""
    s = combat_position({"1 Mar": ("1 Mar", C), "Kuma Bn": ("Kuma Bn", R[0]), "124 Inf": ("124 Inf", R[1])})
    declare(s, "Allied", [R[0]], ["1 Mar"])
    text = RULES.prompt(s).text
    assert f"{R[1]} must be attacked" in text and "take one out again" in text and "14.22" in text
    assert "end_phase" not in types(s, "Allied") and "fight" not in types(s, "Allied")
    play(s, "withdraw", "Allied", battle=0)
    declare(s, "Allied", [R[0], R[1]], ["1 Mar"])
    assert "still owed" not in RULES.prompt(s).text and "fight" in types(s, "Allied")


def test_15_32_the_rout_die_is_told_to_the_routed_side_alone():
    """A DRT: each defending unit's rout die (15.32) is the routed side's log line, so its
    player sees why the retreat hexes offered are that far; the attacker reads nothing of
    it (the unit's id is the defender's secret, R-PB-18.0)."""
    from engine.games.pacific_battles.describe import describe
    s = combat_position({"124 Inf": ("124 Inf", C), "1 Mar": ("1 Mar", R[0])})
    events = fight(s, "Allied", [C], ["1 Mar"], table="assault", die=6)
    assert next(e for e in events if e.type == "battle_resolved").data["result"] == "DRT"
    [rolled] = [e for e in events if e.type == "decision_progress" and "rout" in e.data]
    die = rolled.data["rout"]
    assert describe(s, rolled) == (f"124 Inf routs: die {die}, so many hexes of retreat (15.32; one from a "
                                   "fortification, 21.2)")
    seen = for_viewer(rolled, "Allied", SIDES)
    assert seen is not None and "rout" not in seen.data and describe(s, seen) is None


def test_14_11_a_battle_is_not_closed_on_a_unit_that_could_attack_only_in_it() -> None:
    """124 Inf and Kuma Bn are both in the ZOC of 1 Raider, the only enemy next to either:
    a battle on its hex closed with 124 Inf alone would leave Kuma Bn owing an attack it
    could make nowhere (14.27).  Closing waits until Kuma Bn is in, and says why."""
    s = combat_position({"124 Inf": ("124 Inf", R[0]), "Kuma Bn": ("Kuma Bn", R[1]), "1 Raider": ("1 Raider", C)},
                        first="Japanese")
    play(s, "declare", "Japanese", hex=C)
    play(s, "add", "Japanese", unit="124 Inf")
    assert "close" not in {c.type for c in legal(s, "Japanese")}
    with pytest.raises(IllegalCommandError) as refused:
        play(s, "close", "Japanese")
    assert refused.value.rule == "14.11" and "Kuma Bn" in str(refused.value) and "add it first" in str(refused.value)
    play(s, "add", "Japanese", unit="Kuma Bn")
    assert "close" in {c.type for c in legal(s, "Japanese")}
    play(s, "close", "Japanese")
    assert battles.end_refusal(s, "Japanese") is None  # every obligation met: the battles may be fought
