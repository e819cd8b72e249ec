"""Plain words everywhere: random self-play of both games, every option on, scans every
prompt, every button's label, every log line and a refusal at each step for internal keys
(``at_others``), bare indexes where a player needs a name ("on 0", "battle 1") and doubled
words ("the The Bombardment")."""

from __future__ import annotations

import re

import pytest

from engine.core.errors import RuleError
from engine.core.events import Command
from engine.core.game import replay
from engine.games import get_rules
from engine.selfplay import Chooser, choose

SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")  # a key of the code, not a word
INDEX = re.compile(r"\b(?:on|battle|Battle) \d{1,2}\b(?!:)")  # "on 0": an index for "the battle at 1430"
DOUBLED = re.compile(r"\b(\w+) \1\b", re.I)


def words_of(game: str, seed: int, decisions: int) -> list[str]:
    rules = get_rules(game)
    state = replay(rules, rules.create(next(iter(rules.scenarios)), dict.fromkeys(rules.options, True),
                                       f"words-{seed}"))
    rng = Chooser(f"words:{game}:{seed}")
    texts: list[str] = []
    for _ in range(decisions):
        prompt = rules.prompt(state)
        if prompt.side is None:
            break
        texts += [prompt.text, prompt.waiting]
        for side in prompt.acting:
            texts += [rules.label(state, c) for c in rules.legal_commands(state, side)]
        other = next(s for s in rules.sides if s not in prompt.acting) if len(prompt.acting) < 2 else None
        if other is not None:
            try:
                rules.decide(state, Command("end_phase", {}, other))
            except RuleError as refusal:
                texts.append(str(refusal))
        cmd = choose(rng, getattr(state, "phase", ""), rules.legal_commands(state))
        outcome = rules.outcome(state, Command(cmd.type, cmd.data, prompt.side))
        texts += [t for t in outcome.texts if t]
        for event in outcome.events:
            rules.apply(state, event)
    return texts


@pytest.mark.parametrize("game", ["pacific_battles", "first_blood"])
def test_no_internal_key_index_or_doubled_word_reaches_a_player(game: str) -> None:
    texts = [t for seed in range(2) for t in words_of(game, seed, 2500)]
    assert len(texts) > 5000
    found = sorted({f"{m.group(0)!r} in {t[:100]!r}" for t in texts
                    for rx in (SNAKE, INDEX, DOUBLED) for m in rx.finditer(t)})
    assert found == []
