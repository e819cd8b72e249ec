"""Bundled games; importing this package registers them."""

from engine.games import first_blood  # noqa: F401
