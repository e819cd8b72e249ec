"""A game's record as a hash chain: every entry (an event, a chat line, a clock entry, an
admin's act, a published seed...) is linked to all before it, so that nobody can change,
drop or insert one without every later hash changing (docs/fair-dice.md).

An entry is a JSON object with its ``seq`` (its place in the record, from 0) and ``kind``.
Its *link* is what the chain hashes:

* an entry every side may read is its own link;
* an entry some side may not read (a hidden event, a command of a game with hidden
  information, a line to one side) links as ``{"seq", "kind", "readers", "public",
  "sealed"}``: who may read it, what the others may (``public``, or null), and a salted
  hash of the whole entry.  A side that may not read it gets only this link, which still
  links the chain, and cannot guess what is sealed: the salt of each entry is an HMAC of
  the record's salt, a secret published when the game is over.

``hash[k] = SHA-256(canonical(link[k]) || hash[k-1])`` with ``hash[-1] = GENESIS`` (64
zeros), the previous hash taken as its 64 ASCII hex digits, and ``canonical`` the JSON
Canonicalization Scheme (RFC 8785).  ``chain_next(prev_hash, link)`` is the one step an
append path needs.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from typing import Any

import orjson
import rfc8785

from engine.core.visibility import PUBLIC, SEEN_BY

GENESIS = "0" * 64
EVENT, COMMAND, CHAT, CLOCK, ADMIN_ACT = "event", "command", "chat", "clock", "admin"
DICE, ENTROPY_COMMIT, ENTROPY, SEED, SALT = "dice", "entropy_commit", "entropy", "seed", "salt"
READERS = "readers"  # on a chat line, clock or admin entry: the sides that may read it (absent: all)
CREATED = "game_created"  # its data holds the game's secret: nobody reads it whole before the end


def canonical(obj: Any) -> bytes:
    """RFC 8785 canonical JSON (sorted keys, no spaces, ECMAScript numbers, UTF-8).

    The record's entries hold no floats and only ASCII keys; for such data orjson's
    compact, key-sorted output is byte for byte the canonical form (tested against the
    reference implementation) at a fifth of its cost, paid on every append.  Anything
    else (a float, a non-ASCII key, an integer beyond 2**53 - 1, a lone surrogate) takes the
    reference implementation."""
    if _plain(obj):
        try:
            return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)
        except orjson.JSONEncodeError:  # a lone surrogate in a string: RFC 8785 escapes it
            pass
    return rfc8785.dumps(obj)


_SAFE_INT = 2**53 - 1  # I-JSON's integers (RFC 8785 writes numbers as doubles; its library refuses more)


def _plain(value: Any) -> bool:
    """Whether ``value`` is JSON on which the fast form and RFC 8785 agree: strings,
    booleans, null, integers within 2**53 - 1, and lists and objects (ASCII keys, whose order
    is then the same by UTF-16 units as by code points) of such."""
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return True
    if kind is int:
        return -_SAFE_INT <= value <= _SAFE_INT
    if kind is dict:
        return all(type(k) is str and k.isascii() and _plain(v) for k, v in value.items())
    if kind is list or kind is tuple:
        return all(_plain(v) for v in value)
    return False


def chain_next(prev_hash: str, link: dict[str, Any]) -> str:
    """The hash of the entry whose link is ``link``, after the entry hashed ``prev_hash``
    (``GENESIS`` for the first)."""
    return hashlib.sha256(canonical(link) + prev_hash.encode("ascii")).hexdigest()


def entry_salt(record_salt: str, seq: int) -> str:
    """The salt of entry ``seq``: HMAC-SHA256 keyed by the record's salt over ``salt:<seq>``.
    A side gets the salts of the hidden entries it may read, and nothing else follows from them."""
    return hmac.new(record_salt.encode(), f"salt:{seq}".encode(), hashlib.sha256).hexdigest()


def seal(salt: str, entry: dict[str, Any]) -> str:
    """The sealed hash of a hidden entry: HMAC-SHA256 keyed by its salt over its canonical JSON."""
    return hmac.new(salt.encode(), canonical(entry), hashlib.sha256).hexdigest()


def visibility(entry: dict[str, Any], sides: Iterable[str], hidden_information: bool) -> tuple[list[str] | None, Any]:
    """Who may read ``entry`` whole (None: every side) and what the others may read of it.

    An event follows its ``seen_by`` (engine/core/visibility.py: the others read its
    ``public`` stub); the game's creation holds the dice secret, so nobody reads it whole
    before the end (the others read it without the secret).  In a game with hidden
    information a player's command is its side's alone (its events say what the others may
    know of it); the server's own commands (no side: an admin's ruling) are everybody's.
    Any other entry follows its ``readers`` (absent: everybody)."""
    sides = sorted(set(sides))
    kind = entry.get("kind")
    if kind == COMMAND:
        side = (entry.get("command") or {}).get("side")
        return ([side], None) if hidden_information and side is not None else (None, None)
    if kind != EVENT:
        listed = entry.get(READERS)
        return (None, None) if listed is None else (sorted(set(listed)), None)
    event = entry.get("event") or {}
    data = event.get("data") or {}
    if event.get("type") == CREATED:
        return [], {"event": {**event, "data": {k: v for k, v in data.items() if k != "secret"}}}
    if data.get(SEEN_BY) is None:
        return None, None
    readers = set(sides) & set(data[SEEN_BY])
    if readers >= set(sides):
        return None, None
    public = None if data.get(PUBLIC) is None else {"event": {**event, "data": dict(data[PUBLIC])}}
    return sorted(readers), public


def link(entry: dict[str, Any], record_salt: str, sides: Iterable[str], hidden_information: bool) -> dict[str, Any]:
    """What the chain hashes for ``entry`` (the entry itself, or its sealed link)."""
    readers, public = visibility(entry, sides, hidden_information)
    if readers is None:
        return entry
    return sealed_link(entry, entry_salt(record_salt, entry["seq"]), readers, public)


def sealed_link(entry: dict[str, Any], salt: str, readers: list[str], public: Any) -> dict[str, Any]:
    return {"seq": entry["seq"], "kind": entry["kind"], READERS: readers, "public": public,
            "sealed": seal(salt, entry)}

