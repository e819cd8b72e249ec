"""A player takes their seat to a second device with the private link the board
shows, then replaces the link there: the first device is a spectator from then on.
Two browser contexts of real Chromium stand for the two devices."""

from __future__ import annotations

from pathlib import Path

from e2e_pages import TIMEOUT
from playwright.sync_api import Browser, expect


def test_the_private_link_takes_the_seat_to_another_device(browser: Browser, server: str, artifacts: Path) -> None:
    laptop = browser.new_context(base_url=server)
    phone = browser.new_context(base_url=server, viewport={"width": 420, "height": 900})
    try:
        for context in (laptop, phone):
            context.set_default_timeout(TIMEOUT)
        page = laptop.new_page()
        page.goto("/")
        page.select_option('select[name="side"]', "IJ")
        page.fill('input[name="name"]', "Kenji")
        page.locator("form.new-game button[type=submit]").click()
        card = page.locator("#private-link")
        expect(card).to_have_attribute("open", "")  # shown open right after creating the game
        expect(card).to_contain_text("Keep this link.")
        link = page.input_value("#private-link-url")
        assert "#token=" in link and link.startswith(f"{server}/games/")
        card.get_by_role("button", name="Copy").click()
        expect(card.locator("button[data-copy]")).to_have_text("Copied")  # the clipboard works on 127.0.0.1
        page.screenshot(path=str(artifacts / "seat-link-card.png"))

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
    finally:
        laptop.close()
        phone.close()
