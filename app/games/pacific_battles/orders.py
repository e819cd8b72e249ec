"""The legal commands as Pacific Battles' board reads them: the pieces each is given to
and the hex it goes to.

Read from the game's choices (``engine.core.choices``: the compact list ``/legal`` and a
command's answer carry, once per state), not from the flat list: a landing phase's
1,500-3,000 landings are some 30 pieces by their hexes, and the board spells out only
the selected piece's own, the kinds short enough to list, and the commands that name
no piece."""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any, NamedTuple

from engine.core import choices
from engine.core.events import Command

UNIT_FIELDS = ("unit", "carrier", "engineer", "hq", "supply")  # the fields that name the pieces a command uses
PLACE_FIELDS = ("to", "hex", "target")  # the fields that name the hex a command goes to


class Order(NamedTuple):
    """A legal command with the pieces it uses and the hex it goes to."""

    command: Command
    owner: str | None  # the piece it is given to (the first piece named)
    owners: tuple[str, ...]  # every piece it uses: selecting any of them offers it (an HQ and its supply, 7.3)
    place: str | None  # the hex it goes to or aims at


def order(c: Command) -> Order:
    d = c.data
    pieces = tuple(v for v in (d[f] for f in UNIT_FIELDS if f in d) if isinstance(v, str))
    to = next((d[f] for f in PLACE_FIELDS if isinstance(d.get(f), str)), None)
    return Order(c, pieces[0] if pieces else None, pieces, to)


def owner(c: Command) -> str | None:
    """The piece a command is given to (a supply point only when it is the only one named)."""
    return order(c).owner


def place(c: Command) -> str | None:
    """The hex a command goes to or aims at."""
    return order(c).place


def _orders(listing: list[dict[str, Any]]) -> list[Order]:
    return [order(Command(c["type"], c["data"])) for c in choices.expand(listing)]


def _pieces_in(choice: dict[str, Any], field: str) -> list[Any]:
    if field in choice["data"]:
        return [choice["data"][field]]
    return list(choice["product"].get(field, ()))


def _names_a_piece(choice: dict[str, Any]) -> bool:
    """Whether some command of a choice names a piece."""
    return any(isinstance(v, str) for f in UNIT_FIELDS for v in _pieces_in(choice, f))


def _names_none_somewhere(choice: dict[str, Any]) -> bool:
    """Whether a choice that names pieces may also hold a command that names none (a piece
    field with a value that is no piece's id): spelt out then, to find those."""
    return any(not isinstance(v, str) for f in UNIT_FIELDS for v in _pieces_in(choice, f))


class Orders:
    """One side's legal commands in one state, asked by kind, by piece and by hex (once per
    state: shared by the requests that draw that state, read only)."""

    def __init__(self, listing: list[dict[str, Any]]) -> None:
        self._listing = listing
        self._of_piece: dict[str, list[Order]] = {}
        self._of_type: dict[str, list[Order]] = {}
        # the choices that name a piece in some command and those that never do
        self._named: list[dict[str, Any]] = []
        self._unnamed: list[dict[str, Any]] = []
        for ch in listing:
            (self._named if _names_a_piece(ch) else self._unnamed).append(ch)

    @property
    def types(self) -> list[str]:
        """The kinds of command, in the order the list names them."""
        return list(dict.fromkeys(ch["type"] for ch in self._listing))

    def names_pieces(self, kind: str) -> bool:
        """Whether some command of a kind is given to a piece (a move, a landing; not a recon)."""
        return any(ch["type"] == kind for ch in self._named)

    def count(self, kind: str) -> int:
        return sum(choices.count(ch) for ch in self._listing if ch["type"] == kind)

    def of_type(self, kind: str) -> list[Order]:
        """Every command of a kind (for the short kinds: a list's, a button's)."""
        if kind not in self._of_type:
            self._of_type[kind] = _orders([ch for ch in self._listing if ch["type"] == kind])
        return self._of_type[kind]

    def commands(self, kind: str) -> list[Command]:
        return [o.command for o in self.of_type(kind)]

    def of_piece(self, pid: str) -> list[Order]:
        """Every command ``pid`` takes part in (as the one it is given to or another it uses)."""
        if pid not in self._of_piece:
            out: list[Order] = []
            seen: set[str] = set()
            for ch in self._named:
                for f in UNIT_FIELDS:
                    part = choices.narrowed(ch, f, pid)
                    if part is None:
                        continue
                    for o in _orders([part]):  # (a piece named in two fields: its commands once)
                        key = json.dumps([o.command.type, o.command.data], sort_keys=True)
                        if key not in seen:
                            seen.add(key)
                            out.append(o)
            self._of_piece[pid] = out
        return self._of_piece[pid]

    def unowned(self) -> list[Order]:
        """The commands given to no piece (declare a battle on a hex, recon it, end the phase)."""
        if "" not in self._of_piece:
            mixed = [o for o in _orders([ch for ch in self._named if _names_none_somewhere(ch)]) if o.owner is None]
            self._of_piece[""] = _orders(self._unnamed) + mixed
        return self._of_piece[""]

    def pieces(self, skip: Collection[str] = ()) -> set[str]:
        """Every piece some command of a kind not in ``skip`` names."""
        return {v for ch in self._named if ch["type"] not in skip
                for f in UNIT_FIELDS for v in _pieces_in(ch, f) if isinstance(v, str)}
