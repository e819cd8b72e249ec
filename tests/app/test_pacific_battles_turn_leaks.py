"""A whole turn of the Pacific Battles campaign over the real HTTP API, searched for
leaks after every command (issue 11's promise, kept through a real turn).

The game is created by the Japanese and joined by the Allies through ``POST
/api/games``; ``tests/pb_turn.py`` plays both sides from the set-up through August 1942
into September, each command posted as JSON with the seat's bearer token.  The truth is
the server's own log, read in full by the admin (``/api/admin/games/{id}/log``) and
replayed through the engine; from it ``leaks.hidden_things`` lists what each side and a
spectator may not know.  After every command each of them fetches what the server gives
them (the HTML board page, the board fragment, the poll answer and the log page with the
seat's cookie; the JSON view, legal commands and log with its bearer token; the export
and the stream's first message, as a spectator, whose answers are the same for all) and
every text is searched with ``leaks.find``.  The dice secret is fixed
(``fixed_dice_secret``), so the turn is the same on both databases and on every run.

It found one leak, now mended and kept by its own test: a marker held unplayed and
expired at the end of the turn was listed in the other side's ``removed_markers``.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from app_support import ADMIN, bearer, listed
from fastapi.testclient import TestClient
from pb_support import Truth
from pb_turn import GOALS, SCENARIO, SECRET, TurnDriver, acting_side, covered, play_locally

from app.config import Settings
from engine.core.events import Command, Event
from engine.core.sealed import SEALED
from engine.core.visibility import SPECTATOR
from engine.games.pacific_battles import leaks
from engine.games.pacific_battles import queries as q
from engine.games.pacific_battles.planning import AIR_ROUND
from engine.games.pacific_battles.rules import RULES
from engine.games.pacific_battles.state import SIDES, PBState, other

VIEWERS: tuple[str | None, ...] = ("Allied", "Japanese", SPECTATOR)
MAX_STEPS = 150  # the scripted turn takes 61 commands; a driver that loops fails here


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The app tests' settings, with every new game rolling from ``SECRET``."""
    return settings.model_copy(update={"fixed_dice_secret": SECRET})


@dataclass
class Game:
    id: str
    tokens: dict[str, str]
    cookies: dict[str, str] = field(default_factory=dict)  # side -> "name=signed value", as a browser sends it


def new_campaign(client: TestClient, title: str = "", japanese: str = "Hyakutake",
                 allied: str = "Vandegrift") -> Game:
    """As ``pb_support.new_game``, for the campaign; then each seat's page cookie, taken
    from the page's own seat form (the browser's path from a private link)."""
    r = client.post("/api/games", json={"game": "pacific_battles", "scenario": SCENARIO, "side": "Japanese",
                                        "name": japanese, "title": title})
    assert r.status_code == 201, r.text
    body = r.json()
    invite = body["invite_url"].split("token=")[1]
    r2 = client.post(f"/api/games/{body['game_id']}/join", json={"token": invite, "name": allied})
    assert r2.status_code == 200, r2.text
    game = Game(body["game_id"], {"Japanese": body["token"], "Allied": r2.json()["token"]})
    for side, token in game.tokens.items():
        client.cookies.clear()
        r3 = client.post(f"/games/{game.id}/seat", data={"token": token}, follow_redirects=False)
        assert r3.status_code == 303, r3.text
        game.cookies[side] = r3.headers["set-cookie"].split(";")[0]
    client.cookies.clear()  # from here on every request names its own seat
    return game


def searchable(r: httpx.Response) -> str:
    """An answer's text; a JSON answer as the engine writes JSON (``json.dumps`` with its
    spaces: the form in which ``hidden_things`` names a sealed allocation)."""
    if r.headers.get("content-type", "").startswith("application/json"):
        return json.dumps(r.json(), sort_keys=True, ensure_ascii=False)
    return r.text


