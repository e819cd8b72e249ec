"""Games: create, join, read, command (load -> replay -> decide -> append), export,
import and verify.  The engine is the only judge; this module only keeps the log."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from app import store, webhooks
from app.answers import Encoded
from app.models import Game, Seat, utcnow
from app.security import hash_token, new_game_id, new_token
from app.services import clock, dice_keys
from app.services import record as game_record
from app.services.notices import Notices
from app.text import check_line, dump_json
from app.visible import readable, sender
from engine.bots import levels_for
from engine.core import choices, rulings, seeds, undo
from engine.core import record as rec
from engine.core.errors import MalformedCommandError, RuleError
from engine.core.events import Command, Event
from engine.core.game import Outcome, Prompt, replay
from engine.core.verify import LogEntry, Verdict, rewind_from_log, verify_log
from engine.core.visibility import ADMIN
from engine.games import game_ids, get_rules
from engine.record import book
from engine.record.check import verify_record
from engine.record.keyed import decide_with

EXPORT_FORMAT = "guadalcanal-pbem/1"
SEEN_EVERY = 15.0  # seconds: how stale "last seen" may be (the mail's grace is a minute)
GameLike = Game | store.GameHead  # a game row, or the few columns a command reads
Submitted = tuple[list[tuple[int, Event, str | None]], int]  # (seq, event, log line) of each event; the new seq


class GameNotFound(Exception):
    pass


class SeatChanged(PermissionError):
    """The seat was changed (its secret replaced) since the request read it (answered 409)."""


class BadImport(Exception):
    def __init__(self, message: str, seq: int | None = None, status: int = 422) -> None:
        super().__init__(message)
        self.seq = seq
        self.status = status


@dataclass
class Created:
    game: Game
    tokens: dict[str, str]  # side -> seat secret (shown once)


@dataclass
class Decision:
    """The engine's decision on a command, not yet written."""
    actor: str
    expected_seq: int
    outcome: Outcome[Any]
    before: Prompt
    after: Prompt
    noticed: bool  # it causes notices (mails, webhooks), written with it
    snapshot_due: bool
    keyed: dice_keys.Keyed | None = None  # record version 2: its dice and the entries written with it

    @property
    def handover(self) -> bool:
        """The next decision is the other side's: its clock starts."""
        return self.after.side != self.before.side

    @property
    def joint(self) -> bool:
        """The side that decides next was deciding already, at the same time as the one who
        just did (a sealed allocation): its clock runs on from when that decision began."""
        return self.after.side in self.before.acting

    @property
    def entries_in_statement(self) -> bool:
        """The record's entries written with it, if any, are rows the append's one statement
        writes (``store.append_pg``): a new dice period's published seed.  Not the game's
        first command's entropy (its write checks that the entropy has not changed
        meanwhile, and fills the seats that gave none), nor the seeds and salt of the game's
        end (written with its notices)."""
        keyed = self.keyed
        if keyed is None or not keyed.extra:
            return True
        return not (keyed.shows_entropy or keyed.filled or self.outcome.state.result is not None)

    @property
    def events_only(self) -> bool:
        """Its events, and the record's entries the append's statement writes with them, are
        all that must be written with it (a snapshot it passes may follow)."""
        return not (self.handover or self.noticed) and self.entries_in_statement

    @property
    def single(self) -> bool:
        """Writing it is only the append's one statement: nothing else is written with it."""
        return self.events_only and not self.snapshot_due


class StateCache:
    """game id -> the state after ``seq`` events for the most recently used games, with
    what was computed from that state (views, legal commands, reachable hexes) so
    that each is computed once per state.  States and memos in it are never mutated,
    only replaced, so requests may share them (a First Blood state's own memo of what
    was asked of it aside: it only fills, each answer the same whoever asks first)."""

    def __init__(self, size: int = 256) -> None:
        self._lock = threading.Lock()
        self._states: OrderedDict[str, tuple[int, Any, dict[Any, Any]]] = OrderedDict()
        self._size = size

    def get(self, game_id: str, seq: int) -> Any | None:
        with self._lock:
            hit = self._states.get(game_id)
            if hit is not None:
                self._states.move_to_end(game_id)
        return hit[1] if hit and hit[0] == seq else None

    def put(self, game_id: str, seq: int, state: Any) -> None:
        with self._lock:
            old = self._states.get(game_id)
            if old is None or old[0] < seq:
                self._states[game_id] = (seq, state, {})
                self._states.move_to_end(game_id)
            while len(self._states) > self._size:
                self._states.popitem(last=False)

    def newest(self, game_id: str) -> Any | None:
        """The newest state this worker holds of the game (None: none), without using it."""
        with self._lock:
            hit = self._states.get(game_id)
        return None if hit is None else hit[1]

    def memo(self, game_id: str, seq: int, key: Any, compute: Callable[[], Any]) -> Any:
        """``compute()`` once per (game, seq, key) while the state is cached."""
        with self._lock:
            hit = self._states.get(game_id)
            memo = hit[2] if hit is not None and hit[0] == seq else None
            if memo is not None and key in memo:
                return memo[key]
        value = compute()  # outside the lock: two requests may both compute, both get the same
        if memo is not None:
            with self._lock:
                memo.setdefault(key, value)
        return value


class Recent:
    """A bounded map that forgets the least recently used entry first, shared by the
    request threads of this worker."""

    def __init__(self, size: int) -> None:
        self._lock = threading.Lock()
        self._items: OrderedDict[Any, Any] = OrderedDict()
        self._size = size

    def get(self, key: Any) -> Any | None:
        with self._lock:
            hit = self._items.get(key)
            if hit is not None:
                self._items.move_to_end(key)
            return hit

    def put(self, key: Any, value: Any) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)


