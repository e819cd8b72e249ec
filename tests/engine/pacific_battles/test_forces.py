"""The forces of Guadalcanal (engine/games/pacific_battles/forces.py, data/forces.toml):
what the rulebook prints holds, and the reconstructed US chart follows the landings."""

from __future__ import annotations

from engine.games.pacific_battles.forces import DATA, load_forces

F = load_forces()


def names(group: str) -> set[str]:
    return {u.name for u in F.of_group(group)}


def test_the_file_says_what_it_reconstructs() -> None:
    assert DATA.read_text().startswith("# RECONSTRUCTION")
    assert all(g.source for g in F.groups.values())
    assert all("[designed]" in g.source for g in F.groups.values() if g.side == "Allied")


def test_25_4_and_25_5_initial_forces_air_and_markers() -> None:
    assert names("start") == {"11+13 Eng", "3 K SNLF (-)", "81 Inf"}
    assert {u.kind for u in F.of_group("start")} >= {"engineer"}
    assert F.air["start"] == {"Japanese": 8, "Allied": 5}
    assert F.hand("Japanese") == ["Banzai!"] and "Banzai!" in F.pool("Japanese")  # one held, the rest in the pool
    assert F.hand("Allied") == []


def test_the_japanese_reinforcement_chart_as_printed() -> None:
    assert names("Ichiki Detachment") == {"28 Inf", "5 Y SNLF"}
    assert names("35th Brigade") == {"35 HQ", "124 Inf", "Kuma Bn", "1 Armor", "38 AA", "45 AA"}
    assert names("2nd Infantry Division") == {"2 HQ", "4 Inf", "16 Inf", "24 Inf"}
    assert names("Operation KA-GO") == {"17 HQ", "38 HQ", "228 Inf", "229 Inf", "230 Inf", "SE Amph", "39 Eng",
                                        "4 M SNLF", "IJN Bn"}
    assert names("Operation KE") == {"Yano Bn"}
    assert names("Optional units") == {"6 HQ", "21 HQ", "13 Inf", "23 Inf", "45 Inf", "170 Inf", "61 Recon",
                                       "8 Armor"}
    assert F.groups["Optional units"].vp_each == 2  # 25.6d
    assert (F.groups["Ichiki Detachment"].turn, F.groups["35th Brigade"].turn, F.groups["2nd Infantry Division"].turn) \
        == (1, 1, 2)
    assert F.groups["Operation KA-GO"].marker == "Operation KA-GO"
    assert F.groups["Operation KE"].marker == "Operation KE"
    assert (F.air["routine"]["Japanese"], F.air["henderson"]["Japanese"], F.air["supply"]["Japanese"]) == (2, 1, 3)


def test_26_6_the_first_echelons_are_not_interdicted() -> None:
    assert not F.groups["Ichiki Detachment"].interdiction and not F.groups["USMC 1st Echelon"].interdiction
    exempt = ("Ichiki Detachment", "USMC 1st Echelon", "start")
    assert all(g.interdiction for n, g in F.groups.items() if n not in exempt)


def test_26_7_breakdowns() -> None:
    for u in F.units.values():
        if u.side == "Japanese" and u.kind == "infantry" and u.size == "III":
            expected = 2 if (u.attack, u.defence) == (3, 3) else 3
            assert (u.attack, u.defence, u.movement) in ((6, 5, 10), (5, 5, 10), (3, 3, 10)), u.name
            assert u.breaks == ("Jp Bn", expected), u.name
        if u.side == "Allied" and u.kind == "infantry" and u.size == "III":
            assert (u.attack, u.defence, u.movement) == ((6, 6, 8) if u.corps == "USMC" else (4, 5, 8)), u.name
            assert u.breaks == ("USMC Bn" if u.corps == "USMC" else "Army Bn", 3), u.name
    assert [(b.attack, b.defence, b.movement) for b in F.battalion.values()] == [(1, 2, 10), (1, 2, 8), (1, 2, 8)]
    assert F.battalion["USMC Bn"].corps != F.battalion["Army Bn"].corps  # "may not be combined"


def test_the_us_chart_follows_the_historical_landings() -> None:
    turn = {n: F.groups[F.units[n].group].turn for n in F.units if F.units[n].side == "Allied"}
    assert turn["1 Mar"] == turn["5 Mar"] == 1  # August: the 1st Marine Division
    assert turn["7 Mar"] == 2  # September
    assert turn["164 Inf"] == 3  # 13 October
    assert turn["8 Mar"] == turn["182 Inf"] == 4  # November
    assert turn["132 Inf"] == 5 and turn["6 Mar"] == 6  # December, January
    assert F.groups["USMC Relief"].marker == "USMC Relief" and names("USMC Relief") >= {"27 Inf", "35 Inf", "161 Inf"}
    assert F.groups["14th Corps"].marker == "14th Corps" and names("14th Corps") == {"14 Corps HQ"}


def test_13_5_who_infiltrates() -> None:
    assert F.units["124 Inf"].infiltrates and F.units["Kuma Bn"].infiltrates and F.units["1 Raider"].infiltrates
    assert not F.units["1 Mar"].infiltrates and not F.units["1 Armor"].infiltrates


def test_every_marker_of_the_explanations_is_in_a_pool() -> None:
    jp = {"Banzai!", "Battle of Santa Cruz Islands", "Dig In", "Disease", "Ironbottom Sound", "New Guinea Diversion",
          "Night Bombing Tactics", "Operation KA-GO", "Operation KE", "Recon", "Staff Planning", "The Bombardment",
          "Tokyo Express", "Weather"}
    us = {"14th Corps", "Battle of Eastern Solomons", "Cactus Air Force", "Destroyer Support", "Disease",
          "Fire Coordination", "Gung Ho!", "MAGIC", "Naval Battle of Guadalcanal", "Recon", "Staff Planning",
          "USMC Relief", "Weather"}
    assert set(F.markers["Japanese"]) == jp and set(F.markers["Allied"]) == us
    assert F.scenarios["short"]["last"] == 4 and F.scenarios["historical"]["last"] == 7  # Nov 1942, Feb 1943
