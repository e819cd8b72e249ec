"""The JSON API used by the browser pages and by API clients (OpenAPI at /docs).

Every error answer has the ``ErrorOut`` shape, and each route documents the error
codes it can give: clients are generated from this schema."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, HTTPException, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from app import command_path, store
from app.answers import Encoded, json_answer
from app.command_path import Sending
from app.config import Settings
from app.deps import (
    NO_SECRET,
    AdminDep,
    GameDep,
    IsAdminDep,
    LimitsDep,
    OptionalSeatDep,
    SeatDep,
    ServiceDep,
    SessionDep,
    SettingsDep,
    command_access,
    get_access,
    head_access,
    presented_token,
    seat_of,
)
from app.errors import error_json, responses, rule_error
from app.fast_commands import Landed
from app.json_route import StrictJSONRoute
from app.models import Game, Seat
from app.ratelimit import RateLimits, client_address
from app.schemas import (
    AttackPreviewIn,
    ChatIn,
    ChatOut,
    ChatSpectatorsIn,
    CommandIn,
    CommandResult,
    DaysIn,
    DiceOut,
    EntropyIn,
    EntropyOut,
    EventOut,
    GameCreated,
    ImportErrorOut,
    ImportResult,
    Joined,
    JoinRequest,
    LegalListOut,
    LegalOut,
    LogPage,
    MapOut,
    NewGame,
    SeatComputerIn,
    SeatComputerOut,
    SeatLink,
    SeatMailIn,
    SeatMailOut,
    WebhookIn,
    WebhookOut,
)
from app.security import GAME_ID, cookie_name, hash_token, sign
from app.services import clock, computer, dice_keys
from app.services import record as game_record
from app.services.games import BadImport, GameLike, GameService, NoRecord, SeatChanged
from app.store import StaleSequence
from app.text import BadText, dump_json
from app.visible import readable_events, viewer_of
from engine.core.errors import NotInThisGame, RuleError
from engine.core.events import Event
from engine.games import get_rules
from engine.record.book import ADMIN as ADMIN_VIEWER

router = APIRouter(prefix="/api", tags=["games"], route_class=StrictJSONRoute, responses=responses(413, 422))
# the import takes whole export files: its own router, with a larger body limit
imports = APIRouter(prefix="/api", tags=["games"], route_class=StrictJSONRoute, responses=responses(413, 429))
# a move's two routes, matched first (app/main.py): a path is tried against the routes in
# order, and the API's thirty others before them cost a command some 0.15 ms
moves = APIRouter(prefix="/api", tags=["games"], route_class=StrictJSONRoute, responses=responses(413, 422))
SEAT = responses(401, 403, 404, 429)
READ = responses(403, 404, 429)


def set_seat_cookie(response: Response, game_id: str, token: str, settings: SettingsDep) -> None:
    response.set_cookie(cookie_name(game_id), sign(token, settings.secret_key), httponly=True,
                        samesite="lax", secure=settings.secure_cookies, max_age=60 * 60 * 24 * 365)


def seat_link(base_url: str, game_id: str, token: str) -> str:
    """A private link.  The secret rides in the fragment, which browsers never send to
    a server (so it is in no access log); the page hands it over in a form post."""
    return f"{base_url}/games/{game_id}#token={token}"


def invite_link(base_url: str, game_id: str, token: str) -> str:
    return f"{base_url}/join/{game_id}#token={token}"


@router.post("/games", response_model=GameCreated, status_code=201, responses=responses(429))
def create_game(body: NewGame, request: Request, response: Response, session: SessionDep, service: ServiceDep,
                settings: SettingsDep, limits: LimitsDep) -> Any:
    limits.hit("create", client_address(request))
    try:
        created = service.create(session, body.game, body.scenario, body.side, body.options, body.name,
                                 body.title, body.email, body.move_days, body.vacation_days, body.computer)
    except RuleError as exc:
        return rule_error(exc)
    gid = created.game.id
    other = next(s for s in created.tokens if s != body.side)
    set_seat_cookie(response, gid, created.tokens[body.side], settings)
    return GameCreated(game_id=gid, side=body.side, token=created.tokens[body.side],
                       play_url=seat_link(settings.base_url, gid, created.tokens[body.side]),
                       invite_url=None if body.computer else invite_link(settings.base_url, gid, created.tokens[other]))


@router.post("/games/{game_id}/join", response_model=Joined, responses=responses(403, 404, 429))
def join_game(body: JoinRequest, request: Request, game: GameDep, response: Response, session: SessionDep,
              service: ServiceDep, settings: SettingsDep, limits: LimitsDep) -> Any:
    limits.hit("join", client_address(request))
    try:
        seat, token = service.join(session, game, body.token, body.name, body.email)
    except PermissionError as exc:
        raise HTTPException(403, str(exc)) from None
    if body.entropy is not None and seat.entropy is None:  # the seat's part of the dice, given as it sits down
        try:
            service.give_entropy(session, game, seat.side, body.entropy)
        except dice_keys.EntropyRefused:
            session.rollback()  # a game that takes none: the seat is taken all the same
    set_seat_cookie(response, game.id, token, settings)
    return Joined(game_id=game.id, side=seat.side, name=seat.display_name, token=token)


@router.get("/games/{game_id}", response_model=dict[str, Any], responses=READ)
def game_view(request: Request, game: GameDep, seat: OptionalSeatDep, session: SessionDep,
              service: ServiceDep) -> Response:
    """The game as your side may see it (a spectator's view without a secret)."""
    return json_answer(request, service.view_json(session, game, seat.side if seat else None))


@router.get("/games/{game_id}/stream", responses={**READ, **responses(503), 200: {
    "description": "Server-Sent Events: `moved` (data: the game's new length) each time the game "
                   "grows past `seq`, `chat` (data: the newest message's id) each time a player writes "
                   "after `chat`, `seats` (data: the seats taken) once more than `seats` are, when `seats` "
                   "is given (a game's creator waiting for the opponent to join), each at once if that has "
                   "happened already; `gone` if there is no such game.",
    "content": {"text/event-stream": {"schema": {"type": "string"}}}}})
async def game_stream(request: Request, game_id: str, seq: Annotated[int, Query(ge=0)] = 0,
                      chat: Annotated[int, Query(ge=0)] = 0,
                      seats: Annotated[int | None, Query(ge=0, le=16)] = None) -> Response:
    """Live updates for players and spectators alike, with the same secrets as the rest of
    the API (a wrong one is refused).  A stream message says only that the game moved:
    read the view, the legal commands or the log for what changed, as your side."""
    if not GAME_ID.fullmatch(game_id):
        raise HTTPException(404, f"no game {game_id}")
    state = request.app.state

    def check(session: Session) -> None:  # on the hub's connection: a stream holds none of the pool's
        seat_of(request, get_access(request, game_id, session, state.games, state.settings), state.limits)

    await state.hub.run(check)
    return state.hub.response(game_id, seq, chat, seats)


LegalForm = Annotated[Literal["grouped", "list"], Query(
    description="`grouped` (the default): the commands as `choices`; `list`: one by one as `commands`, "
                "possibly large (First Blood's set-up: some 160 KB)")]


@moves.get("/games/{game_id}/legal", response_model=LegalOut | LegalListOut, responses=READ)
async def legal_commands(game_id: str, request: Request, form: LegalForm = "grouped") -> Response:
    """Whose decision it is, and your legal commands if it is yours (the same commands the
    server judges commands by), as `choices`: those that differ in one field only told
    once with that field's values (docs/api-client.md), so that no answer of a whole game
    is over 20 KB (a set-up's 2,300 placements are some 40 units, each with its hexes).
    Where the commands are too many to list even so (Pacific Battles' air allocation, any
    split of the Reserve), `described` gives each such command as a JSON Schema of its
    data, from the code that judges it: any command that fits is legal.  `form=list`: the
    commands one by one as `commands` instead of `choices`, possibly large."""
    # asked before every command: like the command route, one trip to a thread and one light query
    return await run_in_threadpool(_legal_in_session, game_id, request, form == "grouped")


def _legal_in_session(game_id: str, request: Request, grouped: bool) -> Response:
    shared = request.app.state
    service = shared.games
    with shared.db.read_sessions() as session:
        game, side = head_access(request, game_id, session, service, shared.settings, shared.limits)
        state = service.state(session, game)

    def encode() -> Encoded:
        return Encoded(dump_json(legal_body(service, game, state, side, grouped)))
    return json_answer(request, service.cache.memo(game.id, game.seq, ("legal.json", side, grouped), encode))


def legal_body(service: GameService, game: GameLike, state: Any, side: str | None, grouped: bool) -> dict[str, Any]:
    """``/legal``'s answer for ``side``: its commands as ``choices`` (``grouped``, the
    default) or one by one as ``commands`` (``form=list``)."""
    rules = get_rules(game.game)
    p = rules.prompt(state)
    mine = side is not None and side in p.acting  # every side that decides now (a secret allocation: both)
    body: dict[str, Any] = {"seq": game.seq, "prompt": {"side": p.side, "sides": list(p.acting), "kind": p.kind,
                                                        "rule": p.rule, "text": p.text if mine else p.waiting},
                            "your_turn": mine}
    if grouped:  # the game's own choices: a long list is never built only to be grouped
        body["choices"] = service.choices(game, state, side) if mine and side else []
    else:
        body["commands"] = service.legal(game, state, side) if mine else []
    body["described"] = rules.described_commands(state, side) if mine and side is not None else []
    return body


@router.get("/games/{game_id}/map", response_model=MapOut, responses={**READ, 304: {"description": "Not Modified"}})
def game_map(request: Request, game: GameDep) -> Response:
    """The map the game is played on: every hex with its terrain, the hexsides that matter,
    roads and trails, named places, objectives, airfields, ports, boxes, entry points, set-up
    areas and the terrain chart, in one schema for every game (docs/api-map.md).  The same
    for every game of a scenario, from the data the rules and the board's SVG use: cache it
    (an ETag; `If-None-Match` answers 304)."""
    try:
        answer = _map_answer(game.game, game.scenario)
    except NotInThisGame as exc:
        raise HTTPException(404, str(exc)) from None
    headers = {"ETag": answer.etag, "Cache-Control": "public, max-age=86400"}
    if answer.etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    response = json_answer(request, answer.encoded)
    response.headers.update(headers)
    return response


@dataclass(frozen=True)
class _MapAnswer:
    encoded: Encoded
    etag: str


@cache
def _map_answer(game: str, scenario: str) -> _MapAnswer:
    body = dump_json(get_rules(game).map_data(scenario))
    return _MapAnswer(Encoded(body), '"' + hashlib.sha256(body).hexdigest()[:32] + '"')


@router.post("/games/{game_id}/seat/new-link", response_model=SeatLink, responses={**SEAT, **responses(409)})
def new_seat_link(game: GameDep, seat: SeatDep, response: Response, session: SessionDep, service: ServiceDep,
                  settings: SettingsDep) -> Any:
    """Replace your private link (lost, or shared by mistake): the old one stops working
    at once, on every device that holds it; this answer (and its cookie) holds the new one.
    409: it was replaced by another request a moment ago (another device, or an admin)."""
    try:
        token = service.new_seat_link(session, game, seat.side)
    except SeatChanged as exc:
        raise HTTPException(409, str(exc)) from None
    set_seat_cookie(response, game.id, token, settings)
    return SeatLink(game_id=game.id, side=seat.side, token=token, play_url=seat_link(settings.base_url, game.id, token))


@router.put("/games/{game_id}/seat/computer", response_model=SeatComputerOut, responses=SEAT)
def seat_computer(body: SeatComputerIn, request: Request, game: GameDep, seat: SeatDep, session: SessionDep) -> Any:
    """Hand your seat to the computer while you are away (it decides for you within seconds,
    from what your side may know); null takes it back.  Your opponent is told.  422: a level
    this game's computer does not play."""
    if game.status == "finished":
        raise HTTPException(409, "the game is over")
    try:
        computer.hand_over(session, request.app.state.notices, game, seat, body.level, request.app.state.games)
    except ValueError as exc:
        raise HTTPException(422, str(exc)) from None
    return SeatComputerOut(game_id=game.id, side=seat.side, computer=seat.computer)


@router.put("/games/{game_id}/seat/email", response_model=SeatMailOut, responses=SEAT)
def seat_email(body: SeatMailIn, game: GameDep, seat: SeatDep, session: SessionDep, service: ServiceDep) -> Any:
    """Where your "your move" and "game over" mails go ("" for none). Your opponent never sees it."""
    service.set_email(session, seat, body.email)
    return SeatMailOut(email=seat.email, notify=seat.notify)


def chat_out(request: Request, session: Session, game: Game, seat: Seat | None) -> ChatOut:
    chat = request.app.state.chat
    if not chat.may_read(game, seat):
        raise HTTPException(403, "the players have not let spectators read their chat")
    return ChatOut(messages=[line.to_json() for line in chat.lines(session, game)],
                   unread=None if seat is None else chat.unread(session, seat),
                   spectators_may_read=chat.may_read(game, None),
                   you_allow=None if seat is None else seat.chat_public)


@router.get("/games/{game_id}/chat", response_model=ChatOut, responses=READ)
def chat_read(request: Request, game: GameDep, seat: OptionalSeatDep, session: SessionDep) -> Any:
    """The players' chat (to a spectator only while both players allow it).  Reading it
    does not mark it read: ``PUT .../chat/read`` does."""
    return chat_out(request, session, game, seat)


@router.post("/games/{game_id}/chat", response_model=ChatOut, status_code=201, responses=SEAT)
def chat_post(request: Request, body: ChatIn, game: GameDep, seat: SeatDep, session: SessionDep) -> Any:
    """Write to your opponent (at most 1,000 characters; shown escaped, never as markup).
    Open boards and streams hear of it at once."""
    request.app.state.limits.hit("chat", f"{game.id}:{seat.side}")
    try:
        request.app.state.chat.post(session, game, seat, body.text)
    except BadText as exc:
        raise HTTPException(422, f"text: {exc}") from None
    return chat_out(request, session, game, seat)


@router.put("/games/{game_id}/chat/read", response_model=ChatOut, responses=SEAT)
def chat_mark_read(request: Request, game: GameDep, seat: SeatDep, session: SessionDep) -> Any:
    """Everything written so far counts as read by you."""
    request.app.state.chat.mark_read(session, seat)
    return chat_out(request, session, game, seat)


@router.put("/games/{game_id}/chat/spectators", response_model=ChatOut, responses=SEAT)
def chat_spectators(request: Request, body: ChatSpectatorsIn, game: GameDep, seat: SeatDep,
                    session: SessionDep) -> Any:
    """Whether you let spectators read the chat; they may once both players do."""
    request.app.state.chat.set_public(session, seat, body.allow)
    return chat_out(request, session, game, seat)


@router.put("/games/{game_id}/seat/webhook", response_model=WebhookOut, responses=SEAT)
def seat_webhook(request: Request, body: WebhookIn, seat: SeatDep, session: SessionDep,
                 service: ServiceDep) -> Any:
    """Where your notices ("your move", "game over", your opponent's chat) are also POSTed
    as JSON that Discord and Slack accept ("" for none).  https only, to a public address."""
    try:
        service.set_webhook(session, seat, body.url, request.app.state.settings.webhook_allow_private)
    except BadText as exc:
        raise HTTPException(422, f"url: {exc}") from None
    return WebhookOut(webhook_url=seat.webhook_url)


def clock_answer(request: Request, session: Session, game: Game, act: Callable[[], Any] | None = None) -> Any:
    """Run a clock action (a refusal is a 409 saying why), then the clock as it is now."""
    if act is not None:
        try:
            act()
        except clock.ClockError as exc:
            session.rollback()
            raise HTTPException(409, str(exc)) from None
    return {"clock": clock.view(game, request.app.state.games.now())}


@router.get("/games/{game_id}/clock", responses=READ)
def clock_read(request: Request, game: GameDep, session: SessionDep) -> Any:
    """The time control: days per decision, whose decision it is and its deadline, each
    player's vacation days (``clock`` is null for a game without one)."""
    return clock_answer(request, session, game)


@router.post("/games/{game_id}/clock/vacation", responses={**SEAT, **responses(409)})
def clock_vacation(request: Request, body: DaysIn, game: GameDep, seat: SeatDep, session: SessionDep) -> Any:
    """Take vacation days from your allowance, starting now: your clock stands still."""
    return clock_answer(request, session, game, lambda: clock.take_vacation(
        session, game, seat, body.days, request.app.state.games.now()))


@router.post("/games/{game_id}/clock/grant", responses={**SEAT, **responses(409)})
def clock_grant(request: Request, body: DaysIn, game: GameDep, seat: SeatDep, session: SessionDep) -> Any:
    """Give your opponent more time for the decision they owe (1 to 14 days)."""
    return clock_answer(request, session, game, lambda: clock.grant(
        session, game, seat, body.days, request.app.state.games.now()))


@router.post("/games/{game_id}/clock/claim", response_model=CommandResult, responses={**SEAT, **responses(409)})
def clock_claim(request: Request, game: GameDep, seat: SeatDep, session: SessionDep, service: ServiceDep) -> Any:
    """Your opponent's time has run out: win the game on time (written to the log)."""
    try:
        written, seq = service.claim_on_time(session, game, seat)
    except clock.ClockError as exc:
        raise HTTPException(409, str(exc)) from None
    except StaleSequence:
        raise HTTPException(409, "the game has just moved on; look again") from None
    return CommandResult(seq=seq, events=[EventOut(seq=n, type=e.type, side=e.side, text=t, data=e.data)
                                          for n, e, t in written])


@router.post("/games/{game_id}/clock/computer", response_model=SeatComputerOut, responses={**SEAT, **responses(409)})
def clock_computer(request: Request, game: GameDep, seat: SeatDep, session: SessionDep, service: ServiceDep) -> Any:
    """Your opponent's time has run out: rather than claim the game, let the computer play
    their seat (at its default level) until they come back and take it.  409: as a claim."""
    try:
        side = computer.stand_in(session, request.app.state.notices, game, seat, service.now(), service=service)
    except clock.ClockError as exc:
        raise HTTPException(409, str(exc)) from None
    return SeatComputerOut(game_id=game.id, side=side, computer=next(s.computer for s in game.seats if s.side == side))


@router.get("/games/{game_id}/units/{unit_id}/reachable", responses=SEAT)
def reachable(unit_id: str, game: GameDep, seat: SeatDep, session: SessionDep,
              service: ServiceDep) -> dict[str, Any]:
    """Hexes the unit may move to now, each with its cost and path (empty if it may not move).
    404: no such unit, or one your side may not know of (an enemy piece under the fog of war)."""
    state = service.state(session, game)
    if not get_rules(game.game).unit_named(state, seat.side, unit_id):
        raise HTTPException(404, f"no unit {unit_id}")
    return {"unit": unit_id, "seq": game.seq, "hexes": service.reachable(game, state, seat.side, unit_id)}


@router.post("/games/{game_id}/attack-preview", responses=SEAT)
def attack_preview(body: AttackPreviewIn, game: GameDep, seat: SeatDep, session: SessionDep,
                   service: ServiceDep) -> Any:
    """Odds, defence doubling, artillery cap and die modifiers of a proposed attack, without
    declaring it: in your combat phase, as the declaration would be; at any other moment, or
    with `positions` (unit -> the hex it would attack from), what it would be from there (a
    "what if" while moving; support assigned later is not counted).  404: the game has no
    attack previews (Pacific Battles shows a battle's column on its board before the die)."""
    rules = get_rules(game.game)
    try:
        return rules.preview_attack(service.state(session, game), seat.side, body.targets, body.units,
                                    body.positions)
    except RuleError as exc:
        return rule_error(exc)
    except NotInThisGame as exc:
        raise HTTPException(404, str(exc)) from None


@moves.post("/games/{game_id}/commands", response_model=CommandResult, responses=responses(401, 403, 404, 409, 429))
async def post_command(game_id: str, body: CommandIn, request: Request) -> Response:
    """Decide a command for your side; all its events are appended in one transaction."""
    # The busiest route, so it takes no dependencies (each costs the event loop time).
    return await command_path.send(request, game_id, {"type": body.type, "data": body.data}, body.expected_seq,
                                   API_ANSWER)


class _ApiAnswer:
    """The JSON API's answer to a command: its events as the sender may read them."""

    returning = False

    def fast(self, kind: str, command: dict[str, Any]) -> bool:
        return True

    async def landed(self, request: Request, landed: Landed, sending: Sending) -> Response:
        assert sending.known is not None
        kind, side = sending.known[1]
        # the next legal list on the event loop, as a board's answer is drawn: built as choices,
        # a list takes 0.1 ms at p50 and a few ms at most (whole games of both games), less
        # than most hops to a thread and back
        then = _next(request, sending.game_id, kind, side, landed.done[1])
        return command_answer(readable_events(landed.done[0], kind, side), landed.done[1], then)

    def in_thread(self, request: Request, sending: Sending) -> Response:
        state = request.app.state
        with state.db.sessions() as session:
            return self._answer(request, session, state.games, state.settings, state.limits, sending)

    def _answer(self, request: Request, session: Session, service: GameService, settings: Settings,
                limits: RateLimits, sending: Sending) -> Response:
        known, command = sending.known, sending.command
        if known is not None:  # a secret seen before: decided without reading first
            done = service.submit_known(session, sending.game_id, known[0], known[1], command,
                                        sending.expected_seq, sending.decided)
            if done is not None:
                kind, side = known[1]
                return command_answer(readable_events(done[0], kind, side), done[1],
                                      _next(request, sending.game_id, kind, side, done[1]))
        game, side = command_access(request, sending.game_id, session, service, settings, limits)
        if not sending.counted:
            limits.hit("commands", f"{game.id}:{side}")
        try:
            # only while the seat still holds the secret that opened it (replaced meanwhile: refused)
            token_hash = hash_token(presented_token(request, sending.game_id, settings)[0] or "")
            events, seq = service.submit(session, game, side, command, sending.expected_seq, token_hash,
                                         sending.decided)
        except StaleSequence as exc:
            return error_json(409, str(exc), current_seq=exc.current)
        except SeatChanged as exc:
            raise HTTPException(403, str(exc)) from None
        except RuleError as exc:
            return rule_error(exc)
        return command_answer(readable_events(events, game.game, side), seq,
                              _next(request, game.id, game.game, side, seq))


API_ANSWER = _ApiAnswer()


def command_answer(events: list[tuple[int, Event, str | None]], seq: int,
                   then: dict[str, Any] | None = None) -> Response:
    """The events a command wrote, as its sender may read them, and ``then``: what the
    sender needs next (``/legal``'s answer after the command), so that a client never
    asks for it after its own move."""
    return Response(dump_json({"seq": seq, "events": [{"seq": n, "type": e.type, "side": e.side, "text": t,
                                                       "data": _public(e.type, e.data)} for n, e, t in events],
                               "next": then}),
                    media_type="application/json")


def _next(request: Request, game_id: str, kind: str, side: str, seq: int) -> dict[str, Any] | None:
    """``/legal``'s answer for the sender after its command (None: the state after it
    is no longer this worker's newest, e.g. the opponent moved at once; ask ``/legal``)."""
    service: GameService = request.app.state.games
    state = service.cache.get(game_id, seq)
    return None if state is None else legal_body(service, store.GameHead(game_id, kind, seq), state, side, True)


@router.get("/games/{game_id}/log", response_model=LogPage, responses=READ)
def game_log(game: GameDep, seat: OptionalSeatDep, session: SessionDep, service: ServiceDep,
             offset: int = Query(0, ge=0, le=2**31 - 1), limit: int = Query(100, ge=1, le=1000)) -> Any:
    """The game's log, oldest first, with one line of English beside each event: what
    the asking seat may read (a spectator: what both sides may)."""
    return service.log(session, game, offset, limit, reveal=False, viewer=viewer_of(game, seat.side if seat else None))


RECORD = "record"  # ?format= of the record file (docs/fair-dice.md)


@router.get("/games/{game_id}/export", responses={**READ, **responses(401, 409),
                                                   200: {"description": "the export file (JSON)"}})
def export_game(game: GameDep, seat: OptionalSeatDep, is_admin: IsAdminDep, session: SessionDep,
                service: ServiceDep, file_format: Annotated[str, Query(
                    alias="format", max_length=16,
                    description="'record': the game's record file (docs/fair-dice.md) as the seat's side may read "
                                "it, at any time (the admin's, and a player's once the game is over, hold it all); "
                                "else the whole game's export file, once the game is over")] = ""
                ) -> JSONResponse:
    """The game as one file: its record as the asking side may read it (``format=record``,
    any time), or the whole game (dice secret included, so only once the game is over)."""
    if file_format == RECORD:
        if seat is None and not is_admin:
            raise HTTPException(401, NO_SECRET, headers={"WWW-Authenticate": "Bearer"})
        # once the game is over nothing is hidden any more (its export file shows all): each
        # player gets the whole record, every entry with its salt, to check all of it offline
        viewer = seat.side if seat is not None and game.status != "finished" else ADMIN_VIEWER
        try:
            data = service.export_record(session, game, viewer)
        except NoRecord as exc:
            raise HTTPException(409, str(exc)) from None
        return export_response(data, game.id)
    if seat is None:
        raise HTTPException(401, NO_SECRET, headers={"WWW-Authenticate": "Bearer"})
    if game.status != "finished":
        raise HTTPException(409, "a game can be exported by its players once it is over "
                                 "(the file reveals the dice secret); an admin can export it any time")
    return export_response(service.export(session, game), game.id)


class RecordCheckOut(BaseModel):
    ok: bool = Field(..., description="whether today's record extends the one that ended with that head")
    message: str
    entry: int | None = Field(None, description="the entry whose hash that head is")
    head: str | None = Field(None, description="today's head (null: a game without a record chain)")


@router.post("/games/{game_id}/seat/entropy", response_model=EntropyOut, responses={**SEAT, **responses(409)})
def seat_entropy(body: EntropyIn, game: GameDep, seat: SeatDep, session: SessionDep, service: ServiceDep) -> Any:
    """Your part of the dice (docs/fair-dice.md), once, before the game's first command: its
    commitment goes into the record at once, and once both parts are in both are shown.
    A seat that gave none when the first command comes gets one the server makes (the record
    says so).  409: given already, or a game whose dice take none."""
    try:
        return EntropyOut(**service.give_entropy(session, game, seat.side, body.entropy))
    except dice_keys.EntropyRefused as exc:
        session.rollback()
        raise HTTPException(409, str(exc)) from None


@router.get("/games/{game_id}/dice", response_model=DiceOut, responses={**READ, **responses(409)})
def game_dice(game: GameDep, seat: OptionalSeatDep, session: SessionDep) -> Any:
    """What anybody may know of the game's dice: the seed chains' commitments, each side's
    entropy (its commitment until both are in), and every seed published so far (check the
    rolls of a finished period with them: docs/fair-dice.md).  409: a game of one secret."""
    got = dice_keys.status(session, game, seat.side if seat else None)
    if got is None:
        raise HTTPException(409, "this game's dice come from one secret the server committed to when it was made: "
                                 "it has no seed chains")
    return got


@router.get("/games/{game_id}/record/check", response_model=RecordCheckOut, responses=READ)
def check_record_head(game: GameDep, session: SessionDep,
                      head: Annotated[str, Query(max_length=200, description="a head seen before (a mail, a page)")]
                      ) -> Any:
    """Whether today's record of the game extends the one whose head was ``head``: that hash
    is one of its entries', and every hash from the first to today's holds."""
    said = game_record.extends(session, game, head)
    return RecordCheckOut(ok=said.ok, message=said.message, entry=said.seq, head=game_record.head(game))


def export_response(data: dict[str, Any], game_id: str) -> JSONResponse:
    return JSONResponse(data, headers={"Content-Disposition": f'attachment; filename="game-{game_id}.json"'})


@imports.post("/games/import", response_model=ImportResult, status_code=201,
              responses=responses(401, 403, 422, e422=ImportErrorOut, e403=ImportErrorOut))
def import_game(data: Annotated[dict[str, Any], Body(description="an export file")], request: Request,
                session: SessionDep, service: ServiceDep, settings: SettingsDep, is_admin: IsAdminDep,
                limits: LimitsDep) -> Any:
    """Create a new game from an export file, validated by replaying every command.
    An unfinished game needs admin credentials (the file holds its dice secret).
    The file must match exactly; the first event that differs is named."""
    limits.hit("create", client_address(request))
    try:
        created = service.import_game(session, data, admin=is_admin)
    except BadImport as exc:
        return error_json(exc.status, str(exc), kind="malformed" if exc.status == 422 else "forbidden",
                          bad_seq=exc.seq)
    gid = created.game.id
    return ImportResult(game_id=gid, seats={s: seat_link(settings.base_url, gid, t) for s, t in created.tokens.items()})


@imports.post("/admin/import", response_model=ImportResult, status_code=201, tags=["admin"],
              responses=responses(401, 422, e422=ImportErrorOut))
def admin_import(data: Annotated[dict[str, Any], Body(description="a record file (the admin's) or an export file")],
                 admin: AdminDep, session: SessionDep, service: ServiceDep, settings: SettingsDep) -> Any:
    """A new game from a record file (docs/fair-dice.md), refused with the engine checker's
    verdict unless it verifies, or from an export file (replayed, as ``/api/games/import``)."""
    try:
        created = service.import_game(session, data, admin=True)
    except BadImport as exc:
        return error_json(exc.status, str(exc), kind="malformed", bad_seq=exc.seq)
    gid = created.game.id
    return ImportResult(game_id=gid, seats={s: seat_link(settings.base_url, gid, t) for s, t in created.tokens.items()})


def _public(event_type: str, data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "secret": "(hidden)"} if event_type == "game_created" else data
