"""axe-core (Deque's accessibility engine, vendored pinned and hash-checked in
static/vendor, loaded by this test only) run in real Chromium over every page of both
games, at a desk's size and a phone's: no serious or critical violation (issue 31).

The boards are looked at as the player to act sees them at three moments of a game: the
set-up with a counter selected, movement with a unit selected (its reach highlighted) and
combat with an attack declared, and as a spectator sees them; then the replay, the log, the
lobby, the invitation, the sign-in page, the unsubscribe page, the error page and the admin's
pages (the list, a game, a moment, the audit log, the outbox).  Each page's whole report is
saved in test-artifacts/ (axe-*.json)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from a11y_moments import FirstBlood, PacificBattles, length, post
from app_support import drive
from conftest import ADMIN, running_server
from e2e_plan import ATTACKER
from pb_support import SET_UP, new_game
from pb_turn import SECRET
from playwright.sync_api import Browser, Page, expect

VENDOR = Path(__file__).resolve().parents[2] / "static" / "vendor"
AXE = VENDOR / "axe-core-4.14.1.min.js"
SIZES = {"desk": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
BAD = ("serious", "critical")
Then = Callable[[Page], None]


def axe_file() -> Path:
    """The vendored axe-core, checked against static/vendor/VERSIONS before it is run."""
    row = next(line.split() for line in (VENDOR / "VERSIONS").read_text().splitlines()
               if line.startswith("axe-core "))
    assert row[3] == AXE.name and hashlib.sha256(AXE.read_bytes()).hexdigest() == row[4]
    return AXE


def run_axe(page: Page) -> list[dict]:
    page.add_script_tag(path=str(axe_file()))  # (the context bypasses the page's CSP: an inline script)
    return page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ["violations"]});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => ({
            target: n.target.join(" "), summary: n.failureSummary, html: n.html.slice(0, 300)}))}));
    }""")


WIDEST = """() => Array.from(document.querySelectorAll('body *'))
    .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
    .slice(-5).map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + '.' + e.className)"""


def look(browser: Browser, base: str, artifacts: Path, name: str, size: str, url: str, *,
         token: str = "", admin: bool = False, then: Then | None = None, status: int = 200) -> list[dict]:
    """Open ``url`` in a fresh browser context of ``size`` (as the seat of ``token``, or as the
    admin; answered with ``status``), do ``then`` on it, run axe; its report is saved, its
    serious and critical violations are returned."""
    context = browser.new_context(
        base_url=base, viewport=SIZES[size], bypass_csp=True, has_touch=size == "phone", is_mobile=size == "phone",
        extra_http_headers={"Authorization": f"Bearer {token}"} if token else None,
        http_credentials={"username": ADMIN[0], "password": ADMIN[1]} if admin else None)
    try:
        page = context.new_page()
        response = page.goto(url)
        assert response is not None and response.status == status, f"{url}: {response and response.status}"
        page.wait_for_load_state("networkidle")
        if then is not None:
            then(page)
        violations = run_axe(page)
        wide = page.evaluate("document.documentElement.scrollWidth")
        if wide > SIZES[size]["width"] + 1:  # sideways scrolling: what sticks out is named
            violations.append({"id": "wider-than-the-screen", "impact": "serious",
                               "help": f"the page is {wide} px wide on a {SIZES[size]['width']} px screen",
                               "nodes": [{"target": t, "html": ""} for t in page.evaluate(WIDEST)]})
    finally:
        context.close()
    (artifacts / f"axe-{name}-{size}.json").write_text(json.dumps(violations, indent=1))
    return [(v["id"], v["impact"], v["help"], [(n["target"], n["html"]) for n in v["nodes"]][:5])
            for v in violations if v["impact"] in BAD]


def clean(bad: list) -> None:
    assert bad == [], json.dumps(bad, indent=1)


# --- the games ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def pb_server(tmp_path_factory: pytest.TempPathFactory, chromium: str) -> Iterator[str]:
    """A server rolling the scripted Pacific Battles turn's dice (pb_turn.SECRET)."""
    with running_server(tmp_path_factory.mktemp("axe-pb"), SECRET) as url:
        yield url


@pytest.fixture(scope="module")
def fb(server: str, dice_secret: str) -> Iterator[FirstBlood]:
    with httpx.Client(base_url=server, timeout=30) as http:
        yield FirstBlood(http, dice_secret)


@pytest.fixture(scope="module")
def pb(pb_server: str) -> Iterator[PacificBattles]:
    with httpx.Client(base_url=pb_server, timeout=30) as http:
        yield PacificBattles(http, ADMIN)


def selected(unit: str) -> Then:
    """Click ``unit``'s counter on the map (as a tap would: wherever the map is scrolled)."""
    def then(page: Page) -> None:
        page.locator(f'g.counter[data-unit="{unit}"]').first.dispatch_event("click")
        expect(page.locator("#board-state")).to_have_attribute("data-select", unit)
        page.wait_for_load_state("networkidle")
    return then