class GameService:
    def __init__(self, snapshot_every: int = 50, fixed_dice_secret: str = "", notices: Notices | None = None) -> None:
        self.cache = StateCache()
        # (game id, secret hash) -> (game kind, side) for the secrets this worker has seen
        # open a seat.  Only a hint: every write made on it checks the seat in the database
        # (a replaced secret is refused there).
        self.seats = Recent(4096)
        self._asked_ahead = Recent(1024)  # (game id, turn, phase) asked ahead (``ahead``)
        self._step_labels = Recent(4096)  # (game id, side, step) -> its take-back label
        # game id -> True for the games a handover of which the event loop's write did not
        # make (a seat that wants notices, mostly: app/fast_commands.py): their handovers go
        # to the thread path
        self.noticed_games = Recent(4096)
        self.notices = notices
        self.on_moved: Callable[[str, int], None] | None = None  # told after each command lands
        # game id -> the sides the computer plays there, as last seen in this worker; a
        # command that leaves one of them a decision wakes the computer's job at once
        # (``on_computer_due``, app/main.py) rather than at its next look
        self.computer_sides = Recent(4096)
        self.on_computer_due: Callable[[], None] | None = None
        self.now: Callable[[], datetime] = utcnow  # the clock (tests move it)
        self._seen: dict[tuple[str, str], float] = {}
        self._seen_lock = threading.Lock()
        self.snapshot_every = snapshot_every
        self.fixed_dice_secret = fixed_dice_secret

    # --- creating and joining ---------------------------------------------------
    def create(self, session: Session, game: str, scenario: str, side: str, options: dict[str, Any],
               name: str, title: str = "", email: str = "", move_days: int | None = None,
               vacation_days: int = 0, computer: str | None = None) -> Created:
        """A new game, ``side``'s seat taken by its creator; ``computer``: the level of the
        computer that takes the other seat at once (else it waits for an invitation)."""
        if game not in game_ids():
            raise MalformedCommandError("", f"unknown game {game!r}; known: {game_ids()}")
        rules = get_rules(game)
        if side not in rules.sides:
            raise MalformedCommandError("", f"side must be one of {list(rules.sides)}")
        try:
            clock.check_settings(move_days, vacation_days)
        except ValueError as exc:
            raise MalformedCommandError("", str(exc)) from None
        if computer is not None and computer not in levels_for(game):
            raise MalformedCommandError("", f"the computer plays {rules.title} at {', '.join(levels_for(game))}")
        row = Game(id=new_game_id(), game=game, scenario=scenario, options=options, status="waiting",
                   seq=0, title=title.strip()[:120], move_days=move_days, vacation_days=vacation_days)
        if self.fixed_dice_secret:  # a test server's reproducible dice: one known secret (record version 1)
            row.dice_secret, row.record_version = self.fixed_dice_secret, game_record.LEGACY
            events = rules.create(scenario, options, row.dice_secret)
        else:  # the seed chains, committed to before anybody gives entropy (app/services/dice_keys.py)
            # no die before both players' entropy: a game's creation rolls none (its first
            # decisions do; tests/app/test_dice_chains.py holds every game and option to it)
            events = rules.create(scenario, options, None)  # type: ignore[arg-type]
            row.dice_secret = ""
            _start_chains(row, dice_keys.new_tops())
        session.add(row)
        tokens = {s: new_token() for s in rules.sides}
        for s in rules.sides:
            seat = Seat(game_id=row.id, side=s, token_hash=hash_token(tokens[s]), display_name="",
                        vacation_left=vacation_days * clock.DAY)
            if s == side:
                store.mark_joined(seat, name)
                seat.email = email or None
            elif computer is not None:  # the computer sits down at once: its secret is given to nobody
                store.mark_joined(seat, store.computer_name(computer))
                seat.computer = computer
            session.add(seat)
        session.flush()
        self._append(session, row, 0, events, None, None)
        if computer is not None:
            row.status = "active"
            session.flush()
            prompt = rules.prompt(self.state(session, row))
            clock.handed_over(session, row.id, prompt.side, self.now())
        session.commit()
        if computer is not None:
            played = [s for s in rules.sides if s != side]
            self.computer_plays(row.id, played, prompt.acting)
        return Created(row, tokens)

    def computer_plays(self, game_id: str, sides: list[str], acting: tuple[str, ...] = ()) -> None:
        """The computer plays ``sides`` of the game now (none: no longer); if one of them is
        deciding (``acting``), its job is woken."""
        self.computer_sides.put(game_id, tuple(sides))
        if self.on_computer_due is not None and any(s in sides for s in acting):
            self.on_computer_due()

    def join(self, session: Session, game: Game, token: str, name: str, email: str = "") -> tuple[Seat, str]:
        """Take a seat with its invitation; returns the seat and its secret from now on.

        The invitation is single-use: on the first join the seat gets a new secret,
        so whoever else saw the link (the creator included) cannot act for that side,
        and of several joins racing with one invitation exactly one succeeds."""
        seat = store.seat_by_token_hash(session, game.id, hash_token(token))
        if seat is None:
            raise PermissionError("that invitation is not valid for this game, or it has been used already. If you "
                                  "joined before, open the private link you were shown then; if you lost it, "
                                  "ask the site's admin for a new one")
        if seat.joined_at is None:
            secret = new_token()
            try:
                won = store.claim_seat(session, seat, hash_token(token), hash_token(secret), name, email)
            except OperationalError as exc:  # SQLite: another join holds the write lock
                session.rollback()
                if "locked" not in str(exc.orig).lower():
                    raise
                won = False
            if not won:
                session.rollback()
                raise PermissionError("that invitation has just been used by someone else")
            token = secret
        elif name:
            store.set_seat(session, seat, display_name=name)
        session.flush()
        if all(s.joined_at is not None for s in game.seats):
            started = session.execute(update(Game).where(Game.id == game.id, Game.status == "waiting")
                                      .values(status="active").execution_options(synchronize_session=False))
            if started.rowcount == 1:  # the first decision's clock starts when both have sat down
                session.refresh(game)  # the log as it is now that its row is ours (the creator may have acted)
                prompt = get_rules(game.game).prompt(self.state(session, game))
                clock.handed_over(session, game.id, prompt.side, self.now())
        if session.get_bind().dialect.name == "postgresql":  # every worker's streams hear of it on commit
            taken = sum(s.joined_at is not None for s in game.seats)
            session.execute(store.NOTIFY, {"channel": store.LIVE_CHANNEL, "payload": f"{game.id}:seats:{taken}"})
        session.commit()
        session.refresh(game)
        return seat, token

    def seat_for(self, session: Session, game_id: str, token: str | None) -> Seat | None:
        """The seat this secret opens.  An unused invitation opens nothing: it only joins."""
        if not token:
            return None
        seat = store.seat_by_token_hash(session, game_id, hash_token(token))
        return seat if seat is not None and seat.joined_at is not None else None

    def game_and_seat(self, session: Session, game_id: str, token: str | None) -> tuple[Game | None, Seat | None]:
        """The game, and the seat this secret opens (None for no secret, a wrong one or an
        unused invitation), in one query; a seat opened is noted in ``seats``."""
        if not token:
            return store.get_game(session, game_id), None
        token_hash = hash_token(token)
        game, seat = store.game_and_seat(session, game_id, token_hash)
        if seat is None or seat.joined_at is None or game is None:
            return game, None
        self.seats.put((game_id, token_hash), (game.game, seat.side))
        return game, seat

    def head_and_seat(self, session: Session, game_id: str, token: str) -> tuple[store.GameHead | None, str | None]:
        """What a command needs: the game's head and the side this secret acts for
        (None: a wrong secret or an unused invitation), in one light query."""
        token_hash = hash_token(token)
        head, side = store.head_and_seat(session, game_id, token_hash)
        if head is not None and side is not None:
            self.seats.put((game_id, token_hash), (head.game, side))
        return head, side

    def known_seat(self, game_id: str, token: str) -> tuple[str, str] | None:
        """(game kind, side) if this worker has seen ``token`` open a seat of the game."""
        return self.seats.get((game_id, hash_token(token)))

    def submit_known(self, session: Session, game_id: str, token: str, known: tuple[str, str],
                     command: dict[str, Any], expected_seq: int, decided: Decision | None = None) -> Submitted | None:
        """A command by a secret ``known_seat`` knows, on the cached state, without
        reading the game first: the write itself checks that the seat still holds the
        secret and that the log is still ``expected_seq`` long.  None when the slow
        path must answer (no cached state, a refusal, a stale sequence or a replaced
        secret): it reads the game and checks the seat first, and so says exactly what
        it would have said without this path."""
        if self.cache.get(game_id, expected_seq) is None:
            return None
        kind, side = known
        try:
            return self.submit(session, store.GameHead(game_id, kind, expected_seq), side, command, expected_seq,
                               hash_token(token), decided)
        except (RuleError, store.StaleSequence, SeatChanged):
            session.rollback()
            return None

    def give_entropy(self, session: Session, game: Game, side: str, text: str) -> dict[str, Any]:
        """``side``'s part of the dice (record version 2, app/services/dice_keys.py): its
        commitment is chained at once; once every side's is in, every side's is shown.
        ``dice_keys.EntropyRefused``: a game that takes none, or a seat that gave its part."""
        text = dice_keys.check_entropy(text)
        if game.record_version < dice_keys.VERSION or not game.dice_tops:
            raise dice_keys.EntropyRefused("this game's dice come from one secret the server committed to when it "
                                           "was made (an older game, or a test server): it takes no entropy")
        session.execute(select(Game.id).where(Game.id == game.id).with_for_update())  # one giver at a time
        given: dict[str, str | None] = {s: part for s, part in session.execute(
            select(Seat.side, Seat.entropy).where(Seat.game_id == game.id))}
        if given.get(side) is not None or dice_keys.revealed(session, game.id):
            raise dice_keys.EntropyRefused("your part of the dice is in already (given, or made by the server when "
                                           "the first command came before it): it cannot change")
        session.execute(update(Seat).where(Seat.game_id == game.id, Seat.side == side)
                        .values(entropy=text, entropy_by=dice_keys.PLAYER).execution_options(synchronize_session=False))
        commitment = seeds.entropy_commitment(text)
        store.add_record_entry(session, game.id, {"kind": rec.ENTROPY_COMMIT, "side": side, "commitment": commitment,
                                                  "made_by": dice_keys.PLAYER})
        given[side] = text
        shown = all(v is not None for v in given.values())
        if shown:  # every side's is in: each is shown, and the dice are fixed
            for s in sorted(given):
                store.add_record_entry(session, game.id, {"kind": rec.ENTROPY, "side": s, "entropy": given[s]})
        session.commit()
        session.refresh(game)
        return {"side": side, "commitment": commitment, "revealed": shown}

    def new_seat_link(self, session: Session, game: Game, side: str, admin: str | None = None) -> str:
        """A new secret for ``side``'s seat, returned once: the old link stops working at
        once, on every worker (each write checks the seat).  ``admin``: who issued it, for
        the admin audit (the secret itself is never kept).  SeatChanged: the seat's secret
        was replaced since this request read it (by the player or an admin)."""
        seat = next((s for s in game.seats if s.side == side), None)
        if seat is None or seat.joined_at is None:
            raise PermissionError(f"the {side} seat has not been taken yet: its player joins with the invitation")
        secret = new_token()
        if not store.replace_seat_secret(session, seat.id, seat.token_hash, hash_token(secret)):
            session.rollback()
            raise SeatChanged(f"the {side} seat's link has just been replaced by another request: look again")
        if admin is not None:
            store.add_audit(session, admin, "new_seat_link", game.id, {"side": side})
        session.commit()
        set_committed_value(seat, "token_hash", hash_token(secret))  # as written, not to be written again
        return secret

    def set_webhook(self, session: Session, seat: Seat, url: str, allow_private: bool) -> None:
        """Where this seat's notices are also POSTed ("" for none); BadText if the URL may
        not be used (app/webhooks.py)."""
        store.set_seat(session, seat, webhook_url=webhooks.check_url(url, allow_private) if url.strip() else None)
        session.commit()

    def set_email(self, session: Session, seat: Seat, email: str) -> None:
        """The address for this seat's mails ("" for none); setting one turns the mails on."""
        store.set_seat(session, seat, email=email or None, notify=True)
        session.commit()

    def due_to_note_seen(self, game_id: str, credential: str) -> bool:
        """Whether to note now that the holder of ``credential`` (a seat secret or a
        sign-in cookie) is looking at the game: at most once every ``SEEN_EVERY``
        seconds per credential and worker (a "your move" mail is not sent to a player
        who has been watching)."""
        key, now = (game_id, hash_token(credential)), time.monotonic()
        with self._seen_lock:
            if now - self._seen.get(key, -SEEN_EVERY) < SEEN_EVERY:
                return False
            if len(self._seen) > 10_000:
                self._seen.clear()
            self._seen[key] = now
        return True

    def is_invitation(self, session: Session, game_id: str, token: str) -> bool:
        seat = store.seat_by_token_hash(session, game_id, hash_token(token))
        return seat is not None and seat.joined_at is None

    # --- reading ------------------------------------------------------------------
    def get(self, session: Session, game_id: str) -> Game:
        game = store.get_game(session, game_id)
        if game is None:
            raise GameNotFound(game_id)
        return game

    def state(self, session: Session, game: GameLike) -> Any:
        """The state after all ``game.seq`` events: cache, else snapshot + newer events."""
        cached = self.cache.get(game.id, game.seq)
        if cached is not None:
            return cached
        state = self.state_at(session, game, game.seq)
        self.cache.put(game.id, state.seq, state)
        return state

    def state_at(self, session: Session, game: GameLike, seq: int) -> Any:
        """The state after the first ``seq`` events (a moment of the game's history), from
        the snapshot if it is old enough; the cache of current states is left alone."""
        rules = get_rules(game.game)
        snap = store.load_snapshot(session, game.id)
        if snap is not None and snap[1].get("format", 1) != rules.state_format:
            snap = None  # saved by an older version (a disposable cache): replayed from the log
        if snap is not None and snap[0] <= seq:
            state, events = rules.state_from_json(snap[1]), store.load_events(session, game.id, after=snap[0] - 1)
        else:
            state, events = rules.blank(), store.load_events(session, game.id)
        for e in events[: seq - state.seq]:
            rules.apply(state, e)
        return state

    def view(self, session: Session, game: Game, side: str | None, *, listed: bool = True) -> dict[str, Any]:
        """What ``side`` may see (None: a spectator), with the game's status and seats
        (``listed=False``: its ``legal`` list left empty, for a caller that reads the legal
        commands from :meth:`legal` anyway, as the board does)."""
        state = self.state(session, game)
        legal = (lambda: self.legal(game, state, side)) if listed else list
        view = self.cache.memo(game.id, game.seq, ("view", side, listed),
                               lambda: get_rules(game.game).view(state, side, legal()))
        return {**view, "game_id": game.id, "status": game.status, "game_title": game.title,
                "seats": [{"side": s.side, "name": s.display_name, "joined": s.joined_at is not None}
                          for s in game.seats],
                "clock": clock.view(game, self.now())}

    def view_json(self, session: Session, game: Game, side: str | None) -> Encoded:
        """``view`` as JSON, encoded once per state, side, status, seats and clock."""
        view = self.view(session, game, side)
        key = ("view.json", side, game.status, game.title, repr(view["seats"]), repr(view["clock"]))
        return self.cache.memo(game.id, game.seq, key, lambda: Encoded(dump_json(view)))

    def legal(self, game: GameLike, state: Any, side: str | None) -> list[Command]:
        """The engine's legal commands for ``side`` in ``state`` (the state after ``game.seq`` events)."""
        return self.cache.memo(game.id, game.seq, ("legal", side),
                               lambda: get_rules(game.game).legal_commands(state, side))

    def choices(self, game: GameLike, state: Any, side: str | None) -> list[dict[str, Any]]:
        """``side``'s legal commands as the game's choices (``engine.core.choices``: what
        ``/legal`` and a command's answer carry; a board reads them too), once per state."""
        rules = get_rules(game.game)
        return self.cache.memo(game.id, game.seq, ("choices", side),
                               lambda: rules.legal_choices(state, side) if side in rules.prompt(state).acting else [])

    def ahead(self, kind: str, game_id: str) -> Callable[[], None] | None:
        """What the game's coming decision will ask first, to be asked once a command's
        answer has gone (``GameRules.ahead``, on the newest state held here), once per turn
        and phase of the game; None: nothing (telling is cheap: the event loop may ask)."""
        state = self.cache.newest(game_id)
        if state is None:
            return None
        rules = get_rules(kind)
        headline = rules.headline(state)
        key = (game_id, headline.turn, headline.phase)
        if self._asked_ahead.get(key) is not None:
            return None
        self._asked_ahead.put(key, True)
        return rules.ahead(state)  # type: ignore[no-any-return]

    def label(self, game: GameLike, state: Any, side: str | None, command: Command) -> str:
        """A legal command's button label.  A take-back's names the first line of its step,
        which the engine finds by rebuilding the state before the step: the same for as
        long as the step stands (its number is its place in an append-only log), so found
        once per step."""
        rules = get_rules(game.game)
        step = command.data.get("step") if command.type == undo.UNDO else None
        if not isinstance(step, int):
            return rules.label(state, command)
        key = (game.id, side, step)
        label = self._step_labels.get(key)
        if label is None:
            label = rules.label(state, command)
            self._step_labels.put(key, label)
        return label

    def _name_new_step(self, rules: Any, game_id: str, actor: str, state: Any, first: int,
                       texts: list[str | None]) -> None:
        """A command that began a take-back step has just written the step's first log
        line: its label is that line, so the board's answer need not rebuild the state
        before the step to find it."""
        trail = getattr(state, "undo", None)
        if (texts and trail is not None and trail.side == actor
                and trail.steps and trail.steps[-1] == first):
            self._step_labels.put((game_id, actor, first), rules.step_label(texts[0]))

    def reachable(self, game: Game, state: Any, side: str, unit: str) -> dict[str, Any]:
        """Where ``unit`` may move now, with cost and path: only the destinations of
        ``side``'s legal move commands (empty when it is not that side's movement)."""
        def compute() -> dict[str, Any]:
            mine = [part for ch in self.choices(game, state, side)
                    if ch["type"] == "move" and (part := choices.narrowed(ch, "unit", unit)) is not None]
            moves = {c["data"].get("to") for c in choices.expand(mine)}
            if not moves:
                return {}
            return {h: r for h, r in get_rules(game.game).reachable(state, unit).items() if h in moves}
        return self.cache.memo(game.id, game.seq, ("reach", side, unit), compute)

    def why_unreachable(self, game: Game, state: Any, side: str, unit: str) -> dict[str, str]:
        """Hexes near ``unit`` it may not move to now, with the engine's reason for each
        (empty for a game that does not say, or a unit that is not ``side``'s)."""
        rules = get_rules(game.game)
        if not rules.unit_named(state, side, unit):
            return {}
        return self.cache.memo(game.id, game.seq, ("unreachable", side, unit),
                               lambda: rules.why_unreachable(state, unit))

    def why_idle(self, game: Game, state: Any, side: str, unit: str) -> str | None:
        """Why ``side``'s own ``unit`` has no move now, in a phase where its units move (the
        engine's reason; None: it has one, or the game does not say)."""
        rules = get_rules(game.game)
        if not rules.unit_named(state, side, unit):
            return None
        return self.cache.memo(game.id, game.seq, ("idle", side, unit), lambda: rules.why_idle(state, side, unit))

    def why_not(self, game: GameLike, state: Any, side: str, command: Command) -> str | None:
        """The engine's reason for refusing ``command`` from ``side`` now (the rule and
        the words the engine would answer a real attempt with), or None if it is legal.
        Nothing is written."""
        rules = get_rules(game.game)
        asked = Command(command.type, command.data, side)
        try:
            if state.secret is None:  # a game of seed chains: no key of its own for a question
                decide_with(rules, state, asked, dice_keys.throwaway_secret())
            else:
                rules.decide(state, asked)
        except RuleError as exc:
            return f"{exc.rule}: {exc.message}" if exc.rule else exc.message
        return None

    # --- commands -------------------------------------------------------------------
    def submit(self, session: Session, game: GameLike, side: str, command: dict[str, Any],
               expected_seq: int, token_hash: str | None = None, decided: Decision | None = None,
               by: str | None = None) -> Submitted:
        """Decide a command for ``side`` and append its events, all or nothing (with
        ``token_hash``: only if ``side``'s seat still holds that secret; ``decided``: the
        engine's decision on this very command after ``expected_seq`` events, made already;
        used only if it was made for ``side``; ``by``: who sent it, when not the seat's
        player, kept with the command in the log: "computer:greedy")."""
        cmd = Command(str(command.get("type", "")), command.get("data") or {}, side)
        return self._decide_and_append(session, game, cmd, side, expected_seq, token_hash, decided, by=by)

    def claim_on_time(self, session: Session, game: Game, seat: Seat) -> Submitted:
        """The opponent of a player whose time ran out ends the game: the engine's
        ``time_forfeit``, the server's own command (no side), written like any other."""
        clock.may_claim(game, seat, self.now(), owes=seat.side in get_rules(game.game).prompt(
            self.state(session, game)).acting)
        cmd = Command("time_forfeit", {"loser": game.decision_side}, None)
        read = (game.decision_side, game.decision_since, game.decision_extra)

        def clock_as_read(session: Session) -> None:  # once the append holds the game's row
            now = session.execute(select(Game.decision_side, Game.decision_since, Game.decision_extra)
                                  .where(Game.id == game.id)).one()
            if tuple(now) != read:
                raise clock.ClockError("the clock has just changed (more time given, a vacation taken): look again")

        return self._decide_and_append(session, game, cmd, seat.side, game.seq, guard=clock_as_read)

    def decide(self, session: Session | None, game: GameLike, cmd: Command, actor: str, expected_seq: int,
               state: Any = None) -> Decision:
        """The engine's decision on ``cmd`` (``state``: the state after ``expected_seq``
        events, if the caller has it), and what writing it will take; nothing is written.
        ``RuleError``: refused; ``StaleSequence``: the log is no longer ``expected_seq`` long."""
        if game.seq != expected_seq:
            raise store.StaleSequence(game.seq)
        rules = get_rules(game.game)
        state = self.state(session, game) if state is None else state
        # RuleError -> the caller answers 4xx, nothing written
        outcome, keyed = self.keyed_outcome(session, game, expected_seq, rules, state, cmd)
        before, after = rules.prompt(state), rules.prompt(outcome.state)
        noticed = self.notices is not None and Notices.caused_by(before, after, outcome.state.result)
        return Decision(actor, expected_seq, outcome, before, after, noticed,
                        self._snapshot_due(expected_seq, outcome.state.seq), keyed)

    def keyed_outcome(self, session: Session | None, game: GameLike, expected_seq: int, rules: Any, state: Any,
                      cmd: Command, ruling: bool = False) -> tuple[Any, dice_keys.Keyed | None]:
        """The rules' outcome of ``cmd`` (``ruling``: an admin's, whose outcome has only its
        events and the state after them), keyed by its period's dice in a game of record
        version 2.  ``dice_keys.NeedsRead``: the event loop cannot tell (the thread path decides)."""
        chain = self._chain(session, game, expected_seq)
        if chain is None or chain.version < dice_keys.VERSION:
            if ruling:
                events = rules.decide(state, cmd)
                return SimpleNamespace(events=events, state=None), None
            return rules.outcome(state, cmd), None
        got = dice_keys.material(session, game.id)
        return dice_keys.decide(rules, state, cmd, chain.period, chain.turn, chain.salt, got, ruling)

    @staticmethod
    def _chain(session: Session | None, game: GameLike, expected_seq: int) -> game_record.Chain | None:
        if isinstance(game, Game):
            return game_record.chain_of(game)
        known, chain = game_record.remembered(game.id, expected_seq)
        if known:
            return chain
        if session is None:
            raise dice_keys.NeedsRead(game.id)
        return game_record.chain_of(store.store_head(session, game.id, game.game, expected_seq))

    def recorded(self, game: GameLike, decision: Decision) -> Submitted:
        """After a decision's events were written: the new state is the game's current one,
        and boards open here hear of it."""
        new_state = decision.outcome.state
        self.cache.put(game.id, new_state.seq, new_state)
        if decision.keyed is not None and decision.keyed.shown is not None:
            dice_keys.remember(game.id, decision.keyed.shown)  # the next command reads nothing for its dice
        self._name_new_step(get_rules(game.game), game.id, decision.actor, new_state, decision.expected_seq,
                            decision.outcome.texts)
        if self.on_moved is not None:
            self.on_moved(game.id, new_state.seq)  # open boards here hear of it at once (app/live.py)
        computer = self.computer_sides.get(game.id)
        if computer and self.on_computer_due is not None and decision.actor not in computer \
                and any(s in computer for s in decision.after.acting):
            self.on_computer_due()  # (its own moves go on in the job's one run)
        first, events = decision.expected_seq, decision.outcome.events
        return [(first + i, e, t) for i, (e, t) in enumerate(zip(events, decision.outcome.texts, strict=True))], \
            new_state.seq

    def append_ruling(self, session: Session, game: Game, expected_seq: int, events: list[Event], cmd: Command,
                      state: Any, keyed: dice_keys.Keyed | None = None) -> tuple[Any, list[str | None]]:
        """Write an admin's ruling (app/services/admin_rulings.py) after ``state``, in the
        caller's transaction: no side acted."""
        return self._append(session, game, expected_seq, events, None, cmd, state, keyed=keyed)

    def ruled(self, game: Game, state: Any) -> None:
        """After a ruling's commit: its state is the game's current one, and boards hear of it."""
        self.cache.put(game.id, state.seq, state)
        if self.on_moved is not None:
            self.on_moved(game.id, state.seq)

    def _decide_and_append(self, session: Session, game: GameLike, cmd: Command, actor: str,
                           expected_seq: int, token_hash: str | None = None,
                           decided: Decision | None = None,
                           guard: Callable[[Session], None] | None = None, by: str | None = None) -> Submitted:
        """``guard``: run after the events are written, before the commit (the game's row is
        locked then); what it raises undoes the write."""
        if game.seq != expected_seq:
            raise store.StaleSequence(game.seq)
        decision = decided if decided is not None and decided.actor == actor else \
            self.decide(session, game, cmd, actor, expected_seq)
        after = decision.after
        # most commands write only their events: one statement, without a transaction around it
        store.begin_write(session, single=decision.single and guard is None)  # a guard needs the transaction
        try:
            new_state, _texts = self._append(session, game, expected_seq, decision.outcome.events, actor, cmd, None,
                                             token_hash, decision.outcome, by=by, keyed=decision.keyed)
            if guard is not None:
                guard(session)
            name, seats = store.name_and_seats(session, game.id) if decision.handover or decision.noticed \
                else ("", None)
            if decision.handover:  # the next decision's clock starts (clock.py), or runs on (``joint``)
                clock.handed_over(session, game.id, after.side, self.now(), joint=decision.joint, seats=seats)
            if self.notices is not None:  # the mails it causes, in the same transaction
                self.notices.after_command(session, game.id, new_state.seq, decision.before, after, new_state.result,
                                           name, seats)
            session.commit()
            if decision.handover and isinstance(game, Game) and game.move_days is not None:
                session.refresh(game, list(clock.STARTED))  # the answer shows the clock as written
        except store.StaleSequence as exc:
            if token_hash is not None and exc.current == expected_seq:  # the log did not move: the seat did
                raise SeatChanged("the seat's private link was replaced while this command was on its way: "
                                  "it was not played") from None
            raise
        except clock.ClockError:
            session.rollback()
            raise
        except (IntegrityError, OperationalError) as exc:
            session.rollback()
            if isinstance(exc, OperationalError) and "locked" not in str(exc.orig).lower():
                raise  # a real database failure, not a lost race
            # another writer won the race (SQLite reports it as a locked, busy snapshot)
            raise store.StaleSequence(store.current_seq(session, game.id)) from None
        return self.recorded(game, decision)

    def _append(self, session: Session, game: GameLike, expected_seq: int, events: list[Event], actor: str | None,
                command: Command | None, state: Any = None, token_hash: str | None = None,
                outcome: Outcome[Any] | None = None, by: str | None = None,
                keyed: dice_keys.Keyed | None = None) -> tuple[Any, list[str | None]]:
        """Append a batch; the state after it and each event's log line (``outcome``:
        both known already, from the decision)."""
        rules = get_rules(game.game)
        if outcome is not None:
            state, texts = outcome.state, outcome.texts
        else:
            state = rules.blank() if state is None else rules.clone(state)
            texts = []
            for e in events:
                texts.append(rules.describe(state, e))
                rules.apply(state, e)
        status = "finished" if state.result is not None else None  # None: leave the stored status alone
        store.append(session, game, expected_seq, events, texts, actor, command, status, state.result, token_hash,
                     listed_after(rules, state), by=by, keyed=keyed)
        if self._snapshot_due(expected_seq, state.seq):
            store.save_snapshot(session, game.id, state.seq, rules.state_to_json(state))
        return state, texts

    def _snapshot_due(self, expected_seq: int, new_seq: int) -> bool:
        """Whether appending from ``expected_seq`` events to ``new_seq`` passes a multiple of
        ``snapshot_every`` (a snapshot is stored then)."""
        return new_seq // self.snapshot_every > expected_seq // self.snapshot_every

    # --- the log, export, import, verification --------------------------------------------
    def log(self, session: Session, game: Game, offset: int, limit: int, reveal: bool,
            viewer: str | None = ADMIN) -> dict[str, Any]:
        """A page of the log as ``viewer`` may read it (``reveal``: the dice secret too)."""
        total, rows = store.page_events(session, game.id, offset, limit)
        rows = readable(rows, game, viewer)
        reveal = reveal or game.status == "finished"
        gone = store.retractions(session, game.id)
        items = [{"seq": r.seq, "type": r.type, "side": r.side, "actor": r.actor, "text": r.text,
                  "retracted_by": gone.get(r.seq), "by": (sender(r) or {}).get("by"),  # "computer:greedy"
                  "data": r.payload if reveal or r.type != "game_created" else _redact(r.payload),
                  "created_at": r.created_at.isoformat()} for r in rows]
        return {"total": total, "offset": offset, "limit": limit, "items": items}

    def export(self, session: Session, game: Game) -> dict[str, Any]:
        rows = store.page_events(session, game.id, 0, 10**9)[1]
        return {
            "format": EXPORT_FORMAT, "game": game.game, "scenario": game.scenario, "options": game.options,
            "title": game.title,
            "status": game.status, "result": game.result, "created_at": game.created_at.isoformat(),
            "seats": [{"side": s.side, "name": s.display_name} for s in game.seats],
            "events": [{"seq": r.seq, "type": r.type, "data": r.payload, "side": r.side, "actor": r.actor,
                        "command": r.command} for r in rows],
            **({"dice": self._dice_of(game)} if game.record_version >= dice_keys.VERSION else {}),
        }

    @staticmethod
    def _dice_of(game: Game) -> dict[str, Any]:
        """A game of seed chains' dice, for its export (the admin's, or once the game is over,
        when its seeds are published): what an import needs to decide its commands again."""
        return {"tops": game.dice_tops, "entropy": {s.side: {"text": s.entropy, "made_by": s.entropy_by}
                                                    for s in game.seats}}

    def verify(self, session: Session, game: Game) -> Verdict:
        """Every command re-decided from the start (with its dice key, in a game of seed chains)."""
        if game.record_version < dice_keys.VERSION:
            return verify_log(get_rules(game.game), store.load_entries(session, game.id))
        checked = game_record.verify_whole(session, game)
        if checked.ok:
            return Verdict(True, game.seq, None, "the whole log replays exactly")
        record = game_record.read(session, game)
        k = checked.bad_seq
        bad = record.entries[k] if k is not None and k < len(record.entries) else {}
        return Verdict(False, game.seq, bad.get("n", checked.bad_seq), checked.message)

    def export_record(self, session: Session, game: Game, viewer: str) -> dict[str, Any]:
        """The game's record file (docs/fair-dice.md) as ``viewer`` (a side, or ``book.ADMIN``)
        may have it, at any time; ``NoRecord`` for a game made before the record chain."""
        if not game_record.has_chain(game):
            raise NoRecord("this game was made before the record chain: it has no record file (its export "
                           "file comes once it is over)")
        return game_record.export(session, game, viewer)

    def verify_chain(self, session: Session, game: Game) -> Any:
        """The engine's checker (``verify_record``) on the admin's record file of the game."""
        if not game_record.has_chain(game):
            raise NoRecord("this game was made before the record chain")
        return game_record.verify(session, game)

    def import_game(self, session: Session, data: dict[str, Any], admin: bool = False) -> Created:
        """A new game from an export file.  The file must be exactly what this server
        would export for the game its log replays to: every event in order with its
        ``seq``, the side the engine says acted, and the game's status and result;
        otherwise it is refused, naming the first event that differs.  A record file
        (docs/fair-dice.md: the admin's, every entry whole) must verify with the engine's
        checker first; its verdict's message is the refusal."""
        from_record = isinstance(data, dict) and data.get("format") == book.FORMAT
        if from_record:
            data = _from_record(data)
        if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
            raise BadImport(f"not an export file (expected format {EXPORT_FORMAT!r})")
        if data.get("game") not in game_ids():
            raise BadImport(f"unknown game {data.get('game')!r}")
        try:
            raw = data["events"]
            if not isinstance(raw, list):
                raise TypeError("'events' must be a list")
            for i, e in enumerate(raw):
                _check_event_fields(i, e)
            entries = [LogEntry(Event(str(e["type"]), dict(e["data"]), e.get("side")),
                                None if e.get("command") is None else Command.from_json(e["command"]))
                       for e in raw]
            names = _seat_names(data.get("seats", []))
            title = check_line(str(data.get("title", "")))[:120]
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise BadImport(f"malformed export file: {exc}") from None
        rules = get_rules(data["game"])
        # a game of seed chains (record version 2): its creation holds no dice secret
        chains = bool(entries) and entries[0].event.data.get("secret") is None
        dice_of = _import_dice(data, rules) if chains else None
        batches = _batches(entries)
        created_end = batches[1][0] if len(batches) > 1 else len(entries)
        verdict = verify_log(rules, entries[:created_end] if chains else entries)  # the rest: keyed, below
        if not verdict.ok:
            raise BadImport(f"event {verdict.bad_seq} is refused: {verdict.message}", verdict.bad_seq)
        result = _keyed_result(rules, entries, dice_of) if dice_of is not None else verdict.state.result
        statuses = ("finished",) if result is not None else ("waiting", "active")
        if from_record:  # a record holds no status: its log's is the one
            data = {**data, "result": result, "status": statuses[0]}
        if data.get("result") != result or data.get("status") not in statuses:
            raise BadImport(f"the file's status {data.get('status')!r} and result {data.get('result')!r} are not "
                            f"what its log gives ({' or '.join(statuses)}, {result!r})", len(entries) - 1)
        if result is None and not admin:
            raise BadImport("only an admin may import an unfinished game: whoever holds the file knows its "
                            "dice secret, and so every roll still to come", None, status=403)
        created = entries[0].event.data
        if dice_of is None and (not isinstance(created.get("secret"), str) or not 0 < len(created["secret"]) <= 128):
            raise BadImport("event 0 is refused: the dice secret must be a string of 1 to 128 characters", 0)
        row = Game(id=new_game_id(), game=data["game"], scenario=created["scenario"],
                   options=created["options"], status="active", seq=0, dice_secret=created.get("secret") or "",
                   title=title)
        if dice_of is not None:  # the same chains and entropy: its dice decide again as they did
            _start_chains(row, dice_of.tops)
        session.add(row)
        tokens = {s: new_token() for s in rules.sides}
        for s in rules.sides:
            seat = Seat(game_id=row.id, side=s, token_hash=hash_token(tokens[s]), display_name=names.get(s, ""))
            store.mark_joined(seat, seat.display_name)
            if dice_of is not None:
                seat.entropy = dice_of.entropy.get(s)
                seat.entropy_by = (data["dice"]["entropy"][s].get("made_by") or dice_keys.PLAYER) \
                    if seat.entropy is not None else None
            session.add(seat)
        session.flush()
        # one batch per stored command, so the imported log keeps its commands; the
        # actor of each is the side whose command it was (a forged one is refused)
        state = None
        for start, stop in _batches(entries):
            batch = entries[start:stop]
            command = batch[0].command
            by_a_side = command is not None and command.type not in (rulings.RULING, rulings.REWIND)
            actor = rules.prompt(state).side if by_a_side else None
            for i in range(start, stop):
                if not from_record and raw[i].get("actor") != actor:  # a record names no actor
                    session.rollback()
                    raise BadImport(f"event {i} is refused: the file says {raw[i].get('actor')!r} acted, "
                                    f"the rules say {actor!r}", i)
            keyed = None
            if dice_of is not None and command is not None:
                if not dice_of.revealed:  # before the first command: each side's commitment
                    for side in sorted(dice_of.entropy):  # (all of them: _import_dice)
                        store.add_record_entry(session, row.id, {
                            "kind": rec.ENTROPY_COMMIT, "side": side,
                            "commitment": seeds.entropy_commitment(dice_of.entropy[side]),
                            "made_by": data["dice"]["entropy"][side].get("made_by") or dice_keys.PLAYER})
                    session.refresh(row)
                if command.type == rulings.REWIND:  # from the log, not decided: it rolls nothing
                    keyed = dice_keys.unrolled(game_record.chain_of(row))
                else:
                    _outcome, keyed = self.keyed_outcome(session, row, start, rules, state, command,
                                                         ruling=not by_a_side)
                dice_of = replace(dice_of, revealed=True)
            state, _texts = self._append(session, row, start, [b.event for b in batch], actor,
                                         batch[0].command, state, keyed=keyed)
        session.commit()
        return Created(row, tokens)


