"""Record version 2's dice on the server: the seed chains a game commits to, the players'
entropy, and each decision keyed by its period (engine/core/seeds.py and
engine/record/keyed.py decide; docs/fair-dice.md tells a player how to check).

At creation the server draws the top seeds of the open and the hidden chain
(``games.dice_tops``, its secret) and the record's entry 0 holds both chains'
commitments.  Each player then gives entropy (``seats.entropy``): its commitment is
chained at once, and once every side's is in, every side's is revealed.  A seat that gave
none when the first command comes gets entropy the server makes for it then, and its
commitment says so (``made_by``): so no die is rolled before every side's entropy is in.
The game's creation rolls none (a test holds every registered game to it): it comes before
the entropy, with no dice secret.

Each decision then rolls with its period's key on the open chain, or on the hidden one
when, made with the open key, it would write a roll some side may not read.  A decision
that starts a new period publishes the open seed of the one before it (the players check
that period's dice at once); the game's end publishes both chains' top seeds and the
record's salt.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import SimpleNamespace
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import Game, RecordEntry, Seat
from engine.core import dice, seeds
from engine.core import record as rec
from engine.core.errors import RuleError
from engine.record.keyed import decide_keyed, next_period, outcome_keyed, rolls_by_event

VERSION = 2  # the record version of a game whose dice come from these chains
PERIODS = 1024  # periods per chain: a turn each, and one more for each turn played again
ENTROPY_MAX = 200  # characters of a player's entropy
SERVER = "server"  # who made a seat's entropy when its player gave none
PLAYER = "player"


class NeedsRead(Exception):
    """The event loop cannot key this decision without reading the game (the thread path does)."""


class EntropyRefused(Exception):
    """A player's entropy that cannot be taken (the reason is for the player)."""


def new_tops() -> str:
    """The open and the hidden chain's top seeds, 64 hex digits each, as ``games.dice_tops``."""
    return secrets.token_hex(32) + secrets.token_hex(32)


@lru_cache(maxsize=256)
def chains(tops: str) -> Mapping[str, tuple[str, ...]]:
    """Each chain's ``[commitment, seed[1], ..., seed[PERIODS]]``."""
    return {seeds.OPEN: tuple(seeds.chain(tops[:64], PERIODS)), seeds.HIDDEN: tuple(seeds.chain(tops[64:], PERIODS))}


def commitments(tops: str) -> dict[str, str]:
    return {c: chains(tops)[c][0] for c in seeds.CHAINS}


@lru_cache(maxsize=1024)
def _key(tops: str, chain: str, period: int, entropy: tuple[tuple[str, str], ...]) -> str:
    return seeds.turn_key(chains(tops)[chain][period], dict(entropy))


def check_entropy(text: Any) -> str:
    """A player's entropy as given, or ``EntropyRefused``."""
    if not isinstance(text, str) or not text.strip():
        raise EntropyRefused("your part of the dice is a text of 1 to 200 characters (the page makes a random one)")
    if len(text) > ENTROPY_MAX:
        raise EntropyRefused(f"your part of the dice is at most {ENTROPY_MAX} characters")
    return text


@dataclass(frozen=True)
class Material:
    """A game's dice material as this worker knows it: its top seeds and the entropy given."""
    tops: str
    sides: tuple[str, ...]
    entropy: Mapping[str, str] = field(default_factory=dict)
    revealed: bool = False  # every side's entropy is shown in the record: the dice are fixed


_MATERIAL: OrderedDict[str, Material] = OrderedDict()  # game -> material, once every entropy is in
_LOCK = threading.Lock()
_SIZE = 4096


