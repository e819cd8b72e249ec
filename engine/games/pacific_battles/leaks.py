"""The leak checker: what a viewer may not know, and a search of its outputs for it.

``hidden_things`` walks the hidden things the state holds for a viewer (a side, or a
spectator: what both sides may see): the ids, names and factors of enemy pieces it has
never seen (on the map unexamined, on the track, in the base or a box, 18.0-18.6), the
markers the enemy holds or held that were never played in the open (5.4), the enemy's sealed
air allocation (4.1 1c), and what a side has not been shown that no text names (``_untold``:
a ZOC not told, a stack not examined, a date on the track), so that the step that shows it is
a reveal.  ``hidden_names`` is the part a text could name, without ``_untold``: what a
search needs.  ``find`` searches a text (a view as JSON, log lines, events) for any of
them, as whole words; self-play counts every hit as a leak.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import cache, lru_cache

from engine.core.visibility import ADMIN, SPECTATOR
from engine.games.pacific_battles import queries as q
from engine.games.pacific_battles.forces import DECEPTION
from engine.games.pacific_battles.movement import SUPPLY
from engine.games.pacific_battles.state import SIDES, PBState, other


@cache
def _factors(unit: str) -> tuple[str, ...]:
    s = q.unit_spec(unit)
    if s is None:
        return ()
    return f"[{s.attack}, {s.defence}, {s.movement}]", f"{s.attack}-{s.defence}-{s.movement}"


@cache
def _own_mix(side: str) -> tuple[frozenset[str], frozenset[str]]:
    """The names and factors of a side's whole counter mix, which it knows (fixed)."""
    specs = [*q.forces().units.values(), *q.forces().battalion.values()]
    names = {spec.name for spec in specs if spec.side == side}
    return frozenset(names), frozenset(f for name in names for f in _factors(name))


def hidden_things(state: PBState, viewer: str | None) -> list[str]:
    """What ``viewer`` may not know in ``state`` (once per state and viewer: a step asks
    it of the state before and after, and the next step of that one again)."""
    return list(state.cached(("hidden_things", viewer), lambda: _hidden_things(state, viewer)))


def hidden_names(state: PBState, viewer: str | None) -> list[str]:
    """``hidden_things`` a text could name (ids, names, factors, markers, a sealed
    allocation), without what ``viewer`` has not been told that no text names
    (``_untold``): what a search of a text for the hidden things needs, once per state and
    viewer (a step asks it of each other side that reads its events)."""
    return list(state.cached(("hidden_names", viewer), lambda: sorted(_hidden_names(state, viewer))))


def _hidden_things(state: PBState, viewer: str | None) -> list[str]:
    if viewer == ADMIN or state.result is not None:
        return []
    out = set(hidden_names(state, viewer))
    if viewer in SIDES:
        out.update(_untold(state, viewer))
    return sorted(out)


def _hidden_names(state: PBState, viewer: str | None) -> set[str]:
    if viewer == ADMIN or state.result is not None:
        return set()
    # a side knows its own whole counter mix
    names, factors = _own_mix(viewer) if viewer in SIDES else (frozenset(), frozenset())
    known_names, known_factors = set(names), set(factors)
    unknown: list[tuple[str, str]] = []
    # what the viewer has seen of each owner's pieces (a spectator: what both sides have seen)
    seen = {owner: state.revealed[other(owner)] if viewer is SPECTATOR else
            None if owner == viewer else state.revealed[viewer] for owner in SIDES}
    for collection in (state.pieces.values(), state.off.values()):
        for p in collection:
            shown = seen[p.side]
            if shown is None or p.id in shown:  # (None: the viewer's own)
                if p.unit not in known_names:
                    known_names.add(p.unit)
                    known_factors.update(_factors(p.unit))
            else:
                unknown.append((p.id, p.unit))
    out: set[str] = set()
    generic = _generic()  # "Jp Bn" names a kind of counter: its id is the secret
    for pid, unit in unknown:
        if pid != unit:
            out.add(pid)
        if unit not in generic and unit not in known_names:
            out.add(unit)
            out.update(f for f in _factors(unit) if f not in known_factors)
    for owner in SIDES:
        if owner == viewer:
            continue
        # Only the names of the owner's own kinds of marker: "Recon" or "Weather" in a text
        # may be the other side's, played in the open.
        theirs = _own_markers(owner)
        shown = state.played[owner] | set(state.in_effect[owner])  # not "removed": some leave unplayed, in secret
        for name in [*state.hand[owner], *state.removed[owner]]:  # held, or left the game unplayed
            if name in theirs and name not in shown:
                out.add(name)
        sealed = state.round.for_side(owner)
        mine = state.round.for_side(viewer) if viewer in SIDES else None
        if sealed is not None and sealed != mine:  # as the sealed event and the view would hold it
            text = json.dumps(sealed, sort_keys=True)
            # as the sealed event, the view and the reveal (``"decisions": {side: ...}``) hold it
            out.update((f'"decision": {text}', f'"allocated": {text}', f'"{owner}": {text}'))
    return out


@cache
def _generic() -> frozenset[str]:
    return frozenset({SUPPLY, DECEPTION, *q.forces().battalion})


@cache
def _own_markers(owner: str) -> frozenset[str]:
    """The kinds of marker only ``owner`` has (fixed)."""
    return frozenset(set(q.forces().markers[owner]) - set(q.forces().markers[other(owner)]))


def _untold(state: PBState, side: str) -> set[str]:
    """What ``side`` has not been shown that no text names: whether an enemy stack has a ZOC
    (18.4), what an enemy stack holds now (18.1: examined this phase, or face up, 34.0, it
    shows), when an enemy reinforcement on the track is due (18.6).  A step that shows any of
    it is a reveal, which no take-back may cross."""
    out = {f"whether the stack in {h} has a ZOC (18.4)" for h in q.untold_zocs(state, side)}
    enemy = other(side)
    examined, revealed, up = state.examined[side], state.revealed[side], state.face_up[enemy]
    unseen = {p.hex for p in state.pieces.values()  # a stack shows only if each of its pieces does
              if p.side == enemy and not ((p.hex in examined and p.id in revealed) or p.id in up)}
    out.update(f"what the stack in {h} holds (18.1)" for h in unseen)
    out.update(f"when {o.id} is due (18.6)" for o in state.in_box(enemy, "track") if o.id not in state.revealed[side])
    return out


@cache
def _names() -> list[str]:
    f = q.forces()
    names = [*f.units, *f.battalion, *f.groups, *(m for side in SIDES for m in f.markers[side])]
    return sorted(set(names), key=len, reverse=True)


def find(needles: Iterable[str], text: str) -> list[str]:
    """The needles found in ``text`` as whole words (``4 Inf`` is not in ``24 Inf``, and
    ``1 Mar`` is not in ``1 Mar Div HQ``: longer names that are no needle are masked first)."""
    # only the needles the text holds at all (a plain substring test): most texts hold
    # none, and a name that holds a needle the text lacks is not in the text either
    wanted = {n for n in needles if n in text}
    if not wanted:
        return []
    for name in _names():
        if name not in wanted and any(n in name for n in wanted):
            text = text.replace(name, "\u00a7")
    return sorted(set(_whole_words(tuple(sorted(wanted, key=lambda n: (-len(n), n)))).findall(text)))


@lru_cache(maxsize=256)
def _whole_words(needles: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"(?<![\w])(?:" + "|".join(re.escape(n) for n in needles) + r")(?![\w])")
