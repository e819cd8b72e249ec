"""A record being written, and its exports (the file format is docs/fair-dice.md, "The
record file").

``Recorder`` is what an append path keeps per game: the entries, their links and hashes,
and the three secrets (the top seeds of the open and hidden chains, the record's salt)
it publishes when their time comes.  Every ``append`` is one ``chain_next``; a server that
stores the entries elsewhere needs only ``engine.core.record.link`` and ``chain_next``
with the previous entry's hash.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.core import record as rec
from engine.core import seeds

FORMAT, VERSION = "hexwar-record", 1
ADMIN, SPECTATOR = "admin", "spectator"  # the viewers of an export besides the sides


class Recorder:
    def __init__(self, game: str, sides: Iterable[str], hidden_information: bool, *, open_top: str,
                 hidden_top: str, record_salt: str, periods: int) -> None:
        self.game, self.sides, self.hidden_information = game, tuple(sorted(sides)), hidden_information
        self.periods = periods
        self._tops = {seeds.OPEN: open_top, seeds.HIDDEN: hidden_top}
        self._chains = {c: seeds.chain(top, periods) for c, top in self._tops.items()}
        self.record_salt = record_salt
        self.entries: list[dict[str, Any]] = []
        self.links: list[dict[str, Any]] = []
        self.hashes: list[str] = []
        self.entropy: dict[str, str] = {}
        self.published: dict[str, dict[int, str]] = {c: {} for c in seeds.CHAINS}
        self.events = 0  # event entries so far: the next event's number
        self.append({"kind": rec.DICE, "game": game, "sides": list(self.sides),
                     "hidden_information": hidden_information, "periods": periods,
                     seeds.OPEN: self._chains[seeds.OPEN][0], seeds.HIDDEN: self._chains[seeds.HIDDEN][0]})

    @property
    def head(self) -> str:
        return self.hashes[-1] if self.hashes else rec.GENESIS

    def append(self, entry: dict[str, Any]) -> str:
        """Adds ``entry`` (its ``seq`` is set here) and returns its hash."""
        entry = {**entry, "seq": len(self.entries)}
        link = rec.link(entry, self.record_salt, self.sides, self.hidden_information)
        self.hashes.append(rec.chain_next(self.head, link))
        self.entries.append(entry)
        self.links.append(link)
        if entry["kind"] == rec.ENTROPY:
            self.entropy[entry["side"]] = entry["entropy"]
        elif entry["kind"] == rec.EVENT:
            self.events += 1
        elif entry["kind"] == rec.SEED:
            self.published[entry["chain"]][entry["period"]] = entry["seed"]
        return self.hashes[-1]

    # -- the parts of a record an append path writes --------------------------------

    def entropy_commit(self, side: str, commitment: str) -> str:
        return self.append({"kind": rec.ENTROPY_COMMIT, "side": side, "commitment": commitment})

    def entropy_reveal(self, side: str, entropy: str) -> str:
        return self.append({"kind": rec.ENTROPY, "side": side, "entropy": entropy})

    def command(self, command: dict[str, Any]) -> str:
        """A command (``Command.to_json()``): the events after it, up to the next command, are
        what the rules decided for it."""
        return self.append({"kind": rec.COMMAND, "command": command})

    def event(self, event: dict[str, Any], key: tuple[str, int] | None = None,
              rolls: list[list[int]] | None = None) -> str:
        """An event (``Event.to_json()``), numbered in order, with the dice key its decision
        used ([chain, period]), and the rolls made while it was the next event ([event
        number, index, sides, value]) when that key is the open chain's (engine/record/play.py,
        ``append_batch``)."""
        entry: dict[str, Any] = {"kind": rec.EVENT, "n": self.events, "event": event}
        if key is not None:
            entry["key"] = list(key)
        if rolls:
            entry["rolls"] = [list(r) for r in rolls]
        return self.append(entry)

    def chat(self, side: str | None, text: str, at: str = "", readers: list[str] | None = None) -> str:
        entry: dict[str, Any] = {"kind": rec.CHAT, "side": side, "text": text, "at": at}
        if readers is not None:
            entry[rec.READERS] = sorted(readers)
        return self.append(entry)

    def note(self, kind: str, **data: Any) -> str:
        """A clock entry or an admin's act (``kind`` "clock" or "admin"), any JSON data."""
        return self.append({"kind": kind, **data})

    def seed(self, chain: str, period: int) -> str:
        """The (secret) seed of ``period``: the server's alone until published."""
        if not 1 <= period <= self.periods:
            raise ValueError(f"the chains have {self.periods} periods, not {period}")
        return self._chains[chain][period]

    def key(self, chain: str, period: int) -> str:
        """The dice key of ``period`` on ``chain`` (``engine.core.dice.roll``'s secret); a
        published seed's key would give dice the players can foresee, so it is refused."""
        if period in self.published[chain] or any(k >= period for k in self.published[chain]):
            raise ValueError(f"the {chain} seed of period {period} is published already")
        return seeds.turn_key(self.seed(chain, period), self.entropy)

    def publish_seed(self, chain: str, period: int) -> str:
        return self.append({"kind": rec.SEED, "chain": chain, "period": period, "seed": self.seed(chain, period)})

    def finish(self) -> None:
        """At the game's end: both top seeds and the record's salt, so that every roll, every
        sealed entry and the whole log can be checked."""
        for chain in seeds.CHAINS:
            if self.periods not in self.published[chain]:
                self.publish_seed(chain, self.periods)
        self.append({"kind": rec.SALT, "salt": self.record_salt})

    @property
    def over(self) -> bool:
        return any(e["kind"] == rec.SALT for e in self.entries)

    def export(self, viewer: str) -> dict[str, Any]:
        return export(self.game, self.entries, self.links, self.hashes, viewer, self.sides,
                      self.hidden_information, self.record_salt)


def export(game: str, entries: list[dict[str, Any]], links: list[dict[str, Any]], hashes: list[str], viewer: str,
           sides: Iterable[str], hidden_information: bool, record_salt: str) -> dict[str, Any]:
    """The record as ``viewer`` (a side, ``SPECTATOR`` or ``ADMIN``) may have it: each entry
    it may read whole (with its salt when it is sealed for the others), only the link of
    any other.  Once the record's salt is published (the game is over) everybody reads all."""
    sides = tuple(sides)
    if viewer not in (*sides, ADMIN, SPECTATOR):
        raise ValueError(f"no viewer {viewer!r}: one of {', '.join((*sides, ADMIN, SPECTATOR))}")
    over = any(e["kind"] == rec.SALT for e in entries)
    items = []
    for entry, link, hash_ in zip(entries, links, hashes, strict=True):
        item: dict[str, Any] = {"seq": entry["seq"], "hash": hash_}
        if link == entry:  # every side reads it
            item["entry"] = entry
        elif over or viewer == ADMIN or (viewer in sides and viewer in link[rec.READERS]):
            item["entry"] = entry
            item["salt"] = rec.entry_salt(record_salt, entry["seq"])
        else:
            item["link"] = link
        items.append(item)
    return {"format": FORMAT, "version": VERSION, "game": game, "viewer": viewer, "entries": items}
