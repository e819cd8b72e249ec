"""One player's browser tab on the game page: clicks, and waits for HTMX to swap the board.

Every command the player gives changes the game's event count, which the page
shows as ``#board[data-seq]``; the plan knows that count after each step, so
``wait_seq`` waits for exactly the board the step should produce (or fails on the
server's error message).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from e2e_plan import Planned
from playwright.sync_api import Locator, Page, expect

TIMEOUT = 10_000  # ms: the other player's page is told by the live stream (its poll is every 30 s)
# a phone, as a browser context is made for one: browser.new_context(base_url=..., **PHONE)
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

# true while HTMX is still swapping or settling new content into the page
_BUSY = "document.querySelector('.htmx-swapping, .htmx-settling, .htmx-added') !== null"

# First Blood's terrain is one picture: a hex is where the map's grid (data-grid, as
# static/board.js reads it) says, brought into view (the map scrolls in its frame, the
# frame in the page); its box on the screen, as a bounding_box() gives it
_HEX_BOX = """hex => {
    const svg = document.querySelector('.map-stack svg[data-grid]');
    const [ox, oy, sx, sy, half, radius] = svg.dataset.grid.split(' ').map(Number);
    const row = Number(hex.slice(0, 2)), col = Number(hex.slice(2));
    const at = (x, y) => { const p = svg.createSVGPoint(); p.x = x; p.y = y;
                           return p.matrixTransform(svg.getScreenCTM()); };
    const cx = ox + col * sx + (row % 2 ? half : 0), cy = oy + row * sy;
    const frame = svg.closest('.map-wrap'), r = frame.getBoundingClientRect(), c = at(cx, cy);
    frame.scrollBy(c.x - (r.left + r.width / 2), c.y - (r.top + r.height / 2));
    const moved = at(cx, cy);
    window.scrollBy(0, moved.y - window.innerHeight / 2);
    const a = at(cx - Math.abs(sx) / 2, cy - radius), b = at(cx + Math.abs(sx) / 2, cy + radius);
    return {x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y};
}"""


def hex_box(page: Page, hex_id: str) -> dict[str, float]:
    """A map hex's box on the screen (from the grid: most hexes are no element of their
    own), the hex scrolled into view."""
    return page.evaluate(_HEX_BOX, hex_id)


def click_hex(page: Page, hex_id: str, down: float = 0.86) -> dict[str, float]:
    """Click a map hex at ``down`` of its height, by default in its lower part, below any
    counters stacked in it (a click on a counter is a click on the unit); its box."""
    box = hex_box(page, hex_id)
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] * down)
    return box


@dataclass
class Player:
    page: Page
    side: str
    shots: Path
    dialogs: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        def accept(dialog) -> None:  # hx-confirm on "End the phase"
            self.dialogs.append(dialog.message)
            dialog.accept()

        self.page.on("dialog", accept)

    # --- reading the page ---------------------------------------------------------

    def seq(self) -> int:
        return int(self.page.locator("#board-state").get_attribute("data-seq") or -1)

    def counter(self, unit: str) -> Locator:
        return self.page.locator(f'g.counter[data-unit="{unit}"]')

    def tooltip(self, unit: str) -> Locator:
        """The tooltip of a unit's counter: on the group around the button, not inside it."""
        return self.counter(unit).locator("xpath=../*[local-name()='title']")

    def hex_state(self, hex_id: str) -> Locator:
        """What the page says of the hex now (reachable, a target ...), in the map's layers."""
        return self.page.locator(f'g.hex-state[data-hex="{hex_id}"]')

    def log_lines(self) -> list[str]:
        """The log, newest line first."""
        return [t.strip() for t in self.page.locator("#log li").all_inner_texts()]

    def places(self) -> dict[str, str]:
        """unit -> where its counter is drawn (``data-loc``) for every counter on the sheet."""
        return self.page.eval_on_selector_all(
            "g.counter", "els => Object.fromEntries(els.map(e => [e.dataset.unit, e.dataset.loc]))")

    def reachable(self) -> dict[str, str]:
        """Highlighted map hexes -> the MF cost printed in them ('' when none)."""
        return self.page.eval_on_selector_all("g.hex-state.reachable", """els => Object.fromEntries(els.map(
            e => [e.dataset.hex, (e.querySelector('text.cost') || {}).textContent || '']))""")

    def expect_my_move(self, phase_title: str, prompt: str = "", timeout: int = TIMEOUT) -> None:
        expect(self.page.locator("#prompt")).to_contain_text("Your move:", timeout=timeout)
        expect(self.page.locator("#phase-title")).to_have_text(phase_title, timeout=timeout)
        expect(self.page.locator("#acting-side")).to_have_text(self.side, timeout=timeout)
        if prompt:
            expect(self.page.locator("#prompt")).to_contain_text(prompt, timeout=timeout)
        self.settle()

    def expect_waiting(self, phase_title: str, for_side: str, timeout: int = TIMEOUT) -> None:
        expect(self.page.locator("#phase-title")).to_have_text(phase_title, timeout=timeout)
        expect(self.page.locator("#acting-side")).to_have_text(for_side, timeout=timeout)
        expect(self.page.locator("#prompt")).to_contain_text(f"Waiting for {for_side}", timeout=timeout)
        expect(self.page.locator("#prompt")).not_to_contain_text("Your move")
        self.settle()

    # --- waiting for HTMX ---------------------------------------------------------

    def settle(self) -> None:
        """Wait for HTMX to finish settling a swap: until then, elements with an id (the
        board, every hex) still carry their old attributes, e.g. no "reachable" class."""
        self.page.wait_for_function(f"() => !({_BUSY})", timeout=TIMEOUT)

    def wait_seq(self, seq: int, timeout: int = TIMEOUT) -> None:
        """Wait for the board after event ``seq``; fail with the server's message if it refused."""
        self.page.wait_for_function(
            """seq => { const b = document.getElementById('board-state');
                        return (b && b.dataset.seq === String(seq)) || document.getElementById('error'); }""",
            arg=seq, timeout=timeout)
        error = self.page.locator("#error")
        if error.count():
            raise AssertionError(f"{self.side}'s page shows an error: {error.inner_text()}")
        self.settle()

    # --- acting -------------------------------------------------------------------

    def select(self, unit: str) -> None:
        """Pick a unit from "Units with orders to give"."""
        self.page.locator(f'button.chooser[data-unit="{unit}"]').click()
        expect(self.counter(unit)).to_have_class(re.compile(r"\bselected\b"), timeout=TIMEOUT)
        self.settle()

    def click_counter(self, unit: str) -> None:
        self.counter(unit).click()

    def pick(self, unit: str) -> None:
        """Select a unit by clicking its counter on the sheet."""
        self.click_counter(unit)
        expect(self.counter(unit)).to_have_class(re.compile(r"\bselected\b"), timeout=TIMEOUT)
        self.settle()

    def click_hex(self, hex_id: str) -> None:
        """Click a map hex in its lower part, below any counters stacked in it (a click
        on a counter is a click on the unit, not on the hex)."""
        click_hex(self.page, hex_id)

    def click_place(self, loc: str) -> None:
        """Click an entry point or a box on the sheet (by its data-loc), away from its counters."""
        if loc.startswith("entry:"):
            self.page.locator(f'g.entry[data-loc="{loc}"] polygon.entry-bg').click()
            return
        frame = self.page.locator(f'g.box[data-loc="{loc}"] rect.box-bg')
        box = frame.bounding_box()
        assert box is not None, f"{loc} is not drawn"
        frame.click(position={"x": box["width"] - 8, "y": box["height"] - 5})

    def order(self, label: str, where: str = ".actions.unit") -> None:
        """Click one of the selected unit's order buttons (``where``: another list of them)."""
        self._button(where, label).click()

    def _button(self, where: str, label: str) -> Locator:
        """The button of ``label`` in a list; a list whose orders begin with the same words
        says them once, as its legend, and each button reads the rest ("0709" after "Place
        US 1/1 in")."""
        orders = self.page.locator(where)
        legend = orders.locator("legend")
        if legend.count():
            lead = legend.inner_text().strip()
            if label.startswith(lead + " "):
                label = label[len(lead) + 1:]
        return orders.get_by_role("button", name=label, exact=True)

    def general(self, command_type: str) -> None:
        """Click a button of the general actions (end the phase, resolve, ...)."""
        self.page.locator(f".actions.general button.cmd-{command_type}").click()

    def done(self, p: Planned) -> None:
        """After the click that gives step ``p``: the board it produces, with its log lines on top."""
        self.wait_seq(p.seq)
        if p.lines:
            assert self.log_lines()[: len(p.lines)] == list(reversed(p.lines)), (
                f"{self.side}: log after {p.label!r}: {self.log_lines()[:len(p.lines)]} != {list(p.lines)}")

    def give(self, p: Planned) -> None:
        """Give a planned step the plain way: pick its unit, then click its order button."""
        assert p.step.side == self.side, p
        if p.step.unit is not None:
            self.select(p.step.unit)
            self.order(p.label)
        elif p.step.type in ("end_phase", "resolve", "cancel_attack", "end_advance"):
            self.general(p.step.type)
        else:
            self.order(p.label, ".actions.other")
        self.done(p)

    # --- screenshots ----------------------------------------------------------------

    def shot(self, name: str) -> None:
        """The map, and the whole page (map, status and panel), into test-artifacts/."""
        self.settle()
        self.page.locator(".map-stack").screenshot(path=str(self.shots / f"{name}-map.png"))
        self.page.screenshot(path=str(self.shots / f"{name}-page.png"), full_page=True)


def assert_fits_a_phone(page: Page, width: int, height: int) -> None:
    """Nothing wider than the phone, and the map at most half its height (the actions
    under it stay within reach)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
    box = page.locator(".map-wrap").bounding_box()
    assert box is not None and box["width"] <= width and box["height"] <= 0.5 * height
