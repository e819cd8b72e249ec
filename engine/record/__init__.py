"""A game's record that strangers can trust (docs/fair-dice.md): the dice seeds
(``engine.core.seeds``), the hash chain of every entry (``engine.core.record``), the
record a server writes and its exports per viewer (``book``), the keyed decisions
(``keyed``) and the checker behind ``python -m engine.verify`` (``check``)."""

from engine.record.book import ADMIN, FORMAT, SPECTATOR, VERSION, Recorder, export
from engine.record.check import Verdict, verify_record

__all__ = ["ADMIN", "FORMAT", "SPECTATOR", "VERSION", "Recorder", "Verdict", "export", "verify_record"]
