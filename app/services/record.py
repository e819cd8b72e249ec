"""A game's record as a hash chain, kept with its log (engine/core/record.py, docs/fair-dice.md).

Every event appended gets its entry's hash, ``chain_next(previous hash, link)``, stored
with it (``events.record_hash``); a batch of a player's command starts with the
command's own entry, whose hash the batch's first event keeps (``command_hash``); an
admin's act on the game (``store.add_audit``) is an entry too, its hash kept in its
audit row, and so are a chat line and a player's act on the clock (their rows keep
their place and hash; a chat line is sealed for anybody but the players).  The
game row keeps its record's version, salt (the key of the sealed links, secret until the
game is over), length and head; the append's optimistic lock checks the head too, so
that two writers never chain two entries to one.

Record version 2 (a game made now): the dice come from the seed chains entry 0 commits to
and both players' entropy (app/services/dice_keys.py); the entropy's commitments and
reveals, the seeds published and the salt at the end are rows of ``record_entries``, and
each event keeps its decision's key and rolls (``events.dice``).

Record version 1 (games made before it, and a server whose dice are fixed for tests): the
dice are ``engine.core.dice.roll`` of the game's secret (in its creation event, sealed from
everybody until the game is over).  So entry 0 commits to no seed (its commitments are 64
zeros, which no seed hashes to), each side's entropy is the empty text, every event is
keyed to period 1 of the hidden chain (whose seed is never published) and lists no rolls:
the record proves the order and content of the log, not the dice.  A game of version 0
(made before the chain) has none.

The hot path computes a batch's hashes from the game's chain as this worker last wrote
it (``remembered``): the event loop's single-statement write has no time to read it
first.  Where this worker has not written the game at that length, the write is sent
with a head that matches no game, finds no row, and the thread path writes it after
reading the head (app/store.py).
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import AdminAudit, ChatMessage, ClockAct, EventRow, Game, RecordEntry
from app.services import dice_keys
from engine.core import record as rec
from engine.core import seeds
from engine.core.events import Event
from engine.games import get_rules
from engine.record import book
from engine.record.check import Verdict, verify_record

LEGACY = 1  # the record version of a game whose dice come from its one secret (see above)
PERIODS = 1
KEY = [seeds.HIDDEN, 1]  # what every event of version 1 says keyed its dice (see above), and
# version 2's creation, which rolls nothing and comes before the entropy
NO_SEED = rec.GENESIS  # the commitment of a chain of version 1: none
NO_ENTROPY = ""
NOTE = ("record version 1: the dice are engine.core.dice.roll of the game's secret (in its creation event); "
        "no seed is committed to, no entropy given")
MISSING_HEAD = "-"  # a head no game has: the write finds no row, and the thread path writes it


def new_salt() -> str:
    return secrets.token_hex(32)


def _plain(value: Any) -> Any:
    """``value`` as the database gives it back (JSON: string keys, lists), so that the hash
    computed on writing is the one computed on reading."""
    return orjson.loads(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS))


@dataclass(frozen=True)
class Chain:
    """A game's record as far as its log's ``events`` events: ``seq`` entries, the last hashed ``head``."""
    game: str
    salt: str
    events: int
    seq: int
    head: str
    version: int = LEGACY
    period: int = 1  # version 2: the period of the last decision, and the turn it started in
    turn: int | None = None

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(sorted(get_rules(self.game).sides))

    @property
    def hidden_information(self) -> bool:
        return bool(get_rules(self.game).hidden_information)

    def link(self, entry: dict[str, Any]) -> dict[str, Any]:
        return rec.link(entry, self.salt, self.sides, self.hidden_information)


def prefix(game: str, version: int = LEGACY, commitments: dict[str, str] | None = None,
           periods: int = PERIODS) -> list[dict[str, Any]]:
    """The entries before the first event: entry 0 (the dice commitments: none in version 1)
    and, in version 1, each side's empty entropy (version 2's come later, as given)."""
    rules = get_rules(game)
    sides = sorted(rules.sides)
    if version >= 2 and commitments is not None:
        return [{"kind": rec.DICE, "game": rules.id, "sides": sides,
                 "hidden_information": bool(rules.hidden_information), "periods": periods,
                 **commitments, "record_version": version, "seq": 0}]
    out: list[dict[str, Any]] = [{"kind": rec.DICE, "game": rules.id, "sides": sides,
                                  "hidden_information": bool(rules.hidden_information), "periods": PERIODS,
                                  seeds.OPEN: NO_SEED, seeds.HIDDEN: NO_SEED, "record_version": LEGACY,
                                  "note": NOTE}]
    out += [{"kind": rec.ENTROPY_COMMIT, "side": s, "commitment": seeds.entropy_commitment(NO_ENTROPY)}
            for s in sides]
    out += [{"kind": rec.ENTROPY, "side": s, "entropy": NO_ENTROPY} for s in sides]
    return [{**e, "seq": k} for k, e in enumerate(out)]


def start(game: str, salt: str, version: int = LEGACY, commitments: dict[str, str] | None = None,
          periods: int = PERIODS) -> Chain:
    """The chain of a new game, before its first event."""
    head = rec.GENESIS
    entries = prefix(game, version, commitments, periods)
    chain = Chain(game, salt, 0, len(entries), head, version)
    for entry in entries:
        head = rec.chain_next(head, chain.link(entry))
    return replace(chain, head=head)


def command_entry(command: dict[str, Any], seq: int) -> dict[str, Any]:
    return {"kind": rec.COMMAND, "command": _plain(command), "seq": seq}


def event_entry(n: int, event: dict[str, Any], seq: int, dice: dict[str, Any] | None = None) -> dict[str, Any]:
    """An event's entry; ``dice``: its ``events.dice`` (version 2), whose rolls are listed when
    its key is the open chain's (a hidden decision's come out with its seed, at the end)."""
    entry = {"kind": rec.EVENT, "n": n, "event": _plain(event), "key": list(dice["key"]) if dice else list(KEY),
             "seq": seq}
    if dice and dice["rolls"] and dice["key"][0] == seeds.OPEN:
        entry["rolls"] = [list(r) for r in dice["rolls"]]
    return entry


@dataclass(frozen=True)
class Batched:
    """A batch's record: each event's columns (``record_seq``, ``record_hash``,
    ``command_hash``, ``dice``), the other entries written with it (rows of
    ``record_entries``) and the chain after it."""
    columns: list[dict[str, Any]]
    entries: list[dict[str, Any]]
    after: Chain


def chain_batch(chain: Chain, events: list[Event], command: dict[str, Any] | None, keyed: Any = None) -> Batched:
    """The batch's record (``command``: the stored command of the batch's first event;
    ``keyed``: its decision's dice, ``app.services.dice_keys.Keyed``, in version 2)."""
    seq, head = chain.seq, chain.head
    entries: list[dict[str, Any]] = []

    def add(items: list[dict[str, Any]]) -> None:
        nonlocal seq, head
        for item in items:
            entry = {**_plain(item), "seq": seq}
            head = rec.chain_next(head, chain.link(entry))
            entries.append({"record_seq": seq, "entry": entry, "record_hash": head})
            seq += 1

    if keyed is not None:
        add(keyed.preface)
    command_hash = None
    if command is not None and events:
        head = command_hash = rec.chain_next(head, chain.link(command_entry(command, seq)))
        seq += 1
    dice = keyed.columns(chain.events, len(events)) if keyed is not None else [None] * len(events)
    out = []
    for i, event in enumerate(events):
        head = rec.chain_next(head, chain.link(event_entry(chain.events + i, event.to_json(), seq, dice[i])))
        out.append({"record_seq": seq, "record_hash": head, "command_hash": command_hash if i == 0 else None,
                    "dice": dice[i]})
        seq += 1
    if keyed is not None:
        add(keyed.postface)
    after = replace(chain, events=chain.events + len(events), seq=seq, head=head)
    if keyed is not None:
        after = replace(after, period=keyed.period, turn=keyed.turn)
    return Batched(out, entries, after)