def stream_message(client: TestClient, game: Game, viewer: str | None, since: int) -> tuple[int, str]:
    """The first message of ``GET /api/games/{id}/stream?seq=since``, through the app
    itself (a TestClient waits for a response to end, and a stream never does): the
    request is the real route's, and the client leaves once a message has come."""
    headers = [(b"host", b"testserver")]
    if viewer is not None:
        headers.append((b"authorization", f"Bearer {game.tokens[viewer]}".encode()))
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": f"/api/games/{game.id}/stream", "raw_path": f"/api/games/{game.id}/stream".encode(),
             "query_string": f"seq={since}".encode(), "headers": headers, "client": ("127.0.0.1", 50000),
             "server": ("testserver", 80), "root_path": "", "extensions": {}}

    async def first() -> tuple[int, str]:
        got = asyncio.Event()
        status, body = 0, b""

        async def receive() -> dict[str, Any]:
            await got.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            nonlocal status, body
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                body += message.get("body", b"")
                if b"\n\n" in body.replace(b"\r\n", b"\n") or not message.get("more_body"):
                    got.set()

        await asyncio.wait_for(client.app(scope, receive, send), 10)
        return status, body.decode()

    return client.portal.call(first)


def outputs(client: TestClient, game: Game, viewer: str | None, before: int,
            extras: bool = True, now: int = 0) -> Iterator[tuple[str, str]]:
    """(what was asked, the text received) for everything ``viewer`` reads of the game;
    ``before``: the length the viewer's page had (the board and the poll ask for what came
    since); ``extras``: the export and the stream's first message too (what they say
    depends on no side: a refusal, and the game's length)."""
    gid = game.id
    api = bearer(game.tokens[viewer]) if viewer else {}
    page = {"Cookie": game.cookies[viewer]} if viewer else {}
    asks: list[tuple[str, dict[str, str], set[int]]] = [
        (f"/api/games/{gid}", api, {200}),
        (f"/api/games/{gid}/legal", api, {200}),
        (f"/api/games/{gid}/log?limit=1000", api, {200}),
        (f"/games/{gid}", page, {200}),
        (f"/games/{gid}/board?seq={before}", page, {200}),
        (f"/games/{gid}/poll?seq={before}", page, {200, 204}),
        (f"/games/{gid}/log?limit=1000", page, {200}),
        # the step-through page at the game's present (a running game's moments are its players')
        (f"/games/{gid}/at/{now}", page, {200} if viewer else {403}),
    ]
    if extras:  # a running game's file holds the dice secret: refused (401 without a seat, 409 with one)
        asks.append((f"/api/games/{gid}/export", api, {401, 409}))
    for url, headers, ok in asks:
        r = client.get(url, headers=headers)
        assert r.status_code in ok, f"{url} as {viewer or 'a spectator'}: {r.status_code} {r.text[:300]}"
        yield f"GET {url}", searchable(r)
    if extras:
        status, text = stream_message(client, game, viewer, before)
        assert status == 200, text
        # a stream message is the game's new length (or the newest chat line's number) and
        # nothing else (app/live.py): searched all the same
        messages = [m.splitlines() for m in text.replace("\r\n", "\n").split("\n\n") if m.strip()]
        assert messages and all(len(m) == 2 and m[0] in ("event: moved", "event: chat") and m[1].startswith("data: ")
                                and m[1][6:].isdigit() for m in messages), text
        yield f"GET /api/games/{gid}/stream?seq={before}", text


def hidden(state: PBState, viewer: str | None) -> list[str]:
    """``leaks.hidden_things``, and an unrevealed enemy air allocation also as the engine's
    log line tells it to its owner (the words a page would show; ``hidden_things`` names it
    as JSON only)."""
    needles = leaks.hidden_things(state, viewer)
    mine = state.round.for_side(viewer) if viewer in SIDES else None
    for owner in SIDES:
        sealed = state.round.for_side(owner)
        if owner != viewer and sealed is not None and sealed != mine:
            needles.append(RULES.describe(state, Event(SEALED, {"kind": AIR_ROUND, "decision": sealed}, owner)) or "")
    return [n for n in needles if n]


def search(needles: list[str], text: str) -> list[str]:
    """``leaks.find``, asked only for the needles that are in the text at all: the same
    hits (a needle not in the text matches nowhere and masks nothing there), found much
    faster (a substring test against its whole-word pattern over every needle)."""
    present = [n for n in needles if n in text]
    return leaks.find(present, text) if present else []


