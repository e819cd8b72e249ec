"""Request and response bodies of the JSON API (pydantic)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from app.text import Email, Line
from engine.games import DEFAULT_GAME


class NewGame(BaseModel):
    game: str = Field(DEFAULT_GAME, max_length=40, description="engine game id")
    scenario: str = Field("campaign", max_length=40)
    side: str = Field(..., max_length=16, description="the side you play, e.g. US or IJ")
    name: Line = Field("", max_length=80, description="your display name")
    title: Line = Field("", max_length=120, description="a note for your opponent")
    options: dict[str, bool] = Field(default_factory=dict)
    email: Email = Field("", max_length=254, description="optional: told by e-mail when it is your move")
    move_days: int | None = Field(None, description="time per decision in days: 1, 2, 3, 5, 7 or 14 (null: no clock)")
    vacation_days: int = Field(0, ge=0, le=30, description="vacation days each player may take (needs move_days)")
    computer: str | None = Field(None, max_length=20, description="play against the computer at this level "
                                 "(greedy, search or random); null: invite a person")


class GameCreated(BaseModel):
    game_id: str
    side: str
    token: str = Field(..., description="your seat secret; keep it private")
    play_url: str = Field(..., description="your private link")
    invite_url: str | None = Field(..., description="send this to your opponent (null: the computer plays them)")


class JoinRequest(BaseModel):
    token: str = Field(..., max_length=200, description="the invitation (the part after token= in the link)")
    name: Line = Field("", max_length=80)
    email: Email = Field("", max_length=254, description="optional: told by e-mail when it is your move")
    entropy: str | None = Field(None, min_length=1, max_length=200,
                                description="optional: your part of the dice (docs/fair-dice.md), any text; "
                                            "random is best. Without it, give it later or the server makes one")


class EntropyIn(BaseModel):
    entropy: str = Field(..., min_length=1, max_length=200,
                         description="your part of the dice (docs/fair-dice.md): any text, random is best; once, "
                                     "before the game's first command")


class EntropyOut(BaseModel):
    side: str
    commitment: str = Field(..., description="SHA-256 of your entropy, now in the game's record")
    revealed: bool = Field(..., description="every side's part is in: each is shown, and the dice are fixed")


class SideDiceOut(BaseModel):
    commitment: str | None = Field(..., description="SHA-256 of the side's entropy (null: not given yet)")
    made_by: str | None = Field(..., description='"player", or "server" when the side gave none in time')
    entropy: str | None = Field(..., description="the entropy, once every side's is in (your own: at once)")


class DiceOut(BaseModel):
    record_version: int
    periods: int
    commitments: dict[str, str] = Field(..., description="each seed chain's commitment (open, hidden)")
    sides: dict[str, SideDiceOut]
    revealed: bool
    period: int = Field(..., description="the period of the last decision")
    published: dict[str, dict[str, str]] = Field(..., description="chain -> period -> seed published")


class Joined(BaseModel):
    game_id: str
    side: str
    name: str
    token: str = Field(..., description="your seat secret from now on (the invitation is used up)")


class CommandIn(BaseModel):
    type: str = Field(..., description="a verb from the legal command list, e.g. move")
    data: dict[str, Any] = Field(default_factory=dict)
    expected_seq: int = Field(..., ge=0, description="the log length your view was based on")


class EventOut(BaseModel):
    seq: int
    type: str
    side: str | None
    text: str | None
    data: dict[str, Any]


class _LegalHead(BaseModel):
    seq: int
    prompt: dict[str, Any]
    your_turn: bool
    # commands too many to list: {"type", "text", "rule", "schema": a JSON Schema of the data;
    # "x-sum-at-most": {"fields", "value"} bounds the fields' sum}
    described: list[dict[str, Any]] = Field(default_factory=list)


class LegalOut(_LegalHead):
    """/legal's answer (and a command's ``next``): your commands grouped as choices."""

    # {"type", "data": what its commands share, "product": {field: values}}, a command for
    # every combination of the product's values (docs/api-client.md)
    choices: list[dict[str, Any]] = Field(..., description="your legal commands, grouped (none: not your turn)")


class LegalListOut(_LegalHead):
    """/legal?form=list's answer: your commands one by one (possibly large)."""

    commands: list[dict[str, Any]] = Field(..., description="your legal commands, {\"type\", \"data\"} each")


class CommandResult(BaseModel):
    seq: int
    events: list[EventOut]
    # what the sender needs next: /legal's answer after the command (null: ask /legal)
    next: LegalOut | None = None


