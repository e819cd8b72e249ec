"""engine.core.events: commands and events as plain, comparable, JSON-able data."""

from __future__ import annotations

import json

import pytest

from engine.core.events import Command, Event, among, dumps_events, loads_events

# --- Command identity ----------------------------------------------------------

def test_command_equality_ignores_side() -> None:
    a = Command("move", {"unit": "ij-1", "to": "0709"}, side="IJ")
    b = Command("move", {"unit": "ij-1", "to": "0709"}, side="US")
    c = Command("move", {"unit": "ij-1", "to": "0709"})
    assert a == b == c
    assert hash(a) == hash(b) == hash(c)


def test_command_equality_ignores_key_order() -> None:
    a = Command("move", {"unit": "ij-1", "to": "0709"})
    b = Command("move", {"to": "0709", "unit": "ij-1"})
    assert list(a.data) != list(b.data)
    assert a == b
    assert hash(a) == hash(b)


def test_command_equality_compares_nested_values() -> None:
    a = Command("work", {"hex": "0605", "units": ["us-1", "us-2"], "extra": {"x": [1, {"y": 2, "z": 3}]}})
    b = Command("work", {"extra": {"x": [1, {"z": 3, "y": 2}]}, "units": ["us-1", "us-2"], "hex": "0605"})
    assert a == b
    assert hash(a) == hash(b)
    # lists and tuples are the same JSON array
    assert Command("w", {"units": ["a", "b"]}) == Command("w", {"units": ("a", "b")})


@pytest.mark.parametrize(
    "other",
    [
        Command("attack", {"unit": "ij-1", "to": "0709"}),  # other verb
        Command("move", {"unit": "ij-2", "to": "0709"}),  # other value
        Command("move", {"unit": "ij-1", "to": "0709", "via": "0710"}),  # extra field
        Command("move", {"unit": "ij-1"}),  # missing field
        Command("move", {"unit": "ij-1", "hex": "0709"}),  # other key
        Command("move", {"unit": "ij-1", "to": None}),
    ],
)
def test_command_inequality(other: Command) -> None:
    assert Command("move", {"unit": "ij-1", "to": "0709"}) != other


def test_nested_list_order_matters() -> None:
    assert Command("w", {"units": ["a", "b"]}) != Command("w", {"units": ["b", "a"]})
    assert Command("w", {"units": ["a", "b"]}) != Command("w", {"units": ["a"]})


def test_command_is_not_equal_to_other_types() -> None:
    cmd = Command("end_phase")
    assert cmd != ("end_phase", ())
    assert cmd != Event("end_phase")
    assert cmd != "end_phase"


def test_command_defaults() -> None:
    cmd = Command("end_phase")
    assert cmd.data == {}
    assert cmd.side is None
    assert cmd == Command("end_phase", {}, "US")
    assert Command("a").data is not Command("b").data  # no shared default dict


def test_command_membership_and_sets() -> None:
    legal = [Command("move", {"unit": "u", "to": "0709"}), Command("end_phase")]
    assert Command("move", {"to": "0709", "unit": "u"}, side="IJ") in legal
    assert Command("end_phase", side="US") in legal
    assert Command("move", {"unit": "u", "to": "0710"}) not in legal
    s = {Command("move", {"unit": "u", "to": "0709"}, "US"), Command("move", {"to": "0709", "unit": "u"}, "IJ")}
    assert len(s) == 1


def test_command_key() -> None:
    cmd = Command("move", {"unit": "u", "to": "0709", "path": ["0710", "0709"]})
    assert cmd.key() == ("move", ("{}", (("path", ("0710", "0709")), ("to", "0709"), ("unit", "u"))))


def test_command_is_frozen() -> None:
    cmd = Command("end_phase")
    with pytest.raises(AttributeError):
        cmd.type = "move"  # type: ignore[misc]


def test_dict_and_list_of_pairs_are_different_commands() -> None:
    assert Command("x", {"a": {"b": 1}}) != Command("x", {"a": [["b", 1]]})


# --- JSON ----------------------------------------------------------------------

@pytest.mark.parametrize(
    "cmd",
    [
        Command("end_phase"),
        Command("end_phase", side="US"),
        Command("move", {"unit": "ij-1", "to": "0709"}, "IJ"),
        Command("bombard", {"unit": "d", "hex": "0708", "target": None}, "IJ"),
        Command("work", {"hex": "0605", "units": ["us-1", "us-2"]}, "US"),
    ],
)
def test_command_json_round_trip(cmd: Command) -> None:
    obj = cmd.to_json()
    assert obj == {"type": cmd.type, "data": cmd.data, "side": cmd.side}
    back = Command.from_json(json.loads(json.dumps(obj)))
    assert back == cmd
    assert back.side == cmd.side
    assert back.data == cmd.data


