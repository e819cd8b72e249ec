"""Dependencies shared by the routes (the FastAPI template's ``deps.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Annotated, NoReturn

import anyio.to_thread
from anyio import CapacityLimiter
from fastapi import Depends, HTTPException, Request
from fastapi.security import HTTPBasic, HTTPBasicCredentials
from sqlalchemy.orm import Session

from app.config import Settings
from app.models import Game, Seat
from app.ratelimit import RateLimits, client_address
from app.security import GAME_ID, check_admin, cookie_name, unsign
from app.services.games import GameService
from app.services.signin import COOKIE as SIGNIN_COOKIE
from app.store import GameHead

# Dependencies that only read the request are ``async``: FastAPI runs them in the event
# loop instead of handing each to a thread.  Those that touch the database are plain
# ``def`` and run in the thread pool, one hop per request where possible.

async def get_settings_dep(request: Request) -> Settings:
    return request.app.state.settings


async def get_service(request: Request) -> GameService:
    return request.app.state.games


async def get_limits(request: Request) -> RateLimits:
    return request.app.state.limits


_CLOSERS = CapacityLimiter(1024)  # closing a session never waits behind the requests that need threads


READS = ("GET", "HEAD")


async def get_session(request: Request) -> AsyncIterator[Session]:
    """A session for the request (autocommit for a GET: app/db.py).  Making one does no
    I/O; closing one that still holds a connection in a transaction rolls back and
    returns it, in a thread."""
    read = request.method in READS
    db = request.app.state.db
    session = db.read_sessions() if read else db.sessions()
    try:
        yield session
    finally:
        if session.in_transaction() and not read:
            await anyio.to_thread.run_sync(session.close, limiter=_CLOSERS)
        else:
            session.close()


SettingsDep = Annotated[Settings, Depends(get_settings_dep)]
SessionDep = Annotated[Session, Depends(get_session)]
ServiceDep = Annotated[GameService, Depends(get_service)]
LimitsDep = Annotated[RateLimits, Depends(get_limits)]


def presented_token(request: Request, game_id: str, settings: Settings) -> tuple[str | None, bool]:
    """The seat secret from a bearer header, else from the game's signed cookie; and
    whether a cookie came whose signature is wrong."""
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip(), False
    raw = request.cookies.get(cookie_name(game_id))
    if not raw:
        return None, False
    token = unsign(raw, settings.secret_key)
    return token, token is None


BAD_COOKIE = "the seat cookie for this game is not valid; open your private link again"
WRONG_SECRET = "that seat secret is not valid for this game"
NO_SECRET = "this needs your seat secret (your private link, or a bearer token)"


@dataclass
class Access:
    """The game, and the seat the request's secret opens (``token``: the secret presented;
    ``signed_in``: without one, the address of a browser signed in by e-mail)."""
    game: Game
    seat: Seat | None
    token: str | None
    bad_cookie: bool = False
    signed_in: str | None = None


def get_access(request: Request, game_id: str, session: SessionDep, service: ServiceDep,
               settings: SettingsDep) -> Access:
    """The game and the caller's seat, read together in one query."""
    if not GAME_ID.fullmatch(game_id):  # never let odd bytes (a NUL) reach the database
        raise HTTPException(404, f"no game {game_id}")
    token, bad_cookie = presented_token(request, game_id, settings)
    game, seat = service.game_and_seat(session, game_id, token)
    if game is None:
        raise HTTPException(404, f"no game {game_id}")
    signed_in = None
    if token is None and not bad_cookie and request.cookies.get(SIGNIN_COOKIE):
        signin = request.app.state.signin
        signed_in = signin.email_for(session, request.cookies.get(SIGNIN_COOKIE))
        seat = signin.seat(session, game_id, signed_in) if signed_in else None
    return Access(game, seat, token, bad_cookie, signed_in)


AccessDep = Annotated[Access, Depends(get_access)]


def command_access(request: Request, game_id: str, session: Session, service: GameService, settings: Settings,
                   limits: RateLimits) -> tuple[GameHead, str]:
    """``get_access`` and ``required_seat`` for the JSON command route, in one light
    query (the game's head, not its row): the same answers, 404, 403 and 401."""
    if not GAME_ID.fullmatch(game_id):
        raise HTTPException(404, f"no game {game_id}")
    token, bad_cookie = presented_token(request, game_id, settings)
    head, side = service.head_and_seat(session, game_id, token or "")
    if head is None:
        raise HTTPException(404, f"no game {game_id}")
    if bad_cookie:
        raise HTTPException(403, BAD_COOKIE)
    if token is None:
        raise HTTPException(401, NO_SECRET, headers={"WWW-Authenticate": "Bearer"})
    if side is None:
        wrong_secret(request, limits, WRONG_SECRET)
    return head, side


