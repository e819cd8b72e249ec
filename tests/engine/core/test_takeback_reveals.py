"""No take-back crosses a reveal (engine/core/undo.py, docs/undo.md): random self-play of both
games, every option on, checks every take-back offered to every side against the state
before the step it would take back: nothing hidden from that side then may be known to it
now (a stack found to be a fake, a ZOC told, a unit seen, a marker drawn), nothing the
opponent reads of the steps names what was hidden from it (a unit turned face up), and no
die was rolled since."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import undo
from engine.core.events import Command
from engine.core.game import replay
from engine.games import get_rules
from engine.selfplay import Chooser, choose

TAKE_BACK_RATE = 0.25  # taken more often than in plain self-play, so that steps pile up and go


def offers_and_crossings(game: str, seed: int, decisions: int) -> tuple[int, list[str]]:
    rules = get_rules(game)
    state = replay(rules, rules.create(next(iter(rules.scenarios)), dict.fromkeys(rules.options, True),
                                       f"takeback-{seed}"))
    rng = Chooser(f"takeback:{game}:{seed}")
    offers, crossings = 0, []
    for _ in range(decisions):
        prompt = rules.prompt(state)
        if prompt.side is None:
            break
        for side in prompt.acting:
            offer = next((c for c in rules.legal_commands(state, side) if c.type == undo.UNDO), None)
            if offer is None:
                continue
            offers += 1
            before = undo.rebuild(state, offer.data["step"], rules.apply, rules.clone)
            learned = set(rules.secrets(before, side)) - set(rules.secrets(state, side))
            since = [e for n, e in state.undo.events if n >= offer.data["step"]]
            rolled = [e.type for e in since if _has_dice(e.data)]
            shown = [o for o in rules.sides if o != side and rules.shows(before, since, o)]
            if learned or rolled or shown:
                crossings.append(f"{game} event {state.seq}: {side} may take back step {offer.data['step']} "
                                 f"after learning {sorted(learned)[:3]} / rolling in {rolled[:3]} / showing {shown}")
        side = prompt.acting[int(rng.unit() * len(prompt.acting))]
        legal = rules.legal_commands(state, side)
        offer = next((c for c in legal if c.type == undo.UNDO), None)
        cmd = offer if offer is not None and rng.unit() < TAKE_BACK_RATE else choose(rng, state.phase, legal)
        for event in rules.decide(state, Command(cmd.type, cmd.data, side)):
            rules.apply(state, event)
    return offers, crossings


def _has_dice(data: dict[str, Any]) -> bool:
    return any(data.get(k) not in (None, [], {}) for k in ("die", "dice", "roll", "rolls"))


@pytest.mark.parametrize(("game", "seeds", "decisions"), [("pacific_battles", range(6), 2000),
                                                         ("first_blood", range(2), 1500)])
def test_no_take_back_offered_crosses_a_reveal_or_a_die(game: str, seeds: range, decisions: int) -> None:
    offers, crossings = 0, []
    for seed in seeds:
        n, found = offers_and_crossings(game, seed, decisions)
        offers += n
        crossings += found
    assert offers >= 1000  # enough offers to mean something
    assert crossings == []
