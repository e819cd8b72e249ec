"""Who may see what: every event says who may read it, and every output for a viewer
goes through ``for_viewer``.

An event without the ``seen_by`` key is public (all of First Blood).  A hidden event
lists the sides that may read it (``[]``: nobody until a later event reveals it) and
may carry a ``public`` stub, the part everybody else may read ("IJ has allocated its
air missions").  A viewer is a side, ``SPECTATOR`` (what every side may see) or
``ADMIN`` (everything).  Hidden events stay in the log whole: replay needs them; only
what leaves the engine for a viewer is cut down.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.core.events import Event

SEEN_BY = "seen_by"  # the sides that may read the event; absent: everybody
PUBLIC = "public"  # what the others may read of a hidden event (absent: not even that it happened)
SPECTATOR: str | None = None
ADMIN = "*"


def hide(data: dict[str, Any], to: Iterable[str], public: dict[str, Any] | None = None) -> dict[str, Any]:
    """An event's data readable only by the sides ``to``; ``public`` is what the others read."""
    out = {**data, SEEN_BY: sorted(set(to))}
    if public is not None:
        out[PUBLIC] = dict(public)
    return out


def may_read(event: Event, viewer: str | None, sides: Iterable[str]) -> bool:
    """Whether ``viewer`` may read all of ``event``: admins always, a side when it is
    listed, a spectator only when every side is."""
    seen = event.data.get(SEEN_BY)
    if seen is None or viewer == ADMIN:
        return True
    if viewer is SPECTATOR:
        return set(sides) <= set(seen)
    return viewer in seen


def for_viewer(event: Event, viewer: str | None, sides: Iterable[str]) -> Event | None:
    """The event as ``viewer`` may have it: whole, its public stub (same type, only the
    stub's data), or nothing at all."""
    if may_read(event, viewer, sides):
        return event
    public = event.data.get(PUBLIC)
    if public is None:
        return None
    return Event(event.type, dict(public), event.side)


def redact_log(events: Iterable[tuple[int, Event]], viewer: str | None,
               sides: Iterable[str]) -> list[tuple[int, Event]]:
    """A numbered log as ``viewer`` may read it (numbers kept, so gaps show nothing more
    than that something happened which the viewer may not know)."""
    sides = tuple(sides)
    out = []
    for n, event in events:
        seen = for_viewer(event, viewer, sides)
        if seen is not None:
            out.append((n, seen))
    return out