class NoRecord(Exception):
    """A game made before the record chain (record version 0)."""


def _from_record(doc: dict[str, Any]) -> dict[str, Any]:
    """A record file as the export file it holds the log of, once the engine's checker
    passes it (else ``BadImport`` with its verdict)."""
    verdict = verify_record(doc)
    if not verdict.ok:
        raise BadImport(f"the record does not verify: {verdict.message}", verdict.bad_seq)
    entries = [item.get("entry") for item in doc["entries"]]
    if any(e is None for e in entries):
        raise BadImport("the record holds sealed entries: only the admin's copy (every entry whole) can be imported")
    events: list[dict[str, Any]] = []
    command = None
    tops: dict[str, str] = {}  # a finished game of seed chains: each chain's top seed, published
    entropy: dict[str, dict[str, Any]] = {}
    periods = entries[0].get("periods")
    for entry in entries:
        if entry["kind"] == "command":
            command = entry["command"]
        elif entry["kind"] == "event":
            e = entry["event"]
            events.append({"seq": entry["n"], "type": e.get("type"), "data": e.get("data"), "side": e.get("side"),
                           "actor": None, "command": command})
            command = None
        elif entry["kind"] == rec.SEED and entry.get("period") == periods:
            tops[entry["chain"]] = entry["seed"]
        elif entry["kind"] == rec.ENTROPY_COMMIT:
            entropy.setdefault(entry["side"], {})["made_by"] = entry.get("made_by")
        elif entry["kind"] == rec.ENTROPY:
            entropy.setdefault(entry["side"], {})["text"] = entry["entropy"]
    out = {"format": EXPORT_FORMAT, "game": doc.get("game"), "events": events, "seats": [], "title": ""}
    if set(tops) == set(seeds.CHAINS) and periods == dice_keys.PERIODS:  # the same chains go on here
        out["dice"] = {"tops": tops[seeds.OPEN] + tops[seeds.HIDDEN], "entropy": entropy}
    return out


