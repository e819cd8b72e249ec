"""Pacific Battles in real Chromium, two players in two browsers (issue 12, the first
board): the Japanese set up in secret, the Allies see only unknown stacks; both allocate
their air missions in secret, each seeing only "allocated" of the other until the reveal;
the Allies land a reinforcement.  Screenshots in test-artifacts/."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
from pb_support import SET_UP, choose_in_group, new_game
from playwright.sync_api import Browser, Page, expect


def do(page: Page, kind: str, option: int = 0) -> None:
    """Pick an option of the page's command group of ``kind`` and give the command (a list
    too long to show whole is the selected piece's own: the first piece with orders is
    selected first)."""
    form = page.locator(f"form.command-group:has(input[name=type][value={kind}])")
    if not form.count():
        expect(page.locator("p.command-hint")).to_contain_text("select a piece")
        page.locator("button.chooser").first.click()
    choose_in_group(form, index=option)
    form.locator("button").click()


def kept_cards(page: Page) -> list[list[str]]:
    return page.eval_on_selector_all("[data-kept]", "els => els.map(e => [e.id, e.getAttribute('data-d')])")


def test_two_players_set_up_allocate_in_secret_and_land(browser: Browser, server: str, artifacts: Path) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        g = new_game(http)
    gid, japanese_token, allied_token = g["id"], g["Japanese"], g["Allied"]
    jp_context = browser.new_context(base_url=server, viewport={"width": 1400, "height": 1000})
    us_context = browser.new_context(base_url=server, viewport={"width": 1400, "height": 1000})
    try:
        jp = jp_context.new_page()
        jp.goto(f"/games/{gid}#token={japanese_token}")
        us = us_context.new_page()
        us.goto(f"/games/{gid}#token={allied_token}")
        expect(jp.locator(".prompt")).to_contain_text("Set up your units within three hexes of Henderson Field")
        expect(us.locator(".prompt")).to_contain_text("Waiting for Japanese")
        expect(jp).to_have_title(re.compile(r"^\(Your move\) Pacific Battles"))  # the tab says whose move it is
        expect(us).not_to_have_title(re.compile(r"Your move"))
        for n in range(len(SET_UP)):
            do(jp, "place")
            expect(jp.locator("g.counter.own")).to_have_count(n + 1)
        jp.screenshot(path=str(artifacts / "pb-japanese-set-up.png"))
        # the Allies' board follows by itself: unknown stacks, no name
        expect(us.locator("g.counter.enemy.unknown").first).to_be_visible(timeout=10_000)
        text = us.content()
        assert [n for n in (*SET_UP, "Banzai!") if n in text] == []
        us.screenshot(path=str(artifacts / "pb-allied-fog.png"))

        jp.locator("form.command-button button", has_text="End").click()
        # the markers are drawn by themselves; both allocate in secret
        expect(us.locator("form.allocate")).to_be_visible(timeout=10_000)
        expect(jp.locator("form.allocate")).to_be_visible(timeout=10_000)
        # both decide at once: both tabs say so, and name the month the game has come to, without a reload
        for page in (jp, us):
            title = r"^\(Your move\) Pacific Battles Vol. 1: Guadalcanal · August 1942 · "  # game, turn, phase
            expect(page).to_have_title(re.compile(title))
        us.fill("form.allocate input[name=superiority]", "2")
        us.fill("form.allocate input[name=interdiction]", "2")
        us.locator("form.allocate button").click()
        expect(us.locator("form.allocate")).to_have_count(0)
        expect(us).not_to_have_title(re.compile(r"Your move"))  # sealed: waiting for the Japanese only
        expect(jp).to_have_title(re.compile(r"^\(Your move\) "))
        expect(jp.locator(".sides")).to_contain_text("allocated", timeout=10_000)
        jp.screenshot(path=str(artifacts / "pb-allocation-sealed.png"))
        assert "interdiction 2" not in jp.content()
        jp.fill("form.allocate input[name=strike]", "4")
        jp.fill("form.allocate input[name=superiority]", "2")  # as many as the Allies: nothing to choose (16.52)
        jp.locator("form.allocate button").click()
        expect(jp.locator(".log")).to_contain_text("Air missions revealed", timeout=10_000)
        expect(us.locator(".log")).to_contain_text("Air missions revealed", timeout=10_000)

        # air superiority fires by itself; the Allies (first, 25.2) land a reinforcement
        # (every landing of every reinforcement is too many to list: the selected one's are listed)
        expect(us.locator("p.command-hint")).to_contain_text("select a piece", timeout=10_000)
        before = us.locator("g.counter.own").count()
        with jp.expect_response(lambda r: "/poll" in r.url and "seq=" in r.url, timeout=10_000) as polled:
            do(us, "land")
            expect(us.locator("g.counter.own")).to_have_count(before + 1)
        # the Japanese page's poll says its map parts and its kept cards; the displays did
        # not change with a landing, and are not sent again
        parts = re.search(r"[?&]parts=([0-9a-f.]+)", polled.value.url)
        assert parts and len(parts.group(1).split(".")) == len(jp.locator("#pb-layers > g[data-d]").all()) + 2
        assert 'id="pb-displays"' not in polled.value.text()
        us.screenshot(path=str(artifacts / "pb-allied-landing.png"))
        expect(jp.locator("g.counter.enemy.unknown").first).to_be_visible(timeout=10_000)
        assert "1 Mar Div HQ" not in jp.content() and "USMC" not in jp.content()
        # the cards an answer sends only when they changed (the sides, the displays) are,
        # on each page patched by its answers, those a fresh page draws
        for context, page in ((us_context, us), (jp_context, jp)):
            fresh = context.new_page()
            fresh.goto(f"/games/{gid}")
            expect(fresh.locator("#pb-sides")).to_be_visible()
            assert len(kept_cards(page)) == 2 and kept_cards(page) == kept_cards(fresh)
            assert page.inner_text("#pb-sides") == fresh.inner_text("#pb-sides")
            assert page.inner_text("#pb-displays") == fresh.inner_text("#pb-displays")
            fresh.close()
    finally:
        jp_context.close()
        us_context.close()
