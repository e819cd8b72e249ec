"""The legal list is the whole truth (issue: an API client builds any legal command and only
legal ones): an air allocation, too many to list, is described as a JSON Schema by the code
that judges it, and every allocation is accepted exactly when it fits the description."""

from __future__ import annotations

import itertools

import jsonschema_rs
import pytest

from engine.core.errors import IllegalCommandError
from engine.core.sealed import Round
from engine.games.pacific_battles import planning
from engine.games.pacific_battles.planning import AIR_ROUND
from engine.games.pacific_battles.rules import RULES
from engine.games.pacific_battles.state import SIDES
from engine.games.pacific_battles.testing import play, position


def fits(described: dict, data: dict) -> bool:
    schema = described["schema"]
    bound = schema["x-sum-at-most"]
    return (jsonschema_rs.validator_for(schema).is_valid(data)
            and sum(data.get(f, 0) for f in bound["fields"]) <= bound["value"])


def allocating(reserve: int, **options: bool):
    s = position({}, phase="air_allocation", turn=2, options=options,
                 air={"Allied": {"reserve": reserve}, "Japanese": {"reserve": reserve}})
    s.round = Round(AIR_ROUND, SIDES)
    return s


@pytest.mark.parametrize(("reserve", "options"), [(5, {}), (3, {"close_air_support": True})])
def test_every_allocation_is_accepted_exactly_when_it_fits_the_description(reserve: int, options: dict) -> None:
    s = allocating(reserve, **options)
    for side in SIDES:
        (described,) = RULES.described_commands(s, side)
        assert described["type"] == "allocate" and described["rule"] == "16.31"
        missions = planning.allocation_missions(s)
        for listed in (c for c in RULES.legal_commands(s, side) if c.type == "allocate"):
            assert fits(described, listed.data)  # what is listed is described
        tried = 0
        for values in itertools.product(range(reserve + 2), repeat=len(missions)):
            data = dict(zip(missions, values, strict=True))
            try:
                planning.check_allocate(s, side, {"support": 0, **data})
                accepted = True
            except IllegalCommandError:
                accepted = False
            assert accepted == fits(described, data), data
            tried += 1
        assert tried >= 1000


def test_nothing_is_described_to_a_side_that_has_allocated_or_outside_the_allocation() -> None:
    s = allocating(4)
    assert RULES.described_commands(s, "Japanese")
    play(s, "allocate", "Japanese", superiority=2, interdiction=2, recon=0, strike=0)
    assert RULES.described_commands(s, "Japanese") == [] and RULES.described_commands(s, "Allied")
    assert RULES.described_commands(position({}, phase="initial_first_movement"), "Allied") == []


def test_a_phase_both_players_have_is_titled_with_whose_it_is():
    """The replay's and the briefing's phase headings: "reinforcements (6.0)" came twice a
    turn with nothing to tell them apart; the event names no side (the turn's initiative
    decides which is first, 4.1 1a), so the heading says first or second player."""
    from engine.games.pacific_battles.rules import RULES
    assert RULES.phase_title({"phase": "reinforcements_first"}) == "reinforcements (6.0), first player"
    assert RULES.phase_title({"phase": "follow_second_combat"}) == "follow-on land combat (14.0), second player"
    assert RULES.phase_title({"phase": "air_allocation"}) == "secret air mission allocation (16.3)"
    assert RULES.phase_title({"phase": "japanese_setup"}) == "set-up (25.4)"


def test_an_air_change_reads_without_brackets_in_brackets():
    from engine.core.events import Event

    state = position({}, phase="reinforcements_allied")
    line = RULES.describe(state, Event("air_changed", {"boxes": {"reserve": 3, "due": 0},
                                                       "why": "routine air (16.31: usable next turn)"}, "Allied"))
    assert line == "Allied air: reserve +3; routine air (16.31: usable next turn)"
