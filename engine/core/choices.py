"""A legal-command list told compactly: commands that differ only in some fields are one
choice, each such field's values listed once (a set-up's 2,000 placements are some 40
units, each with the hexes it may go to; the landings of a turn, all the units due by all
the hexes they may land in).  Lossless: ``expand(group(commands))`` is the list again,
command for command, so a client that reads the choices knows exactly what the full list
would have told it."""

from __future__ import annotations

import itertools
import json
import math
from operator import itemgetter
from typing import Any

from engine.core.events import Command


def group(commands: list[Command]) -> list[dict[str, Any]]:
    """The list as choices: ``{"type", "data": the fields its commands share, "product":
    {field: values}}``; the choice stands for a command for every combination of the
    product's values (an empty product: the one command ``data``)."""
    by_type: dict[str, list[Command]] = {}
    for c in commands:
        by_type.setdefault(c.type, []).append(c)
    out: list[dict[str, Any]] = []
    for kind, cmds in by_type.items():
        out.extend(_merged(_grouped(kind, cmds)))
    return out


def by_key(kind: str, key: str, field: str, rows: list[tuple[Any, list[Any]]]) -> list[dict[str, Any]] | None:
    """``group`` of the commands ``{key: k, field: v}`` of type ``kind``, for each ``(k,
    values)`` of ``rows`` and each of its values, in that order: built from the rows, not
    from the commands (a set-up's or a landing phase's thousands, a movement phase's
    hundreds), the same choices.  None where ``group`` would tell them value by value (more
    keys than values; a key twice): group the commands then."""
    rows = [(k, values) for k, values in rows if values]
    count = sum(len(values) for _, values in rows)
    if count <= 1:
        return [_one(kind, key, field, rows[0][0], rows[0][1][0])] if count else []
    if len({k for k, _ in rows}) != len(rows):
        return None
    distinct = len({v for _, values in rows for v in values})
    # grouped by ``field`` (a choice a key): len(rows) groups; by ``key``: ``distinct``; the
    # fewer wins, the field first in name order on a tie (as ``_by_field_alike``)
    if len(rows) > distinct or (len(rows) == distinct and key < field):
        return None
    if len(rows) == count:  # one value each: nothing to share
        return [_one(kind, key, field, k, values[0]) for k, values in rows]
    out = [_one(kind, key, field, k, values[0]) if len(values) == 1 else
           {"type": kind, "data": {key: k}, "product": {field: list(values)}} for k, values in rows]
    alike: dict[tuple[Any, ...], list[int]] = {}  # as ``_merged``: keys with the same values, one choice
    for i, (_, values) in enumerate(rows):
        if len(values) > 1:
            alike.setdefault(tuple(values), []).append(i)
    if len(alike) == sum(map(len, alike.values())):
        return out
    gone: set[int] = set()
    for values, at in alike.items():
        if len(at) > 1:
            out[at[0]] = {"type": kind, "data": {}, "product": {key: [rows[i][0] for i in at], field: list(values)}}
            gone.update(at[1:])
    return [ch for i, ch in enumerate(out) if i not in gone]


def _one(kind: str, key: str, field: str, k: Any, v: Any) -> dict[str, Any]:
    return {"type": kind, "data": {key: k, field: v}, "product": {}}