def test_command_from_json_defaults() -> None:
    assert Command.from_json({"type": "end_phase"}) == Command("end_phase")
    assert Command.from_json({"type": "end_phase"}).side is None
    assert Command.from_json({"type": "end_phase", "data": None}).data == {}


def test_command_from_json_copies_data() -> None:
    data = {"unit": "u", "to": "0709"}
    cmd = Command.from_json({"type": "move", "data": data})
    data["to"] = "0101"
    assert cmd.data["to"] == "0709"


@pytest.mark.parametrize("data", [[1, 2], 5, [["unit", "u"]]])
def test_command_from_json_rejects_non_object_data(data: object) -> None:
    with pytest.raises(ValueError):
        Command.from_json({"type": "move", "data": data})


@pytest.mark.parametrize(
    "event",
    [
        Event("game_created", {"game": "g", "options": {}, "units": ["a", "b"], "strips": {"0708": {"built": True}}}),
        Event("unit_moved", {"unit": "u", "to": "0709", "cost": 3, "stops": False}, "IJ"),
        Event("combat_resolved", {"die": 4, "total": 3, "result": "EX", "defenders": []}, "US"),
        Event("phase_started", {"phase": "us_setup", "turn": 0}),
    ],
)
def test_event_json_round_trip(event: Event) -> None:
    obj = event.to_json()
    assert obj == {"type": event.type, "data": event.data, "side": event.side}
    back = Event.from_json(json.loads(json.dumps(obj)))
    assert back == event


def test_event_equality_includes_side_and_data() -> None:
    assert Event("x", {"a": 1, "b": 2}, "US") == Event("x", {"b": 2, "a": 1}, "US")
    assert Event("x", {"a": 1}, "US") != Event("x", {"a": 1}, "IJ")
    assert Event("x", {"a": 1}) != Event("x", {"a": 2})
    assert Event("x") != Event("y")


def test_event_from_json_defaults() -> None:
    e = Event.from_json({"type": "turn_started"})
    assert e == Event("turn_started", {}, None)


def test_dumps_loads_events_round_trip() -> None:
    events = [
        Event("game_created", {"secret": "s", "units": ["a"], "options": {"x": True}}),
        Event("unit_placed", {"unit": "a", "to": "0202"}, "US"),
        Event("combat_resolved", {"die": 6, "nested": {"list": [1, [2, 3]], "none": None}}, "IJ"),
        Event("end"),
    ]
    text = dumps_events(events)
    assert isinstance(text, str)
    assert loads_events(text) == events
    assert dumps_events(loads_events(text)) == text


def test_dumps_events_is_canonical() -> None:
    a = [Event("x", {"a": 1, "b": 2}, "US")]
    b = [Event("x", {"b": 2, "a": 1}, "US")]
    assert dumps_events(a) == dumps_events(b)
    assert json.loads(dumps_events(a)) == [{"type": "x", "data": {"a": 1, "b": 2}, "side": "US"}]


def test_empty_log() -> None:
    assert dumps_events([]) == "[]"
    assert loads_events("[]") == []


@pytest.mark.parametrize("listed", [
    [Command("move", {"unit": "a", "to": "0101"}), Command("move", {"unit": "a", "to": "0102"})],
    [Command("end_phase"), Command("move", {"to": "0102", "unit": "a"}, "US")],
    [Command("attack", {"units": ["a", "b"], "hex": "0102"})],
    [Command("attack", {"units": ("a", "b"), "hex": "0102"})],
    [Command("move", {"unit": "a", "to": "0102", "path": None})],
    [Command("fire", {"n": 1})], [Command("fire", {"n": True})], [Command("fire", {"n": 1.0})],
    [],
])
@pytest.mark.parametrize("command", [
    Command("move", {"unit": "a", "to": "0102"}), Command("attack", {"units": ["a", "b"], "hex": "0102"}),
    Command("attack", {"units": ["b", "a"], "hex": "0102"}), Command("fire", {"n": 1}), Command("end_phase"),
])
def test_among_is_membership_by_key(listed: list[Command], command: Command) -> None:
    """A command is among a list exactly when a listed command has its key (flat data is
    compared as it is: the same verdict)."""
    assert among(command, listed) == any(c.key() == command.key() for c in listed)
    assert among(command, iter(listed)) == among(command, listed)
