"""Both games' boards open framed on the counters, each legible at first sight, on a desk
and on a phone, and no board page scrolls sideways on a phone; a click anywhere in a
Pacific Battles hex is the hex's, roads and rivers never take it (issue 31)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from live_server import place_set_up, two_player_game
from playwright.sync_api import Browser

SCREENS = {"desk": ({"width": 1366, "height": 900}, 28), "phone": ({"width": 390, "height": 844}, 32)}


def pacific_game(http: httpx.Client) -> tuple[str, dict[str, str]]:
    made = http.post("/api/games", json={"game": "pacific_battles", "scenario": "short", "side": "Japanese",
                                         "name": "Hyakutake"}).json()
    joined = http.post(f"/api/games/{made['game_id']}/join", json={"token": made["invite_url"].split("token=")[1],
                                                                   "name": "Vandegrift"}).json()
    http.cookies.clear()
    place_set_up(http, made["game_id"], made["token"], 3)
    return made["game_id"], {"Japanese": made["token"], "Allied": joined["token"]}


def first_blood_game(http: httpx.Client) -> tuple[str, dict[str, str]]:
    gid, us, ij = two_player_game(http)
    place_set_up(http, gid, us, 6)
    return gid, {"US": us, "IJ": ij}


@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.parametrize("make", [pacific_game, first_blood_game])
def test_counters_are_legible_at_first_sight_and_no_page_scrolls_sideways(
        browser: Browser, server: str, artifacts: Path, screen: str, make) -> None:
    viewport, legible = SCREENS[screen]
    with httpx.Client(base_url=server, timeout=30) as http:
        gid, tokens = make(http)
    for side, token in tokens.items():
        context = browser.new_context(base_url=server, viewport=viewport)
        try:
            page = context.new_page()
            page.goto(f"/games/{gid}#token={token}")
            page.wait_for_load_state("networkidle")
            widths = page.eval_on_selector_all(
                ".map-wrap g.counter", "els => els.map(e => e.getBoundingClientRect().width).filter(w => w > 0)")
            assert widths, f"{side} sees no counter"
            widths.sort()
            assert widths[len(widths) // 2] >= legible - 0.5, (side, screen, widths[len(widths) // 2])
            seen = page.evaluate("""() => {
                const w = document.querySelector('.map-wrap').getBoundingClientRect();
                return Array.from(document.querySelectorAll('.map-wrap g.counter')).some(c => {
                  const b = c.getBoundingClientRect();
                  return b.width > 0 && b.left >= w.left && b.right <= w.right
                    && b.top >= w.top && b.bottom <= w.bottom;
                }); }""")
            assert seen, f"no counter in view for {side} on a {screen}"  # framed on them, not on a corner
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"] + 1
            page.screenshot(path=str(artifacts / f"framing-{make.__name__}-{side}-{screen}.png"))
        finally:
            context.close()


def test_a_click_on_a_road_or_a_river_in_a_hex_is_the_hexs(browser: Browser, server: str) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        gid, tokens = pacific_game(http)
    context = browser.new_context(base_url=server, viewport={"width": 1366, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"/games/{gid}#token={tokens['Japanese']}")
        missed = page.evaluate("""() => {
            const out = [];
            const drawn = '.pb-map polyline.road, .pb-map polyline.trail, .pb-map .rivers line';
            for (const line of document.querySelectorAll(drawn)) {
              const r = line.getBoundingClientRect();
              if (!r.width && !r.height) continue;
              const x = r.left + r.width / 2, y = r.top + r.height / 2;
              const hit = document.elementFromPoint(x, y);
              if (hit && (hit.closest('polyline') || hit.closest('.rivers') || hit.closest('.places'))) {
                out.push(hit.tagName);
              }
            }
            return out; }""")
        assert missed == []
    finally:
        context.close()
