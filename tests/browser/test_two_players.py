"""Two players in two real Chromium browsers play First Blood from the set-up to Sep II.

The US player creates the game and sends the invitation link; the IJ player
joins.  Both set up; then the whole first turn is played by clicking: the IJ
lands 124/2 at the Koli entry point, marches it into the ZOC of a US stack
(where it halts), must attack that stack, sees the odds before rolling, and the
exchange that follows lets the US player, in the other browser, choose which
unit to lose.  Every phase handover is watched in the other browser, which
updates itself by polling.

The commands and the dice are planned in e2e_plan.py (the server runs with a
fixed dice secret); the assertions read the rendered SVG map and the log.
Screenshots go to test-artifacts/ at the repository root.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import e2e_plan as plan
import pytest
from e2e_pages import TIMEOUT, Player
from playwright.sync_api import Browser, expect

from engine.games.first_blood.rules import RULES

VIEWPORT = {"width": 1600, "height": 1200}  # the whole map fits without scrolling


class Script:
    """The planned steps, handed out in order; each must be the one the test expects."""

    def __init__(self, secret: str) -> None:
        self._steps: Iterator[plan.Planned] = iter(plan.check(secret))

    def next(self, side: str, type_: str, tag: str | None = None) -> plan.Planned:
        p = next(self._steps)
        assert (p.step.side, p.step.type) == (side, type_), p
        assert tag is None or p.step.tag == tag, p
        return p

    def rest(self) -> list[plan.Planned]:
        return list(self._steps)


@pytest.fixture
def players(browser: Browser, server: str, artifacts: Path,
            request: pytest.FixtureRequest) -> Iterator[tuple[Player, Player]]:
    """The US and the IJ player, each in a browser context of their own (own cookies)."""
    out = []
    for side in ("US", "IJ"):
        context = browser.new_context(base_url=server, viewport=VIEWPORT)
        context.set_default_timeout(TIMEOUT)
        out.append(Player(context.new_page(), side, artifacts))
    yield out[0], out[1]
    report = getattr(request.node, "rep_call", None)
    for player in out:
        if report is not None and report.failed:  # what each player saw when it went wrong
            player.page.screenshot(path=str(artifacts / f"failure-{player.side}.png"), full_page=True)
            (artifacts / f"failure-{player.side}.html").write_text(player.page.content())
        player.page.context.close()


def test_two_players_play_the_first_turn(players: tuple[Player, Player], server: str, dice_secret: str) -> None:
    script = Script(dice_secret)
    us, ij = players

    # --- the US player starts a game, the IJ player joins through the invitation ---------
    us.page.goto("/")
    us.page.select_option('select[name="side"]', "US")
    us.page.fill('input[name="name"]', "Alice")
    us.page.fill('input[name="title"]', "Browser test")
    us.page.locator("form.new-game button[type=submit]").click()
    expect(us.page.locator("#board")).to_be_visible()
    invite = us.page.input_value("input.invite-link")
    assert re.fullmatch(rf"{re.escape(server)}/join/\w+#token=\S+", invite), invite
    # what to send comes first, on the first screen; then the private link, never to be sent
    expect(us.page.locator("#invite")).to_be_in_viewport()
    assert us.page.locator("#invite").bounding_box()["y"] < us.page.locator("#private-link").bounding_box()["y"]
    expect(us.page.locator("#private-link summary")).to_contain_text("send the invitation link")

    ij.page.goto(invite)
    ij.page.fill('input[name="name"]', "Bob")
    ij.page.get_by_role("button", name="Join the game").click()
    expect(ij.page.locator("#board")).to_be_visible()
    ij.page.wait_for_load_state()  # (its script takes "?welcome=1" out of the address)
    us.page.wait_for_load_state()
    assert ij.page.url == us.page.url and "welcome" not in ij.page.url  # the same page; the seat is in a cookie
    expect(ij.page.locator(".panel")).to_contain_text("US Alice")
    expect(ij.page.locator(".panel")).to_contain_text("IJ Bob")
    # the creator's page, still inviting, is told by its stream and drawn again: no invitation, Bob named
    expect(us.page.locator("#invite")).to_have_count(0, timeout=10_000)
    expect(us.page.locator(".panel")).to_contain_text("IJ Bob")

    us.expect_my_move("US set-up (§3)", "Set up your units (25 left to place)")
    expect(us.page).to_have_title(re.compile(r"^\(Your move\) Browser test"))  # the tab says so
    expect(ij.page).not_to_have_title(re.compile(r"Your move"))
    ij.expect_waiting("US set-up (§3)", "US")
    expect(us.page.locator("#turn-name")).to_have_text("set-up")

    # --- US set-up: 25 units; the first unit into each hex by clicking the map ------------
    used: set[str] = set()
    for _ in range(len(plan.US_GROUND) + len(plan.US_AIR)):
        p = script.next("US", "place")
        unit, to = p.step.unit, p.step.data["to"]
        if to[:1].isdigit() and to not in used:
            us.select(unit)
            reach = us.reachable()
            assert to in reach and len(reach) > 50, reach  # the whole set-up area lights up
            assert "0300" not in reach and "0101" not in reach  # outside the blue line
            us.click_hex(to)
            us.done(p)
            expect(us.counter(unit)).to_have_attribute("data-hex", to)
            used.add(to)
        else:
            us.give(p)
    placed = us.places()
    for unit, where in {**plan.US_GROUND, **plan.US_AIR}.items():
        assert placed[unit] == where, (unit, placed[unit], where)
    expect(us.page.locator(f'g.hex-state[data-hex="{plan.STACK_HEX}"]')).to_have_attribute(
        "aria-label", re.compile(r"units 1 Amtrac, 1 Eng"))

    # all placed: the US may still reconsider, and hands over when it says so
    us.expect_my_move("US set-up (§3)", "All your units are set up: hand over to IJ when you are ready")
    p = script.next("US", "end_phase", "end-us-setup")
    expect(us.page.locator(".actions.general button.cmd-end_phase")).to_have_text("End US set-up and hand over to IJ")
    us.general("end_phase")
    us.done(p)
    assert any("the game passes to IJ" in m for m in us.dialogs), us.dialogs

    # the set-up hands over to the IJ: its page updates by itself
    ij.expect_my_move("IJ set-up (§3)", "Set up your units (5 left to place)")
    expect(ij.page).to_have_title(re.compile(r"^\(Your move\) "))  # changed by the poll, without a reload
    expect(ij.page.locator('link[rel="icon"]')).to_have_attribute("href", re.compile("favicon-your-move"))
    expect(us.page).not_to_have_title(re.compile(r"Your move"))
    us.expect_waiting("IJ set-up (§3)", "IJ")

    # --- IJ set-up: five units into box D -----------------------------------------------
    for i in range(len(plan.IJ_SETUP)):
        p = script.next("IJ", "place")
        if i == 0:
            ij.select(p.step.unit)
            ij.click_place("box:D")
            ij.done(p)
        else:
            ij.give(p)
    for unit in plan.IJ_SETUP:
        expect(ij.counter(unit)).to_have_attribute("data-loc", "box:D")

    # Sep I begins with the IJ reinforcements, still the IJ's move
    ij.expect_my_move("IJ reinforcements (§5.2)", "Place your reinforcements (6 left)")
    expect(ij.page.locator("#turn-name")).to_have_text("Sep I")
    expect(ij.page.locator("#log")).to_contain_text("Turn 1: Sep I")
    us.expect_waiting("IJ reinforcements (§5.2)", "IJ")
    expect(us.page.locator("#turn-name")).to_have_text("Sep I")
    us.shot("01-after-set-up")

    # --- IJ reinforcements: 124/2 to the Koli entry point by clicking the map --------------
    p = script.next("IJ", "place", "ij-place-124")
    expect(ij.counter(plan.ATTACKER)).to_have_attribute("data-loc", "arriving")
    ij.pick(plan.ATTACKER)  # a click on a counter selects it
    ij.click_place(plan.ENTRY)
    ij.done(p)
    expect(ij.counter(plan.ATTACKER)).to_have_attribute("data-loc", plan.ENTRY)
    for _ in range(len(plan.IJ_REINFORCEMENTS) - 1):  # air and naval units, by their buttons
        ij.give(script.next("IJ", "place"))
    ij.expect_my_move("IJ movement (§6)", "5 unit(s) in off-map boxes must still move (§6.5; not those that")

    # --- IJ movement: the box D units must move (§6.5); 124/2 marches into the US ZOC -----
    for _ in plan.IJ_SETUP:
        ij.give(script.next("IJ", "move"))
    for unit in plan.IJ_SETUP:
        expect(ij.counter(unit)).to_have_attribute("data-loc", "box:C")

    p = script.next("IJ", "move", "zoc-move")
    ij.pick(plan.ATTACKER)
    engine_reach = RULES.reachable(plan.state_before(dice_secret, "zoc-move"), plan.ATTACKER)
    shown = ij.reachable()
    assert shown == {h: str(r["cost"]) for h, r in engine_reach.items() if h[:1].isdigit()}
    assert shown[plan.ZOC_HEX] == "5"  # 4 MF to come on from the entry point, 1 into 0502
    assert plan.STACK_HEX not in shown  # never into the enemy
    expect(ij.page.locator("g.hex-state.reachable")).to_have_count(len(shown))
    # the unit's moves: their words said once, each button its hex
    expect(ij.page.locator(".actions.unit legend")).to_have_text("Move IJ 124/2 to")
    expect(ij.page.locator(".actions.unit button", has_text=plan.ZOC_HEX)).to_have_count(1)
    ij.click_hex(plan.ZOC_HEX)
    ij.done(p)
    counter = ij.counter(plan.ATTACKER)
    expect(counter).to_have_attribute("data-hex", plan.ZOC_HEX)
    expect(counter).to_have_class(re.compile(r"\bstopped\b"))
    assert "halts in enemy ZOC" in ij.log_lines()[0]
    assert ij.log_lines()[0] == (f"IJ 124/2 moves entry point Koli / Taivu (east coast trail) -> "
                                 f"{plan.ZOC_HEX} (5 MF), halts in enemy ZOC")
    expect(ij.page.locator(f'button.chooser[data-unit="{plan.ATTACKER}"]')).to_have_count(0)  # no MF to use
    ij.shot("02-zoc-stop")

    # the US sees the move by itself
    expect(us.counter(plan.ATTACKER)).to_have_attribute("data-hex", plan.ZOC_HEX, timeout=TIMEOUT)

    # the destroyer in the IJN Attack box will bombard the US stack (§6.6)
    p = script.next("IJ", "naval_support", "naval")
    ij.select(plan.DESTROYER)
    assert set(ij.reachable()) == set(plan.US_GROUND.values())  # any hex with US ground units
    ij.click_hex(plan.STACK_HEX)
    ij.done(p)
    expect(ij.counter(plan.DESTROYER)).to_have_attribute("data-loc", "ijn_attack")
    expect(ij.tooltip(plan.DESTROYER)).to_contain_text(f"supporting {plan.STACK_HEX}")

    p = script.next("IJ", "end_phase", "end-ij-movement")
    ij.general("end_phase")
    ij.done(p)
    assert any("could still move" in m for m in ij.dialogs), ij.dialogs

    # --- IJ combat: the mandatory attack, odds shown before the roll ---------------------
    ij.expect_my_move("IJ combat (§7)", "1 mandatory combat pairing(s) left (§7)")
    us.expect_waiting("IJ combat (§7)", "IJ")
    expect(ij.counter(plan.ATTACKER)).to_have_class(re.compile(r"\bmust-attack\b"))
    target = ij.hex_state(plan.STACK_HEX)
    expect(target).to_have_class(re.compile(r"\btarget\b"))
    expect(target).to_have_class(re.compile(r"\bmust-be-attacked\b"))
    assert ij.page.locator("g.hex-state.target").evaluate_all("els => els.map(e => e.dataset.hex)") == [plan.STACK_HEX]
    expect(ij.page.locator(".actions.general button.cmd-end_phase")).to_have_count(0)  # combat is mandatory

    p = script.next("IJ", "attack", "declare")
    ij.click_hex(plan.STACK_HEX)
    ij.done(p)
    combat = ij.page.locator("#combat")
    expect(combat).to_contain_text(f"Attack on {plan.STACK_HEX}")
    expect(combat).to_contain_text("Attackers: none yet")
    expect(ij.hex_state(plan.STACK_HEX)).to_have_class(re.compile(r"\bcombat-target\b"))

    p = script.next("IJ", "add", "add")
    ij.click_counter(plan.ATTACKER)  # a click on a unit that can join the attack adds it
    ij.done(p)
    expect(ij.counter(plan.ATTACKER)).to_have_class(re.compile(r"\battacking\b"))
    expect(ij.page.locator("#odds")).to_have_text(plan.ODDS)
    expect(combat).to_contain_text("(4 against 5)")
    expect(combat).to_contain_text(f"{plan.STACK_HEX}: 5 CF")
    expect(combat).to_contain_text("die +2: shore bombardment by IJ Yudachi (§7.3)")
    expect(ij.page.locator("#drm")).to_have_text(f"+{plan.DRM}")
    expect(combat).to_contain_text("Attackers: IJ 124/2 (4)")
    resolve = ij.page.locator(".actions.general button.cmd-resolve")
    expect(resolve).to_have_text("Resolve the attack (roll the die)")
    assert not any(" attacks " in line for line in ij.log_lines())  # no roll yet
    ij.shot("03-odds-before-the-roll")
    # the defender sees the same odds in the other browser before the roll
    expect(us.page.locator("#odds")).to_have_text(plan.ODDS, timeout=TIMEOUT)
    expect(us.page.locator("#combat")).to_contain_text("(4 against 5)")
    expect(us.page.locator("#drm")).to_have_text(f"+{plan.DRM}")

    p = script.next("IJ", "resolve", "resolve")
    resolve.click()
    ij.done(p)
    log = ij.page.locator("#log")
    assert re.fullmatch(rf"IJ attacks {plan.STACK_HEX} at {plan.ODDS} \(4 vs 5\), die [1-6] \+2 = [3-8](, read as 6)?: "
                        rf"{plan.RESULT}", p.lines[0]), p.lines
    expect(log).to_contain_text(p.lines[0])
    expect(log).to_contain_text("IJ 124/2 eliminated: EX (§7.7)")
    expect(ij.counter(plan.ATTACKER)).to_have_count(0)
    expect(ij.counter(plan.DESTROYER)).to_have_count(0)  # spent (§6.6)
    expect(ij.page.locator("#prompt")).to_contain_text("Waiting for US to choose 1 unit to eliminate (EX, §7.7)")
    expect(ij.page.locator("#acting-side")).to_have_text("US")

    # --- the defender chooses its loss in the other browser --------------------------------
    p = script.next("US", "eliminate", "loss")
    us.expect_my_move("IJ combat (§7)", "Choose 1 unit to eliminate (EX, §7.7)")
    assert us.page.inner_text("#prompt").count("§7.7") == 1  # the rule is not repeated after the text
    # the attack in full, after the roll, for the defender too (issue 9, item 3)
    report = us.page.locator("#combat-report")
    expect(report).to_contain_text(f"IJ attack on {plan.STACK_HEX}")
    expect(report).to_contain_text(f"Odds {plan.ODDS} (4 against 5) on the IJ Attack Table (Table 9)")
    expect(report).to_contain_text("die +2: shore bombardment by IJ Yudachi (§7.3)")
    expect(report.locator("#combat-result")).to_have_text(plan.RESULT)
    expect(report).to_contain_text("exchange: one attacker and one defender eliminated")
    choosers = us.page.locator("button.chooser").evaluate_all("els => els.map(e => e.dataset.unit).sort()")
    assert choosers == sorted(plan.STACK), choosers
    us.select(plan.STACK[0])
    buttons = us.page.locator(".actions.unit button")
    expect(buttons).to_have_text(["Eliminate US 1 Amtrac"])
    us.shot("04-defender-chooses-the-loss")
    us.order(p.label)
    us.done(p)
    expect(us.counter(plan.STACK[0])).to_have_count(0)
    expect(us.page.locator("#log")).to_contain_text("US 1 Amtrac eliminated: EX (§7.7)")

    p = script.next("US", "retreat", "retreat")
    us.expect_my_move("IJ combat (§7)", "Retreat US 1 Eng (§7.9)")
    us.pick(plan.STACK[1])
    assert set(us.reachable()) == {plan.ZOC_HEX, "0602"}  # not across the Ilu
    us.click_hex(plan.ZOC_HEX)
    us.done(p)
    expect(us.counter(plan.STACK[1])).to_have_attribute("data-hex", plan.ZOC_HEX)

    # --- back to the IJ, who ends the combat phase; supply and strategic run by themselves --
    ij.expect_my_move("IJ combat (§7)", "Declare and resolve your attacks")
    expect(ij.page.locator("#log")).to_contain_text("US 1 Eng retreats 0503 -> 0502")
    p = script.next("IJ", "end_phase", "end-ij-combat")
    ij.general("end_phase")
    ij.done(p)
    assert any(line.startswith("IJ supply roll: ") and line.endswith("no loss") for line in p.lines), p.lines
    expect(ij.page.locator("#log")).to_contain_text("IJ supply roll: ")
    ij.expect_my_move("IJ strategic (§9)")  # the IJ's last phase: the turn passes by its word
    p = script.next("IJ", "end_phase", "ij-hand-over")
    hand_over = ij.page.locator(".actions.general button.cmd-end_phase")
    expect(hand_over).to_have_text("End IJ strategic and hand over to US")
    ij.general("end_phase")
    ij.done(p)
    assert any("the game passes to US" in m for m in ij.dialogs), ij.dialogs
    ij.expect_waiting("US reinforcements (§5.3)", "US")

    # --- US reinforcements and movement ------------------------------------------------
    us.expect_my_move("US reinforcements (§5.3)", "Place your reinforcements (1 left)")
    p = script.next("US", "place", "us-place")
    us.select("us-seabee-6")
    us.click_place(plan.NCB_ENTRY)
    us.done(p)
    expect(us.counter("us-seabee-6")).to_have_attribute("data-loc", plan.NCB_ENTRY)

    us.expect_my_move("US movement (§6)")
    p = script.next("US", "move", "us-move")
    us.pick("us-seabee-6")
    assert us.reachable()[plan.NCB_HEX] == "0"  # §5.3: landing costs the US nothing
    us.click_hex(plan.NCB_HEX)
    us.done(p)
    expect(us.counter("us-seabee-6")).to_have_attribute("data-hex", plan.NCB_HEX)
    ij.expect_waiting("US movement (§6)", "US")
    expect(ij.counter("us-seabee-6")).to_have_attribute("data-hex", plan.NCB_HEX)

    p = script.next("US", "end_phase", "end-us-movement")
    us.general("end_phase")
    us.done(p)
    assert any("could still move" in m for m in us.dialogs), us.dialogs

    # --- US air (US combat and engineering had nothing to do and passed by themselves) ------
    us.expect_my_move("US air (§7.11, §11)", "Allocate face-up units to CAP or Ground Attack")
    ij.expect_waiting("US air (§7.11, §11)", "US")
    us.give(script.next("US", "allocate", "allocate"))
    expect(us.counter(plan.CAP_FIGHTER)).to_have_attribute("data-loc", "cap")

    p = script.next("US", "end_phase", "end-us-air")
    us.general("end_phase")
    us.done(p)
    assert any("could still be allocated" in m for m in us.dialogs), us.dialogs
    assert script.rest() == []

    # --- Sep II: the IJ's move again, in both browsers ----------------------------------
    us.expect_waiting("IJ reinforcements (§5.2)", "IJ")
    expect(us.page.locator("#turn-name")).to_have_text("Sep II")
    ij.expect_my_move("IJ reinforcements (§5.2)", "Place your reinforcements (6 left)")
    expect(ij.page.locator("#turn-name")).to_have_text("Sep II")
    expect(ij.page.locator("#log")).to_contain_text("Turn 2: Sep II")
    expect(ij.page.locator("svg.fb-map rect.turn-cell.current")).to_have_attribute("data-turn", "2")
    final = ij.places()
    assert plan.ATTACKER not in final and plan.STACK[0] not in final  # both eliminated
    assert final[plan.STACK[1]] == plan.ZOC_HEX and final["us-seabee-6"] == plan.NCB_HEX
    assert final[plan.CAP_FIGHTER] == "cap"
    ij.shot("05-end-of-turn-1")