def material(session: Session | None, game_id: str) -> Material:
    """The game's material: from memory once every side's entropy is in (it never changes
    then), else read (``NeedsRead`` without a session)."""
    with _LOCK:
        known = _MATERIAL.get(game_id)
    if known is not None:
        return known
    if session is None:
        raise NeedsRead(game_id)
    shown = revealed(session, game_id)  # first: a reveal committed since is then seen with its entropy
    tops = session.scalar(select(Game.dice_tops).where(Game.id == game_id))
    rows = session.execute(select(Seat.side, Seat.entropy).where(Seat.game_id == game_id)).all()
    got = Material(tops or "", tuple(sorted(r.side for r in rows)),
                   {r.side: r.entropy for r in rows if r.entropy is not None}, shown)
    remember(game_id, got)
    return got


def remember(game_id: str, got: Material) -> None:
    """The material of a game whose entropy was just shown (its first command, written)."""
    if got.revealed:
        with _LOCK:
            _MATERIAL[game_id] = got
            while len(_MATERIAL) > _SIZE:
                _MATERIAL.popitem(last=False)


def revealed(session: Session, game_id: str) -> bool:
    """Whether the game's record shows the entropy (the dice are fixed from then on)."""
    shown = select(RecordEntry.record_seq).where(RecordEntry.game_id == game_id,
                                                 RecordEntry.entry["kind"].as_string() == rec.ENTROPY).limit(1)
    return session.scalar(shown) is not None


@dataclass
class Keyed:
    """A decision's dice: its key (chain, period), the turn it started in, its rolls, and the
    record's entries written with it (``preface`` before its command, ``postface`` after
    its events; ``filled``: entropy the server made for seats that gave none)."""
    chain: str
    period: int
    turn: int
    rolls: list[list[int]]
    preface: list[dict[str, Any]] = field(default_factory=list)
    postface: list[dict[str, Any]] = field(default_factory=list)
    filled: dict[str, str] = field(default_factory=dict)
    shown: Material | None = None  # the game's material once this (its first command) is written

    @property
    def shows_entropy(self) -> bool:
        """It writes the entropy's reveal (the game's first command): decided on the entropy
        as read, it is written on that record or not at all."""
        return any(e["kind"] == rec.ENTROPY for e in self.preface)

    @property
    def extra(self) -> bool:
        """It writes entries besides its command and events."""
        return bool(self.preface or self.postface)

    def columns(self, first: int, count: int) -> list[dict[str, Any]]:
        """``events.dice`` of each of the decision's ``count`` events from number ``first``."""
        by_event = rolls_by_event(self.rolls, first, count) if count else {}
        return [{"key": [self.chain, self.period], "turn": self.turn, "rolls": by_event.get(first + i, [])}
                for i in range(count)]


def decide(rules: Any, state: Any, command: Any, period: int, last_turn: int | None, salt: str,
           got: Material, ruling: bool = False) -> tuple[Any, Keyed]:
    """``rules.outcome`` of ``command`` keyed for its period (the last decision's was
    ``period``, started in ``last_turn``), and its ``Keyed``; ``ruling``: an admin's
    ruling, which only ``rules.decide`` knows (its outcome has only its events and the
    state after them).  ``RuleError``: refused."""
    turn = rules.headline(state).turn
    now = next_period(period, last_turn, turn)
    if now > PERIODS:
        raise RuleError("", f"this game has played all of its {PERIODS} dice periods: an admin must end it")
    preface: list[dict[str, Any]] = []
    entropy, filled = dict(got.entropy), {}
    if not got.revealed:  # the first command: the seats that gave nothing get the server's
        for side in got.sides:
            if side not in entropy:
                filled[side] = entropy[side] = secrets.token_hex(16)
                preface.append({"kind": rec.ENTROPY_COMMIT, "side": side,
                                "commitment": seeds.entropy_commitment(entropy[side]), "made_by": SERVER})
        preface += [{"kind": rec.ENTROPY, "side": side, "entropy": entropy[side]} for side in got.sides]
    if now > period:  # the period before is over: its open seed comes out
        preface.append({"kind": rec.SEED, "chain": seeds.OPEN, "period": now - 1,
                        "seed": chains(got.tops)[seeds.OPEN][now - 1]})
    frozen = tuple(sorted(entropy.items()))
    key = lambda c: _key(got.tops, c, now, frozen)  # noqa: E731 - the one place it is made
    if ruling:
        events, rolls, chain = decide_keyed(rules, state, command, key)
        after = rules.clone(state)
        for event in events:
            rules.apply(after, event)
        out: Any = SimpleNamespace(events=events, state=after)
    else:
        out, rolls, chain = outcome_keyed(rules, state, command, key)
    postface: list[dict[str, Any]] = []
    if out.state.result is not None:  # over: every seed, and the salt of the sealed entries
        postface = [{"kind": rec.SEED, "chain": c, "period": PERIODS, "seed": chains(got.tops)[c][PERIODS]}
                    for c in seeds.CHAINS] + [{"kind": rec.SALT, "salt": salt}]
    shown = None if got.revealed else Material(got.tops, got.sides, entropy, True)
    return out, Keyed(chain, now, turn, rolls, preface, postface, filled, shown)