def expand(choices: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every command the choices stand for, as ``{"type", "data"}``."""
    out = []
    for ch in choices:
        fields = list(ch["product"])
        for combo in itertools.product(*(ch["product"][f] for f in fields)):
            out.append({"type": ch["type"], "data": {**ch["data"], **dict(zip(fields, combo, strict=True))}})
    return out


def narrowed(choice: dict[str, Any], field: str, value: Any) -> dict[str, Any] | None:
    """The part of ``choice`` whose commands have ``field`` equal to ``value`` (None: none
    has), still a choice: a piece's own landings out of every piece's, never expanded whole."""
    if field in choice["data"]:
        return choice if choice["data"][field] == value else None
    values = choice["product"].get(field)
    if values is None or value not in values:
        return None
    return {**choice, "product": {**choice["product"], field: [value]}}


def count(choice: dict[str, Any]) -> int:
    """How many commands ``choice`` stands for."""
    return math.prod(len(values) for values in choice["product"].values())


def _key(value: Any) -> Any:
    """A field's value as a dict key (strings and numbers as they are)."""
    return value if isinstance(value, (str, int, float, bool, type(None))) else json.dumps(value, sort_keys=True)


def _grouped(kind: str, cmds: list[Command]) -> list[dict[str, Any]]:
    """One type's commands grouped by the field whose values, listed apart, make the
    fewest choices (only fields every command of the type has)."""
    best, best_field = (_by_field_alike(cmds) or _by_field(cmds)) if len(cmds) > 1 else (None, "")
    if best is None or len(best) == len(cmds):  # nothing to share
        return [{"type": kind, "data": c.data, "product": {}} for c in cmds]
    out = []
    for members in best.values():
        if len(members) == 1:
            out.append({"type": kind, "data": members[0].data, "product": {}})
        else:
            common = {k: v for k, v in members[0].data.items() if k != best_field}
            out.append({"type": kind, "data": common, "product": {best_field: [c.data[best_field] for c in members]}})
    return out


Grouping = tuple[dict[Any, list[Command]] | None, str]


def _by_field_alike(cmds: list[Command]) -> Grouping | None:
    """``_by_field`` for commands that all have the same fields of plain values (a landing
    phase's 3,000): each command's values read at once, all but one field a slice.  None:
    the commands differ in their fields, or a value is not hashable (``_by_field`` then)."""
    fields = cmds[0].data.keys()
    if not all(c.data.keys() == fields for c in cmds):
        return None
    names = sorted(fields)
    get = itemgetter(*names)
    rows = [get(c.data) for c in cmds] if len(names) > 1 else [(c.data[names[0]],) for c in cmds]
    best: dict[Any, list[Command]] | None = None
    best_field = ""
    try:
        for i, f in enumerate(names):
            groups: dict[Any, list[Command]] = {}
            for c, r in zip(cmds, rows, strict=True):
                groups.setdefault(r[:i] + r[i + 1:], []).append(c)
            if best is None or len(groups) < len(best):
                best, best_field = groups, f
    except TypeError:  # a list or a dict among the values
        return None
    return best, best_field


def _by_field(cmds: list[Command]) -> Grouping:
    """The commands grouped by all their shared fields but one, for the field that makes the
    fewest groups (None: no field is shared)."""
    shared = set(cmds[0].data)
    for c in cmds[1:]:
        shared &= set(c.data)
    best: dict[Any, list[Command]] | None = None
    best_field = ""
    for f in sorted(shared):
        groups: dict[Any, list[Command]] = {}
        for c in cmds:
            groups.setdefault(tuple((k, _key(v)) for k, v in sorted(c.data.items()) if k != f), []).append(c)
        if best is None or len(groups) < len(best):
            best, best_field = groups, f
    return best, best_field


def _merged(choices: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Choices of one field alike in all but one shared field, with the same values, as one
    choice of two fields (every unit due, by every hex any of them may land in)."""
    ones = [ch for ch in choices if len(ch["product"]) == 1]
    if len(ones) < 2:
        return choices
    best: dict[Any, list[dict[str, Any]]] | None = None
    best_field = ""
    for g in sorted({k for ch in ones for k in ch["data"]}):
        groups: dict[Any, list[dict[str, Any]]] = {}
        for ch in ones:
            if g not in ch["data"]:
                groups[("apart", id(ch))] = [ch]
                continue
            (f, values), = ch["product"].items()
            rest = tuple((k, _key(v)) for k, v in sorted(ch["data"].items()) if k != g)
            groups.setdefault((f, _key(values), rest), []).append(ch)
        if best is None or len(groups) < len(best):
            best, best_field = groups, g
    if best is None or len(best) == len(ones):
        return choices
    merged: dict[int, dict[str, Any]] = {}  # the first member's place -> the merged choice
    gone: set[int] = set()
    for members in best.values():
        if len(members) == 1:
            continue
        first = members[0]
        common = {k: v for k, v in first["data"].items() if k != best_field}
        merged[id(first)] = {"type": first["type"], "data": common,
                             "product": {best_field: [m["data"][best_field] for m in members], **first["product"]}}
        gone |= {id(m) for m in members[1:]}
    return [merged.get(id(ch), ch) for ch in choices if id(ch) not in gone]
