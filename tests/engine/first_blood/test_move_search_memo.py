"""A unit's move search is kept across states (phases/movement.py ``_SEARCHES``): its
answer depends on the unit's place, MF left, boxes and entry cost and on where the
enemy stands, and a side's own moves change none of the enemy's.  Kept answers must be
exactly the fresh search's, at every position of whole games, and a move must leave
the other units' searches as they were (the next legal list then costs one search)."""

from __future__ import annotations

from typing import Any

from engine.core.dice import derive_secret
from engine.core.events import Command
from engine.core.game import replay
from engine.games.first_blood.phases import movement
from engine.games.first_blood.rules import RULES
from engine.selfplay import Chooser, choose, play_one


def test_kept_searches_are_the_fresh_ones_through_whole_games() -> None:
    compared = 0
    for index in range(2):
        rng = Chooser(f"kept-searches:{index}")
        state = replay(RULES, RULES.create("campaign", {}, derive_secret(5, f"kept-{index}")))
        while (side := RULES.prompt(state).side) is not None:
            legal = RULES.legal_commands(state)  # the kept searches, as the server's list finds them
            for uid, unit in state.units.items():
                if movement.q.spec(uid).kind == "ground" and movement.may_move(state, uid):
                    fresh = movement._search(state, uid, movement.ground(state))
                    assert movement._found(state, uid) == fresh, f"event {state.seq}, {uid} at {unit.loc}"
                    compared += 1
            command = choose(rng, state.phase, legal)
            for event in RULES.decide(state, Command(command.type, command.data, side)):
                RULES.apply(state, event)
    assert compared > 20000


def test_a_move_leaves_the_other_units_searches_kept() -> None:
    record = play_one("first_blood", seed=5, index=0, check_leaks=False)
    state = RULES.blank()
    for event in record.events:
        RULES.apply(state, event)
        if state.phase == "us_movement" and RULES.prompt(state).side == "US":
            moves = [c for c in RULES.legal_commands(state, "US") if c.type == "move"]
            if len({c.data["unit"] for c in moves}) > 2:
                break
    mover = moves[0].data["unit"]
    others = sorted({c.data["unit"] for c in moves} - {mover})
    before = {uid: movement._found(state, uid) for uid in others}
    for event in RULES.decide(state, Command("move", moves[0].data, "US")):
        RULES.apply(state, event)
    kept = [uid for uid in others if movement.may_move(state, uid) and movement._found(state, uid) is before[uid]]
    assert len(kept) == len([uid for uid in others if movement.may_move(state, uid)]) > 1


def test_a_reinforcement_phase_asks_the_movement_phases_searches_ahead() -> None:
    """``RULES.ahead`` in a reinforcement phase: at the movement phase that follows, the
    searches of the units that stood on the map then are the ones made ahead (none made
    again), and asking ahead changed neither the state nor what the rules answer."""
    record = play_one("first_blood", seed=5, index=1, check_leaks=False)
    state = RULES.blank()
    made: dict[Any, Any] | None = None
    phases = units = 0
    for event in record.events:
        RULES.apply(state, event)
        side = RULES.prompt(state).side
        if side is None:
            continue
        if made is None and state.phase == f"{side.lower()}_reinforcements":
            movement._SEARCHES.clear()
            before = RULES.state_to_json(state)
            work = RULES.ahead(state)
            assert work is not None
            work()
            assert RULES.state_to_json(state) == before
            made = dict(movement._SEARCHES)
            ahead = {uid: u.loc for uid, u in state.units.items()  # the side's ground units in play
                     if movement.q.spec(uid).side == side and movement.q.spec(uid).kind == "ground"
                     and movement.q.in_play(u.loc)}
        elif made is not None and state.phase == f"{side.lower()}_movement":
            for uid, loc in ahead.items():
                if state.units[uid].loc == loc and movement.may_move(state, uid):
                    assert any(movement._found(state, uid) is found for found in made.values()), uid
                    units += 1
            fresh = RULES.legal_choices(state, side)
            movement._SEARCHES.clear()
            assert RULES.legal_choices(RULES.clone(state), side) == fresh
            made, phases = None, phases + 1
    assert phases > 10 and units > 100


def test_outside_a_reinforcement_phase_nothing_is_asked_ahead() -> None:
    record = play_one("first_blood", seed=5, index=1, check_leaks=False)
    state = RULES.blank()
    for event in record.events[:400]:
        RULES.apply(state, event)
    assert not state.phase.endswith("_reinforcements")
    assert RULES.ahead(state) is None