def row_secret(game: Game, got: Material | None, dice: dict[str, Any] | None) -> str:
    """The dice key an event's decision used, for the admin's desk (a game of one secret:
    that secret; "" when the event says none, or the entropy is not all in)."""
    if game.record_version < VERSION:
        return game.dice_secret
    if not dice or got is None or set(got.entropy) != set(got.sides):
        return ""
    chain, period = dice["key"]
    return _key(got.tops, chain, period, tuple(sorted(got.entropy.items())))


def desk_commitment(game: Game) -> str:
    """What the admin's desk shows the game committed to: its secret's hash, or its chains'."""
    if game.record_version < VERSION or not game.dice_tops:
        return dice.commitment(game.dice_secret)
    c = commitments(game.dice_tops)
    return f"open chain {c[seeds.OPEN]}, hidden chain {c[seeds.HIDDEN]}"


def unrolled(chain: Any) -> Keyed:
    """The dice of a decision that rolls nothing and is made from the log, not decided (an
    admin's rewind): the key of the last decision's period, which never goes back."""
    return Keyed(seeds.OPEN, chain.period, chain.turn, [])


def throwaway_secret() -> str:
    """A dice key for a question that writes nothing (why a command is refused): its dice are
    never seen, and no key of the game's is used for them."""
    return secrets.token_hex(32)


def status(session: Session, game: Game, viewer: str | None) -> dict[str, Any] | None:
    """What anybody may know of a game's dice (None: a game of one secret): the chains'
    commitments, each side's entropy commitment (and its entropy once shown), the seeds
    published so far.  ``viewer``'s own entropy is shown to it before the reveal."""
    if game.record_version < VERSION or not game.dice_tops:
        return None
    entries = session.scalars(select(RecordEntry.entry).where(RecordEntry.game_id == game.id)
                              .order_by(RecordEntry.record_seq)).all()
    sides: dict[str, dict[str, Any]] = {s.side: {"commitment": None, "made_by": None, "entropy": None}
                                        for s in game.seats}
    published: dict[str, dict[str, str]] = {c: {} for c in seeds.CHAINS}
    for e in entries:
        if e["kind"] == rec.ENTROPY_COMMIT and e["side"] in sides:
            sides[e["side"]].update(commitment=e["commitment"], made_by=e.get("made_by", PLAYER))
        elif e["kind"] == rec.ENTROPY and e["side"] in sides:
            sides[e["side"]]["entropy"] = e["entropy"]
        elif e["kind"] == rec.SEED:
            published[e["chain"]][str(e["period"])] = e["seed"]
    for seat in game.seats:
        if seat.side == viewer and seat.entropy is not None:
            sides[seat.side]["entropy"] = seat.entropy
    return {"record_version": game.record_version, "periods": PERIODS, "commitments": commitments(game.dice_tops),
            "sides": sides, "revealed": any(e["kind"] == rec.ENTROPY for e in entries),
            "period": game.dice_period, "published": published}
