"""Dice nobody can bend, in the browser (issue 36): each player's part of the dice made by
the page (the Web Crypto API) as they create or join the game, turn 1's dice checked on
"Check the dice" while a later turn is under way, and the chain head of an old "your move" mail
pasted into the seat card's check box.  A server of seed chains (no fixed dice), real
Chromium, a real SMTP server."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from app_support import drive
from conftest import running_server
from e2e_pages import PHONE, TIMEOUT
from mail_support import Inbox
from playwright.sync_api import Browser, expect

ALICE, BOB = "alice@example.org", "bob@example.net"


@pytest.fixture(scope="module")
def chains(tmp_path_factory: pytest.TempPathFactory, chromium: str, mailbox: tuple[str, Inbox]) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("chains"), "", mailbox[0], MAIL_GRACE_SECONDS="1") as url:
        yield url


def token_of(link: str) -> str:
    return link.split("#token=")[1]


def head_mailed_to(inbox: Inbox, address: str, timeout: float = 20.0) -> str:
    """The chain head in the newest "your move" mail to ``address``."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for msg in reversed(inbox.messages):
            if msg["To"] == address and msg["Subject"].startswith("Your move"):
                found = re.search(r"record now ends with hash ([0-9a-f]{64})", msg.get_body(("plain",)).get_content())
                assert found, msg.as_string()[:2000]
                return found.group(1)
        time.sleep(0.2)
    raise AssertionError(f"no 'your move' mail to {address}")


def test_the_players_parts_the_dice_checked_during_the_game_and_an_old_mail_s_head(
        browser: Browser, chains: str, mailbox: tuple[str, Inbox], artifacts: Path) -> None:
    alice_ctx, bob_ctx = browser.new_context(base_url=chains), browser.new_context(base_url=chains)
    for ctx in (alice_ctx, bob_ctx):
        ctx.set_default_timeout(TIMEOUT)
    try:
        alice = alice_ctx.new_page()
        alice.goto("/")
        alice.fill('form.new-game input[name="name"]', "Alice")
        alice.fill('form.new-game input[name="email"]', ALICE)
        alice.locator("form.new-game button[type=submit]").click()
        part = alice.locator(".entropy-form input[name=entropy]")
        expect(part).to_have_value(re.compile(r"^[0-9a-f]{32}$"))  # made by the page, not the server
        alice.locator(".entropy-form button[type=submit]").click()
        expect(alice.locator("#record-head-card")).to_contain_text("US's part given")
        invite = alice.input_value("#invite-link")
        us_token = token_of(alice.input_value("#private-link-url"))

        bob = bob_ctx.new_page()
        bob.goto(invite)
        expect(bob.locator('#token-form input[name="entropy"]')).to_have_value(re.compile(r"^[0-9a-f]{32}$"))
        bob.fill('#token-form input[name="name"]', "Bob")
        bob.fill('#token-form input[name="email"]', BOB)
        bob.locator("#token-form button[type=submit]").click()
        expect(bob.locator("#record-head-card")).to_contain_text("IJ's part given, US's part given")
        ij_token = token_of(bob.input_value("#private-link-url"))
        gid = bob.url.split("/games/")[1].split("?")[0].split("#")[0]

        with httpx.Client(base_url=chains, timeout=30) as api:  # the moves themselves, quickly
            game = {"id": gid, "US": us_token, "IJ": ij_token}
            drive(api, game, lambda legal: legal["prompt"]["side"] == "IJ")  # the US sets up: Bob's move
            old_head = head_mailed_to(mailbox[1], BOB)
            # on until a finished turn's seed is out and some of its dice can be checked
            drive(api, game, lambda legal: api.get(f"/api/games/{gid}").json()["turn"] >= 3, limit=1200)

        bob.goto(f"/games/{gid}/dice")
        verdict = bob.locator("main p[role=status]")
        expect(verdict).to_contain_text("every one matches its seed and the players' entropy")
        checked = int(re.search(r"(\d+) rolls checked", verdict.inner_text()).group(1))  # type: ignore[union-attr]
        assert checked > 0
        bob.screenshot(path=str(artifacts / "check-the-dice.png"), full_page=True)

        bob.goto(f"/games/{gid}")
        bob.locator("#private-link summary").click()  # the seat's card, folded on later visits
        bob.fill("#record-head-card input[name=head]", old_head)
        bob.locator("#record-head-card form.record-check button[type=submit]").click()
        expect(bob.locator("#record-check-answer")).to_contain_text("yes: that is the hash of entry")
    finally:
        alice_ctx.close()
        bob_ctx.close()


def test_the_records_hash_fits_a_phone(browser: Browser, chains: str) -> None:
    """The record's head (64 hex digits, one word) wraps on a phone, on the seat's card and
    on the log page, rather than running off the screen."""
    from live_server import two_player_game

    with httpx.Client(base_url=chains, timeout=30) as http:
        gid, token, _ = two_player_game(http)
    context = browser.new_context(base_url=chains, **PHONE)
    try:
        page = context.new_page()
        for url in (f"/games/{gid}#token={token}", f"/games/{gid}/log"):
            page.goto(url)
            head = page.locator("#record-head")
            expect(head).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
            head.scroll_into_view_if_needed()
            box = head.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, (url, box)
    finally:
        context.close()
