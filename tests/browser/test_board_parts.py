"""The board's answers in real Chromium send only the parts of the map that changed
(issue 7, cost of an action): the page says which parts it shows, the answer to a click
swaps in the changed ones as SVG, and the page then shows what a fresh page shows, for
the player who acted and for the opponent whose board follows by itself."""

from __future__ import annotations

import re

import httpx
from e2e_pages import hex_box
from live_server import two_player_game
from playwright.sync_api import Browser, Page, expect

SVG = "http://www.w3.org/2000/svg"


def _digests(page: Page) -> list[str]:
    return page.eval_on_selector("#map-layers",
                                 "el => Array.from(el.children, c => c.getAttribute('data-d')).filter(Boolean)")


def test_a_click_swaps_in_only_the_changed_parts_of_the_map(browser: Browser, server: str) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        gid, token, ij_token = two_player_game(http)
    context = browser.new_context(base_url=server, viewport={"width": 1400, "height": 1000})
    other = browser.new_context(base_url=server, viewport={"width": 1200, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"/games/{gid}#token={token}")
        ij = other.new_page()
        ij.goto(f"/games/{gid}#token={ij_token}")
        before = _digests(page)
        assert len(before) > 20 and all(before)

        page.locator('button.chooser[data-unit="us-1-1"]').click()
        expect(page.locator('g.counter[data-unit="us-1-1"].selected')).to_have_count(1)
        hex_ = page.locator('g.hex-state[role=button][data-hex="0709"]')  # a place for the unit: a button
        box = hex_.bounding_box()
        with page.expect_response(lambda r: r.url.endswith("/click")) as answer:
            hex_.click(position={"x": box["width"] / 2, "y": box["height"] * 0.86})
        body = answer.value.text()
        assert "parts=" in (answer.value.request.post_data or "")
        assert 'id="map-layers"' not in body and 'id="layer-units-07"' in body and 'id="layer-units-03"' not in body
        counter = page.locator('g.counter[data-unit="us-1-1"]')
        expect(counter).to_have_attribute("data-hex", "0709")
        # swapped in as SVG, drawn where the hex is
        assert counter.evaluate("el => el.namespaceURI") == SVG
        cell = hex_box(page, "0709")
        drawn = counter.bounding_box()
        assert drawn and drawn["width"] > 10
        assert abs(drawn["x"] + drawn["width"] / 2 - (cell["x"] + cell["width"] / 2)) < cell["width"] / 2

        # the page now shows what a fresh look with the same selection draws
        select = page.get_attribute("#board-state", "data-select")
        fresh = page.evaluate("url => fetch(url).then(r => r.text())", f"/games/{gid}/board?select={select}&seq=0")
        assert _digests(page) == re.findall(r'data-d="([0-9a-f]+)"', fresh) != before
        # the opponent's board follows (its poll sends its own parts) and matches a fresh look
        expect(ij.locator('g.counter[data-unit="us-1-1"]')).to_have_attribute("data-hex", "0709", timeout=10_000)
        ij_fresh = other.new_page()
        ij_fresh.goto(f"/games/{gid}")
        assert _digests(ij) == _digests(ij_fresh)
    finally:
        context.close()
        other.close()


def test_a_log_line_brought_twice_shows_once(browser: Browser, server: str) -> None:
    """An answer and a poll that crossed may both bring the same log line: the page keeps
    one (issue: every new log line showed twice on a live board until a reload)."""
    with httpx.Client(base_url=server, timeout=30) as http:
        gid, token, _ = two_player_game(http)
    context = browser.new_context(base_url=server)
    try:
        page = context.new_page()
        page.goto(f"/games/{gid}#token={token}")
        first = page.locator("#log > li").first
        value, text = first.get_attribute("value"), first.text_content()
        assert value
        # what htmx does with a crossed poll's answer: the same line inserted again at the top
        page.evaluate("""() => {
            const log = document.getElementById('log');
            const copy = log.querySelector(':scope > li').cloneNode(true);
            const holder = document.createElement('div');
            holder.setAttribute('hx-swap-oob', 'afterbegin:#log');
            holder.appendChild(copy);
            htmx.swap(document.body, holder.outerHTML, {swapStyle: 'none'});
        }""")
        expect(page.locator(f'#log > li[value="{value}"]')).to_have_count(1)
        assert page.locator("#log > li").first.text_content() == text
    finally:
        context.close()


def test_a_plain_hex_says_its_terrain_under_the_mouse(browser: Browser, server: str) -> None:
    """Most hexes are no element of their own: under the mouse, the page reads the hex from
    the grid and its terrain from the game's map, and says both in a tip by the pointer."""
    with httpx.Client(base_url=server, timeout=30) as http:
        gid, token, _ = two_player_game(http)
        terrain = next(h for h in http.get(f"/api/games/{gid}/map").json()["hexes"] if h["id"] == "0709")
    context = browser.new_context(base_url=server, viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        page.goto(f"/games/{gid}#token={token}")
        box = hex_box(page, "0709")
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.8)
        tip = page.locator(".hex-tip")  # (shown once the map is read)
        expect(tip).to_be_visible()
        expect(tip).to_contain_text("Hex 0709: ")
        expect(tip).to_contain_text(terrain["terrain"].replace("_", " "))
        page.mouse.move(5, 5)  # off the map: it goes
        expect(tip).to_be_hidden()
    finally:
        context.close()


def test_a_tap_leaves_no_hex_tip_behind(browser: Browser, server: str) -> None:
    """On a touch screen a tap sends a pointer move too: the tip is the mouse's only (it
    stayed where the finger had been, over the page, after a tap)."""
    with httpx.Client(base_url=server, timeout=30) as http:
        gid, token, _ = two_player_game(http)
    context = browser.new_context(base_url=server, viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"/games/{gid}#token={token}")
        page.wait_for_load_state("networkidle")
        for hex_id in ("0709", "1012", "0805"):  # (the first tap has the page read the map)
            box = hex_box(page, hex_id)
            page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.8)
            page.wait_for_timeout(500)
            assert page.evaluate("() => [...document.querySelectorAll('.hex-tip')].every(t => t.hidden)"), hex_id
    finally:
        context.close()