def chosen(unit: str) -> Then:
    """Pick ``unit`` from Pacific Battles' list of pieces with orders."""
    def then(page: Page) -> None:
        page.locator(f'button.chooser[data-unit="{unit}"]').click()
        expect(page.locator("#board-state")).to_have_attribute("data-select", unit)
        page.wait_for_load_state("networkidle")
    return then


def fanned(page: Page) -> None:
    """Pacific Battles' set-up stack spread out and a piece of it selected."""
    page.locator('g.counter.own[data-hex="1630"]').last.dispatch_event("click")
    expect(page.locator("g.fan g.counter")).to_have_count(len(SET_UP))
    expect(page.locator(".selected-piece")).to_be_visible()


# --- the boards -----------------------------------------------------------------------

@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("moment", ["set-up", "movement", "combat"])
def test_first_bloods_board(browser: Browser, server: str, artifacts: Path, fb: FirstBlood, moment: str,
                            size: str) -> None:
    if moment == "set-up":  # the US sets up: a counter to place picked from the tray
        side, then = "US", selected("us-1-1")
    elif moment == "movement":  # the IJ landing force picked: the hexes it reaches highlighted
        fb.until("zoc-move")
        side, then = "IJ", selected(ATTACKER)
    else:  # the IJ attack on the US stack declared, its odds shown, not yet resolved
        fb.until("resolve")
        side, then = "IJ", None
    clean(look(browser, server, artifacts, f"first_blood-{moment}", size, f"/games/{fb.gid}",
               token=fb.tokens[side], then=then))


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("moment", ["set-up", "movement", "combat"])
def test_pacific_battles_board(browser: Browser, pb_server: str, artifacts: Path, pb: PacificBattles,
                               moment: str, size: str) -> None:
    if moment == "set-up":  # a game of its own: the Japanese set-up stacked in one hex, spread out
        with httpx.Client(base_url=pb_server, timeout=30) as http:
            g = new_game(http)
            for unit in SET_UP:
                post(http, g["id"], g["Japanese"], {"type": "place", "data": {"unit": unit, "hex": "1630"}})
        gid, token, then = g["id"], g["Japanese"], fanned
    elif moment == "movement":
        unit = pb.movement()
        gid, token, then = pb.gid, pb.tokens[pb.side], chosen(unit)
    else:
        pb.battle()
        gid, token, then = pb.gid, pb.tokens[pb.side], None
    clean(look(browser, pb_server, artifacts, f"pacific_battles-{moment}", size, f"/games/{gid}",
               token=token, then=then))


# --- the game's other pages -----------------------------------------------------------

@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("what", ["replay", "log"])
@pytest.mark.parametrize("game", ["first_blood", "pacific_battles"])
def test_replay_and_log(browser: Browser, server: str, pb_server: str, artifacts: Path, fb: FirstBlood,
                        pb: PacificBattles, game: str, what: str, size: str) -> None:
    if game == "first_blood":
        fb.until("resolve")
        base, gid, token = server, fb.gid, fb.tokens["IJ"]
    else:
        pb.battle()
        base, gid, token = pb_server, pb.gid, pb.tokens[pb.side]
    with httpx.Client(base_url=base, timeout=30) as http:
        seq = length(http, gid, token)
    url = f"/games/{gid}/at/{seq}" if what == "replay" else f"/games/{gid}/log"
    clean(look(browser, base, artifacts, f"{game}-{what}", size, url, token=token))


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("game", ["first_blood", "pacific_battles"])
def test_the_invitation(browser: Browser, server: str, artifacts: Path, game: str, size: str) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        made = http.post("/api/games", json={"game": game, "side": "US" if game == "first_blood" else "Japanese",
                                             "name": "Alice"}).json()
    invite = made["invite_url"].split("token=")[1]
    clean(look(browser, server, artifacts, f"{game}-join", size, f"/join/{made['game_id']}#token={invite}"))


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("game", ["first_blood", "pacific_battles"])
def test_a_spectators_board(browser: Browser, server: str, pb_server: str, artifacts: Path, fb: FirstBlood,
                            pb: PacificBattles, game: str, size: str) -> None:
    """The board of a game under way as anyone else sees it (no seat: no commands, no chat),
    in combat (the same moment whichever tests run)."""
    if game == "first_blood":
        fb.until("resolve")
        base, gid = server, fb.gid
    else:
        pb.battle()
        base, gid = pb_server, pb.gid
    clean(look(browser, base, artifacts, f"{game}-spectator", size, f"/games/{gid}"))


PAGES = {"/": "lobby", "/signin": "signin", "/unsubscribe": "unsubscribe", "/games/000000000000": "error"}


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("url", list(PAGES))
def test_the_sites_pages(browser: Browser, server: str, artifacts: Path, url: str, size: str) -> None:
    status = 404 if PAGES[url] == "error" else 200  # (no such game: the error page)
    clean(look(browser, server, artifacts, PAGES[url], size, url, status=status))


# --- the admin's pages ------------------------------------------------------------------

@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("what", ["list", "first_blood", "first_blood-moment", "pacific_battles",
                                  "pacific_battles-moment", "audit", "outbox"])
