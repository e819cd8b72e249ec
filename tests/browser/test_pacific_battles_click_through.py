"""Pacific Battles from the set-up to the end of turn 1 by clicks, at a desk's size
(1366x900) and a phone's (390x844), each side in its own browser context (issue 31).

Every command is given as a player gives it: a piece is picked by its button, then a
highlighted hex of the map is clicked (a real mouse click where the hex is drawn, on
whatever lies there: a counter stands for its hex); a piece's own orders are buttons in
its panel; the others are buttons; where several commands share a hex, the hex's panel
lists them; a choice of a number with no piece or hex (air superiority fire) is picked from
a list.  The one thing typed is the secret air allocation (numbers in a form).  The
choices are the scripted turn's (``pb_turn``), read from the true state.  Screenshots of
each side's first sight of every phase, and of the end, in test-artifacts/ (pb-click-*)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from conftest import ADMIN, running_server
from pb_support import Truth, choose_in_group, css, new_game
from pb_turn import SCENARIO, SECRET, TurnDriver, acting_side
from playwright.sync_api import Browser, Dialog, Page, expect

from app.games.pacific_battles.orders import owner, place
from engine.core.events import Command
from engine.games.pacific_battles.rules import RULES
from engine.games.pacific_battles.state import PBState

SIZES = {"desk": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def pb_server(tmp_path_factory: pytest.TempPathFactory, chromium: str) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("pb-click-server"), SECRET) as url:
        yield url


def said(page: Page) -> str:
    errors = page.locator(".status .error, #net-error")
    return " | ".join(t for t in errors.all_inner_texts() if t.strip()) or "(no error shown)"


def unselect(page: Page) -> None:
    if page.locator("#board-state").get_attribute("data-select"):
        page.locator("form.unselect button").click()
        expect(page.locator("#board-state")).to_have_attribute("data-select", "")


def pick(page: Page, pid: str) -> None:
    """Select ``pid`` by its button, whatever is selected (even another piece that may go
    to ``pid``'s hex: the button stands for ``pid``, not for that move)."""
    state = page.locator("#board-state")
    if state.get_attribute("data-select") == pid:
        return
    page.locator(f"button.chooser[data-unit={css(pid)}]").click()
    expect(state).to_have_attribute("data-select", pid)


def give(page: Page, cmd: Command, state: PBState, side: str) -> str:
    """Give ``cmd`` by clicks; returns how ("map", "piece", "button", "list", "allocate")."""
    data = json.dumps(cmd.data, sort_keys=True)
    if cmd.type == "allocate":  # the one form typed into
        for mission, points in cmd.data.items():
            page.fill(f"form.allocate input[name={mission}]", str(points))
        page.locator("form.allocate button").click()
        return "allocate"
    who, where = owner(cmd), place(cmd)
    if cmd.type == "add":  # an attacker added: its button stands for it
        page.locator(f"button.chooser[data-unit={css(who)}]").click()
        return "piece"
    if where:
        if who:
            pick(page, who)
        else:
            unselect(page)
        mark = page.locator(f'#pb-layers polygon.mark[data-hex="{where}"]')
        expect(mark).to_have_count(1)
        mark.click(force=True)  # a real click where the hex is drawn, on whatever lies there
        legal = RULES.legal_commands(state, side)
        same = [c for c in legal if place(c) == where and (owner(c) == who if who else owner(c) is None)]
        if len(same) > 1:  # several commands there: the hex's panel lists them
            page.locator(f"section.here form:has(input[name=data][value={css(data)}]) button").click()
        return "map"
    if who:  # a piece's own order: a button in its panel
        pick(page, who)
        page.locator(f"section.selected-piece form:has(input[name=type][value={cmd.type}])"
                     f":has(input[name=data][value={css(data)}]) button").click()
        return "piece"
    button = page.locator(f"form.command-button:has(input[name=type][value={cmd.type}])"
                          f":has(input[name=data][value={css(data)}]) button")
    if button.count():
        button.first.click()
        return "button"
    # a choice between numbers or markers with no piece or hex (air superiority fire): a list
    form = page.locator(f"form.command-group:has(input[name=type][value={cmd.type}])")
    choose_in_group(form, data)
    form.locator("button").click()
    return "list"


@pytest.mark.parametrize("size", list(SIZES))
def test_set_up_and_turn_one_by_clicks(browser: Browser, pb_server: str, artifacts: Path, size: str) -> None:
    with httpx.Client(base_url=pb_server, timeout=30) as http:
        created = http.post("/api/games", json={"game": "pacific_battles", "scenario": SCENARIO,
                                                "side": "Japanese", "name": "Hyakutake"}).json()
        gid = created["game_id"]
        joined = http.post(f"/api/games/{gid}/join", json={"token": created["invite_url"].split("token=")[1],
                                                          "name": "Vandegrift"}).json()
        tokens = {"Japanese": created["token"], "Allied": joined["token"]}
        truth = Truth(http, gid, ADMIN)
        contexts = {side: browser.new_context(base_url=pb_server, viewport=SIZES[size], has_touch=size == "phone")
                    for side in tokens}
        try:
            pages: dict[str, Page] = {}

            def accept(dialog: Dialog) -> None:  # hx-confirm: what ending the phase leaves undone
                dialog.accept()

            for side, token in tokens.items():
                pages[side] = contexts[side].new_page()
                pages[side].on("dialog", accept)
                pages[side].goto(f"/games/{gid}#token={token}")
            driver, ways, seen, steps, owed_seen = TurnDriver(), {}, set(), 0, 0
            while truth.state.turn < 2 and truth.state.result is None:
                steps += 1
                assert steps < 400, f"turn 1 did not end ({truth.state.phase})"
                side = acting_side(truth.state)
                assert side is not None
                cmd = driver.next_command(truth.state, side)
                page = pages[side]
                if (truth.state.phase, side) not in seen:  # each side's first sight of each phase
                    seen.add((truth.state.phase, side))
                    if "still owed (14.11)" in RULES.prompt(truth.state).text:  # owed attacks: on its map only
                        expect(page.locator("#pb-owed")).to_be_visible()
                        expect(page.locator("#pb-layers .owed-mark").first).to_be_attached()
                        for other in (p for s, p in pages.items() if s != side):
                            expect(other.locator("#pb-layers .owed-mark")).to_have_count(0)
                            expect(other.locator("#pb-owed")).to_be_hidden()
                        owed_seen += 1
                    page.evaluate("window.scrollTo(0, 0)")  # the prompt and the map
                    page.screenshot(path=str(artifacts / f"pb-click-{size}-{len(seen):02d}-{truth.state.phase}-"
                                                         f"{side}.png"))
                before = len(truth.events)
                how = give(page, cmd, truth.state, side)
                ways[how] = ways.get(how, 0) + 1
                truth.wait_past(before, f"{side} gave {cmd.type} {cmd.data} by {how}; the page says: {said(page)}")
                for p in pages.values():  # both boards follow
                    expect(p.locator("#board-state")).to_have_attribute("data-seq", str(len(truth.events)),
                                                                        timeout=15_000)
            assert truth.state.turn == 2 and truth.state.result is None
            for side, p in pages.items():
                expect(p.locator(".status h1")).to_contain_text("September 1942")
                p.screenshot(path=str(artifacts / f"pb-click-{size}-end-{side}.png"), full_page=True)
            assert set(ways) >= {"map", "button", "allocate"}, ways
            assert owed_seen, "no combat phase owed attacks: the owed marks were never checked"
            assert ways["map"] >= 10, ways  # the set-up, the landings, recon, strikes, battles: on the map
            assert http.post(f"/api/admin/games/{gid}/verify", auth=ADMIN).json()["ok"] is True
        finally:
            for c in contexts.values():
                c.close()


def _over_a_move(state: PBState, side: str) -> tuple[str, str] | None:
    """A piece of ``side``'s that may move into the hex of another with moves of its own."""
    moves = [c for c in RULES.legal_commands(state, side) if c.type == "move"]
    movers = {c.data["unit"] for c in moves}
    where = {p.id: p.hex for p in state.pieces.values() if p.side == side}
    return next(((c.data["unit"], other) for c in moves for other in sorted(movers)
                 if other != c.data["unit"] and where.get(other) == c.data["to"]), None)


@pytest.mark.parametrize("size", list(SIZES))
def test_a_pieces_button_selects_it_even_where_the_selected_piece_may_go(browser: Browser, pb_server: str,
                                                                        size: str) -> None:
    """With a piece selected that may move into another piece's hex, that other piece's
    button under Select selects it: the selected piece does not move there (on the map, a
    click in that hex, on a counter too, is the move).  The list stays where it was under
    the finger, though the Selected card comes in above it."""
    with httpx.Client(base_url=pb_server, timeout=30) as http:
        made = new_game(http, scenario=SCENARIO)
        gid, tokens = made["id"], {side: made[side] for side in ("Japanese", "Allied")}
        truth, driver = Truth(http, gid, ADMIN), TurnDriver()
        pair = None
        for _ in range(600):  # the scripted turn, each side moving its pieces in its movement phases
            side = acting_side(truth.state)
            assert side is not None and truth.state.result is None
            pair = _over_a_move(truth.state, side)
            if pair is not None:
                break
            moves = sorted((c for c in RULES.legal_commands(truth.state, side) if c.type == "move"),
                           key=lambda c: (c.data["unit"], c.data["to"]))
            cmd = moves[0] if moves else driver.next_command(truth.state, side)
            before = len(truth.events)
            r = http.post(f"/api/games/{gid}/commands", headers={"Authorization": f"Bearer {tokens[side]}"},
                          json={"type": cmd.type, "data": cmd.data, "expected_seq": before})
            assert r.status_code == 200, r.text
            truth.wait_past(before)
        assert pair is not None, "no piece could move into another's hex"
        mover, other = pair
        context = browser.new_context(base_url=pb_server, viewport=SIZES[size], has_touch=size == "phone")
        try:
            page = context.new_page()
            page.goto(f"/games/{gid}#token={tokens[side]}")
            board = page.locator("#board-state")
            seq = board.get_attribute("data-seq")
            button = page.locator(f"button.chooser[data-unit={css(mover)}]")
            button.scroll_into_view_if_needed()
            top = button.bounding_box()["y"]
            button.click()
            expect(board).to_have_attribute("data-select", mover)
            expect(page.locator("section.selected-piece")).to_be_visible()
            assert abs(page.locator(f"button.chooser[data-unit={css(mover)}]").bounding_box()["y"] - top) <= 2
            page.locator(f"button.chooser[data-unit={css(other)}]").click()
            expect(board).to_have_attribute("data-select", other)
            assert board.get_attribute("data-seq") == seq  # nothing moved
            truth.sync()
            assert truth.state.pieces[mover].hex != truth.state.pieces[other].hex
        finally:
            context.close()