class FieldError(BaseModel):
    loc: list[str | int] = Field(..., description="where: e.g. [\"body\", \"name\"]")
    msg: str
    type: str


class ErrorOut(BaseModel):
    """Every error answer of the API has this shape (some add a field)."""

    detail: str = Field(..., description="what is wrong, in English")
    kind: str = Field("", description="malformed, illegal, not_your_turn, unauthorized, forbidden, not_found, "
                                      "conflict, too_large, rate_limited or unavailable")
    rule: str = Field("", description="the rule section that forbids a command, e.g. \u00a76.2")
    errors: list[FieldError] | None = Field(None, description="the fields a malformed request got wrong")


class ConflictOut(ErrorOut):
    current_seq: int | None = Field(None, description="the log length now (for a stale command)")


class ImportErrorOut(ErrorOut):
    bad_seq: int | None = Field(None, description="the first event of the file that is refused")


class MapHex(BaseModel):
    id: str
    terrain: str  # one of the map's terrain kinds (the keys of MapOut.terrain), or "sea"
    high_ground: bool | None = None  # First Blood: ridges run between high and low ground
    coastal: bool | None = None  # Pacific Battles: land next to the sea (landings, 25.6b)
    label: str | None = None


class MapHexside(BaseModel):
    hexes: list[str]  # the two hexes it lies between
    kind: str  # river | bridge | ridge | jungle | road | trail
    name: str | None = None  # a river's name
    entering: str | None = None  # a jungle side: it costs more when entering this hex


class MapPlace(BaseModel):
    name: str
    hex: str


class MapBox(BaseModel):
    id: str
    name: str
    side: str | None = None  # a side's own box (a home base), or None
    hexes: list[str] = Field(default_factory=list)  # the map hexes a unit in the box may enter


class MapArea(BaseModel):
    name: str
    side: str | None = None
    hexes: list[str]


class MapPath(BaseModel):
    name: str
    kind: str  # road | trail
    hexes: list[str]


class MapOut(BaseModel):
    """A game's map, in the schema every game shares (docs/api-map.md)."""

    game: str
    note: str  # what is reconstructed, and from what
    hex_ids: str  # how a hex id reads
    hexes: list[MapHex]
    hexsides: list[MapHexside]
    places: list[MapPlace]
    objectives: list[str]
    airfields: list[str]
    ports: list[str]
    boxes: list[MapBox]
    entries: list[dict[str, Any]]  # First Blood's entry points: id, side, name, group, hexes
    paths: list[MapPath]
    areas: list[MapArea]  # set-up areas
    terrain: dict[str, Any]  # the terrain chart: each terrain's and hexside's movement cost and shifts


class AttackPreviewIn(BaseModel):
    targets: list[str] = Field(..., min_length=1)
    units: list[str] = Field(default_factory=list)
    # unit -> the hex it would attack from: "what odds would these get from there", while moving
    positions: dict[str, str] | None = None


class LogPage(BaseModel):
    total: int
    offset: int
    limit: int
    items: list[dict[str, Any]]


class ImportResult(BaseModel):
    game_id: str
    seats: dict[str, str] = Field(..., description="side -> private link for that seat")


class VerifyOut(BaseModel):
    ok: bool
    events: int
    bad_seq: int | None
    message: str


class GameSummary(BaseModel):
    game_id: str
    game: str
    title: str
    scenario: str
    status: str
    seq: int
    result: dict[str, Any] | None
    seats: list[dict[str, Any]]
    created_at: str
    updated_at: str
    options: dict[str, Any] = Field(default_factory=dict)
    state: str = Field("", description="playing, waiting (for a join), claimable (time is up) or finished")
    turn: int = 0
    turn_name: str = ""
    phase: str = ""
    to_move: list[str] = Field(default_factory=list, description="the sides deciding now")
    last_move_at: str = Field("", description="when the log last grew")
    clock: dict[str, Any] | None = Field(None, description="days per decision and the running deadline; "
                                                          "none for a game without time control")


class GamePage(BaseModel):
    total: int
    offset: int
    limit: int
    items: list[GameSummary]


class RollOut(BaseModel):
    value: int
    event_no: int | None = Field(None, description="the inputs that give it: roll(secret, event_no, index)")
    index: int | None = None


