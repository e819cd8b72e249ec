"""The reconstructed orders of battle (data/oob.toml) against the rulebook's facts."""

from __future__ import annotations

import tomllib
from collections import Counter

import pytest

from engine.games.first_blood.oob import (
    ARTILLERY_TYPES,
    DATA,
    TURNS,
    load_oob,
    parse_oob,
    turn_number,
)

OCT_III = turn_number("Oct III")  # 6
HENDERSON_CAPACITY = 2 * 6  # §11: six USAF units per operational air strip hex, two at start


@pytest.fixture(scope="module")
def raw() -> dict:
    with open(DATA / "oob.toml", "rb") as fh:
        return tomllib.load(fh)


@pytest.fixture(scope="module")
def oob():
    return load_oob()


def units(oob, side=None, kind=None, arrives=None):
    return [u for u in oob.values()
            if (side is None or u.side == side) and (kind is None or u.kind == kind)
            and (arrives is None or u.arrives == arrives)]


def by_name(oob, side, name):
    (found,) = [u for u in oob.values() if u.side == side and u.name == name]
    return found


# --- the file as a whole --------------------------------------------------------------------

def test_file_loads_and_says_it_is_a_reconstruction(raw, oob):
    assert raw["meta"]["reconstruction"] is True
    assert "reconstructed" in raw["meta"]["note"]
    assert len(oob) == len(raw["unit"]) == 140


def test_ids_are_unique_lowercase_and_prefixed_by_side(raw):
    ids = [u["id"] for u in raw["unit"]]
    assert len(ids) == len(set(ids))
    for u in raw["unit"]:
        assert u["id"] == u["id"].lower()
        assert u["id"].startswith({"US": "us-", "IJ": "ij-"}[u["side"]])


def test_names_are_unique_within_a_side(oob):
    for side in ("US", "IJ"):
        names = Counter(u.name for u in units(oob, side))
        assert [n for n, c in names.items() if c > 1] == []


def test_every_unit_has_a_historical_note(oob):
    assert [u.id for u in oob.values() if not u.note] == []


def test_counts_per_side_and_kind(oob):
    counts = Counter((u.side, u.kind) for u in oob.values())
    assert counts == {
        ("US", "ground"): 45, ("US", "fighter"): 10, ("US", "bomber"): 10,
        ("US", "fighter_bomber"): 2,
        ("IJ", "ground"): 21, ("IJ", "fighter"): 16, ("IJ", "bomber"): 10,
        ("IJ", "destroyer"): 26,
    }


# --- US --------------------------------------------------------------------------------------

US_AT_START = (  # guadalcanal-history.md part D; names are regiment/battalion (§2.2)
    "1/1", "1/2", "1/3", "5/1", "5/2", "5/3", "1 Raider", "1 Para",
    "11/2", "11/3", "11/4", "11/5", "1 Eng", "1 Pioneer", "1 Tank", "1 SW", "3 Def", "1 Amtrac",
)


def test_the_1st_marine_division_is_all_at_start(oob):
    at_start = {u.name for u in units(oob, "US", "ground", arrives=0)}
    assert at_start == set(US_AT_START)


@pytest.mark.parametrize(("names", "turn"), [
    (("6 NCB",), "Sep I"),
    (("2/3", "7/1", "7/2", "7/3", "11/1"), "Sep II"),
    (("164/1", "164/2", "164/3"), "Oct II"),
    (("2/1", "2/2"), "Oct III"),
    (("8/1", "8/2", "8/3", "10/1"), "Nov I"),
    (("182/1", "182/2", "246 FA"), "Nov II"),
    (("132/1", "132/3"), "Dec I"),
    (("35/1", "35/2"), "Dec II"),
    (("27/1", "27/3", "161/1", "6/1", "6/2"), "Jan I"),
])
def test_us_ground_reinforcements_arrive_on_their_historical_turn(oob, names, turn):
    assert {u.name for u in units(oob, "US", "ground", arrives=turn_number(turn))} == set(names)


def test_at_least_two_us_engineers_at_start(oob):
    engineers = [u for u in units(oob, "US", "ground", arrives=0) if u.type == "engineer"]
    assert len(engineers) >= 2  # §10: someone must be able to repair Henderson


def test_us_infantry_and_marines_have_cf_5(oob):
    foot = [u for u in units(oob, "US", "ground") if u.type in ("infantry", "marines")]
    assert len(foot) == 29  # 17 Marine and 12 Army battalions
    assert {u.cf for u in foot} == {5}  # Figure 7
    assert {u.mf for u in foot if u.type == "marines"} == {6}
    assert {u.mf for u in foot if u.type == "infantry"} == {5}


def test_us_artillery_factors(oob):
    pack = [u for u in units(oob, "US", "ground") if u.type == "mountain_artillery"]
    heavy = [u for u in units(oob, "US", "ground") if u.type == "artillery"]
    assert {(u.cf, u.mf, u.range) for u in pack} == {(3, 4, 5)}  # 75 mm pack howitzers
    assert {(u.cf, u.mf, u.range) for u in heavy} == {(4, 3, 6)}  # 105 mm howitzers
    assert len(pack) == 4 and len(heavy) == 3


def test_usaf_at_start_fits_henderson_and_has_fighters_and_bombers(oob):
    air = [u for u in units(oob, "US", arrives=0) if u.kind != "ground"]
    assert len(air) == 7 <= HENDERSON_CAPACITY
    assert Counter(u.kind for u in air) == {"fighter": 4, "bomber": 3}