def listed_after(rules: Any, state: Any, prompt: Prompt | None = None) -> store.Listed:
    """Where the game stands in ``state``: the columns the admin's list of games reads."""
    head = rules.headline(state)
    acting = (prompt or rules.prompt(state)).acting
    return store.Listed(head.turn, head.turn_name, head.phase, ",".join(acting),
                        (state.result or {}).get("winner"))


EVENT_FIELDS = {"seq", "type", "data", "side", "actor", "command"}


def _check_event_fields(i: int, e: Any) -> None:
    if not isinstance(e, dict):
        raise TypeError(f"event {i} is not an object")
    unknown = set(e) - EVENT_FIELDS
    if unknown:
        raise BadImport(f"event {i} is refused: it has fields an export never holds: {sorted(unknown)}", i)
    if e.get("seq") != i or isinstance(e.get("seq"), bool):
        raise BadImport(f"event {i} is refused: its seq is {e.get('seq')!r}; the events of a file are "
                        "numbered 0, 1, 2 ... in order", i)


def _seat_names(seats: Any) -> dict[str, str]:
    if not isinstance(seats, list):
        raise TypeError("'seats' must be a list")
    return {s.get("side"): check_line(str(s.get("name", "")))[:80] for s in seats if isinstance(s, dict)}


def _start_chains(row: Game, tops: str) -> None:
    """A new game's record of version 2: its chains' top seeds, and entry 0 with their
    commitments written before anything else."""
    row.record_version, row.dice_tops, row.record_salt = dice_keys.VERSION, tops, game_record.new_salt()
    chain = game_record.start(row.game, row.record_salt, dice_keys.VERSION, dice_keys.commitments(tops),
                              dice_keys.PERIODS)
    row.record_seq, row.record_head = chain.seq, chain.head


