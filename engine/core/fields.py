"""The shape of a command's data, checked before any rule: each game lists its commands'
fields and their JSON types, and ``check`` refuses anything else with a clear error.

Types: ``"str"``, ``"int"``, ``"list"`` (of strings); ``"str?"`` may be null and
``"int?"`` may be left out (``defaults`` gives its value).
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import MalformedCommandError
from engine.core.events import Command

WANT = {"str": "a string", "str?": "a string or null", "list": "a list of strings", "int": "a whole number",
        "int?": "a whole number"}


def defaults(fields: dict[str, dict[str, str]]) -> dict[str, dict[str, Any]]:
    """The value of every optional field when it is left out: null, or 0 for a number."""
    return {t: {n: None if k == "str?" else 0 for n, k in f.items() if k.endswith("?")} for t, f in fields.items()}


def check(command: Command, fields: dict[str, dict[str, str]], default: dict[str, dict[str, Any]]) -> None:
    if not isinstance(command.data, dict):
        raise MalformedCommandError("", "a command's data must be an object")
    kinds = fields[command.type]
    extra = set(command.data) - set(kinds)
    if extra:
        raise MalformedCommandError("", f"{command.type} takes {sorted(kinds) or 'no fields'}, not {sorted(extra)}")
    for name, kind in kinds.items():
        value = command.data.get(name, default.get(command.type, {}).get(name, ...))
        if kind.startswith("int"):
            ok = isinstance(value, int) and not isinstance(value, bool) and -1000 < value < 1000
        elif kind == "list":
            ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
        else:
            ok = isinstance(value, str) or (kind == "str?" and value is None)
        if not ok:
            raise MalformedCommandError("", f"{command.type}: '{name}' must be {WANT[kind]}")
