"""§8 IJ supply: on a 4-6 the IJ loses a ground unit or an IJN Reserve destroyer."""

from __future__ import annotations

from engine.core.game import Emitter
from engine.games.first_blood import queries as q
from engine.games.first_blood.state import IJN_RESERVE

LOSS_ROLLS = (4, 5, 6)


def candidates(state) -> list[str]:
    out = []
    for uid, u in state.units.items():
        s = q.spec(uid)
        ground = s.kind == "ground" and q.in_play(u.loc)
        if s.side == "IJ" and (ground or (s.kind == "destroyer" and u.loc == IJN_RESERVE)):
            out.append(uid)
    return sorted(out)


def roll_for_supply(em: Emitter) -> None:
    die = em.roll()
    em.emit("supply_rolled", "IJ", die=die, loss=die in LOSS_ROLLS)
    if die in LOSS_ROLLS:
        units = candidates(em.state)
        if len(units) == 1:
            em.emit("unit_eliminated", "IJ", unit=units[0], reason="supply (§8)")
        elif units:
            em.emit("decision_opened", "IJ", decision={
                "kind": "supply_loss", "side": "IJ", "count": 1, "candidates": units,
                "reason": "supply", "rule": "§8"})
