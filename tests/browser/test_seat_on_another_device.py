"""The links a player carries to another device: the private link the board shows
(replaced there, the first device is a spectator from then on), a sign-in link sent
by e-mail, and a mail's unsubscribe link.  Two browser contexts of real Chromium stand
for two devices."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from e2e_pages import TIMEOUT
from mail_support import Inbox
from playwright.sync_api import Browser, BrowserContext, expect

from app.services.notices import Notices


@contextmanager
def two_devices(browser: Browser, server: str) -> Iterator[tuple[BrowserContext, BrowserContext]]:
    """A laptop and a phone: two browser contexts, each with cookies of its own."""
    laptop = browser.new_context(base_url=server)
    phone = browser.new_context(base_url=server, viewport={"width": 420, "height": 900})
    try:
        for context in (laptop, phone):
            context.set_default_timeout(TIMEOUT)
        yield laptop, phone
    finally:
        laptop.close()
        phone.close()


def test_the_private_link_takes_the_seat_to_another_device(browser: Browser, server: str, artifacts: Path) -> None:
    with two_devices(browser, server) as (laptop, phone):
        page = laptop.new_page()
        page.goto("/")
        page.select_option('select[name="side"]', "IJ")
        page.fill('input[name="name"]', "Kenji")
        page.locator("form.new-game button[type=submit]").click()
        card = page.locator("#private-link")
        expect(card).to_have_attribute("open", "")  # shown open right after creating the game
        expect(card).to_contain_text("Keep this link.")
        page.wait_for_load_state()
        assert "welcome" not in page.url  # once: a reload shows it folded (below)
        link = page.input_value("#private-link-url")
        assert "#token=" in link and link.startswith(f"{server}/games/")
        page.wait_for_load_state()  # copy.js runs by then: a click before it does nothing (a busy machine)
        card.get_by_role("button", name="Copy").click()
        expect(card.locator("button[data-copy]")).to_have_text("Copied")  # the clipboard works on 127.0.0.1
        page.screenshot(path=str(artifacts / "seat-link-card.png"))
        page.reload()
        expect(page.locator("#private-link")).not_to_have_attribute("open", "")
        expect(page.locator("#private-link-url")).to_have_value(link)

        second = phone.new_page()
        second.goto(link)
        expect(second.locator("#board")).to_be_visible()
        expect(second.locator("#status .you strong")).to_have_text("IJ")
        assert "token" not in second.url  # the secret left the address bar
        expect(second.locator("#private-link")).not_to_have_attribute("open", "")  # folded on later visits

        second.locator("#private-link summary").click()
        second.check('#private-link input[name="confirm"]')
        second.get_by_role("button", name="Replace my link").click()
        expect(second.locator("#private-link")).to_have_attribute("open", "")
        new_link = second.input_value("#private-link-url")
        assert new_link != link
        expect(second.locator("#status .you strong")).to_have_text("IJ")

        page.reload()  # the laptop's cookie holds the old secret: a spectator now
        expect(page.locator("#status .you strong")).to_have_text("spectator")
        expect(page.locator("#private-link")).to_have_count(0)
        page.goto(link)  # and the old link opens nothing
        expect(page.locator("body")).to_contain_text("not valid for this game")


def test_signing_in_by_an_emailed_link_lists_the_games_and_opens_the_seat(browser: Browser, server: str,
                                                                          mailbox: tuple[str, Inbox]) -> None:
    """The link arrives by mail (the test's SMTP server): the outbox never holds it."""
    with two_devices(browser, server) as (laptop, phone):
        page = laptop.new_page()
        page.goto("/")
        page.fill('input[name="name"]', "Mai")
        page.fill('input[name="title"]', "Mail test")
        page.fill('form.new-game input[name="email"]', "mai@example.org")
        page.locator("form.new-game button[type=submit]").click()
        expect(page.locator("#board")).to_be_visible()
        game_url = page.url.split("?")[0]

        second = phone.new_page()
        second.goto("/")
        second.get_by_role("link", name="Sign in with your e-mail address").click()
        second.fill('input[name="email"]', "mai@example.org")
        second.get_by_role("button", name="Mail me a sign-in link").click()
        expect(second.locator("#signin-sent")).to_contain_text("on its way")

        body = ""
        for _ in range(100):
            body = next((m.get_content() for m in mailbox[1].messages if m["To"] == "mai@example.org"
                         and m["Subject"] == "Your sign-in link"), "")
            if body:
                break
            time.sleep(0.1)
        link = re.search(r"(http\S+/signin#token=\S+)", body).group(1)
        outbox = httpx.get(f"{server}/api/admin/outbox", auth=("admin", "pw")).json()["items"]
        assert link.split("#token=")[1] not in str(outbox)
        second.goto(link)
        expect(second.locator("#signed-in")).to_contain_text("mai@example.org")
        second.get_by_role("link", name="Mail test").click()
        expect(second.locator("#status .you strong")).to_have_text(page.locator("#status .you strong").inner_text())
        assert second.url.split("?")[0] == game_url


def test_the_unsubscribe_link_of_a_mail_works_in_one_click(browser: Browser, server: str) -> None:
    created = httpx.post(f"{server}/api/games", json={"side": "US", "name": "Ula", "email": "ula@example.org"}).json()
    key = Notices(server, "test").unsubscribe_key(created["game_id"], "US")  # the browser server's SECRET_KEY
    with two_devices(browser, server) as (laptop, _phone):
        page = laptop.new_page()
        page.goto(f"/unsubscribe#token={key}")
        expect(page.locator("#unsubscribed")).to_contain_text(created["game_id"])
        assert "token" not in page.url
    seat = httpx.put(f"{server}/api/games/{created['game_id']}/seat/email", json={"email": "ula@example.org"},
                     headers={"Authorization": f"Bearer {created['token']}"}).json()
    assert seat == {"email": "ula@example.org", "notify": True}  # saving the address turns them on again
