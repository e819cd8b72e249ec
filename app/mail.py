"""Mail: written to the outbox in the transaction that caused it, sent from there.

A periodic job (APScheduler, in every worker) takes the mails that are due: each is
claimed with a conditional UPDATE, so of several workers exactly one sends it.  A
"your move" mail waits ``MAIL_GRACE_SECONDS`` and is skipped if the player has been
seen on the game since, or the log has moved on (they have acted).  Without an SMTP
server configured a due mail is kept in the outbox ("held") for the admins to read at
/admin/outbox: nothing is ever dropped silently.
"""

from __future__ import annotations

import email.policy
import logging
import smtplib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any
from urllib.parse import unquote, urlsplit

from sqlalchemy import BindParameter, bindparam, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from app import webhooks
from app.db import peek
from app.models import Game, Mail, Seat, utcnow

log = logging.getLogger(__name__)
# no folding of long subjects (some programs then show them with a leading space); RFC 5322's limit
HEADERS = email.policy.SMTP.clone(max_line_length=998)
MAX_ATTEMPTS = 6  # then "failed"; retried after 1, 2, 4, 8 and 16 minutes
CLAIM = timedelta(minutes=10)  # a worker's claim on a mail it is sending
COMPOSED = ("signin",)  # kinds whose body is written as they are sent (``Composer``)


@dataclass(frozen=True)
class Smtp:
    host: str
    port: int
    tls: bool  # smtps: TLS from the first byte
    user: str
    password: str

    @classmethod
    def from_url(cls, url: str) -> Smtp:
        """``smtp://host:port`` or ``smtps://user:pass@host:port`` (``smtp://`` with a user
        logs in after STARTTLS)."""
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError(f"SMTP_URL must look like smtp://host:port or smtps://user:pass@host:port, not {url!r}")
        return cls(parts.hostname, parts.port or (465 if parts.scheme == "smtps" else 25), parts.scheme == "smtps",
                   unquote(parts.username or ""), unquote(parts.password or ""))

    def send(self, message: EmailMessage) -> None:
        if self.tls:
            with smtplib.SMTP_SSL(self.host, self.port, timeout=30) as client:
                self._login_and_send(client, message)
            return
        with smtplib.SMTP(self.host, self.port, timeout=30) as client:
            if self.user:
                client.starttls()
            self._login_and_send(client, message)

    def _login_and_send(self, client: smtplib.SMTP, message: EmailMessage) -> None:
        if self.user:
            client.login(self.user, self.password)
        client.send_message(message)


def enqueue(session: Session, *, kind: str, dedupe: str, to: str, subject: str, body: str,
            game_id: str | None = None, side: str | None = None, game_seq: int | None = None,
            not_before: datetime | None = None) -> None:
    """Add a mail to the outbox (in the caller's transaction).  ``dedupe`` names what the
    mail is about: a second mail about the same thing is not written, also when two
    transactions write it at once (one statement: the unique index decides, no error)."""
    now = utcnow()
    insert = pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
    session.execute(insert(Mail).values(
        kind=kind, dedupe=dedupe, to_addr=to, subject=subject[:200], body=body, game_id=game_id, side=side,
        game_seq=game_seq, created_at=now, not_before=not_before or now, status="queued", attempts=0,
    ).on_conflict_do_nothing(index_elements=["dedupe"]))


def message(mail: Mail, sender: str, body: str | None = None, png: bytes | None = None) -> EmailMessage:
    """The mail as sent (``png``: a picture attached, the text part complete without it)."""
    msg = EmailMessage(policy=HEADERS)
    msg["From"], msg["To"], msg["Subject"] = sender, mail.to_addr, mail.subject
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid(domain="guadalcanal.invalid")
    msg["Auto-Submitted"] = "auto-generated"  # no vacation auto-replies, please
    msg.set_content(mail.body if body is None else body)
    if png is not None:
        msg.add_attachment(png, maintype="image", subtype="png", filename="map.png")
    return msg


def stale(session: Session, mail: Mail) -> str | None:
    """Why a "your move" or chat notice (a mail or a webhook) should not go out any more
    (None: it should)."""
    hook = mail.kind.startswith("hook:")
    kind = mail.kind.removeprefix("hook:")
    if kind not in ("your_move", "chat", "game_over") or mail.game_id is None:
        return None
    seat = session.scalar(select(Seat).where(Seat.game_id == mail.game_id, Seat.side == mail.side))
    seq = session.scalar(select(Game.seq).where(Game.id == mail.game_id))
    if seat is None or seq is None:
        return "the game is gone"
    if hook and seat.webhook_url != mail.to_addr:
        return "the player removed or changed the webhook"
    if kind == "game_over":
        return None
    if not hook and (not seat.notify or not seat.email):
        return "the player turned these mails off"
    if seat.last_seen_at is not None and seat.last_seen_at >= mail.created_at:
        return "the player came back to the game before the mail was due"
    if kind == "chat":  # game_seq: the message's number
        return "the player has read it" if mail.game_seq is not None and seat.chat_read >= mail.game_seq else None
    if mail.game_seq is not None and seq != mail.game_seq:
        return "the game has moved on since"
    return None


