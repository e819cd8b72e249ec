"""First Blood: The Guadalcanal Campaign (AHIKS), as an engine plug-in."""

from engine.games.first_blood.rules import RULES

__all__ = ["RULES"]
