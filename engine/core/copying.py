"""A copy of JSON-like data (dicts, lists, tuples, sets of plain values): what a state
keeps of its open decisions, battles and strikes.  ``copy.deepcopy`` does the same for
any object, at some five times the cost, keeping a memo of every object it met; a state
is cloned for every command decided, so the plain walk is worth its few lines."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def copy_json(value: T) -> T:
    """A copy sharing nothing mutable with ``value``: dicts, lists, tuples and sets are
    copied all the way down; anything else (str, int, float, bool, None, Fraction) is
    immutable and kept.  Two references to one list become two lists (the states that use
    this hold none)."""
    kind = type(value)
    if kind is dict:
        return {k: copy_json(v) for k, v in value.items()}  # type: ignore[attr-defined, return-value]
    if kind is list:
        return [copy_json(v) for v in value]  # type: ignore[attr-defined, return-value]
    if kind is tuple:
        return tuple(copy_json(v) for v in value)  # type: ignore[attr-defined, return-value]
    if kind is set:
        return set(value)  # type: ignore[call-overload, return-value]
    return value
