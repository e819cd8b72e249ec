"""Which mails a command causes: "your move" when a decision passes to a player, and
"the game is over" to both; and which a chat message causes: one to an opponent who has
not read it in time.  Written into the outbox in the causing transaction (app/mail.py
sends them); one per handover or batch of unread messages, never one per event."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import update
from sqlalchemy.orm import Session

from app import mail, store
from app.models import Seat, utcnow
from app.services import record
from engine.core.game import Prompt


@dataclass(frozen=True)
class Notices:
    base_url: str
    secret_key: str  # unsubscribe keys are derived from it: nothing to store
    grace_seconds: int = 60

    @staticmethod
    def caused_by(before: Prompt, after: Prompt, result: dict[str, Any] | None) -> bool:
        """Whether a command that changed the prompt from ``before`` to ``after`` causes
        notices (most do not)."""
        return (result is not None and before.side is not None) or (
            after.side is not None and after.side != before.side)

    def after_command(self, session: Session, game_id: str, seq: int, before: Prompt, after: Prompt,
                      result: dict[str, Any] | None, name: str = "", seats: list[Seat] | None = None) -> None:
        """Queue the mails the command that brought the log to ``seq`` events causes (most
        commands cause none, and cost no query here; ``seats``: the game's seats and
        ``name`` its name, read already by ``store.name_and_seats``)."""
        if not self.caused_by(before, after, result):
            return
        if seats is None:
            name, seats = store.name_and_seats(session, game_id)
        if result is not None and before.side is not None:  # the game has ended
            over = f"The game is over: {result.get('winner')} wins. {result.get('reason', '')}".strip()
            for seat in self._hooked(seats):
                self._hook(session, seat, "game_over", f"{game_id}:over:{seat.side}", over, seq, wait=False)
            for seat in self._subscribed(seats):
                mail.enqueue(session, kind="game_over", dedupe=f"{game_id}:over:{seat.side}", to=seat.email or "",
                             subject=f"Game over: {name}: {result.get('winner')} wins",
                             body=self._body(game_id, seat.side, f"The game is over: {result.get('winner')} wins. "
                                             f"{result.get('reason', '')}".strip()),
                             game_id=game_id, side=seat.side, game_seq=seq)
            return
        for seat in self._hooked(seats, after.side):
            self._hook(session, seat, "your_move", f"{game_id}:{seq}:{seat.side}",
                       f"Your move ({seat.side}) in {name}: {after.text}", seq)
        for seat in self._subscribed(seats, after.side):
            mail.enqueue(session, kind="your_move", dedupe=f"{game_id}:{seq}:{seat.side}", to=seat.email or "",
                         subject=f"Your move: {name}"[:200],
                         body=self._body(game_id, seat.side, f"It is your decision ({seat.side}): {after.text}"
                                         + self._record_line(game_id, seq)),
                         game_id=game_id, side=seat.side, game_seq=seq,
                         not_before=utcnow() + timedelta(seconds=self.grace_seconds))

    def _record_line(self, game_id: str, seq: int) -> str:
        """The head of the game's record once its log is ``seq`` long, as the append that made
        it so left it (no query), for the player to keep: any later head must extend it."""
        known, chain = record.remembered(game_id, seq)
        if not known or chain is None:
            return ""
        return (f"\n\nThe game's record now ends with hash {chain.head}. Keep this mail: on the board "
                "(your private link's card) you can check that the game's record still extends it.")

    def after_chat(self, session: Session, game_id: str, writer: str, name: str, message_id: int,
                   text: str) -> None:
        """A message for the opponent: mailed after the grace unless they read it first,
        one mail per batch of unread messages (the first one's words in it)."""
        game_name, seats = store.name_and_seats(session, game_id)
        for seat in self._hooked(seats):
            if seat.side != writer:
                self._hook(session, seat, "chat", f"{game_id}:chat:{seat.side}:{seat.chat_read}",
                           f"{name} ({writer}) wrote in {game_name}: {text}", message_id)
        for seat in self._subscribed(seats):
            if seat.side == writer:
                continue
            mail.enqueue(session, kind="chat", dedupe=f"{game_id}:chat:{seat.side}:{seat.chat_read}",
                         to=seat.email or "", subject=f"Message from {name}: {game_name}"[:200],
                         body=self._body(game_id, seat.side, f"{name} ({writer}) wrote:\n\n{text}"),
                         game_id=game_id, side=seat.side, game_seq=message_id,
                         not_before=utcnow() + timedelta(seconds=self.grace_seconds))

    def unsubscribe_key(self, game_id: str, side: str) -> str:
        mac = hmac.new(self.secret_key.encode(), f"unsubscribe:{game_id}:{side}".encode(), hashlib.sha256)
        return f"{game_id}.{side}.{mac.hexdigest()[:32]}"

    def unsubscribe(self, session: Session, key: str) -> tuple[str, str] | None:
        """Turn the mails of the seat this key names off; its (game id, side), or None for a bad key."""
        game_id, _, rest = key.partition(".")
        side, _, _mac = rest.partition(".")
        if not game_id or not side or not hmac.compare_digest(self.unsubscribe_key(game_id, side), key):
            return None
        session.execute(update(Seat).where(Seat.game_id == game_id, Seat.side == side).values(notify=False))
        session.commit()
        return game_id, side

    def tell(self, session: Session, seat: Seat, kind: str, about: str, news: str) -> None:
        """A notice for one seat now, by mail (if it has one) and webhook (if it has one)."""
        if seat.email and seat.notify:
            mail.enqueue(session, kind=kind, dedupe=about, to=seat.email, subject=news[:200],
                         body=self._body(seat.game_id, seat.side, news), game_id=seat.game_id, side=seat.side)
        if seat.webhook_url:
            self._hook(session, seat, kind, about, news, None, wait=False)

    def _hook(self, session: Session, seat: Seat, kind: str, about: str, news: str, game_seq: int | None,
              wait: bool = True) -> None:
        """A webhook notice, sent like a mail (after the grace, if ``wait``)."""
        when = utcnow() + timedelta(seconds=self.grace_seconds) if wait else None
        mail.enqueue(session, kind=f"hook:{kind}", dedupe=f"hook:{about}"[:120], to=seat.webhook_url or "",
                     subject=news[:200], body=f"{news} {self.base_url}/games/{seat.game_id}",
                     game_id=seat.game_id, side=seat.side, game_seq=game_seq, not_before=when)

    @staticmethod
    def _hooked(seats: list[Seat], side: str | None = None) -> list[Seat]:
        """The joined seats (of ``side``) with a webhook."""
        return [s for s in seats if s.webhook_url is not None and s.joined_at is not None and side in (None, s.side)]

    @staticmethod
    def _subscribed(seats: list[Seat], side: str | None = None) -> list[Seat]:
        """The joined seats (of ``side``) with an address that want mail."""
        return [s for s in seats
                if s.email is not None and s.notify and s.joined_at is not None and side in (None, s.side)]

    def _body(self, game_id: str, side: str, news: str) -> str:
        key = self.unsubscribe_key(game_id, side)
        return (f"{news}\n\n"
                f"Open the board: {self.base_url}/games/{game_id}\n"
                "(The browser you play in keeps your seat; on another device open your private link.)\n\n"
                f"No more mails about this game: {self.base_url}/unsubscribe#token={key}\n")
