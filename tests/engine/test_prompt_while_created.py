"""Within a game's creation (a replay's first moments) nobody decides yet: each game's
prompt says the game is being set up, never "Waiting for None"."""

from __future__ import annotations

import pytest

from engine.core.dice import derive_secret
from engine.core.game import SETTING_UP, replay
from engine.games import get_rules


@pytest.mark.parametrize("game", ["first_blood", "pacific_battles"])
def test_every_moment_of_the_creation_has_a_prompt_in_words(game: str) -> None:
    rules = get_rules(game)
    created = rules.create("campaign", {}, derive_secret(1, "created"))
    prompts = [rules.prompt(replay(rules, created[:n])) for n in range(1, len(created) + 1)]
    for p in prompts:
        assert "None" not in p.waiting and "None" not in p.text and p.text
    assert prompts[0].side is None and prompts[0].waiting == SETTING_UP
    assert prompts[-1].side is not None  # created: the first set-up is owed