def check(where: str, text: str, state: PBState, viewer: str | None, context: str,
          needles: list[str] | None = None) -> None:
    """No hidden thing of ``viewer``'s in ``text`` (``needles``: ``hidden(state, viewer)``
    worked out already); else the first hit, with the URL and the words around it."""
    hits = search(hidden(state, viewer) if needles is None else needles, text)
    if hits:
        at = text.find(hits[0])
        raise AssertionError(f"LEAK: {viewer or 'a spectator'} reads {hits[0]!r} (of {hits}) at {where} "
                             f"after {context}: ...{text[max(0, at - 200):at + 200]}...")


def legal_list(client: TestClient, game: Game, side: str) -> list[Command]:
    r = client.get(f"/api/games/{game.id}/legal", headers=bearer(game.tokens[side]))
    assert r.status_code == 200, r.text
    return [Command(c["type"], c.get("data") or {}) for c in listed(r.json())]


def kind_of(needle: str) -> str:
    if needle.startswith(('"decision"', '"allocated"', "You allocate")):
        return "sealed allocation"
    if needle in {m for side in SIDES for m in q.forces().markers[side]}:
        return "held marker"
    return "hidden unit"


def route(where: str, gid: str) -> str:
    """A URL without its game id and query: one name for each kind of output."""
    return re.sub(r"/at/\d+", "/at/{n}", where.replace(gid, "{id}").split("?")[0])


def test_a_whole_campaign_turn_over_http_leaks_nothing_to_either_side_or_a_spectator(client: TestClient) -> None:
    started = time.perf_counter()
    game = new_campaign(client)
    truth = Truth(client, game.id, ADMIN)
    assert truth.events[0].data["secret"] == SECRET  # the fixed secret was used
    driver = TurnDriver()
    # The control: what is hidden from one side, found in the other side's own outputs.
    # It proves each output can carry such things, in the form the search looks for.
    owner_reads: dict[str, set[str]] = {}
    # A marker held in secret stays a secret once it has left the hand unplayed (a naval
    # marker expires at the end of the turn, 5.4): the state no longer holds it, so the
    # search remembers it until its owner plays one in the open.
    once_held: dict[str | None, set[str]] = {viewer: set() for viewer in VIEWERS}

    def needles_for(viewer: str | None) -> list[str]:
        now = hidden(truth.state, viewer)
        once_held[viewer] |= {n for n in now if kind_of(n) == "held marker"}
        shown = {m for side in SIDES for m in truth.state.played[side] | set(truth.state.in_effect[side])}
        return sorted(set(now) | (once_held[viewer] - shown))

    def read_everything(context: str, before: int, extras: bool = False) -> None:
        # the export and the stream each step for the spectator only (the same for everyone)
        texts = {viewer: list(outputs(client, game, viewer, before, extras or viewer is SPECTATOR, truth.seq))
                 for viewer in VIEWERS}
        needles = {viewer: needles_for(viewer) for viewer in VIEWERS}
        for viewer, seen in texts.items():
            for where, text in seen:
                check(where, text, truth.state, viewer, context, needles[viewer])
        for side in SIDES:
            for where, text in texts[other(side)]:
                for hit in search(needles[side], text):
                    owner_reads.setdefault(route(where, game.id), set()).add(kind_of(hit))

    read_everything("the game's creation", 0, extras=True)
    steps = 0
    while truth.state.turn < 2:
        assert steps < MAX_STEPS, f"the turn did not end within {MAX_STEPS} commands ({truth.state.phase})"
        side = acting_side(truth.state)
        assert side is not None, RULES.prompt(truth.state).text
        cmd = driver.next_command(truth.state, side)
        if cmd.type != "allocate":  # the one command too open to list (engine/games/pacific_battles/rules.py)
            assert cmd in legal_list(client, game, side), f"{cmd} is not among {side}'s legal commands"
        before = truth.seq
        r = client.post(f"/api/games/{game.id}/commands", headers=bearer(game.tokens[side]),
                        json={"type": cmd.type, "data": cmd.data, "expected_seq": before})
        assert r.status_code == 200, f"{side} {cmd}: {r.text}"
        truth.sync()
        steps += 1
        context = f"command {steps}, {side} {cmd.type} {cmd.data} (events {before}-{truth.seq})"
        check(f"POST /api/games/{game.id}/commands", searchable(r), truth.state, side, context)
        read_everything(context, before)
    read_everything("the turn's last command", truth.seq - 1, extras=True)

    goals = covered(truth.events)
    assert [g for g in GOALS if not goals[g]] == [], goals
    assert truth.state.turn == 2 and truth.state.result is None
    log = client.get(f"/api/games/{game.id}/log", params={"limit": 1000}, headers=bearer(game.tokens["Allied"])).json()
    assert any(i["type"] == "phase_began" and i["data"].get("phase") == "victory" for i in log["items"])
    # the server played exactly the game the engine plays alone with the same secret and script
    # (keys sorted: PostgreSQL's jsonb keeps its own order)
    _, alone = play_locally(SECRET)
    assert json.dumps([e.to_json() for e in truth.events], sort_keys=True) == json.dumps(
        [e.to_json() for e in alone], sort_keys=True)
    # every page and answer but the export and the stream showed its owner what it hides from the other side
    carriers = {r for r, kinds in owner_reads.items() if "hidden unit" in kinds}
    assert carriers >= {"GET /api/games/{id}", "GET /games/{id}/board", "GET /api/games/{id}/legal",
                        "GET /api/games/{id}/log", "GET /games/{id}", "GET /games/{id}/poll",
                        "GET /games/{id}/log", "GET /games/{id}/at/{n}"}, owner_reads
    assert {"hidden unit", "held marker", "sealed allocation"} <= owner_reads["GET /games/{id}"], owner_reads
    # the naval markers held unplayed left both hands at the end of the turn (one out of the game,
    # one back to the pool), and were still searched for after
    for viewer in SIDES:
        left = {m for e in truth.events if e.type == "markers_expired" and e.data["side"] == other(viewer)
                for m in e.data.get("from_hand", ())}
        assert left and left <= set(needles_for(viewer)), (viewer, left, once_held[viewer])
    assert "sealed allocation" in owner_reads["GET /api/games/{id}"], owner_reads
    print(f"{steps} commands, {truth.seq} events, {time.perf_counter() - started:.1f} s; owners read: {owner_reads}")