def admin_entry(admin: str, action: str, detail: dict[str, Any], seq: int) -> dict[str, Any]:
    """An admin's act on the game (the admin audit's row): every side reads it."""
    return {"kind": rec.ADMIN_ACT, "admin": admin, "act": action, "detail": _plain(detail), "seq": seq}


def chat_entry(side: str, text: str, at: datetime, seq: int, sides: tuple[str, ...]) -> dict[str, Any]:
    """A chat line (its row in chat_messages): the players read it; anybody else's copy of
    the record holds it sealed (a spectator reads the chat only while both players allow)."""
    return {"kind": rec.CHAT, "side": side, "text": text, "at": stamp(at), rec.READERS: sorted(sides), "seq": seq}


def clock_entry(side: str, action: str, days: int, at: datetime, seq: int) -> dict[str, Any]:
    """A player's act on the clock (its row in clock_acts: a vacation taken, time granted):
    every side reads it, as the board shows it."""
    return {"kind": rec.CLOCK, "side": side, "act": action, "days": days, "at": stamp(at), "seq": seq}


def stamp(at: datetime) -> str:
    """A moment as an entry holds it, the same written as read back (SQLite gives the
    stored time back without its zone: it is UTC)."""
    utc = at.astimezone(UTC) if at.tzinfo is not None else at
    return utc.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def chain_entry(chain: Chain, entry: dict[str, Any]) -> tuple[str, Chain]:
    """The hash of ``entry`` (made for the chain's next place) as the chain's next entry, and
    the chain after it."""
    head = rec.chain_next(chain.head, chain.link(entry))
    return head, replace(chain, seq=chain.seq + 1, head=head)


