"""Signing in on any device with a one-time link sent by e-mail.

A player who gave an address on their seats asks for a link; it is mailed (through the
outbox, like every mail: the link is made only as the mail is sent, so none rests there),
works once, for 30 minutes, and opens a session: a signed
cookie that lets this browser act in every seat that has the address, and lists their
games on the landing page.  Secrets are kept only as hashes."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from app import mail
from app.models import Game, Mail, PlayerSession, Seat, SigninLink, utcnow
from app.security import hash_token, new_token, sign, unsign

LINK_MINUTES = 30
COOKIE = "player"


class Signin:
    def __init__(self, base_url: str, secret_key: str) -> None:
        self.base_url = base_url
        self.secret_key = secret_key

    def request_link(self, session: Session, email: str) -> None:
        """Queue a sign-in mail for ``email``.  The same single write whether or not the
        address is a player's (nobody learns from the answer, nor from its time, whose
        address is known here); the delivery job makes the link, if the address has seats,
        only as it sends the mail (``compose``): no usable secret rests in the outbox."""
        mail.enqueue(session, kind="signin", dedupe=f"signin:{new_token()}", to=email,
                     subject="Your sign-in link", body=f"(a sign-in link for {email}, made as it is sent)")
        session.commit()

    def compose(self, session: Session, row: Mail, now: datetime) -> str | None:
        """The body of a sign-in mail being sent, with a new link that works once for
        ``LINK_MINUTES`` from now (its secret kept only as a hash); None: no seat has the
        address, so nothing is sent."""
        email = row.to_addr
        if session.scalar(select(Seat.id).where(Seat.email == email, Seat.joined_at.is_not(None)).limit(1)) is None:
            return None
        token = new_token()
        session.add(SigninLink(token_hash=hash_token(token), email=email, created_at=now,
                               expires_at=now + timedelta(minutes=LINK_MINUTES)))
        return (f"Open this link to sign in (it works once, for {LINK_MINUTES} minutes):\n"
                f"{self.base_url}/signin#token={token}\n\n"
                "That browser will then list your games and play your seats. If you did not ask for "
                "it, ignore this mail.\n")

    def complete(self, session: Session, token: str) -> str | None:
        """Use a sign-in link: the new session's cookie value, or None (unknown, used, expired)."""
        now = utcnow()
        link = session.get(SigninLink, hash_token(token))
        if link is None:
            return None
        used = session.execute(update(SigninLink).where(SigninLink.token_hash == link.token_hash,
                                                        SigninLink.used_at.is_(None), SigninLink.expires_at > now)
                               .values(used_at=now).execution_options(synchronize_session=False))
        if used.rowcount != 1:  # used already (two clicks race: one wins), or too old
            session.rollback()
            return None
        secret = new_token()
        session.add(PlayerSession(token_hash=hash_token(secret), email=link.email, created_at=now))
        session.commit()
        return sign(secret, self.secret_key)

    def email_for(self, session: Session, cookie: str | None) -> str | None:
        """The address this browser is signed in as (None: not signed in)."""
        secret = unsign(cookie, self.secret_key) if cookie else None
        if not secret:
            return None
        return session.scalar(select(PlayerSession.email).where(PlayerSession.token_hash == hash_token(secret)))

    def sign_out(self, session: Session, cookie: str | None) -> None:
        secret = unsign(cookie, self.secret_key) if cookie else None
        if secret:
            session.execute(delete(PlayerSession).where(PlayerSession.token_hash == hash_token(secret)))
            session.commit()

    @staticmethod
    def seat(session: Session, game_id: str, email: str) -> Seat | None:
        """The seat of this game the signed-in player holds (the first side if they hold both)."""
        return session.scalar(select(Seat).where(Seat.game_id == game_id, Seat.email == email,
                                                 Seat.joined_at.is_not(None)).order_by(Seat.side).limit(1))

    @staticmethod
    def seats(session: Session, email: str) -> list[Seat]:
        """Every seat with this address, the most recently changed games first."""
        return list(session.scalars(select(Seat).join(Game).where(Seat.email == email, Seat.joined_at.is_not(None))
                                    .order_by(Game.updated_at.desc())))