def play_until_sealed(client: TestClient, game: Game) -> Truth:
    """The set-up and the planning impulse up to the moment the Allies have allocated in
    secret and the Japanese have not."""
    truth, driver = Truth(client, game.id, ADMIN), TurnDriver()
    while not (truth.state.phase == "air_allocation" and truth.state.round.for_side("Allied") is not None):
        side = acting_side(truth.state)
        assert side is not None and truth.seq < 100
        cmd = driver.next_command(truth.state, side)
        r = client.post(f"/api/games/{game.id}/commands", headers=bearer(game.tokens[side]),
                        json={"type": cmd.type, "data": cmd.data, "expected_seq": truth.seq})
        assert r.status_code == 200, r.text
        truth.sync()
    return truth


def test_the_leak_search_flags_a_hidden_unit_a_held_marker_and_a_sealed_allocation(client: TestClient) -> None:
    """The search can fail.  Real answers, searched clean, then with a hidden thing added:
    a Japanese unit the Allies never saw, a marker the Japanese hold, the Allied
    allocation before it is revealed (as JSON in the view, in words on the page)."""
    game = new_campaign(client)
    truth = play_until_sealed(client, game)
    state = truth.state
    allied = dict(outputs(client, game, "Allied", truth.seq - 1))
    japanese = dict(outputs(client, game, "Japanese", truth.seq - 1))
    view, page = f"GET /api/games/{game.id}", f"GET /games/{game.id}"
    for where in (view, page):
        check(where, allied[where], state, "Allied", "the plant")  # clean before anything is added
        check(where, japanese[where], state, "Japanese", "the plant")

    unit = next(p.unit for p in state.on_map("Japanese") if p.unit in leaks.hidden_things(state, "Allied"))
    marker = next(n for n in leaks.hidden_things(state, "Allied") if kind_of(n) == "held marker")
    sealed_json = next(n for n in leaks.hidden_things(state, "Japanese") if n.startswith('"decision"'))
    sealed_words = next(n for n in hidden(state, "Japanese") if n.startswith("You allocate"))
    assert marker in state.hand["Japanese"]
    plants = [(allied[page] + f"<li>{unit} in 1630</li>", "Allied", unit),
              (allied[view][:-1] + f', "planted": "{marker}"}}', "Allied", marker),
              (japanese[view] + "\n" + json.dumps({"allied": {"decision": state.round.for_side("Allied")}},
                                                sort_keys=True),
               "Japanese", sealed_json),
              (japanese[page] + f"<p>{sealed_words}</p>", "Japanese", sealed_words)]
    for text, viewer, needle in plants:
        with pytest.raises(AssertionError, match="LEAK") as caught:
            check("the planted text", text, state, viewer, f"planting {needle!r}")
        assert repr(needle) in str(caught.value), caught.value
    # each found the moment it was hidden, and not once it is known: the same unit, examined
    # by the Allies, is no secret of theirs any more (a state of its own: the engine asks a
    # state what is hidden once, and a state only changes by its events)
    examined = state.clone()
    examined.revealed["Allied"].add(next(p.id for p in state.on_map("Japanese") if p.unit == unit))
    check("the planted text", plants[0][0], examined, "Allied", "the unit examined")


