"""Browser pages: Jinja2 templates with HTMX, the map as server-rendered SVG.

Every action is a legal command from the engine: clicking the map or a button
posts that command; the server re-renders the board.  Nothing here decides a
rule; clicks are only translated into the engine's own legal commands.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import parse_qs, quote, urlsplit

from fastapi import APIRouter, Depends, Form, HTTPException, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy.orm import Session

from app import command_path, store
from app.command_path import Sending
from app.deps import (
    AccessDep,
    GameDep,
    LimitsDep,
    OptionalSeatDep,
    ServiceDep,
    SessionDep,
    SettingsDep,
    get_access,
    presented_token,
    same_origin,
    seat_of,
    wrong_secret,
)
from app.fast_commands import Landed
from app.games import BoardRequest, MapClick, board_for, boards
from app.games.base import shown_parts
from app.games.maps import map_file
from app.models import Game, Seat
from app.ratelimit import client_address
from app.routes import board_form
from app.routes.api import invite_link, seat_link, set_seat_cookie
from app.routes.board_form import PARTS_MAX
from app.security import GAME_ID, cookie_name, hash_token, unsign
from app.services import clock, computer, dice_check, dice_keys
from app.services import record as game_record
from app.services.games import Decision, GameService, SeatChanged
from app.services.moments import moment_context
from app.services.signin import COOKIE as SIGNIN_COOKIE
from app.services.story import narrative
from app.static_files import IMMUTABLE, REVALIDATE
from app.store import StaleSequence
from app.templating import page
from app.text import BadText, check_email, check_line
from app.visible import Row, readable, viewer_of
from engine.core import undo
from engine.core.errors import RuleError
from engine.core.events import Command
from engine.games import DEFAULT_GAME, get_rules

router = APIRouter(include_in_schema=False)
# every form post of these pages must come from these pages
posts = APIRouter(include_in_schema=False, dependencies=[Depends(same_origin)])
# ... of which the board's two busiest, matched before every other route: matching a
# path against the routes ahead of it cost some 0.08 ms of a 4 ms command
board_posts = APIRouter(include_in_schema=False, dependencies=[Depends(same_origin)])


@router.get("/", response_class=HTMLResponse)
def index(request: Request, session: SessionDep, service: ServiceDep, settings: SettingsDep) -> HTMLResponse:
    """The landing page: start a game, and every game this browser plays (by its seat
    cookies, and, signed in by e-mail, by the address)."""
    seats = []
    for key, raw in request.cookies.items():
        if not key.startswith("seat_"):
            continue
        gid, token = key[5:], unsign(raw, settings.secret_key)
        seat = service.seat_for(session, gid, token) if token else None
        if seat is not None:
            seats.append(seat)
    signed_in = request.app.state.signin.email_for(session, request.cookies.get(SIGNIN_COOKIE))
    if signed_in:
        held = {s.game_id for s in seats}
        seats += [s for s in request.app.state.signin.seats(session, signed_in) if s.game_id not in held]
    mine = []
    for seat in seats:
        game = seat.game
        prompt = get_rules(game.game).prompt(service.state(session, game))
        yours = seat.side in prompt.acting  # both sides of a decision made at once
        end = clock.deadline(game)
        mine.append({"game": game, "seat": seat, "your_move": yours, "name": get_rules(game.game).title,
                     "waiting": prompt.text if yours else prompt.waiting,
                     "deadline": f"{end:%d %b %H:%M} UTC" if end is not None else None})
    mine.sort(key=lambda m: m["game"].updated_at, reverse=True)  # newest first,
    mine.sort(key=lambda m: not m["your_move"])  # and the games waiting for you before the others
    offered = [{"board": b, "rules": get_rules(b.id), "levels": computer.levels_offered(b.id)} for b in boards()]
    return page(request, "index.html", games=mine, games_offered=offered, signed_in=signed_in,
                days_per_move=clock.DAYS_PER_MOVE)



def note_seen(request: Request, session: SessionDep, service: ServiceDep, game_id: str, token: str | None,
              signed_in: str | None = None) -> None:
    """Note that this browser's player is looking at the game (throttled; costs nothing
    for spectators).  ``signed_in``: the address, when the caller has looked it up already."""
    cookie = None if token else request.cookies.get(SIGNIN_COOKIE)
    if not (token or cookie) or not service.due_to_note_seen(game_id, token or cookie or ""):
        return
    if token:
        store.touch_seat(session, game_id, token_hash=hash_token(token))
    else:
        email = signed_in or request.app.state.signin.email_for(session, cookie)
        if email is None:
            return
        store.touch_seat(session, game_id, email=email)
    session.commit()


@router.get("/maps/{name}.svg")
def map_drawing(request: Request, name: str) -> Response:
    """A game's map as its own SVG file (app/games/maps.py): the same for every game of
    its kind, kept by the browser (for a year when asked by its versioned address)."""
    boards()  # (each board publishes its maps as it is found)
    found = map_file(name)
    if found is None:
        raise HTTPException(404, "No such map.")
    etag = f'"{found.version}"'
    versioned = request.query_params.get("v") == found.version
    headers = {"ETag": etag, "Cache-Control": IMMUTABLE if versioned else REVALIDATE}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(found.body, media_type="image/svg+xml", headers=headers)


@router.get("/signin", response_class=HTMLResponse)
def signin_page(request: Request) -> HTMLResponse:
    """Ask for a sign-in link; the link itself comes back here with its secret in the
    fragment, and the page posts it."""
    return page(request, "signin.html", sent=None)


@posts.post("/signin", response_class=HTMLResponse)
def ask_for_signin(request: Request, session: SessionDep, limits: LimitsDep,
                   email: str = Form(..., max_length=254)) -> HTMLResponse:
    try:
        email = check_email(email)
    except BadText as exc:
        raise HTTPException(422, str(exc)) from None
    if not email:
        raise HTTPException(422, "give the e-mail address you gave in your games")
    limits.hit("signin", client_address(request))
    limits.hit("signin", email)
    request.app.state.signin.request_link(session, email)
    return page(request, "signin.html", sent=email)  # the same answer whether or not the address is known


@posts.post("/signin/complete")
def complete_signin(request: Request, session: SessionDep, settings: SettingsDep, limits: LimitsDep,
                    token: str = Form(..., max_length=200)) -> Response:
    cookie = request.app.state.signin.complete(session, token)
    if cookie is None:
        wrong_secret(request, limits, "that sign-in link does not work (any more): each works once, for 30 "
                                      "minutes; ask for a new one")
    redirect = RedirectResponse("/", status_code=303)
    redirect.set_cookie(SIGNIN_COOKIE, cookie, httponly=True, samesite="lax", secure=settings.secure_cookies,
                        max_age=60 * 60 * 24 * 365)
    return redirect


@posts.post("/signout")
def sign_out(request: Request, session: SessionDep) -> Response:
    request.app.state.signin.sign_out(session, request.cookies.get(SIGNIN_COOKIE))
    redirect = RedirectResponse("/", status_code=303)
    redirect.delete_cookie(SIGNIN_COOKIE)
    return redirect


@posts.post("/new")
def new_game(request: Request, session: SessionDep, service: ServiceDep, settings: SettingsDep, limits: LimitsDep,
             side: str = Form(..., max_length=16), name: str = Form("", max_length=80),
             title: str = Form("", max_length=120), email: str = Form("", max_length=254),
             move_days: str = Form("", max_length=3),
             vacation_days: int = Form(0, ge=0, le=30), game: str = Form(DEFAULT_GAME, max_length=40),
             scenario: str = Form("", max_length=40), computer: str = Form("", max_length=20),
             option: Annotated[list[str] | None, Form(max_length=20)] = None) -> Response:
    limits.hit("create", client_address(request))
    options = dict.fromkeys(option or [], True)  # the optional rules ticked; the engine refuses unknown ones
    days = int(move_days) if move_days.isdigit() else None
    try:
        email = check_email(email)
        created = service.create(session, game, scenario or "campaign", side, options, check_line(name),
                                 check_line(title), email, days, vacation_days if days else 0, computer or None)
    except BadText as exc:
        raise HTTPException(422, f"your name, note and e-mail: {exc}") from None
    except RuleError as exc:
        raise HTTPException(422, str(exc)) from None
    redirect = RedirectResponse(f"/games/{created.game.id}?welcome=1", status_code=303)
    set_seat_cookie(redirect, created.game.id, created.tokens[side], settings)
    other = next(s for s in created.tokens if s != side)
    if not computer:  # the invitation is shown on the game page until the opponent joins, through a cookie
        redirect.set_cookie(f"invite_{created.game.id}", created.tokens[other], httponly=True, samesite="lax",
                            max_age=60 * 60 * 24 * 30, secure=settings.secure_cookies)
    return redirect


@router.get("/join/{game_id}", response_class=HTMLResponse)
def join_page(request: Request, game: GameDep, session: SessionDep, service: ServiceDep, settings: SettingsDep,
              token: str = "") -> Response:
    if token:  # an old-style link with the secret in the query: move it into the fragment
        return RedirectResponse(f"/join/{game.id}#token={quote(token, safe='')}", status_code=303)
    if _seat_from_cookie(request, game, session, service, settings) is not None:
        return RedirectResponse(f"/games/{game.id}", status_code=303)  # this browser plays here: its board
    used = all(s.joined_at is not None for s in game.seats)  # both seats taken: nothing left to join
    return page(request, "join.html", game=game, which=get_rules(game.game).title, used=used,
                terms=terms_of(game))


def terms_of(game: Game) -> list[str]:
    """What the invited player agrees to by joining: the scenario, the clock, the optional rules."""
    rules = get_rules(game.game)
    out = [f"Scenario: {rules.scenarios.get(game.scenario, game.scenario)}"]
    if game.move_days:
        days = f"{game.move_days} day{'s' if game.move_days != 1 else ''} per decision"
        rest = (f", and {game.vacation_days} vacation day{'s' if game.vacation_days != 1 else ''} each"
                if game.vacation_days else "")
        out.append(f"Clock: {days}{rest}; a player out of time may lose the game on a claim")
    else:
        out.append("Clock: none (no time limit)")
    chosen = [text for key, text in rules.options.items() if (game.options or {}).get(key)]
    if rules.options:
        out += chosen or ["No optional rules"]
    return out


@posts.post("/join/{game_id}")
def join(request: Request, game: GameDep, session: SessionDep, service: ServiceDep, settings: SettingsDep,
         limits: LimitsDep, token: str = Form("", max_length=200), name: str = Form("", max_length=80),
         email: str = Form("", max_length=254), entropy: str = Form("", max_length=200)) -> Response:
    limits.hit("join", client_address(request))
    if not token:
        raise HTTPException(422, "this invitation link is incomplete: open the whole link you were sent")
    try:
        name, email = check_line(name), check_email(email)
    except BadText as exc:
        raise HTTPException(422, f"your name and e-mail: {exc}") from None
    held = _seat_from_cookie(request, game, session, service, settings)
    if held is not None and service.is_invitation(session, game.id, token):
        raise HTTPException(409, f"this browser already holds the {held.side} seat of this game; open the "
                                 "invitation in another browser or a private window")
    try:
        seat, token = service.join(session, game, token, name, email)
    except PermissionError as exc:
        raise HTTPException(403, str(exc)) from None
    if entropy.strip() and seat.entropy is None:  # the seat's part of the dice, made by the page or typed
        try:
            service.give_entropy(session, game, seat.side, entropy)
        except dice_keys.EntropyRefused:
            session.rollback()  # a game that takes none: the seat is taken all the same
    redirect = RedirectResponse(f"/games/{game.id}?welcome=1", status_code=303)
    set_seat_cookie(redirect, game.id, token, settings)
    return redirect


@router.get("/games/{game_id}", response_class=HTMLResponse)
def game_page(request: Request, access: AccessDep, session: SessionDep, service: ServiceDep,
              token: str = "", select: str = "", welcome: bool = False,
              unit: str = Query("", max_length=64)) -> Response:
    game, seat = access.game, access.seat  # a cookie that opens no seat: the spectator's view
    if token:  # an old-style private link: move the secret into the fragment
        return RedirectResponse(f"/games/{game.id}#token={quote(token, safe='')}", status_code=303)
    # a piece's select button clicked before the page's script took its form over: the form
    # comes here as a plain GET, and the piece is selected all the same (no click is lost)
    select = select or unit
    private = seat_link(request.app.state.settings.base_url, game.id, access.token) if seat and access.token else None
    if seat is not None:
        note_seen(request, session, service, game.id, access.token, access.signed_in)
    return render_board(request, session, service, game, seat,
                        BoardRequest(select=select, welcome=welcome, full=True, private_url=private))


@posts.post("/games/{game_id}/seat")
def take_seat(request: Request, game: GameDep, session: SessionDep, service: ServiceDep, settings: SettingsDep,
              limits: LimitsDep, token: str = Form(..., max_length=200)) -> Response:
    """A private link's secret, posted by the page from the link's fragment: keep it
    in this browser's cookie for the game."""
    if service.is_invitation(session, game.id, token):
        return RedirectResponse(f"/join/{game.id}#token={quote(token, safe='')}", status_code=303)
    seat = service.seat_for(session, game.id, token)
    if seat is None:
        wrong_secret(request, limits, "that private link is not valid for this game")
    held = _seat_from_cookie(request, game, session, service, settings)
    if held is not None and held.side != seat.side:
        raise HTTPException(409, f"this browser already holds the {held.side} seat of this game; open the "
                                 f"{seat.side} link in another browser or a private window")
    redirect = RedirectResponse(f"/games/{game.id}", status_code=303)
    set_seat_cookie(redirect, game.id, token, settings)
    return redirect