class HistoryLine(BaseModel):
    kind: str = Field(..., description="event, chat, mail or admin")
    kinds: list[str] = Field(..., description="what it may be found by: command, dice, takeback, clock, ...")
    at: str
    moment: int = Field(..., description="the moment it belongs to: /admin/games/{id}/at/{moment}")
    seq: int | None
    type: str
    side: str | None
    actor: str | None
    turn: int
    text: str
    data: Any
    struck_by: int | None = Field(None, description="the take-back that struck it")
    strikes: list[int] = Field(..., description="a take-back's: the events it struck")
    rolls: list[RollOut]


class HistoryPage(BaseModel):
    total: int
    offset: int
    limit: int
    items: list[HistoryLine]


class SideFiguresOut(BaseModel):
    side: str
    rolls: int
    counts: list[int] = Field(..., description="rolls of each face, 1 to 6")
    expected: float = Field(..., description="of each face, for a fair die")
    chi2: float
    p_value: float | None = Field(..., description="Pearson's chi-square test (5 degrees of freedom); none "
                                                   "below 5 expected rolls a face")
    takebacks: int
    struck: int = Field(..., description="events the take-backs struck")
    moves: int
    median_seconds_per_move: float | None
    longest_seconds: float | None


class RulingIn(BaseModel):
    reason: str = Field(..., min_length=1, max_length=1000, description="why: both players read it")
    note: str = Field("", max_length=1000, description="the ruling itself")
    clock_hours: int = Field(0, ge=-720, le=720, description="hours given to the running decision "
                                                              "(negative: taken from it); 0 for none")


class RewindIn(BaseModel):
    to: int = Field(..., ge=1, le=2**31 - 1, description="the moment to go back to: the log's length then, "
                                                          "the moment before a command")
    reason: str = Field(..., min_length=1, max_length=1000, description="why: both players read it")
    agreed: bool = Field(False, description="both players agreed: needed when a side has seen since that moment "
                                            "what the board then hides (the refusal names it)")


class SeatComputerIn(BaseModel):
    level: str | None = Field(..., max_length=20, description="let the computer play your seat at this level while "
                                                              "you are away; null: take your seat back")


class SeatComputerOut(BaseModel):
    game_id: str
    side: str
    computer: str | None


class RulingOut(BaseModel):
    game_id: str
    seq: int = Field(..., description="the log's length after the ruling")


class SeatLink(BaseModel):
    game_id: str
    side: str
    token: str = Field(..., description="the seat's new secret (the old one no longer works)")
    play_url: str = Field(..., description="the new private link")


class AuditEntry(BaseModel):
    id: int
    at: str
    admin: str
    action: str
    game_id: str | None
    detail: dict[str, Any]


class AuditPage(BaseModel):
    total: int
    offset: int
    limit: int
    items: list[AuditEntry]


class SeatMailIn(BaseModel):
    email: Email = Field(..., max_length=254, description='where "your move" mails go ("" for none)')


class SeatMailOut(BaseModel):
    email: str | None
    notify: bool = Field(..., description="false after an unsubscribe link was used (setting an address again: true)")


class MailOut(BaseModel):
    id: int
    created_at: str
    not_before: str
    kind: str
    game_id: str | None
    side: str | None
    to: str
    subject: str
    body: str
    status: str = Field(..., description="queued, sending, sent, held (no SMTP server), skipped or failed")
    attempts: int
    last_error: str | None


class MailPage(BaseModel):
    total: int
    offset: int
    limit: int
    items: list[MailOut]


class ChatIn(BaseModel):
    text: str = Field(..., min_length=1, max_length=1000, description="the message (shown escaped)")


class ChatLine(BaseModel):
    id: int
    side: str
    name: str
    text: str
    at: str


class ChatOut(BaseModel):
    messages: list[ChatLine] = Field(..., description="the newest 200, oldest first")
    unread: int | None = Field(..., description="messages from your opponent you have not read (null: a spectator)")
    spectators_may_read: bool = Field(..., description="true while both players allow it")
    you_allow: bool | None = Field(..., description="whether you let spectators read it (null: a spectator)")


class ChatSpectatorsIn(BaseModel):
    allow: bool = Field(..., description="let spectators read this game's chat (they may once both players do)")


class WebhookIn(BaseModel):
    url: str = Field(..., max_length=254, description='an https URL (a Discord or Slack incoming webhook); "" for none')


class WebhookOut(BaseModel):
    webhook_url: str | None


class DaysIn(BaseModel):
    days: int = Field(..., ge=1, le=30, description="whole days")
