"""Typed rule errors, as python-chess does: all are ``ValueError``s."""

from __future__ import annotations


class RuleError(ValueError):
    """A command the rules do not allow; ``rule`` names the section, e.g. ``"§6.2"``."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}" if rule else message)
        self.rule = rule
        self.message = message

    def __reduce__(self) -> tuple:
        return (type(self), (self.rule, self.message))


class NotInThisGame(LookupError):
    """A question this game has no answer for (e.g. attack odds in a game without them):
    what it lacks, in words."""


class IllegalCommandError(RuleError):
    """Well-formed, but not allowed now."""


class MalformedCommandError(RuleError):
    """Not a command this game knows, or its fields are wrong."""


class NotYourTurnError(RuleError):
    """The side that sent it is not the side the game is waiting for."""


Reason = tuple[str, str]  # (rule, why): a refusal, from the code that decides legality