@posts.post("/games/{game_id}/seat/new-link")
def new_seat_link(request: Request, game: GameDep, seat: OptionalSeatDep, session: SessionDep, service: ServiceDep,
                  settings: SettingsDep, confirm: str = Form("")) -> Response:
    """Replace this browser's private link: the old one stops working everywhere."""
    if seat is None:
        raise HTTPException(401, "only a player can replace their link: open your private link first")
    if confirm != "yes":
        raise HTTPException(422, "tick the box to confirm: the old link stops working at once, on every device")
    try:
        token = service.new_seat_link(session, game, seat.side)
    except SeatChanged as exc:
        raise HTTPException(409, str(exc)) from None
    redirect = RedirectResponse(f"/games/{game.id}?welcome=1", status_code=303)
    set_seat_cookie(redirect, game.id, token, settings)
    return redirect


@posts.post("/games/{game_id}/seat/email")
def seat_email(game: GameDep, seat: OptionalSeatDep, session: SessionDep, service: ServiceDep,
               email: str = Form("", max_length=254)) -> Response:
    return _seat_setting(game, seat, "set where their mails go",
                         lambda s: service.set_email(session, s, check_email(email)))


@posts.post("/games/{game_id}/seat/entropy")
def seat_entropy(game: GameDep, seat: OptionalSeatDep, session: SessionDep, service: ServiceDep,
                 entropy: str = Form("", max_length=200)) -> Response:
    """The player's part of the dice (docs/fair-dice.md), then back to the board."""
    if seat is None:
        raise HTTPException(401, "only a player can give their part of the dice: open your private link first")
    try:
        service.give_entropy(session, game, seat.side, entropy)
    except dice_keys.EntropyRefused as exc:
        session.rollback()
        raise HTTPException(409, str(exc)) from None
    return RedirectResponse(f"/games/{game.id}", status_code=303)


