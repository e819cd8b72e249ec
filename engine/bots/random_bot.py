"""Level ``random``: self-play's chooser (engine/selfplay.py), never taking a step back."""

from __future__ import annotations

from engine.bots.base import BotInput, Decision, choices, sub_seed
from engine.bots.rng import Chooser
from engine.selfplay import choose


class RandomBot:
    level = "random"

    def decide(self, inp: BotInput) -> Decision:
        legal = choices(inp.legal)
        if len(legal) == 1:
            return Decision(legal[0], forced=True)
        rng = Chooser(sub_seed(inp.seed, "random", len(inp.events)))
        return Decision(choose(rng, str(inp.view.get("phase", "")), legal))
