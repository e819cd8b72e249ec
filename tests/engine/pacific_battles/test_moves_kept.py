"""A unit's moves are kept across states, keyed by what they depend on (impulse.py,
``_REACHES``): over the movement phases of whole random games, every unit's kept moves
must be what a search from scratch finds in that state."""

from __future__ import annotations

from engine.core.events import Command
from engine.core.game import replay
from engine.games.pacific_battles import impulse
from engine.games.pacific_battles import queries as q
from engine.games.pacific_battles.movement import bridged_sides, reachable
from engine.games.pacific_battles.rules import RULES
from engine.selfplay import Chooser, choose


def from_scratch(state, pid: str) -> dict:  # type: ignore[no-untyped-def]
    p = state.pieces[pid]
    hexes = [h for h in state.bridging if not (q.kind(p.unit) == "engineer" and h == p.hex)]
    return reachable(q.board(), q.forces(), list(state.pieces.values()), p, q.zoc_known_to(state, p.side), None,
                     bridged_sides(q.board(), hexes), state.moving.get(pid, 0))


def test_kept_moves_are_those_a_search_from_scratch_finds() -> None:
    impulse._REACHES.clear()
    checked = 0
    for game in range(3):
        state = replay(RULES, RULES.create("campaign", {}, f"{game:064x}"))
        rng = Chooser(f"kept-moves:{game}")
        for _ in range(1500):
            prompt = RULES.prompt(state)
            if prompt.side is None:
                break
            if "movement" in state.phase and not state.pending:
                side = prompt.side
                RULES.legal_commands(state, side)  # as the answer lists them: every unit's moves
                for pid in impulse.movers(state, side):
                    assert impulse.moves(state, pid) == from_scratch(state, pid), (state.seq, pid)
                    checked += 1
            cmd = choose(rng, state.phase, RULES.legal_commands(state, prompt.side))
            for e in RULES.decide(state, Command(cmd.type, cmd.data, prompt.side)):
                RULES.apply(state, e)
    assert checked > 1000
    assert impulse._REACHES  # and they were kept