@router.get("/games/{game_id}/dice", response_class=HTMLResponse)
def dice_page(request: Request, game: GameDep, seat: OptionalSeatDep, session: SessionDep) -> Response:
    """Check the dice: every roll of a period whose seed is published, made again here from
    the seed and both players' entropy, beside the value the log holds."""
    got = dice_keys.status(session, game, seat.side if seat else None)
    if got is None:
        raise HTTPException(409, "this game's dice come from one secret the server committed to when it was made: "
                                 "they are checked with it once the game is over (its export holds it)")
    rows = readable(store.dice_rows(session, game.id), game, viewer_of(game, seat.side if seat else None))
    return page(request, "dice.html", game=game, dice=got, checked=dice_check.check(got, rows),
                which=get_rules(game.game).title)


@posts.post("/games/{game_id}/seat/computer")
def seat_computer(request: Request, game: GameDep, seat: OptionalSeatDep, session: SessionDep,
                  level: str = Form("", max_length=20)) -> Response:
    """Hand one's seat to the computer while away, or take it back (``level`` empty)."""
    return _seat_setting(game, seat, "hand over their seat",
                         lambda s: computer.hand_over(session, request.app.state.notices, game, s, level or None,
                                                      request.app.state.games))


@posts.post("/games/{game_id}/seat/webhook")
def seat_webhook(request: Request, game: GameDep, seat: OptionalSeatDep, session: SessionDep,
                 service: ServiceDep, url: str = Form("", max_length=254)) -> Response:
    allow_private = request.app.state.settings.webhook_allow_private
    return _seat_setting(game, seat, "set where their notices go",
                         lambda s: service.set_webhook(session, s, url, allow_private))


