"""First Blood's search level: the rules it keeps on top of greedy's choices."""

from __future__ import annotations

from engine.bots.first_blood.search import keep_supply_cover
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
