"""18.4: a side is told whether an enemy stack has a ZOC only when one of its units is next
to it; until then its moves are reckoned as if the stack had one (R-PB-18.4), so nothing it
is offered, shown or refused depends on what it has not been told."""

from __future__ import annotations

import json

import pytest

from engine.core.errors import IllegalCommandError
from engine.core.events import Command
from engine.games.pacific_battles import queries as q
from engine.games.pacific_battles.board import load_board
from engine.games.pacific_battles.forces import DECEPTION
from engine.games.pacific_battles.rules import RULES
from engine.games.pacific_battles.state import PBState
from engine.games.pacific_battles.testing import play, position

B = load_board()
ROAD = B.paths["Coast road"]
PHASE = "initial_first_movement"  # the Allies move first


def stacked(enemy: str) -> PBState:
    """A US regiment on the coast road and, six hexes on, a Japanese stack ``enemy``."""
    return position({"m": ("1 Mar", ROAD[0], "Allied"), "j": (enemy, ROAD[6], "Japanese")}, phase=PHASE,
                    options={"deception": True})


def answers(state: PBState) -> str:
    """Everything the Allies are given while moving: their view, their legal commands, where
    the unit may go and why a far hex is refused."""
    legal = RULES.legal_commands(state, "Allied")
    try:
        RULES.decide(state, Command("move", {"unit": "m", "to": ROAD[8]}, "Allied"))
        refusal = "accepted"
    except IllegalCommandError as e:
        refusal = f"{e.rule}: {e}"
    return json.dumps({"view": RULES.view(state, "Allied", legal), "legal": [c.to_json() for c in legal],
                       "reach": RULES.reachable(state, "m"), "refusal": refusal}, sort_keys=True, default=str)


@pytest.mark.parametrize("other", ["17 HQ", DECEPTION])
def test_18_4_what_the_mover_is_given_is_the_same_whether_a_distant_stack_has_a_zoc_or_not(other: str) -> None:
    with_zoc, without = stacked("124 Inf"), stacked(other)
    assert q.enemy_zoc(without, "Allied") != q.enemy_zoc(with_zoc, "Allied")  # the truth differs ...
    assert [st["zoc"] for st in RULES.view(without, "Allied")["stacks"]] == [None]  # not told
    assert answers(with_zoc) == answers(without)  # ... what the Allies are given does not
    reach = RULES.reachable(without, "m")
    assert ROAD[5] in reach and ROAD[7] not in reach  # the stack counts as having a ZOC: 11.6 stops there


def test_18_4_moving_next_to_a_stack_tells_and_a_unit_stopped_by_no_zoc_goes_on() -> None:
    hq = stacked("17 HQ")
    play(hq, "move", "Allied", unit="m", to=ROAD[5])
    assert [st["zoc"] for st in RULES.view(hq, "Allied")["stacks"]] == [False]  # told now, as the unit arrived
    onward = {c.data["to"] for c in RULES.legal_commands(hq, "Allied") if c.type == "move" and c.data["unit"] == "m"}
    assert onward  # told that the HQ has no ZOC, it goes on with the 3 points it has left
    assert all(RULES.reachable(hq, "m")[h]["cost"] <= 3 for h in onward)
    play(hq, "move", "Allied", unit="m", to=sorted(onward)[0])
    assert not [c for c in RULES.legal_commands(hq, "Allied") if c.type == "move" and c.data["unit"] == "m"]

    inf = stacked("124 Inf")
    play(inf, "move", "Allied", unit="m", to=ROAD[5])  # a real ZOC: 11.6, it stops
    assert not [c for c in RULES.legal_commands(inf, "Allied") if c.type == "move" and c.data["unit"] == "m"]


def test_18_4_the_move_that_tells_a_zoc_cannot_be_taken_back_and_one_that_tells_nothing_can() -> None:
    s = stacked("17 HQ")
    play(s, "move", "Allied", unit="m", to=ROAD[2])  # still far from the stack: nothing told
    assert any(c.type == "undo" for c in RULES.legal_commands(s, "Allied"))
    s = stacked("17 HQ")
    play(s, "move", "Allied", unit="m", to=ROAD[5])  # next to it: told it has no ZOC
    assert not any(c.type == "undo" for c in RULES.legal_commands(s, "Allied"))


def test_18_4_a_deception_marker_is_told_nothing_and_stops_where_it_took_a_zoc() -> None:
    s = position({"d": (DECEPTION, ROAD[0], "Allied"), "j": ("17 HQ", ROAD[6], "Japanese")},
                 phase=PHASE, options={"deception": True})
    reach = RULES.reachable(s, "d")
    assert ROAD[5] in reach and ROAD[7] not in reach
    play(s, "move", "Allied", unit="d", to=ROAD[5])
    assert q.untold_zocs(s, "Allied") == [ROAD[6]]  # a marker is no unit (34.1): nothing told
    assert not [c for c in RULES.legal_commands(s, "Allied") if c.type == "move" and c.data["unit"] == "d"]


@pytest.mark.parametrize(("one", "other"), [("124 Inf", "4 Inf"), ("124 Inf", "Kuma Bn"), ("Kuma Bn", "35 HQ")])
def test_18_1_what_the_mover_is_given_is_the_same_whatever_an_unexamined_stack_holds(one: str, other: str) -> None:
    a, b = stacked(one), stacked(other)
    assert answers(a) == answers(b)
    for s in (a, b):  # next to it, each is told its ZOC: the answers differ from here only by what was told
        play(s, "move", "Allied", unit="m", to=ROAD[5])
    told = [[st["zoc"] for st in RULES.view(s, "Allied")["stacks"]] for s in (a, b)]
    if told[0] == told[1]:
        assert answers(a) == answers(b)


def test_a_side_may_name_its_own_pieces_on_the_map_and_off_it_and_no_enemy_piece() -> None:
    s = position({"m": ("1 Mar", ROAD[0], "Allied"), "j": ("124 Inf", ROAD[6], "Japanese")}, phase=PHASE,
                 keep_track=True)
    off_us = next(o.id for o in s.off.values() if o.side == "Allied")
    off_jp = next(o.id for o in s.off.values() if o.side == "Japanese")
    assert RULES.unit_named(s, "Allied", "m") and RULES.unit_named(s, "Allied", off_us)
    assert not RULES.unit_named(s, "Allied", "j") and not RULES.unit_named(s, "Allied", off_jp)
    assert RULES.reachable(s, off_us) == {}  # named, and going nowhere now