# --- what this worker last wrote of each game's chain ------------------------------------------

_CHAINS: OrderedDict[str, tuple[int, Chain | None]] = OrderedDict()  # game -> (events, chain or None)
_LOCK = threading.Lock()
_SIZE = 4096


def remember(game_id: str, chain: Chain | None, events: int, read: bool = False) -> None:
    """The game's chain (None: a game without one) once its log is ``events`` long (``read``:
    as a game row read says, which never replaces what this worker knows of a longer log)."""
    with _LOCK:
        if read and (known := _CHAINS.get(game_id)) is not None and known[0] > events:
            return
        _CHAINS[game_id] = (events, chain)
        _CHAINS.move_to_end(game_id)
        while len(_CHAINS) > _SIZE:
            _CHAINS.popitem(last=False)


def remembered(game_id: str, events: int) -> tuple[bool, Chain | None]:
    """(known, chain) of the game when its log was ``events`` long, as this worker last wrote
    it (known False: not remembered; chain None: a game without a chain)."""
    with _LOCK:
        got = _CHAINS.get(game_id)
    if got is None or got[0] != events:
        return False, None
    return True, got[1]


def forget(game_id: str) -> None:
    with _LOCK:
        _CHAINS.pop(game_id, None)


def noted(game: Any) -> Any:
    """Remember the chain of a game row just read (a ``Game``, or a row of its columns: the
    event loop's next write on it needs it)."""
    if game.record_version and (game.record_salt is None or game.record_head is None):
        return game  # no event yet
    remember(game.id, chain_of(game), game.seq, read=True)
    return game


def chain_of(game: Any) -> Chain | None:
    """The chain as the game row read says (None: version 0, or no event yet)."""
    if not game.record_version or game.record_salt is None or game.record_head is None:
        return None
    return Chain(game.game, game.record_salt, game.seq, game.record_seq, game.record_head, game.record_version,
                 game.dice_period, game.dice_turn)


# --- reading the record back ---------------------------------------------------------------------

@dataclass
class Record:
    entries: list[dict[str, Any]]
    links: list[dict[str, Any]]
    hashes: list[str]
    sides: tuple[str, ...]
    hidden_information: bool

    @property
    def head(self) -> str:
        return self.hashes[-1] if self.hashes else rec.GENESIS


def has_chain(game: Game) -> bool:
    return bool(game.record_version) and game.record_salt is not None


def read(session: Session, game: Game) -> Record:
    """The game's record: its entries rebuilt from the stored log, with the hashes stored
    (so that a changed byte makes the checker name its entry)."""
    commitments, periods = dice_commitments(game)
    chain = start(game.game, game.record_salt or "", game.record_version, commitments, periods)
    entries = prefix(game.game, game.record_version, commitments, periods)
    links = [chain.link(e) for e in entries]
    hashes, head = [], rec.GENESIS
    for link in links:
        head = rec.chain_next(head, link)
        hashes.append(head)
    placed: list[tuple[int, dict[str, Any], str]] = []  # (place, entry, hash stored) of each later entry
    rows = session.execute(select(EventRow.seq, EventRow.type, EventRow.payload, EventRow.side, EventRow.command,
                                  EventRow.record_seq, EventRow.record_hash, EventRow.command_hash, EventRow.dice)
                           .where(EventRow.game_id == game.id).order_by(EventRow.seq)).all()
    for r in rows:
        if r.record_seq is None:
            continue
        if r.command is not None and r.command_hash is not None:
            placed.append((r.record_seq - 1, command_entry(r.command, r.record_seq - 1), r.command_hash))
        placed.append((r.record_seq, event_entry(r.seq, {"type": r.type, "data": r.payload, "side": r.side},
                                                 r.record_seq, r.dice), r.record_hash))
    others = session.execute(select(RecordEntry.record_seq, RecordEntry.entry, RecordEntry.record_hash)
                             .where(RecordEntry.game_id == game.id)).all()
    placed += [(o.record_seq, o.entry, o.record_hash) for o in others]
    acts = session.execute(select(AdminAudit.admin, AdminAudit.action, AdminAudit.detail, AdminAudit.record_seq,
                                  AdminAudit.record_hash)
                           .where(AdminAudit.game_id == game.id, AdminAudit.record_seq.is_not(None))).all()
    placed += [(a.record_seq, admin_entry(a.admin, a.action, a.detail, a.record_seq), a.record_hash) for a in acts]
    lines = session.execute(select(ChatMessage.side, ChatMessage.text, ChatMessage.created_at, ChatMessage.record_seq,
                                   ChatMessage.record_hash)
                            .where(ChatMessage.game_id == game.id, ChatMessage.record_seq.is_not(None))).all()
    placed += [(c.record_seq, chat_entry(c.side, c.text, c.created_at, c.record_seq, chain.sides), c.record_hash)
               for c in lines]
    clock = session.execute(select(ClockAct.side, ClockAct.action, ClockAct.days, ClockAct.at, ClockAct.record_seq,
                                   ClockAct.record_hash)
                            .where(ClockAct.game_id == game.id, ClockAct.record_seq.is_not(None))).all()
    placed += [(c.record_seq, clock_entry(c.side, c.action, c.days, c.at, c.record_seq), c.record_hash)
               for c in clock]
    for _, entry, hash_ in sorted(placed, key=lambda p: p[0]):
        entries.append(entry)
        links.append(chain.link(entry))
        hashes.append(hash_)
    return Record(entries, links, hashes, chain.sides, chain.hidden_information)