def _seat_setting(game: Game, seat: Seat | None, what: str, act: Callable[[Seat], None]) -> Response:
    """A player's own setting, then back to the board: a visitor without a seat is told
    to open their private link (401), bad input is refused with its reason (422)."""
    if seat is None:
        raise HTTPException(401, f"only a player can {what}: open your private link first")
    try:
        act(seat)
    except ValueError as exc:  # BadText too
        raise HTTPException(422, str(exc)) from None
    return RedirectResponse(f"/games/{game.id}", status_code=303)


@posts.post("/games/{game_id}/clock/{action}")
def clock_action(request: Request, action: str, game: GameDep, seat: OptionalSeatDep, session: SessionDep,
                 service: ServiceDep, days: int = Form(1, ge=1, le=30)) -> Response:
    """The board's clock buttons: take vacation, give the opponent more time, claim on time,
    or let the computer play the absent opponent's seat."""
    if seat is None:
        raise HTTPException(401, "only a player can do that: open your private link first")
    now = service.now()
    try:
        if action == "vacation":
            clock.take_vacation(session, game, seat, days, now)
        elif action == "grant":
            clock.grant(session, game, seat, days, now)
        elif action == "claim":
            service.claim_on_time(session, game, seat)
        elif action == "computer":  # the computer finishes the game for the absent player
            computer.stand_in(session, request.app.state.notices, game, seat, now, service=request.app.state.games)
        else:
            raise HTTPException(404, f"no clock action {action!r}")
    except clock.ClockError as exc:
        session.rollback()
        raise HTTPException(409, str(exc)) from None
    return RedirectResponse(f"/games/{game.id}", status_code=303)


