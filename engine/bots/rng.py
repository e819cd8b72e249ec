"""The bots' generator: the engine's hash-based chooser (the engine may not use ``random``)."""

from __future__ import annotations

from engine.selfplay import Chooser

__all__ = ["Chooser"]
