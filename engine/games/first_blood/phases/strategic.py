"""§9 IJ strategic phase: Attack boxes leave play, Reserve boxes move to Attack."""

from __future__ import annotations

from engine.core.game import Emitter
from engine.games.first_blood import queries as q
from engine.games.first_blood.state import IJAAF_ATTACK, IJAAF_RESERVE, IJN_ATTACK, IJN_RESERVE


def shift_boxes(em: Emitter) -> None:
    state = em.state
    removed = sorted(q.units_at(state, IJAAF_ATTACK) + q.units_at(state, IJN_ATTACK))
    advanced = sorted(q.units_at(state, IJAAF_RESERVE) + q.units_at(state, IJN_RESERVE))
    if removed or advanced:
        em.emit("strategic_shift", "IJ", removed=removed, advanced=advanced)