def test_the_admins_pages(browser: Browser, server: str, pb_server: str, artifacts: Path, fb: FirstBlood,
                          pb: PacificBattles, what: str, size: str) -> None:
    base, url = server, {"list": "/admin", "audit": "/admin/audit", "outbox": "/admin/outbox"}.get(what, "")
    if not url:
        game = fb if what.startswith("first_blood") else pb
        base, url = (server if game is fb else pb_server), f"/admin/games/{game.gid}"
        if what.endswith("-moment"):  # the desk's moment: the game now, everything shown
            url += f"/at/{length(game.http, game.gid, next(iter(game.tokens.values())))}"
    clean(look(browser, base, artifacts, f"admin-{what}", size, url, admin=True))


# --- the tooltips moved out of First Blood's map buttons ---------------------------------

NEAREST_TITLE = """([x, y]) => {
    const hit = document.elementFromPoint(x, y), button = hit && hit.closest('[role=button]');
    for (let e = hit; e; e = e.parentElement) {  // the tooltip a browser shows: the nearest <title> up
        const title = Array.from(e.children).find(c => c.tagName === 'title');
        if (title) { return {tip: title.textContent, of: e === (button && button.parentElement),
                             button: button && button.getAttribute('aria-label')}; }
    }
    return null;
}"""


def test_a_mouse_still_gets_each_map_buttons_tooltip(browser: Browser, server: str, fb: FirstBlood) -> None:
    """The pointer over a counter, a hex the player may act on (the target of an attack
    declared), a box, an entry point or an air strip status box gets that button's tooltip:
    the <title> of the group around it, the nearest one up."""
    fb.until("resolve")
    context = browser.new_context(base_url=server, viewport=SIZES["desk"])
    try:
        page = context.new_page()
        page.goto(f"/games/{fb.gid}#token={fb.tokens['US']}")
        expect(page.locator("#board-state")).to_be_attached()
        for selector in ("g.counter", "g.hex-state[role=button]", 'g.box[data-loc="box:A"]', "g.entry",
                         'g.status-hex[data-loc="strip:0708"]'):
            button = page.locator(selector).first
            button.scroll_into_view_if_needed()
            box = button.bounding_box()
            assert box is not None, selector
            # a hex's lower part, below any counters in it; elsewhere the middle
            y = box["y"] + box["height"] * (0.86 if selector.startswith("g.hex") else 0.5)
            got = page.evaluate(NEAREST_TITLE, [box["x"] + box["width"] / 2, y])
            assert got is not None and got["button"] and got["of"] and got["tip"], (selector, got)
    finally:
        context.close()


# --- a player's part of the dice (a server of seed chains) ---------------------------------

@pytest.fixture(scope="module")
def chains_server(tmp_path_factory: pytest.TempPathFactory, chromium: str) -> Iterator[str]:
    """A server whose games roll from their own seed chains (no fixed dice)."""
    with running_server(tmp_path_factory.mktemp("axe-chains"), "") as url:
        yield url


@pytest.fixture(scope="module")
def chains_game(chains_server: str) -> dict[str, str]:
    """A First Blood game on it, played into turn 3: some of its dice can be checked."""
    with httpx.Client(base_url=chains_server, timeout=30) as http:
        made = http.post("/api/games", json={"side": "US", "name": "Alice"}).json()
        gid = made["game_id"]
        fresh = http.post("/api/games", json={"side": "US", "name": "Carol"}).json()
        joined = http.post(f"/api/games/{gid}/join", json={"token": made["invite_url"].split("token=")[1]}).json()
        game = {"id": gid, "US": made["token"], "IJ": joined["token"]}
        drive(http, game, lambda legal: http.get(f"/api/games/{gid}").json()["turn"] >= 3, limit=1200)
    return {**game, "fresh": fresh["game_id"], "fresh_token": fresh["token"],
            "invite": fresh["invite_url"].split("token=")[1]}


def seat_card(page: Page) -> None:
    if page.locator("#private-link[open]").count() == 0:
        page.locator("#private-link summary").click()
    expect(page.locator(".entropy-form input[name=entropy]")).to_be_visible()


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("what", ["join", "seat", "dice"])
def test_the_pages_of_the_dice(browser: Browser, chains_server: str, artifacts: Path, chains_game: dict[str, str],
                               what: str, size: str) -> None:
    """The invitation with its part of the dice, the seat's card asking for it, and "Check
    the dice" with a finished turn's rolls."""
    g = chains_game
    if what == "join":
        bad = look(browser, chains_server, artifacts, "dice-join", size, f"/join/{g['fresh']}#token={g['invite']}")
    elif what == "seat":
        bad = look(browser, chains_server, artifacts, "dice-seat", size, f"/games/{g['fresh']}",
                   token=g["fresh_token"], then=seat_card)
    else:
        bad = look(browser, chains_server, artifacts, "dice-check", size, f"/games/{g['id']}/dice", token=g["IJ"],
                   then=lambda page: page.locator("details.period summary").first.click())
    clean(bad)