@router.get("/unsubscribe", response_class=HTMLResponse)
def unsubscribe_page(request: Request) -> HTMLResponse:
    """The link in every mail: its key rides in the fragment, and the page posts it."""
    return page(request, "unsubscribe.html", done=None)


@posts.post("/unsubscribe", response_class=HTMLResponse)
def unsubscribe(request: Request, session: SessionDep, token: str = Form(..., max_length=200)) -> HTMLResponse:
    done = request.app.state.notices.unsubscribe(session, token)
    if done is None:
        raise HTTPException(404, "that unsubscribe link is not valid (it may have been cut short by your mail program)")
    return page(request, "unsubscribe.html", done={"game_id": done[0], "side": done[1]})


@router.get("/games/{game_id}/board", response_class=HTMLResponse)
def board(request: Request, game: GameDep, seat: OptionalSeatDep, session: SessionDep, service: ServiceDep,
          select: str = "", seq: int = -1, parts: str = Query("", max_length=PARTS_MAX)) -> HTMLResponse:
    """The changing parts of the board with ``select`` selected (and the log since ``seq``;
    ``parts``: the map layers' parts the page shows, so that only the others are sent)."""
    return render_board(request, session, service, game, seat,
                        BoardRequest(select=select, since=_since(seq, game), shown=shown_parts(parts)))


@router.get("/games/{game_id}/poll")
def poll(request: Request, game_id: str, session: SessionDep, service: ServiceDep, settings: SettingsDep,
         seq: int = 0, select: str = "", parts: str = Query("", max_length=PARTS_MAX)) -> Response:
    """Asked every few seconds: 204 while nothing happened (one indexed read, and a note
    that the player is watching at most every 15 s), else the parts of the board that changed."""
    current = store.current_seq(session, game_id) if GAME_ID.fullmatch(game_id) else -1
    if current < 0:
        raise HTTPException(404, f"no game {game_id}")
    token, _bad = presented_token(request, game_id, settings)
    note_seen(request, session, service, game_id, token)  # a player polling is watching: no "your move" mail
    if current == seq:
        return Response(status_code=204)
    access = get_access(request, game_id, session, service, settings)
    game, seat = access.game, seat_of(request, access, request.app.state.limits)
    return render_board(request, session, service, game, seat,
                        BoardRequest(select=select, since=_since(seq, game), shown=shown_parts(parts)))


@router.get("/games/{game_id}/stream")
async def stream(request: Request, game_id: str, seq: int = 0, chat: int = 0,
                 seats: Annotated[int | None, Query(ge=0, le=16)] = None) -> Response:
    """The board's live stream (app/live.py): "moved" with the game's new length each time
    it grows, "chat" with the newest message's number, "seats" (when asked) with the seats
    taken once the opponent joins, nothing else, so the page asks for the changes as its own side."""
    if not GAME_ID.fullmatch(game_id):
        raise HTTPException(404, f"no game {game_id}")
    return request.app.state.hub.response(game_id, seq, chat, seats)


def _in_one_trip(request: Request, game_id: str, handler: Callable[..., HTMLResponse], *args: Any) -> HTMLResponse:
    """The board's busiest routes read the seat, decide, write and draw the answer in one
    trip to a thread (each dependency that touches the database would be a trip of its
    own), with a session opened and closed there.  It reads in autocommit (no BEGIN and
    no ROLLBACK round trips; PostgreSQL's read committed sees no more in a transaction);
    a command's writes make their own transaction (``store.begin_write``)."""
    state = request.app.state
    with state.db.read_sessions() as session:
        access = get_access(request, game_id, session, state.games, state.settings)
        seat = seat_of(request, access, state.limits)
        return handler(request, access.game, seat, session, state.games, *args)


