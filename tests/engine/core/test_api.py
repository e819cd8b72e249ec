"""engine.api: the small, game-by-id API the server uses."""

from __future__ import annotations

import doctest
import json

import pytest

import engine.api
from engine import api
from engine.core.errors import NotYourTurnError
from engine.core.events import Command, Event, dumps_events
from engine.core.game import replay as core_replay
from engine.games import get_rules

GAME = "first_blood"


@pytest.fixture(scope="module")
def events() -> list[Event]:
    return api.create_game(GAME, "campaign", {}, secret="api-tests")


def test_module_doctest_passes() -> None:
    result = doctest.testmod(engine.api, verbose=False)
    assert result.attempted >= 4
    assert result.failed == 0


def test_log_lines_one_per_event(events: list[Event]) -> None:
    lines = api.log_lines(GAME, events)
    assert len(lines) == len(events)
    assert [i for i, _ in lines] == list(range(len(events)))
    assert all(text is None or (isinstance(text, str) and text) for _, text in lines)
    assert lines[0][1] is not None
    assert lines[0][1].startswith("Game created")


def test_log_lines_first_line_shows_the_commitment_not_the_secret(events: list[Event]) -> None:
    first = api.log_lines(GAME, events)[0][1]
    assert events[0].data["commitment"][:16] in first
    assert "api-tests" not in first


def test_log_lines_of_an_empty_log() -> None:
    assert api.log_lines(GAME, []) == []


def test_log_lines_does_not_mutate_events(events: list[Event]) -> None:
    text = dumps_events(events)
    api.log_lines(GAME, events)
    assert dumps_events(events) == text


def test_create_game_matches_the_rules(events: list[Event]) -> None:
    assert dumps_events(events) == dumps_events(get_rules(GAME).create("campaign", {}, "api-tests"))


def test_create_game_unknown_game() -> None:
    with pytest.raises(KeyError):
        api.create_game("nope", "campaign", {}, secret="x")


def test_replay_prompt_and_legal_commands(events: list[Event]) -> None:
    rules = get_rules(GAME)
    state = api.replay(GAME, events)
    assert rules.state_to_json(state) == rules.state_to_json(core_replay(rules, events))
    assert api.prompt(GAME, state).side == "US"
    legal = api.legal_commands(GAME, state)
    assert legal
    assert api.legal_commands(GAME, state, "US") == legal
    assert api.legal_commands(GAME, state, "IJ") == []


def test_replay_with_snapshot(events: list[Event]) -> None:
    rules = get_rules(GAME)
    snap = api.replay(GAME, events[:3])
    before = rules.state_to_json(snap)
    full = api.replay(GAME, events[3:], snap)
    assert rules.state_to_json(snap) == before
    assert rules.state_to_json(full) == rules.state_to_json(api.replay(GAME, events))


def test_decide_and_apply(events: list[Event]) -> None:
    rules = get_rules(GAME)
    state = api.replay(GAME, events)
    cmd = api.legal_commands(GAME, state)[0]
    new = api.decide(GAME, state, Command(cmd.type, cmd.data, "US"))
    assert new
    assert all(api.describe(GAME, state, e) is None or isinstance(api.describe(GAME, state, e), str) for e in new)
    for e in new:
        api.apply(GAME, state, e)
    assert state.seq == len(events) + len(new)
    assert rules.state_to_json(state) == rules.state_to_json(api.replay(GAME, events + new))
    with pytest.raises(NotYourTurnError):
        api.decide(GAME, state, Command(cmd.type, cmd.data, "IJ"))


def test_view_does_not_mutate_state(events: list[Event]) -> None:
    rules = get_rules(GAME)
    state = api.replay(GAME, events)
    before = json.dumps(rules.state_to_json(state), sort_keys=True)
    for side in ("US", "IJ", None):
        v = api.view(GAME, state, side)
        assert isinstance(v, dict)
    assert json.dumps(rules.state_to_json(state), sort_keys=True) == before


def test_a_view_given_the_legal_commands_is_the_view_that_lists_them() -> None:
    """The server lists legal commands once per state and hands them to view()."""
    rules = get_rules("first_blood")
    state = api.replay("first_blood", api.create_game("first_blood", "campaign", {}, secret="view-test"))
    legal = rules.legal_commands(state, "US")
    assert len(legal) > 100
    assert rules.view(state, "US", legal) == rules.view(state, "US")
    assert rules.view(state, "IJ", []) == rules.view(state, "IJ")