def test_usaf_reinforcements_come_in_sep_to_dec(oob):
    turns = {u.arrives for u in oob.values() if u.side == "US" and u.kind != "ground"}
    assert turns == {0, 2, 3, 4, 5, 7, 8, 9, 10}
    for t in turns - {0}:
        assert 1 <= len([u for u in units(oob, "US", arrives=t) if u.kind != "ground"]) <= 3


# --- IJ --------------------------------------------------------------------------------------

def test_228_1_and_228_3_arrive_in_oct_iii_with_8_mf(oob):
    for name in ("228/1", "228/3"):
        u = by_name(oob, "IJ", name)
        assert (u.kind, u.type, u.arrives, u.mf, u.cf) == ("ground", "infantry", OCT_III, 8, 4)
    assert OCT_III == 6  # §5.1, Figure 3


def test_ij_infantry_is_4_cf_8_mf(oob):
    infantry = [u for u in units(oob, "IJ", "ground") if u.type == "infantry"]
    assert len(infantry) == 16
    assert {(u.cf, u.mf) for u in infantry} == {(4, 8)}


def test_ij_artillery_has_6_mf_and_a_range(oob):
    guns = [u for u in units(oob, "IJ", "ground") if u.type in ARTILLERY_TYPES]
    assert {u.name: (u.mf, u.range) for u in guns} == {"2 Mtn": (6, 5), "4 Hvy": (6, 8)}
    assert all(u.range >= 2 and u.is_artillery for u in guns)


def test_only_artillery_has_a_range(oob):
    assert [u.id for u in oob.values() if u.range and u.type not in ARTILLERY_TYPES] == []
    assert [u.id for u in oob.values() if u.type in ARTILLERY_TYPES and u.range < 2] == []


def test_ij_starts_with_ground_units_only(oob):
    at_start = units(oob, "IJ", arrives=0)
    assert {u.kind for u in at_start} == {"ground"}  # no IJN or IJAAF at start
    assert {u.name for u in at_start} == {"Kuma", "124/1", "124/3", "4/2", "3 Kure"}


def test_ij_ground_reinforcements_stop_after_oct_iii(oob):
    turns = {u.arrives for u in units(oob, "IJ", "ground")} - {0}
    assert turns == {1, 2, 3, 4, 5, 6}  # Sep I .. Oct III, every turn
    assert len(turns) >= 6
    assert max(turns) == OCT_III  # §12: no IJ ground reinforcements after Oct III


def test_ij_has_a_destroyer_every_turn(oob):
    per_turn = Counter(u.arrives for u in units(oob, "IJ", "destroyer"))
    assert set(per_turn) == set(range(1, len(TURNS) + 1))
    assert max(per_turn.values()) == per_turn[turn_number("Oct II")] == 4  # 13-14 Oct


def test_ij_air_peaks_in_october_and_fades(oob):
    air = Counter(u.arrives for u in oob.values() if u.side == "IJ" and u.kind in ("fighter", "bomber"))
    assert air[turn_number("Oct II")] == 5
    assert sum(air[t] for t in range(1, turn_number("Dec I") + 1)) == 24
    assert sum(air[t] for t in range(turn_number("Dec I") + 1, len(TURNS) + 1)) == 2


# --- the loader rejects bad data ---------------------------------------------------------------

GOOD = {"id": "us-x", "side": "US", "name": "X", "kind": "ground", "type": "marines",
        "cf": 5, "mf": 6, "arrives": "start"}


def test_parse_oob_accepts_a_good_unit():
    (u,) = parse_oob({"unit": [GOOD]}).values()
    assert (u.id, u.cf, u.mf, u.range, u.arrives) == ("us-x", 5, 6, 0, 0)


@pytest.mark.parametrize(("bad", "why"), [
    ([{"id": "us-f", "side": "US", "name": "F", "kind": "fighter", "cf": 2, "arrives": "start"}],
     "no CF"),
    ([GOOD, dict(GOOD, name="Y")], "duplicate"),
    ([dict(GOOD, arrives="Feb I")], "unknown turn"),
    ([dict(GOOD, arrives="Sep IV")], "unknown turn"),
    ([{"id": "ij-dd", "side": "IJ", "name": "DD", "kind": "destroyer", "arrives": "start"}],
     "no naval or air units at start"),
    ([{"id": "ij-f", "side": "IJ", "name": "F", "kind": "fighter", "arrives": "start"}],
     "no naval or air units at start"),
    ([{"id": "us-dd", "side": "US", "name": "DD", "kind": "destroyer", "arrives": "Sep I"}],
     "cannot have kind"),
    ([{"id": "ij-fb", "side": "IJ", "name": "FB", "kind": "fighter_bomber", "arrives": "Sep I"}],
     "cannot have kind"),
    ([dict(GOOD, type="cavalry")], "unknown ground type"),
    ([dict(GOOD, cf=0)], "CF and MF"),
    ([dict(GOOD, range=4)], "only artillery"),  # marines have no range
    ([dict(GOOD, type="artillery", range=1)], "range 1"),
])
def test_parse_oob_rejects_bad_units(bad, why):
    with pytest.raises(ValueError, match=why):
        parse_oob({"unit": bad})
