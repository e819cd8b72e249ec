"""engine.core.errors: typed rule errors are ValueErrors that name their rule."""

from __future__ import annotations

import copy
import pickle

import pytest

from engine.core.errors import IllegalCommandError, MalformedCommandError, NotYourTurnError, RuleError

ALL = [RuleError, IllegalCommandError, MalformedCommandError, NotYourTurnError]


@pytest.mark.parametrize("cls", ALL)
def test_str_contains_rule_and_message(cls: type[RuleError]) -> None:
    err = cls("§6.2", "a unit entering an enemy ZOC must stop")
    assert str(err) == "§6.2: a unit entering an enemy ZOC must stop"
    assert "§6.2" in str(err)
    assert "a unit entering an enemy ZOC must stop" in str(err)
    assert err.rule == "§6.2"
    assert err.message == "a unit entering an enemy ZOC must stop"


@pytest.mark.parametrize("cls", ALL)
def test_empty_rule_gives_just_the_message(cls: type[RuleError]) -> None:
    err = cls("", "it is US's decision")
    assert str(err) == "it is US's decision"
    assert err.rule == ""


@pytest.mark.parametrize("cls", ALL)
def test_all_are_value_errors(cls: type[RuleError]) -> None:
    assert issubclass(cls, ValueError)
    assert issubclass(cls, RuleError)
    with pytest.raises(ValueError, match="§7"):
        raise cls("§7", "combat is mandatory")


def test_subclasses_are_distinct() -> None:
    assert not issubclass(IllegalCommandError, MalformedCommandError)
    assert not issubclass(MalformedCommandError, IllegalCommandError)
    assert not issubclass(NotYourTurnError, IllegalCommandError)
    with pytest.raises(RuleError):
        raise NotYourTurnError("", "wait")


@pytest.mark.parametrize("cls", ALL)
def test_errors_survive_pickle_and_copy(cls: type[RuleError]) -> None:
    err = cls("§6.2", "stop")
    for back in (pickle.loads(pickle.dumps(err)), copy.copy(err)):
        assert type(back) is cls
        assert (back.rule, back.message, str(back)) == ("§6.2", "stop", "§6.2: stop")
