"""Pacific Battles' stacks fan out in real Chromium (issue 31): the Japanese set up three
units in one hex by clicks; a click on the stack spreads it out over its neighbours, each
counter apart and clickable, and a click on any of them selects that one and folds the
stack again (the fan lies over the hexes it may go to)."""

from __future__ import annotations

from pathlib import Path

import httpx
from pb_support import SET_UP, new_game
from playwright.sync_api import Browser, expect

HEX = "1630"  # on the coast next to Henderson Field: all three may set up there (25.4)


def test_a_click_on_a_stack_fans_it_out_and_each_counter_can_be_clicked(browser: Browser, server: str,
                                                                         artifacts: Path) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        g = new_game(http)
    context = browser.new_context(base_url=server, viewport={"width": 1366, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"/games/{g['id']}#token={g['Japanese']}")
        page.wait_for_load_state("networkidle")
        for n, unit in enumerate(SET_UP):
            page.locator("button.chooser", has_text=unit).click()
            expect(page.locator(".selected-piece")).to_contain_text(unit)
            page.locator(f'polygon.mark.reach[data-hex="{HEX}"]').dispatch_event("click")
            expect(page.locator(f'g.counter.own[data-hex="{HEX}"]')).to_have_count(n + 1)
        expect(page.locator("g.fan")).to_have_count(0)  # stacked until clicked

        page.locator(f'g.counter.own[data-hex="{HEX}"]').last.click()  # the top counter of the stack
        fan = page.locator(f'g.fan[data-hex="{HEX}"]')
        expect(fan).to_have_count(1)
        expect(fan.locator("g.counter")).to_have_count(len(SET_UP))
        boxes = [fan.locator(f'g.counter[data-unit="{u}"]').bounding_box() for u in SET_UP]
        xs = sorted(b["x"] for b in boxes)
        assert all(b - a >= boxes[0]["width"] * 0.9 for a, b in zip(xs, xs[1:], strict=False))  # none overlaps
        page.screenshot(path=str(artifacts / "pb-stack-fanned.png"))

        for unit in SET_UP:  # each one picked out of the fan, which then folds (the hexes it covers are free)
            if not fan.count():
                page.locator("form.unselect button").click()
                expect(page.locator(".selected-piece")).to_have_count(0)
                page.locator(f'g.counter.own[data-hex="{HEX}"]').last.click()
                expect(fan.locator("g.counter")).to_have_count(len(SET_UP))
                expect(page.locator(".here h2")).to_have_text(f"Hex {HEX}")  # the panel lists the stack too
            fan.locator(f'g.counter[data-unit="{unit}"]').click()
            expect(page.locator(".selected-piece h2")).to_contain_text(unit)
            expect(page.locator("g.fan")).to_have_count(0)
            expect(page.locator(f'g.counter.own.selected[data-hex="{HEX}"]')).to_have_attribute("data-unit", unit)
    finally:
        context.close()
