"""First Blood: The Guadalcanal Campaign (AHIKS), as an engine plug-in."""

from engine.core.game import register
from engine.games.first_blood.rules import RULES

register(RULES)

__all__ = ["RULES"]