# kind -> what writes a mail's body as it is sent (None: nothing to send), for a body that
# holds a secret which must not rest in the outbox (a sign-in link: app/services/signin.py)
Composer = Callable[[Session, Mail, datetime], str | None]
# what a mail carries besides its stored body, made as it is sent (a "your move" mail's
# witness, app/services/witness.py): (text to add, a PNG to attach), or None
Witnesser = Callable[[Session, Mail], Any]


def deliver_due(sessions: Callable[[], Session], smtp_url: str, sender: str,
                now: datetime | None = None, webhook_private: bool = False,
                composers: Mapping[str, Composer] | None = None, witness: Witnesser | None = None) -> int:
    """Send (or, without SMTP, hold) every mail that is due, and POST every webhook notice
    that is due; returns how many were handled.  ``sessions``: a session factory.
    ``now``: for tests, which move the clock, not the wall.  ``webhook_private``: see
    app/webhooks.py.  ``composers``: see ``Composer``; a mail of such a kind with no
    composer given is held.  ``witness``: see ``Witnesser``.

    Each mail is claimed by one conditional UPDATE until ten minutes after its claim (a
    batch of slow sends never claims a mail already expired), and its outcome is written
    only while the claim still holds: a worker whose claim ran out, and whose mail another
    worker took up, writes nothing over it."""
    if peek(sessions, _ANY_DUE, {"now": now or utcnow()}) is None:
        return 0  # (every few seconds in every worker: most times nothing is due)
    smtp = Smtp.from_url(smtp_url) if smtp_url else None
    handled = 0
    with sessions() as session:
        due = list(session.scalars(select(Mail.id).where(*_due(now or utcnow())).order_by(Mail.id).limit(50)))
    for mail_id in due:
        moment = now or utcnow()
        until = moment + CLAIM
        with sessions() as session:
            # a mail still "sending" when its claim ran out was claimed by a worker that died: again
            claimed = session.execute(update(Mail).where(Mail.id == mail_id, *_due(moment))
                                      .values(status="sending", not_before=until)
                                      .execution_options(synchronize_session=False))
            session.commit()
            if claimed.rowcount != 1:
                continue  # another worker has it
            mail = session.get(Mail, mail_id)
            assert mail is not None
            outcome = _deliver(session, mail, smtp, sender, moment, webhook_private, composers or {}, witness)
            written = session.execute(update(Mail).where(Mail.id == mail_id, Mail.status == "sending",
                                                         Mail.not_before == until).values(**outcome)
                                      .execution_options(synchronize_session=False))
            session.commit()
            if written.rowcount != 1:
                log.warning("%s %s: the claim ran out while it was handled; another worker has taken it up",
                            mail.kind, mail_id)
            handled += 1
    return handled


def _due(now: datetime | BindParameter[datetime]) -> tuple[Any, ...]:
    return Mail.status.in_(("queued", "sending")), Mail.not_before <= now


_ANY_DUE = select(Mail.id).where(*_due(bindparam("now"))).limit(1)


def _deliver(session: Session, mail: Mail, smtp: Smtp | None, sender: str, now: datetime,
             webhook_private: bool = False, composers: Mapping[str, Composer] | None = None,
             witness: Witnesser | None = None) -> dict[str, Any]:
    """Send a claimed mail (or not); what to write of its row."""
    reason = stale(session, mail)
    if reason is not None:
        return {"status": "skipped", "last_error": reason}
    if mail.kind.startswith("hook:"):
        def send() -> None:
            webhooks.post(mail.to_addr, mail.body, webhook_private)
    elif smtp is None:
        return {"status": "held"}  # for the admins' outbox
    else:
        body: str | None = mail.body
        if mail.kind in COMPOSED:
            compose = (composers or {}).get(mail.kind)
            if compose is None:
                return {"status": "held"}
            body = compose(session, mail, now)
            if body is None:
                return {"status": "skipped", "last_error": "nobody to send it to (no seat has this address)"}
        seen = witness(session, mail) if witness is not None else None
        png = None
        if seen is not None:
            body, png = f"{seen.text}\n{body}", seen.png

        def send() -> None:
            smtp.send(message(mail, sender, body, png))
    try:
        send()
    except (OSError, smtplib.SMTPException) as exc:
        attempts, error = mail.attempts + 1, f"{type(exc).__name__}: {exc}"[:500]
        failed = {"attempts": Mail.attempts + 1, "last_error": error}
        if attempts >= MAX_ATTEMPTS:
            log.error("%s %s to the %s seat of %s failed for good: %s", mail.kind, mail.id, mail.side, mail.game_id,
                      error)
            return {**failed, "status": "failed"}
        return {**failed, "status": "queued", "not_before": now + timedelta(minutes=2 ** (attempts - 1))}
    return {"status": "sent", "sent_at": now, "last_error": None}