def _import_dice(data: dict[str, Any], rules: Any) -> dice_keys.Material:
    """The seed chains and entropy of an export of a game of seed chains (``BadImport``
    when the file has none: a player's export of a game under way never has)."""
    got = data.get("dice")
    tops = got.get("tops") if isinstance(got, dict) else None
    entropy = got.get("entropy") if isinstance(got, dict) else None
    if not (isinstance(tops, str) and len(tops) == 128 and all(c in "0123456789abcdef" for c in tops)
            and isinstance(entropy, dict) and set(entropy) == set(rules.sides)
            and all(isinstance(v, dict) and (v.get("text") is None or isinstance(v["text"], str)
                                             and 0 < len(v["text"]) <= 200) for v in entropy.values())):
        raise BadImport("the game's dice come from seed chains: the file must hold them (\"dice\": its \"tops\", "
                        "and each side's \"entropy\"), as the admin's export and a finished game's do", 0)
    given = {s: v["text"] for s, v in entropy.items() if v["text"] is not None}
    if len(given) < len(rules.sides) and any(e.get("command") for e in data.get("events", []) if isinstance(e, dict)):
        raise BadImport("the file's log holds commands, so every side's entropy was in: the file lacks some", 0)
    return dice_keys.Material(tops, tuple(sorted(rules.sides)), given)


