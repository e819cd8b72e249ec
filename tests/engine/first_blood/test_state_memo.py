"""A First Blood state remembers what was asked of its units (FBState.cached): who
stands where, whose ZOC, where a unit may move.  Those answers must never outlive the
units they were about: these tests ask a long-lived state at every event of a whole
game, and compare with a fresh copy that has never been asked anything."""

from __future__ import annotations

from typing import Any

import pytest

from engine.games.first_blood import queries as q
from engine.games.first_blood.phases import combat, movement
from engine.games.first_blood.rules import RULES
from engine.games.first_blood.state import FBState
from engine.games.first_blood.testing import position
from engine.selfplay import play_one

SIDES = ("US", "IJ")


def answers(state: FBState) -> dict[str, Any]:
    """Everything the memo keeps, asked of ``state``."""
    locs = sorted({u.loc for u in state.units.values()})
    return {
        "occupancy": {h: list(us) for h, us in q.occupancy(state).items()},
        "owner": dict(q.hex_owner(state)),
        "zoc": {s: sorted(q.zoc_of(state, s)) for s in SIDES},
        "ground": {s: list(q.ground_on_map(state, s)) for s in (*SIDES, None)},
        "offmap": {s: list(combat._offmap_units(state, s)) for s in SIDES},
        "at": {loc: q.units_at(state, loc) for loc in locs},
        "legal": _legal(state),
    }


def _legal(state: FBState) -> list[dict[str, Any]] | str:
    """The legal commands; between two events of one command (a combat half resolved)
    there may be none to ask for, and then the same failure from both states."""
    try:
        return [c.to_json() for c in RULES.legal_commands(state)]
    except KeyError as exc:
        return f"KeyError {exc}"


@pytest.fixture(scope="module")
def game_events() -> list[Any]:
    rec = play_one("first_blood", seed=5, index=0, check_leaks=False)
    assert {"unit_moved", "combat_resolved", "unit_retreated", "undone"} <= {e.type for e in rec.events}
    return rec.events


def test_a_state_asked_at_every_event_answers_as_a_fresh_one(game_events: list[Any]) -> None:
    kept = RULES.blank()
    moving = 0
    for n, event in enumerate(game_events):
        RULES.apply(kept, event)
        mine = answers(kept)  # the second time round, from the memo
        assert answers(kept) == mine
        fresh = FBState.from_json(kept.to_json())
        assert answers(fresh) == mine, f"after event {n} ({event.type})"
        if kept.phase.endswith("_movement") and not kept.pending:
            for uid in movement.movable_units(kept, RULES.prompt(kept).side or "US"):
                assert movement.reachable(kept, uid) == movement.reachable(fresh, uid), (n, uid)
                moving += 1
    assert moving > 100


def test_a_unit_changed_in_place_drops_the_answers() -> None:
    s = position({"us-1-1": "0606", "ij-kuma": "0809"}, phase="us_movement")
    assert q.units_at(s, "0606") == ["us-1-1"] and "0606" in q.hex_owner(s)
    before = movement.reachable(s, "us-1-1")
    s.unit("us-1-1").loc = "0707"
    assert q.units_at(s, "0606") == [] and q.units_at(s, "0707") == ["us-1-1"]
    assert "0606" not in q.hex_owner(s) and q.occupancy(s) == {"0707": ["us-1-1"], "0809": ["ij-kuma"]}
    assert movement.reachable(s, "us-1-1") != before
    assert movement.reachable(s, "us-1-1") == movement.reachable(FBState.from_json(s.to_json()), "us-1-1")


def test_a_copy_starts_without_the_answers_of_its_original() -> None:
    s = position({"us-1-1": "0606"}, phase="us_movement")
    q.occupancy(s)
    twin = s.clone()
    assert twin.memo is None and s.memo is not None
    twin.unit("us-1-1").loc = "0707"
    assert q.occupancy(twin) == {"0707": ["us-1-1"]} and q.occupancy(s) == {"0606": ["us-1-1"]}
