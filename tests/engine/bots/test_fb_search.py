"""First Blood's search level: the rules it keeps on top of greedy's choices."""

from __future__ import annotations

from engine.bots.base import BotInput
from engine.bots.first_blood.search import FirstBloodSearch, keep_supply_cover
from engine.games.first_blood.rules import RULES
from engine.games.first_blood.state import strip_loc
from engine.games.first_blood.testing import position

PLACES = {"ij-dd-murakumo": "ijn_attack", "us-vmf-223a": strip_loc("0709"), "us-1-1": "0709"}


def bombarders(cmds):
    return {c.data["unit"] for c in cmds if c.type == "bombard"}


def test_the_ij_keeps_its_last_reserve_destroyer_for_the_supply_roll():
    state = position({**PLACES, "ij-dd-yudachi": "ijn_reserve"}, phase="ij_combat", turn=3)
    legal = RULES.legal_commands(state, "IJ")
    assert bombarders(legal) == {"ij-dd-murakumo", "ij-dd-yudachi"}
    kept = keep_supply_cover(state, "IJ", legal)
    assert bombarders(kept) == {"ij-dd-murakumo"}  # the Attack box's is spent after this turn anyway
    assert any(c.type == "end_phase" for c in kept)


def test_with_two_reserve_destroyers_either_may_bombard():
    state = position({**PLACES, "ij-dd-yudachi": "ijn_reserve", "ij-dd-murakumo": "ijn_reserve"},
                     phase="ij_combat", turn=3)
    legal = RULES.legal_commands(state, "IJ")
    assert keep_supply_cover(state, "IJ", legal) == legal


class _Believing(FirstBloodSearch):
    """The search level deciding in a given state (the believed state of a test position)."""

    def __init__(self, state) -> None:
        super().__init__()
        self.state = state

    def believed(self, inp):
        return self.state


def test_the_supply_roll_takes_the_reserve_destroyer_not_a_battalion():
    # An exposed IJ engineer next to a US stack while every strip is held: the look-ahead's
    # whole-position score gains by losing it (its exposure goes with it); §8 lets a
    # Reserve destroyer's supply run be lost instead, and the battalion may yet win (§1).
    units = {"ij-dd-yudachi": "ijn_reserve", "ij-eng-2": "0811", "us-1-1": "0709", "us-5-3": "0708",
             "us-1-2": "0810", "us-1-3": "0810", "us-5-1": "0812"}
    state = position(units, phase="ij_supply", turn=6)
    state.pending = [{"kind": "supply_loss", "side": "IJ", "count": 1, "reason": "supply", "rule": "§8",
                      "candidates": ["ij-dd-yudachi", "ij-eng-2"]}]
    legal = tuple(RULES.legal_commands(state, "IJ"))
    assert {c.data.get("unit") for c in legal if c.type == "eliminate"} == {"ij-dd-yudachi", "ij-eng-2"}
    inp = BotInput("first_blood", "IJ", (), {}, legal, "s", seconds=0.3)
    decision = _Believing(state).decide(inp)
    assert (decision.command.type, decision.command.data["unit"]) == ("eliminate", "ij-dd-yudachi")


def test_more_time_weighs_more_candidates_and_the_default_time_four() -> None:
    from engine.bots.first_blood.search import CANDIDATES, DEFAULT_SECONDS, candidates

    assert candidates(DEFAULT_SECONDS) == CANDIDATES == 4 and candidates(0.05) == 4
    assert [candidates(s) for s in (0.5, 1.0, 3.0)] == [5, 7, 13]