def test_a_hidden_name_reaching_a_page_by_a_real_path_is_flagged(client: TestClient) -> None:
    """Through the server itself: what players type reaches the other side (a game's
    title, a player's name, a chat line), so one that names a hidden thing is flagged as a
    leak would be (the search cannot tell who wrote it).  This proves the whole path,
    from the answer the server renders to the search, not only the search."""
    game = new_campaign(client, title="Where is the 81 Inf?", japanese="Banzai! Hyakutake")
    truth = play_until_sealed(client, game)
    line = RULES.describe(truth.state, Event(SEALED, {"kind": AIR_ROUND,
                                                       "decision": truth.state.round.for_side("Allied")}, "Allied"))
    r = client.post(f"/api/games/{game.id}/chat", headers=bearer(game.tokens["Allied"]), json={"text": line})
    assert r.status_code == 201, r.text
    seen = dict(outputs(client, game, "Allied", truth.seq - 1))
    page, view = f"GET /games/{game.id}", f"GET /api/games/{game.id}"
    assert {"81 Inf", "Banzai!"} <= set(leaks.find(hidden(truth.state, "Allied"), seen[page] + seen[view]))
    with pytest.raises(AssertionError, match=r"LEAK: Allied reads '81 Inf'.* at GET /games/"):
        check(page, seen[page], truth.state, "Allied", "the title")
    with pytest.raises(AssertionError, match=r"LEAK: Allied reads 'Banzai!'.* at GET /api/games/"):
        check(view, seen[view].replace("81 Inf", ""), truth.state, "Allied", "the player's name")
    chat = client.get(f"/api/games/{game.id}/chat", headers=bearer(game.tokens["Japanese"]))
    with pytest.raises(AssertionError, match="LEAK: Japanese reads 'You allocate your air missions"):
        check(f"GET /api/games/{game.id}/chat", searchable(chat), truth.state, "Japanese", "the chat line")


def test_a_marker_held_unplayed_stays_secret_when_it_expires(client: TestClient) -> None:
    """5.4: the markers a side holds are its secret, and one that expires unplayed (a naval
    marker, at the end of the turn) was never shown: its expiry is a secret event
    (engine/games/pacific_battles/flow.py).  In this turn the Japanese hold The Bombardment
    to the end; the Allies and a spectator must not read its name afterwards."""
    game = new_campaign(client)
    truth, driver = Truth(client, game.id, ADMIN), TurnDriver()
    while truth.state.turn < 2:
        side = acting_side(truth.state)
        assert side is not None
        cmd = driver.next_command(truth.state, side)
        r = client.post(f"/api/games/{game.id}/commands", headers=bearer(game.tokens[side]),
                        json={"type": cmd.type, "data": cmd.data, "expected_seq": truth.seq})
        assert r.status_code == 200, r.text
        truth.sync()
    expired = [e for e in truth.events if e.type == "markers_expired" and e.data["side"] == "Japanese"]
    assert [m for e in expired for m in e.data["from_hand"]] == ["The Bombardment"]
    assert "The Bombardment" not in truth.state.played["Japanese"]  # never played in the open
    for viewer in ("Allied", SPECTATOR):
        r = client.get(f"/api/games/{game.id}", headers=bearer(game.tokens[viewer]) if viewer else {})
        assert "The Bombardment" not in r.json()["sides"]["Japanese"]["removed_markers"], viewer