def _keyed_result(rules: Any, entries: list[LogEntry], got: dice_keys.Material) -> Any:
    """The result of a log of a game of seed chains, each command decided again with its key
    (``BadImport`` naming the first event that differs)."""
    batches = _batches(entries)
    state = replay(rules, [e.event for e in entries[:batches[0][1]]])
    period, turn = 1, None
    for start, stop in batches[1:]:
        command = entries[start].command
        assert command is not None
        events = [e.event for e in entries[start:stop]]
        if command.type == rulings.REWIND:  # the state it goes back to, from the log
            try:
                made = rewind_from_log(rules, [e.event for e in entries[:start]], command, start)
            except RuleError:
                made = None
            if made is None or [e.to_json() for e in made] != [e.to_json() for e in events]:
                raise BadImport(f"event {start} is refused: it is not the rewind the log gives", start)
            for e in events:
                rules.apply(state, e)
            continue
        try:
            out, keyed = dice_keys.decide(rules, state, command, period, turn, "", got,
                                          ruling=command.type == rulings.RULING)
        except RuleError as exc:
            raise BadImport(f"event {start} is refused: the rules refuse its command: {exc.message}", start) from None
        got = replace(got, revealed=True)
        for i, (made, stored) in enumerate(zip(out.events, events, strict=False)):
            if made.to_json() != stored.to_json():
                raise BadImport(f"event {start + i} is refused: with its dice the rules give {made.to_json()}",
                                start + i)
        if len(out.events) != len(events):
            raise BadImport(f"event {start} is refused: its command gives {len(out.events)} events, the file "
                            f"{len(events)}", start)
        for e in events:
            rules.apply(state, e)
        period, turn = keyed.period, keyed.turn
    return state.result


def _batches(entries: list[LogEntry]) -> list[tuple[int, int]]:
    """(start, stop) of each run of events one command (or the game's creation) gave."""
    starts = [0] + [i for i, e in enumerate(entries) if i > 0 and e.command is not None]
    return list(zip(starts, [*starts[1:], len(entries)], strict=True))


def _redact(payload: dict[str, Any]) -> dict[str, Any]:
    """The creation event for a player while the game goes on: its dice secret hidden (a game of
    seed chains has none)."""
    return payload if payload.get("secret") is None else {**payload, "secret": "(hidden until the game is over)"}