@board_posts.post("/games/{game_id}/command", response_class=HTMLResponse)
async def command(request: Request, game_id: str) -> HTMLResponse:
    """A command button of the board: the engine's legal command it carries (its form's
    fields: app/routes/board_form.py, as the board's socket reads them)."""
    form = await board_form.posted(request)
    return await command_path.send(request, game_id, board_form.command_payload(form["type"], form["data"],
                                                                                form["command"], form["pick"]),
                                   board_form.sent_seq(form), BoardAnswer(form["select"], form["parts"]))


@dataclass(frozen=True)
class BoardAnswer:
    """The board's answer to a command: its changed parts, drawn as its own side sees them."""

    select: str
    parts: str
    returning = True

    def fast(self, kind: str, command: dict[str, Any]) -> bool:
        # (a take-back's answer reads the log again from the database: lines were struck)
        return board_for(kind).answers_from_row and isinstance(command["data"], dict) and command["type"] != undo.UNDO

    async def landed(self, request: Request, landed: Landed, sending: Sending) -> Response:
        """Drawn from ``landed.game``, the row the write answered with (``returning``), reading
        nothing, on the event loop (only a board that says it may: ``answers_from_row``)."""
        game = landed.game
        assert isinstance(game, Game)  # (returning: the row as written)
        seat = next(s for s in game.seats if s.side == landed.side)
        ctype, seq = sending.command["type"], sending.expected_seq
        return render_board(request, None, request.app.state.games, game, seat,
                            BoardRequest(select=board_for(game.game).kept(ctype, self.select),
                                         since=_since(seq, game), fresh=_fresh(landed.done[0], seat, game),
                                         shown=shown_parts(self.parts)))

    def in_thread(self, request: Request, sending: Sending) -> HTMLResponse:
        return _in_one_trip(request, sending.game_id, _command_post, sending, self.select, self.parts)


def _command_post(request: Request, game: Game, seat: Seat | None, session: Session, service: GameService,
                  sending: Sending, select: str, parts: str) -> HTMLResponse:
    command = sending.command
    return _submit(request, game, seat, session, service, command["type"], command["data"], sending.expected_seq,
                   select, shown_parts(parts), sending.counted, sending.decided)


@posts.post("/games/{game_id}/allocate", response_class=HTMLResponse)
def allocate(request: Request, game: GameDep, seat: OptionalSeatDep, session: SessionDep, service: ServiceDep,
             seq: int = Form(...), superiority: int = Form(0, ge=0, le=99), interdiction: int = Form(0, ge=0, le=99),
             recon: int = Form(0, ge=0, le=99), strike: int = Form(0, ge=0, le=99),
             support: int = Form(0, ge=0, le=99)) -> HTMLResponse:
    """Pacific Battles' secret air allocation (4.1 1c) from its form (support: optional 31.0)."""
    data = {"superiority": superiority, "interdiction": interdiction, "recon": recon, "strike": strike,
            "support": support}
    return _submit(request, game, seat, session, service, "allocate", data, seq, "")


@board_posts.post("/games/{game_id}/click", response_class=HTMLResponse)
async def click(request: Request, game_id: str) -> HTMLResponse:
    """A click on the map: the legal command it stands for, or a new selection (its form's
    fields: app/routes/board_form.py ``CLICK_FIELDS``)."""
    form = await board_form.posted(request, board_form.CLICK_FIELDS)
    return await run_in_threadpool(_in_one_trip, request, game_id, _click, board_form.sent_seq(form), form["hex"],
                                   form["unit"], form["select"], form["parts"])


def _click(request: Request, game: Game, seat: Seat | None, session: Session, service: GameService,
           seq: int, hex: str, unit: str, select: str, parts: str) -> HTMLResponse:  # noqa: A002
    done = board_for(game.game).click(session, service, game, seat, MapClick(seq, hex, unit, select,
                                                                              shown_parts(parts)))
    if done.command is not None:
        return _submit(request, game, seat, session, service, done.command.type, done.command.data, seq, done.keep,
                       shown_parts(parts))
    req = done.redraw or BoardRequest(select=select)
    req.since = _since(seq, game)
    return render_board(request, session, service, game, seat, req)


