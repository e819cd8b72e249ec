"""A legal list told as choices (engine/core/choices.py) is the list itself, command for
command: over whole self-played games of both games, at every decision, for every side
that decides, the choices expand to exactly the legal commands.  That /legal's answers,
which tell them, are small (at most 20 KB, issue 38) is tested on the answers as sent,
over whole games played through the API: tests/app/test_legal_choices.py."""

from __future__ import annotations

import json

import pytest

from engine.core.choices import by_key, expand, group
from engine.core.dice import derive_secret
from engine.core.events import Command
from engine.core.game import replay
from engine.games import get_rules
from engine.selfplay import MAX_DECISIONS, Chooser, choose, play_one


def _key(c: dict) -> str:
    return json.dumps(c, sort_keys=True)


@pytest.mark.parametrize("game", ["first_blood", "pacific_battles"])
def test_choices_are_the_legal_list_through_whole_games(game: str) -> None:
    """At every decision of a whole self-played game (self-play's own: the same chooser and
    secret), as the server holds it: between commands, never within one's events (a state
    there is no decision: an attacker eliminated by its own attack's result, its attack
    not yet ended, was no question the rules are asked)."""
    rules = get_rules(game)
    rng = Chooser(f"{game}:7:0")
    state = replay(rules, rules.create("campaign", {}, derive_secret(7, "selfplay-0")))
    checked = 0
    for _ in range(MAX_DECISIONS):
        prompt = rules.prompt(state)
        if prompt.side is None:
            break
        for side in prompt.acting:
            legal = rules.legal_commands(state, side)
            choices = group(legal)
            listed = sorted(_key({"type": c.type, "data": c.data}) for c in legal)
            assert sorted(_key(c) for c in expand(choices)) == listed, f"event {state.seq}, {side}"
            # what the server answers: the game's own choices, built without the list where it can
            assert rules.legal_choices(state, side) == choices, f"event {state.seq}, {side}"
            checked += 1
        cmd = choose(rng, getattr(state, "phase", ""), rules.legal_commands(state))
        for event in rules.decide(state, Command(cmd.type, cmd.data, prompt.side)):
            rules.apply(state, event)
    assert checked > 100 and state.result is not None


def test_landing_choices_built_from_each_kinds_hexes_are_the_grouped_list() -> None:
    """Pacific Battles builds a landing phase's choices from each kind of piece's hexes
    (arrivals.reinforcement_choices), never listing the phase's thousands of landings:
    the same choices as the list grouped, in every landing phase of a game with every
    option (deception markers, variable forces, bought units) on."""
    from engine.record.selfcheck import all_options

    rules = get_rules("pacific_battles")
    record = play_one("pacific_battles", seed=11, index=0, check_leaks=False,
                      options=all_options("pacific_battles"))
    assert record.error is None, record.error
    state, landings, merged = rules.blank(), 0, 0
    for event in record.events:
        rules.apply(state, event)
        side = rules.prompt(state).side
        if side is None or not state.phase.startswith("reinforcements_") or state.pending:
            continue
        grouped = group(rules.legal_commands(state, side))
        assert rules.legal_choices(state, side) == grouped, f"event {state.seq}, {side}"
        landings += 1
        merged += any(len(ch["product"]) == 2 for ch in grouped)
    assert landings > 50 and merged > 10  # whole phases, and pieces alike told once


def test_commands_that_differ_in_one_field_are_one_choice() -> None:
    legal = [Command("place", {"unit": "A", "hex": h}) for h in ("0101", "0102", "0103")] + \
            [Command("place", {"unit": "B", "hex": "0201"}), Command("end_phase", {})]
    choices = group(legal)
    assert choices == [{"type": "place", "data": {"unit": "A"}, "product": {"hex": ["0101", "0102", "0103"]}},
                       {"type": "place", "data": {"unit": "B", "hex": "0201"}, "product": {}},
                       {"type": "end_phase", "data": {}, "product": {}}]
    assert expand(choices) == [{"type": c.type, "data": c.data} for c in legal]


def test_units_with_the_same_places_are_one_choice_of_two_fields() -> None:
    hexes = ["0101", "0102"]
    legal = [Command("land", {"unit": u, "hex": h}) for u in ("A", "B", "C") for h in hexes] + \
            [Command("land", {"unit": "D", "hex": "0909"})]
    choices = group(legal)
    assert choices[0] == {"type": "land", "data": {}, "product": {"unit": ["A", "B", "C"], "hex": hexes}}
    assert sorted(map(_key, expand(choices))) == sorted(_key({"type": c.type, "data": c.data}) for c in legal)


@pytest.mark.parametrize("rows", [
    [("A", ["0101", "0102"]), ("B", ["0101", "0102"]), ("C", ["0909"])],  # two alike, one alone
    [("A", ["0101"]), ("B", ["0102"])],  # one value each
    [("A", ["0101", "0102"]), ("B", ["0103", "0104"])],  # nothing alike
    [("A", ["0101"]), ("B", ["0101"]), ("C", ["0101"])],  # more keys than values: told value by value
    [("A", ["0101", "0102"]), ("B", ["0102", "0101"])],  # as many keys as values
    [("A", []), ("B", ["0101"])],  # a key without values
    [],
])
def test_choices_built_from_rows_are_the_list_grouped(rows: list[tuple[str, list[str]]]) -> None:
    """``by_key`` (the set-up's, movement's and landings' choices, built from each unit's
    places) gives what ``group`` gives of the commands, or None where it would not build them."""
    for field in ("hex", "to", "zz"):  # a field named before and after the key
        legal = [Command("land", {"unit": u, field: h}) for u, hexes in rows for h in hexes]
        built = by_key("land", "unit", field, rows)
        assert built is None or built == group(legal), (field, built, group(legal))
        assert built is not None or len(rows) >= len({h for _, hs in rows for h in hs})
