"""Pacific Battles' map in real Chromium (issue 12): the Japanese set up by clicking (a
piece, then one of the hexes the map highlights for it) and by keyboard alone (Enter on
the piece's button, Enter on a highlighted hex); a click in a hex where the piece may not
go, on the terrain drawn as one picture, says the rule; on a phone the map fits and the commands come right after it."""

from __future__ import annotations

from pathlib import Path

import httpx
from e2e_pages import PHONE, assert_fits_a_phone
from pb_support import SET_UP, new_game
from playwright.sync_api import Browser, Page, expect

from app.games.pacific_battles.map_svg import grid, viewbox
from engine.core.hexes import parse_hex_id


def click_hex(page: Page, hex_id: str) -> None:
    """A real click in the middle of a hex of the terrain (one picture: the page's script
    tells the hex from the grid), wherever the map is scrolled or zoomed."""
    ox, oy, sx, sy, half, _ = grid()
    row, col = parse_hex_id(hex_id)
    x, y = ox + col * sx + (half if row % 2 else 0), oy + row * sy
    width, height = (float(v) for v in viewbox().split()[2:])
    svg = page.locator(".map-stack svg.pb-map").first
    svg.scroll_into_view_if_needed()
    box = svg.bounding_box()
    assert box is not None
    page.locator(".map-wrap").evaluate("(w, p) => { w.scrollLeft = p[0] - w.clientWidth / 2; "
                                       "w.scrollTop = p[1] - w.clientHeight / 2; }",
                                       [x * box["width"] / width, y * box["height"] / height])
    box = svg.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + x * box["width"] / width, box["y"] + y * box["height"] / height)


def test_set_up_by_clicking_the_map_and_by_keyboard(browser: Browser, server: str, artifacts: Path) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        g = new_game(http)
    context = browser.new_context(base_url=server, viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        page.goto(f"/games/{g['id']}#token={g['Japanese']}")
        page.wait_for_load_state("networkidle")  # htmx has taken the forms over
        expect(page.locator("polygon.mark")).to_have_count(0)
        page.locator("button.chooser", has_text=SET_UP[0]).click()
        expect(page.locator(".selected-piece")).to_contain_text(SET_UP[0])
        marks = page.locator("polygon.mark.reach")
        expect(marks.first).to_be_attached()
        assert marks.count() > 5  # the hexes within three of Henderson Field it may set up in (25.4)
        page.screenshot(path=str(artifacts / "pb-select-highlights.png"))
        # a hex far from Henderson Field: the engine's reason, nothing placed
        click_hex(page, "1648")
        expect(page.locator(".status .error")).to_contain_text("25.4")
        seq = page.locator("#board-state").get_attribute("data-seq")
        target = marks.first.get_attribute("data-hex")
        marks.first.click(force=True)
        expect(page.locator("#board-state")).not_to_have_attribute("data-seq", seq)
        expect(page.locator(f'g.counter.own[data-hex="{target}"]')).to_have_count(1)

        # by keyboard alone: Enter on the piece's button, then Enter on a highlighted hex
        page.locator("button.chooser", has_text=SET_UP[1]).focus()
        page.keyboard.press("Enter")
        expect(page.locator(".selected-piece")).to_contain_text(SET_UP[1])
        seq = page.locator("#board-state").get_attribute("data-seq")
        page.locator("polygon.mark.reach").last.focus()
        page.keyboard.press("Enter")
        expect(page.locator("#board-state")).not_to_have_attribute("data-seq", seq)
        expect(page.locator("g.counter.own")).to_have_count(2)
        # the last placement taken back (the engine's take-back), then given again
        seq = page.locator("#board-state").get_attribute("data-seq")
        page.locator("form.command-button:has(input[name=type][value=undo]) button").click()
        expect(page.locator("#board-state")).not_to_have_attribute("data-seq", seq)
        expect(page.locator("g.counter.own")).to_have_count(1)
        page.locator("button.chooser", has_text=SET_UP[1]).click()
        page.locator("polygon.mark.reach").last.dispatch_event("click")
        expect(page.locator("g.counter.own")).to_have_count(2)
        # zoom: the + button widens the map
        page.get_by_role("button", name="Fit").click()
        expect(page.locator("#zoom-level")).to_have_text("100%")
        page.get_by_role("button", name="Zoom in").click()
        expect(page.locator("#zoom-level")).to_have_text("125%")
        # a counter on the map is a button too: Enter selects it
        page.locator("g.counter.own").first.focus()
        page.keyboard.press("Enter")
        expect(page.locator(".selected-piece")).to_be_visible()
    finally:
        context.close()


def test_on_a_phone_the_map_fits_and_the_commands_follow_it(browser: Browser, server: str, artifacts: Path) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        g = new_game(http)
    context = browser.new_context(base_url=server, viewport={"width": 400, "height": 800}, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"/games/{g['id']}#token={g['Japanese']}")
        expect(page.locator("button.chooser").first).to_be_visible()
        assert_fits_a_phone(page, 400, 800)
        commands = page.locator("section.commands").bounding_box()
        displays = page.locator(".pb-displays").bounding_box()
        assert commands["y"] < displays["y"]  # the commands before the long displays
        assert commands["y"] < 800 * 1.5
        page.screenshot(path=str(artifacts / "pb-phone-board.png"), full_page=True)
    finally:
        context.close()


def test_on_a_phone_a_refused_click_on_the_map_shows_its_reason(browser: Browser, server: str) -> None:
    """The reason goes to the status card, above the map: on a phone, scrolled down to the
    map and the commands, the page brings it into view."""
    with httpx.Client(base_url=server, timeout=30) as http:
        g = new_game(http)
    context = browser.new_context(base_url=server, **PHONE)
    try:
        page = context.new_page()
        page.goto(f"/games/{g['id']}#token={g['Japanese']}")
        page.wait_for_load_state("networkidle")
        page.locator("button.chooser", has_text=SET_UP[0]).click()
        expect(page.locator(".selected-piece")).to_contain_text(SET_UP[0])
        page.evaluate("window.scrollTo(0, document.querySelector('.map-wrap').getBoundingClientRect().top"
                      " + window.scrollY)")  # the map at the top of the screen, the status card above it
        assert page.locator(".status").bounding_box()["y"] + page.locator(".status").bounding_box()["height"] < 0
        click_hex(page, "1648")  # far from Henderson Field (25.4)
        error = page.locator(".status .error")
        expect(error).to_contain_text("25.4")
        expect(error).to_be_in_viewport()
    finally:
        context.close()


def test_no_place_name_overprints_another(browser: Browser) -> None:
    """The map's place names as Chromium draws them: no two overlap (Gifu, Mount Austen and
    Edson's Ridge are neighbours on one row)."""
    from app.games.pacific_battles.map_svg import render_pacific_map

    context = browser.new_context()
    try:
        page = context.new_page()
        css = (Path(__file__).resolve().parents[2] / "static" / "map.css").read_text()  # (bold italic, as served)
        page.set_content(f"<html><head><style>{css}</style></head><body>{render_pacific_map()}</body></html>")
        boxes = page.eval_on_selector_all("text.place", "els => els.map(e => { const b = e.getBBox(); "
                                                        "return [e.textContent, b.x, b.y, b.width, b.height]; })")
        assert len(boxes) > 10
        clashes = [(a[0], b[0]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
                   if a[1] < b[1] + b[3] and b[1] < a[1] + a[3] and a[2] < b[2] + b[4] and b[2] < a[2] + a[4]]
        assert clashes == []
    finally:
        context.close()