def _since(seq: int, game: Game) -> int:
    """The first log line the page lacks: the page was drawn after ``seq`` events."""
    return min(max(0, seq), game.seq) if seq >= 0 else game.seq


def _submit(request: Request, game: Game, seat: Seat | None, session: SessionDep, service: ServiceDep,
            ctype: str, data: Any, seq: int, select: str, shown: list[str] | None = None,
            counted: bool = False, decided: Decision | None = None) -> HTMLResponse:
    """``counted``: the command was counted against the seat's rate limit already;
    ``decided``: the engine's decision on it, made on the event loop."""
    error, fresh = None, []
    if seat is not None and not counted:
        request.app.state.limits.hit("commands", f"{game.id}:{seat.side}")
    if seat is None:
        error = "Only the two players can act in this game (open your private link)."
    elif not isinstance(data, dict):
        error = "That command was not understood."
    else:
        try:
            # only while the seat is as read (its secret replaced meanwhile: refused)
            done, _seq = service.submit(session, game, seat.side, {"type": ctype, "data": data}, seq,
                                        seat.token_hash, decided)
            fresh, select = _fresh(done, seat, game), board_for(game.game).kept(ctype, select)
        except StaleSequence:
            error = "The game moved on while you were deciding; here is the new situation."
        except SeatChanged as exc:
            error = f"{exc} (open your new private link)."
        except RuleError as exc:
            error = str(exc)
    return render_board(request, session, service, game, seat,
                        BoardRequest(select=select, error=error, error_for=Command(ctype, data or {}),
                                     since=_since(seq, game), fresh=fresh, shown=shown))


def _fresh(done: list[tuple[int, Any, str | None]], seat: Seat, game: Game) -> list[Row]:
    """The log rows a command just appended, for its answer's log lines."""
    return [Row(n, e.type, e.side, seat.side, t, e.data, game.updated_at, {"by": None} if i == 0 else None)
            for i, (n, e, t) in enumerate(done)]  # (the seat's player's own command)


def render_board(request: Request, session: SessionDep | None, service: ServiceDep, game: Game, seat: Seat | None,
                 req: BoardRequest) -> HTMLResponse:
    """The board's page (``req.full``) or answer (``session`` None: an answer drawn from
    what the request holds already, reading nothing: ``req.fresh`` has its log lines)."""
    settings = request.app.state.settings
    # the invitation only while a seat still waits for its player: once joined, it is used up
    waiting = any(s.joined_at is None for s in game.seats)
    invite = request.cookies.get(f"invite_{game.id}") if seat and waiting else None
    req.invite_url = invite_link(settings.base_url, game.id, invite) if invite else None
    board = board_for(game.game)
    ctx = board.context(session, service, game, seat, req)
    if not req.full:
        chat = chat_panel(request, session, game, seat) if session is not None and not ctx.oob else None
        return page(request, board.board_template, b=ctx, c=chat)
    assert session is not None  # (a page is drawn with its session)
    return page(request, "game.html", b=ctx, g=board, c=chat_panel(request, session, game, seat))


def chat_panel(request: Request, session: Session, game: Game, seat: Seat | None,
               error: str | None = None) -> dict[str, Any]:
    """What the chat panel shows; the player's unread lines count as read once shown."""
    chat = request.app.state.chat
    readable = chat.may_read(game, seat)
    panel = {"game_id": game.id, "side": seat.side if seat else None, "readable": readable,
             "lines": chat.lines(session, game) if readable else [], "newest": chat.newest(session, game.id),
             "unread": chat.unread(session, seat) if seat else 0, "read_before": seat.chat_read if seat else 0,
             "you_allow": seat.chat_public if seat else None, "spectators_may_read": chat.may_read(game, None),
             # the opponent's seat is the computer's (from the start, or while its player is away): nobody reads there
             "computer": seat is not None and any(s.computer for s in game.seats if s.side != seat.side),
             "error": error}
    if seat is not None:
        chat.mark_read(session, seat)
    return panel


@router.get("/games/{game_id}/chat")
def chat_fragment(request: Request, game: GameDep, seat: OptionalSeatDep, session: SessionDep) -> HTMLResponse:
    """The chat panel again (the board asks when the stream says someone wrote)."""
    return page(request, "partials/chat.html", c=chat_panel(request, session, game, seat))


