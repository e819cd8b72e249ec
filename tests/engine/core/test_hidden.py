"""engine.core.visibility, engine.core.sealed and dice.draw: hidden events, secret
simultaneous decisions and draws from a pool, shown with a small sealed-bid game
defined here (Pacific Battles will be their first real user: issue 11)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from engine.core import dice
from engine.core.errors import IllegalCommandError, NotYourTurnError
from engine.core.events import Command, Event
from engine.core.game import Emitter, Prompt, check_turn, replay
from engine.core.sealed import REVEALED, SEALED, Round, apply_sealed, revealed_event, sealed_event
from engine.core.visibility import ADMIN, SPECTATOR, for_viewer, hide, may_read, redact_log

SIDES = ("A", "B")
MARKERS = ["Banzai", "Recon", "Weather", "Disease", "Staff Planning"]


@dataclass
class BidState:
    seq: int = 0
    secret: str = ""
    result: dict[str, Any] | None = None
    round: Round = field(default_factory=Round)
    bids: dict[str, int] = field(default_factory=dict)  # revealed bids
    pool: list[str] = field(default_factory=list)
    hands: dict[str, list[str]] = field(default_factory=dict)


class BidRules:
    """Both sides bid 1-3 at once, in secret; then the higher bid draws a marker."""

    id = "core-test-bid"
    sides = SIDES

    def blank(self) -> BidState:
        return BidState()

    def clone(self, s: BidState) -> BidState:
        return BidState(s.seq, s.secret, s.result, s.round.copy(), dict(s.bids), list(s.pool),
                        {k: list(v) for k, v in s.hands.items()})

    def apply(self, s: BidState, e: Event) -> None:
        if e.type == "created":
            s.secret, s.pool, s.round = e.data["secret"], list(MARKERS), Round("bid", SIDES)
        elif e.type == SEALED:
            apply_sealed(s.round, e)
        elif e.type == REVEALED:
            s.bids, s.round = dict(e.data["decisions"]), Round()
        elif e.type == "drawn":
            s.pool.remove(e.data["marker"])
            s.hands.setdefault(e.side, []).append(e.data["marker"])
            s.result = {"winner": e.side}
        s.seq += 1

    def prompt(self, s: BidState) -> Prompt:
        if s.result is not None:
            return Prompt(None, "over", "over", "over")
        waiting = s.round.waiting
        return Prompt(waiting[0], "bid", "Bid 1 to 3", "Waiting for the bids", sides=waiting)

    def legal_commands(self, s: BidState, side: str) -> list[Command]:
        if side not in self.prompt(s).acting:
            return []
        return [Command("bid", {"n": n}) for n in (1, 2, 3)]  # never depends on the other's bid

    def decide(self, s: BidState, cmd: Command) -> list[Event]:
        check_turn(self.prompt(s), cmd)
        if Command(cmd.type, cmd.data) not in self.legal_commands(s, cmd.side):
            raise IllegalCommandError("bid", "bid 1, 2 or 3")
        em = Emitter(self, s)
        e = sealed_event("bid", cmd.side, cmd.data["n"])
        em.emit(e.type, e.side, **e.data)
        if not em.state.round.open:
            r = revealed_event(em.state.round)
            em.emit(r.type, None, **r.data)
            bids = em.state.bids
            winner = max(SIDES, key=lambda x: (bids[x], x == "A"))
            marker = dice.draw(em.state.secret, em.state.seq, em.state.pool)
            em.emit("drawn", winner, **hide({"marker": marker}, [winner], public={"drew": 1}))
        return em.events


RULES = BidRules()


def play(bids: dict[str, int], order: tuple[str, ...] = SIDES, secret: str = "s") -> tuple[BidState, list[Event]]:
    log = [Event("created", {"secret": secret})]
    state = replay(RULES, log)
    for side in order:
        new = RULES.decide(state, Command("bid", {"n": bids[side]}, side))
        log += new
        state = replay(RULES, new, state)
    return state, log


def test_both_sides_may_decide_at_once_and_in_either_order() -> None:
    first, _ = play({"A": 2, "B": 3}, ("A", "B"))
    second, _ = play({"A": 2, "B": 3}, ("B", "A"))
    assert first.bids == second.bids == {"A": 2, "B": 3}
    state = replay(RULES, [Event("created", {"secret": "s"})])
    assert RULES.prompt(state).acting == ("A", "B")
    after_a = replay(RULES, RULES.decide(state, Command("bid", {"n": 1}, "A")), state)
    assert RULES.prompt(after_a).acting == ("B",)  # A has decided; B still may
    with pytest.raises(NotYourTurnError):
        RULES.decide(after_a, Command("bid", {"n": 2}, "A"))


def test_a_sealed_decision_is_readable_only_by_its_side_until_the_reveal() -> None:
    _, log = play({"A": 1, "B": 3})
    sealed_a = log[1]
    assert sealed_a.type == SEALED and sealed_a.data["decision"] == 1
    assert for_viewer(sealed_a, "A", SIDES) == sealed_a
    assert for_viewer(sealed_a, "B", SIDES) == Event(SEALED, {"kind": "bid", "sealed": True}, "A")
    assert for_viewer(sealed_a, SPECTATOR, SIDES) == Event(SEALED, {"kind": "bid", "sealed": True}, "A")
    assert for_viewer(sealed_a, ADMIN, SIDES) == sealed_a
    reveal = next(e for e in log if e.type == REVEALED)
    assert all(may_read(reveal, v, SIDES) for v in ("A", "B", SPECTATOR))


def test_what_a_side_may_do_does_not_depend_on_the_other_sides_sealed_decision() -> None:
    opened = replay(RULES, [Event("created", {"secret": "s"})])
    answers = []
    for bid in (1, 2, 3):
        after = replay(RULES, RULES.decide(opened, Command("bid", {"n": bid}, "A")), opened)
        answers.append((RULES.legal_commands(after, "B"), RULES.prompt(after).text))
    assert answers[0] == answers[1] == answers[2]


def test_a_draw_from_the_pool_is_keyed_like_a_die_and_seen_by_the_drawer_only() -> None:
    state, log = play({"A": 1, "B": 3})
    drawn = log[-1]
    n = len(log) - 1
    assert drawn.data["marker"] == MARKERS[dice.roll("s", n, 1000, len(MARKERS)) - 1]
    assert state.hands == {"B": [drawn.data["marker"]]} and drawn.data["marker"] not in state.pool
    numbered = list(enumerate(log))
    for_a = redact_log(numbered, "A", SIDES)
    assert [n for n, _ in for_a] == list(range(len(log)))  # A learns that B drew, not what
    assert for_a[-1][1].data == {"drew": 1}
    assert drawn.data["marker"] not in repr([e.data for _, e in for_a])
    assert redact_log(numbered, "B", SIDES)[-1][1] == drawn
    # same secret, same log, same draw; another secret, in general another draw
    assert play({"A": 1, "B": 3})[1] == log
    assert {play({"A": 1, "B": 3}, secret=f"s{i}")[1][-1].data["marker"] for i in range(40)} == set(MARKERS)


def test_an_event_hidden_from_everybody_has_no_stub_to_leak() -> None:
    secret_plan = Event("planned", hide({"where": "0304"}, []), "A")
    assert [for_viewer(secret_plan, v, SIDES) for v in ("A", "B", SPECTATOR)] == [None, None, None]
    assert for_viewer(secret_plan, ADMIN, SIDES) == secret_plan
    with pytest.raises(ValueError):
        dice.draw("s", 1, [])