def dice_commitments(game: Game) -> tuple[dict[str, str] | None, int]:
    """Version 2: each chain's commitment (entry 0) and the chains' periods."""
    if game.record_version < 2 or not game.dice_tops:
        return None, PERIODS
    return dice_keys.commitments(game.dice_tops), dice_keys.PERIODS


def export(session: Session, game: Game, viewer: str) -> dict[str, Any]:
    """The record file (engine/record/book.py) as ``viewer`` (a side, ``book.ADMIN`` or
    ``book.SPECTATOR``) may have it."""
    record = read(session, game)
    return book.export(game.game, record.entries, record.links, record.hashes, viewer, record.sides,
                       record.hidden_information, game.record_salt or "")


def verify(session: Session, game: Game) -> Verdict:
    """The engine's checker on the admin's export."""
    return verify_record(export(session, game, book.ADMIN), game.record_head)


def verify_whole(session: Session, game: Game) -> Verdict:
    """Version 2, as only the server can while the game goes on: the checker on the admin's
    export with both chains' top seeds and the salt published at its end (in this copy
    only), so that it replays every decision with its key and checks every die."""
    doc = export(session, game, book.ADMIN)
    items = doc["entries"]
    if not any(item["entry"]["kind"] == rec.SALT for item in items) and game.dice_tops:
        prev = items[-1]["hash"]
        chains = dice_keys.chains(game.dice_tops)
        for extra in [{"kind": rec.SEED, "chain": c, "period": dice_keys.PERIODS, "seed": chains[c][-1]}
                      for c in seeds.CHAINS] + [{"kind": rec.SALT, "salt": game.record_salt}]:
            entry = {**extra, "seq": len(items)}
            prev = rec.chain_next(prev, entry)
            items.append({"seq": entry["seq"], "hash": prev, "entry": entry})
    return verify_record(doc)


def head(game: Game) -> str | None:
    """The head of the game's record (None: a game without a chain, or nothing written)."""
    return game.record_head if has_chain(game) else None


@dataclass(frozen=True)
class Extends:
    ok: bool
    message: str
    seq: int | None = None  # the entry that head is the hash of


def extends(session: Session, game: Game, old_head: str) -> Extends:
    """Whether today's record extends the one whose head was ``old_head`` (from a mail, a
    page): that hash is one of its entries', and the chain from the start to today's head
    holds (every hash recomputed)."""
    old_head = old_head.strip().lower()
    if not has_chain(game):
        return Extends(False, "this game has no record chain (it was made before the record)")
    if len(old_head) != 64 or any(c not in "0123456789abcdef" for c in old_head):
        return Extends(False, "a head is 64 hex digits")
    record = read(session, game)
    if old_head not in record.hashes:
        return Extends(False, "no entry of this game's record has that hash: today's record does not extend it")
    k = record.hashes.index(old_head)
    prev = rec.GENESIS
    for i, link in enumerate(record.links):
        prev = rec.chain_next(prev, link)
        if prev != record.hashes[i]:
            return Extends(False, f"entry {i} of today's record does not hash to what is stored: the record was "
                                  "changed", i)
    return Extends(True, f"yes: that is the hash of entry {k} of {len(record.hashes)}, and today's record "
                         f"(head {record.head[:16]}...) extends it", k)

