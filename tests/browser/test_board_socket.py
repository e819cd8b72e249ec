"""Issue 35, item 3, in real Chromium: while the seat's WebSocket is open, the board's
command buttons send over it and post nothing, and the answer is swapped in as a post's
is; a page whose socket does not open (a proxy that refuses WebSockets) posts, as before."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from live_server import two_player_game
from playwright.sync_api import Browser, Page, WebSocket, WebSocketRoute, expect

ORDERS = ".actions.unit"


def _place(page: Page, unit: str, hex_id: str) -> None:
    """Select ``unit`` from the list of units with orders and press its button for ``hex_id``."""
    page.locator(f'button.chooser[data-unit="{unit}"]').click()
    expect(page.locator(f'g.counter[data-unit="{unit}"].selected')).to_have_count(1)
    page.locator(ORDERS).get_by_role("button", name=hex_id, exact=True).click()
    expect(page.locator(f'g.counter[data-unit="{unit}"]')).to_have_attribute("data-hex", hex_id)


@contextmanager
def _seated(browser: Browser, server: str) -> Iterator[tuple[str, str, Page, list[str]]]:
    """A new game, a page in a browser of its own, and the command posts it makes."""
    with httpx.Client(base_url=server, timeout=30) as http:
        gid, token, _ij = two_player_game(http)
    context = browser.new_context(base_url=server, viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        posts: list[str] = []
        page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and r.url.endswith("/command") else None)
        yield gid, token, page, posts
    finally:
        context.close()


def test_commands_go_over_the_open_socket_and_post_nothing(browser: Browser, server: str) -> None:
    with _seated(browser, server) as (gid, token, page, posts):
        sent: list[str] = []

        def opened(ws: WebSocket) -> None:
            if ws.url.endswith(f"/games/{gid}/socket"):
                ws.on("framesent", lambda payload: sent.append(str(payload)))

        page.on("websocket", opened)
        with page.expect_event("websocket", lambda ws: ws.url.endswith("/socket")):
            page.goto(f"/games/{gid}#token={token}")
        expect(page.locator("#board-state")).to_be_attached()
        expect(page.locator("#socket[data-open]")).to_be_attached()
        _place(page, "us-1-1", "0709")
        _place(page, "us-1-2", "0710")
        assert posts == [], posts
        assert len(sent) == 2 and all('"type":"place"' in f and '"parts":"' in f for f in sent), sent
        expect(page.locator("#log li").first).to_contain_text("placed in 0710")
        expect(page.locator("#net-error")).to_be_hidden()
        # what the socket brought is what a fresh page shows
        select = page.get_attribute("#board-state", "data-select")
        fresh = page.evaluate("url => fetch(url).then(r => r.text())", f"/games/{gid}/board?select={select}&seq=0")
        digests = page.eval_on_selector("#map-layers", "el => Array.from(el.children, c => c.dataset.d)"
                                                        ".filter(Boolean)")
        assert digests == re.findall(r'data-d="([0-9a-f]+)"', fresh)


def test_a_page_whose_socket_does_not_open_posts(browser: Browser, server: str) -> None:
    with _seated(browser, server) as (gid, token, page, posts):
        def refuse(ws: WebSocketRoute) -> Any:  # as a proxy that refuses WebSockets
            ws.close(code=1011)

        page.route_web_socket(re.compile(r".*/socket$"), refuse)
        page.goto(f"/games/{gid}#token={token}")
        expect(page.locator("#board-state")).to_be_attached()
        expect(page.locator("#socket")).to_be_attached()
        page.wait_for_timeout(500)  # (its attempt refused)
        expect(page.locator("#socket[data-open]")).to_have_count(0)
        _place(page, "us-1-1", "0709")
        assert len(posts) == 1
        expect(page.locator("#log li").first).to_contain_text("placed in 0709")


def test_an_error_line_over_the_socket_stays_shown(browser: Browser, server: str) -> None:
    """What the server answers a message it cannot take (app/routes/board_socket.py: the
    page's error line) is shown, and the next good answer clears it."""
    with _seated(browser, server) as (gid, token, page, _posts):
        routes: list[WebSocketRoute] = []

        def through(ws: WebSocketRoute) -> None:  # the page's socket, passed on to the server
            ws.connect_to_server()
            routes.append(ws)

        page.route_web_socket(re.compile(r".*/socket$"), through)
        page.goto(f"/games/{gid}#token={token}")
        expect(page.locator("#socket[data-open]")).to_be_attached()
        routes[0].send('<p id="net-error" class="error" role="alert" hx-swap-oob="true">Too many commands.</p>')
        expect(page.locator("#net-error")).to_have_text("Too many commands.")
        expect(page.locator("#net-error")).to_be_visible()
        _place(page, "us-1-1", "0709")  # over the socket: its answer clears the line
        expect(page.locator("#net-error")).to_be_hidden()