def head_access(request: Request, game_id: str, session: Session, service: GameService, settings: Settings,
                limits: RateLimits) -> tuple[Game | GameHead, str | None]:
    """``get_access`` and ``seat_of`` for a read that needs only the game's head and the
    caller's side: the command route's light query when a secret came (the same answers,
    404 and 403), the full reading otherwise (a spectator, a browser signed in by e-mail)."""
    token, bad_cookie = presented_token(request, game_id, settings)
    if token is None or bad_cookie:
        access = get_access(request, game_id, session, service, settings)
        seat = seat_of(request, access, limits)
        return access.game, seat.side if seat else None
    return command_access(request, game_id, session, service, settings, limits)


async def access_game(access: AccessDep) -> Game:
    return access.game


GameDep = Annotated[Game, Depends(access_game)]


async def optional_seat(request: Request, access: AccessDep, limits: LimitsDep) -> Seat | None:
    return seat_of(request, access, limits)


def seat_of(request: Request, access: Access, limits: RateLimits) -> Seat | None:
    """The caller's seat, or None for a spectator; a wrong secret is refused (and
    counted: an address that keeps guessing is refused for a while)."""
    if access.bad_cookie:
        raise HTTPException(403, BAD_COOKIE)
    if access.token is None:
        return access.seat  # a browser signed in by e-mail, or a spectator
    if access.seat is None:
        wrong_secret(request, limits, WRONG_SECRET)
    return access.seat


def wrong_secret(request: Request, limits: RateLimits, message: str) -> NoReturn:
    """Refuse a wrong seat secret (403), counted per address: one that keeps guessing
    gets 429 for a while."""
    limits.hit("auth_failures", client_address(request))
    raise HTTPException(403, message)


OptionalSeatDep = Annotated[Seat | None, Depends(optional_seat)]


async def required_seat(seat: OptionalSeatDep) -> Seat:
    if seat is None:
        raise HTTPException(401, NO_SECRET, headers={"WWW-Authenticate": "Bearer"})
    return seat


SeatDep = Annotated[Seat, Depends(required_seat)]

basic = HTTPBasic(auto_error=False, realm="admin")


def require_admin(request: Request, settings: SettingsDep, limits: LimitsDep,
                  credentials: Annotated[HTTPBasicCredentials | None, Depends(basic)]) -> str:
    if not settings.admin_password:
        raise HTTPException(403, "admin pages are disabled: set ADMIN_PASSWORD")
    challenge = {"WWW-Authenticate": 'Basic realm="admin"'}
    if credentials is None:
        raise HTTPException(401, "admin credentials required", headers=challenge)
    address = client_address(request)
    limits.check("auth_failures", address)  # while over the limit even the right password waits
    if not check_admin(credentials.username, credentials.password, settings.admin_user, settings.admin_password):
        limits.hit("auth_failures", address)
        raise HTTPException(401, "admin credentials required", headers=challenge)
    return credentials.username


AdminDep = Annotated[str, Depends(require_admin)]


async def same_origin(request: Request) -> None:
    """Refuse form posts from other sites (the seat cookie is SameSite=Lax, which still
    lets sibling subdomains post): browsers say where a request comes from.  (``async``:
    it reads only headers, so it costs no trip to a thread.)"""
    if from_another_site(request.headers):
        raise HTTPException(403, "this form must be sent from this site's own pages")


def from_another_site(headers: Mapping[str, str]) -> bool:
    """Whether a browser says the request comes from another site's page (a form post, or
    the handshake of the board's WebSocket, which no same-origin rule guards)."""
    if headers.get("sec-fetch-site") in ("cross-site", "same-site"):
        return True
    origin = headers.get("origin")
    # "null" is what a browser sends after a cross-site redirect or from a sandboxed frame
    return origin is not None and origin.split("://", 1)[-1] != headers.get("host")


def optional_admin(request: Request, settings: SettingsDep, limits: LimitsDep,
                   credentials: Annotated[HTTPBasicCredentials | None, Depends(basic)]) -> bool:
    """True when valid admin credentials came with the request (none needed otherwise)."""
    if credentials is None:
        return False
    require_admin(request, settings, limits, credentials)
    return True


IsAdminDep = Annotated[bool, Depends(optional_admin)]
