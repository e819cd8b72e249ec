"""The arena's arithmetic and its one-line summary; greedy against random over a pair of
games; self-play pitting levels (the arena's long runs are a benchmark, not tests)."""

from __future__ import annotations

import io

import pytest

from engine.arena import Game, play, run, summary, wilson
from engine.selfplay import run as selfplay


def test_wilson_interval():
    low, high = wilson(0.5, 100)
    assert low == pytest.approx(0.404, abs=0.001) and high == pytest.approx(0.596, abs=0.001)
    low, high = wilson(1.0, 16)
    assert low == pytest.approx(0.806, abs=0.001) and high == 1.0


def test_summary_counts_a_draw_as_half_and_scores_each_side():
    games = [Game("US", "US", decisions_ms=[1.0, 3.0]), Game("IJ", "US", decisions_ms=[2.0]),
             Game("US", None), Game("IJ", "IJ", decisions_ms=[10.0])]
    line = summary("first_blood", "greedy", "random", games)
    assert line.startswith("games=4 a=greedy b=random a_score=0.62 ci95=")
    assert " a_wins=2 b_wins=1 draws=1 a_score_as_US=0.75 a_score_as_IJ=0.50 " in line
    assert line.endswith("decision_ms_p50=2 decision_ms_p95=10 decision_ms_max=10")


def test_the_arena_plays_each_seed_with_sides_swapped_and_ends_with_one_line():
    out = io.StringIO()
    games = run("first_blood", "random", "random", pairs=1, seed=2, jobs=1, out=out)
    assert [g.a_side for g in games] == ["US", "IJ"]
    assert all(g.error is None and g.winner in ("US", "IJ") for g in games)
    assert out.getvalue().splitlines()[-1].startswith("games=2 a=random b=random a_score=")


@pytest.mark.parametrize("side", ["US", "IJ"])
def test_greedy_beats_random_on_either_side(side):
    game = play("first_blood", "greedy", "random", side, seed=1, pair=0)
    assert game.error is None
    assert game.winner == side


def test_self_play_pits_levels():
    out = io.StringIO()
    stats = selfplay("first_blood", games=1, seed=1, out=out, bots=("random", "greedy"))
    assert stats["errors"] == 0 and stats["replay_mismatches"] == 0, out.getvalue()
    assert stats["ij_wins"] == 1  # the greedy IJ against the random US


def test_a_pacific_battles_draw_counts_as_a_draw():
    """Pacific Battles names a draw ("draw", 24.2): it scores one half, not a loss."""
    games = run("pacific_battles", "random", "random", pairs=1, seed=3, jobs=1, out=io.StringIO())
    assert all(g.error is None for g in games)
    assert all(g.winner in ("Allied", "Japanese", None) for g in games)
    assert any(g.winner is None for g in games)  # random against random: mostly a draw
