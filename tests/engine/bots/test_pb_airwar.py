"""The search level's model of a turn's air war (engine/bots/pacific_battles/airwar.py) and
the air allocation it makes with it (16.3): from the public tables, the Reserves and the
stacks its view shows, never the enemy's sealed split."""

from __future__ import annotations

import json
from dataclasses import replace

import bot_support
import pytest

from engine.bots import make_bot
from engine.bots.pacific_battles import airwar
from engine.bots.pacific_battles.search import PacificBattlesSearch
from engine.bots.rng import Chooser
from engine.core.dice import derive_secret
from engine.games import get_rules
from engine.games.pacific_battles import air, tables

RULES = get_rules("pacific_battles")


def test_the_fire_follows_the_air_superiority_table_and_16_52s_examples():
    six = dict((hits, p) for p, hits in airwar._fire(6))
    assert six[(3, 3)] == pytest.approx(1 / 6)  # six points rolling a 6: three and three (16.52's example)
    assert sum(six.values()) == pytest.approx(1)
    two = dict((hits, p) for p, hits in airwar._fire(2))
    assert two[(1, 1)] == pytest.approx(2 / 6)  # two points rolling a 5 (16.52's example) or a 6
    nine = dict((hits, p) for p, hits in airwar._fire(9))  # 30.0: eight fire as one, the ninth apart
    assert nine[(4 + 1, 3)] == pytest.approx(1 / 6)


def test_an_air_point_lost_scores_the_enemy_its_vp():
    """Even forces, no strikes: the Allies score 2 VP a Japanese air point, the Japanese 1 an
    Allied one, so the same fire is worth more to the Allies, and one side's gain is the
    other's loss."""
    even = {"superiority": 4, "strike": 0}
    allied = airwar.exchange("Allied", "Japanese", even, even, (0, 0))
    assert allied > 0
    assert airwar.exchange("Japanese", "Allied", even, even, (0, 0)) == pytest.approx(-allied)
    assert airwar.exchange("Allied", "Japanese", {"superiority": 0}, {"superiority": 0}, (3, 3)) == 0


def test_strikes_are_worth_nothing_without_a_target_and_at_most_the_hex_limit_each():
    assert airwar.strike_worth(5, 0, 2) == 0
    assert airwar.strike_worth(5, 1, 2) > max(0.0, airwar.strike_worth(2, 1, 2))  # (two points: more AA than hits)
    assert airwar.strike_worth(9, 1, 2) == airwar.strike_worth(tables.AIR_STRIKE_LIMIT, 1, 2)  # 26.4
    assert airwar.strike_worth(9, 2, 2) > airwar.strike_worth(5, 2, 2)


def test_the_excess_over_the_enemys_superiority_fires_at_its_strikes():
    """16.52.2: four points against none meet no enemy fighter and thin the enemy's strikes,
    which are worth less to it then; against four they meet the fighters."""
    theirs = {"superiority": 0, "strike": 5}
    hunted = airwar.exchange("Allied", "Japanese", {"superiority": 4, "strike": 0}, theirs, (0, 1))
    idle = airwar.exchange("Allied", "Japanese", {"superiority": 0, "strike": 0}, theirs, (0, 1))
    assert hunted > idle


def test_the_splits_keep_recon_and_interdiction_and_every_point():
    drawn = {"superiority": 2, "strike": 3, "recon": 1, "interdiction": 2}
    got = airwar.splits(drawn)
    assert [s["superiority"] for s in got] == [0, 1, 2, 3, 4, 5]
    assert all(s["recon"] == 1 and s["interdiction"] == 2 and sum(s.values()) == 8 for s in got)


@pytest.fixture(scope="module")
def allocations():
    events = RULES.create("campaign", {}, derive_secret(5, "pb-airwar"))
    bots = {s: make_bot("pacific_battles", "greedy") for s in RULES.sides}
    return [inp for side in RULES.sides for inp, _ in bot_support.recorded_inputs(
        RULES, events, bots, side, 1200, lambda inp: any(c.type == "allocate" for c in inp.legal))]


def test_the_search_levels_allocation_is_legal_and_a_function_of_its_input(allocations):
    assert len(allocations) >= 4
    for inp in allocations:
        reserve = inp.view["sides"][inp.side]["air"]["reserve"]
        first = PacificBattlesSearch().decide(inp)
        assert first.command.type == "allocate" and sum(first.command.data.values()) == reserve
        air.check_allocation(reserve, first.command.data)
        again = PacificBattlesSearch().decide(replace(inp, seconds=0.0))  # time plays no part
        assert again.command == first.command and again.notes == first.notes
        assert len(first.notes["worth"]) == first.command.data["superiority"] + first.command.data["strike"] + 1


def test_the_dice_secret_changes_none_of_its_allocations(allocations):
    for inp in allocations:
        decided = PacificBattlesSearch().decide(inp)
        again = PacificBattlesSearch().decide(bot_support.with_secret(inp, "another secret"))
        assert again.command == decided.command and again.notes == decided.notes


def test_it_is_a_mixed_strategy_of_its_seed(allocations):
    """Where several splits are near the best, the seed draws among them, so the enemy
    cannot read the allocation from the position."""
    picks = {json.dumps(PacificBattlesSearch().decide(replace(inp, seed=f"s{n}")).command.data, sort_keys=True)
             for inp in allocations for n in range(12)}
    assert len(picks) > len(allocations)


def test_a_chooser_draws_the_enemys_splits_as_greedy_makes_them():
    for n in range(20):
        a, b = Chooser(f"m{n}"), Chooser(f"m{n}")
        split = airwar.mixed_split(9, ("superiority", "strike", "recon", "interdiction"), a)
        assert sum(split.values()) == 9 and split == airwar.mixed_split(9, ("superiority", "strike", "recon",
                                                                            "interdiction"), b)