@posts.post("/games/{game_id}/chat")
def chat_write(request: Request, game: GameDep, seat: OptionalSeatDep, session: SessionDep,
               text: str = Form("", max_length=4000)) -> HTMLResponse:
    error = None
    if seat is None:
        error = "Only the two players can write here (open your private link)."
    else:
        request.app.state.limits.hit("chat", f"{game.id}:{seat.side}")
        try:
            request.app.state.chat.post(session, game, seat, text)
        except BadText as exc:
            error = f"Not sent: {exc}."
    return page(request, "partials/chat.html", c=chat_panel(request, session, game, seat, error))


@posts.post("/games/{game_id}/chat/spectators")
def chat_public(request: Request, game: GameDep, seat: OptionalSeatDep, session: SessionDep,
                allow: bool = Form(...)) -> HTMLResponse:
    if seat is not None:
        request.app.state.chat.set_public(session, seat, allow)
    return page(request, "partials/chat.html", c=chat_panel(request, session, game, seat))


def _seat_from_cookie(request: Request, game: Game, session: SessionDep, service: ServiceDep,
                      settings: SettingsDep) -> Seat | None:
    raw = request.cookies.get(cookie_name(game.id))
    token = unsign(raw, settings.secret_key) if raw else None
    return service.seat_for(session, game.id, token) if token else None


@posts.post("/join-link")
def join_link(link: str = Form(..., max_length=500)) -> Response:
    """Open a pasted invitation link (only links to this server's join pages).  A form
    post, so the pasted secret never lands in an address or an access log."""
    parts = urlsplit(link.strip())
    token = parse_qs(parts.fragment).get("token") or parse_qs(parts.query).get("token")
    if not parts.path.startswith("/join/") or not token:
        raise HTTPException(422, "that is not an invitation link (it looks like .../join/GAME#token=...)")
    game_id = parts.path.removeprefix("/join/").strip("/")
    if not GAME_ID.fullmatch(game_id):
        raise HTTPException(422, "that invitation link names no game of this server")
    return RedirectResponse(f"/join/{game_id}#token={quote(token[0], safe='')}", status_code=303)


@router.get("/games/{game_id}/at/{seq}", response_class=HTMLResponse)
def moment_page(request: Request, seq: int, access: AccessDep, session: SessionDep,
                service: ServiceDep) -> HTMLResponse:
    """The game as it stood after its first ``seq`` events, read-only, with steps back and
    forward (arrow keys too) and bookmarks at each turn and phase.  A running game's
    moments are for its players (each sees their own side's view); anyone may replay a
    finished one."""
    game = access.game
    seat = seat_of(request, access, request.app.state.limits)
    if game.status != "finished" and seat is None:
        raise HTTPException(403, "the moments of a running game are for its players; anyone may replay it "
                                 "once it is over")
    if not 0 <= seq <= game.seq:
        raise HTTPException(404, f"this game has {game.seq} events: moments 0 to {game.seq}")
    side = seat.side if seat else None
    return page(request, "moment.html", **moment_context(session, service, game, seq, side, seat))


@router.get("/games/{game_id}/record/check", response_class=HTMLResponse)
def record_check(request: Request, game: GameDep, session: SessionDep,
                 head: str = Query("", max_length=200)) -> HTMLResponse:
    """The board's record check: whether today's record extends a head from an old mail or
    page (the API's ``/api/games/{id}/record/check`` in words)."""
    return page(request, "partials/record_check.html", said=game_record.extends(session, game, head))


@router.get("/games/{game_id}/log", response_class=HTMLResponse)
def log_page(request: Request, access: AccessDep, session: SessionDep,
             offset: int | None = None, limit: int = 200) -> HTMLResponse:
    """The game's log as a story: turn and phase headings, times, each line a link to its
    moment for those who may replay it.  Without an ``offset``, its newest page (a player
    opens it for what happened lately; "earlier" goes back page by page)."""
    game = access.game
    limit = min(max(1, limit), 1000)
    if offset is None:
        offset = (game.seq - 1) // limit * limit if game.seq else 0
    offset = min(max(0, offset), 2**31 - 1)
    total, rows = store.page_events(session, game.id, offset, limit)
    seat = seat_of(request, access, request.app.state.limits)
    rows = readable(rows, game, viewer_of(game, seat.side if seat else None))
    story = narrative(get_rules(game.game), rows, store.retractions(session, game.id))
    # the page's events (numbered from 1, as the board and the replay number them): some may
    # be hidden from the viewer, and are not listed, but are counted
    return page(request, "log.html", game=game, story=story, total=total, offset=offset, limit=limit,
                first=offset + 1, last=min(offset + limit, total), replay=seat is not None or game.status == "finished")
