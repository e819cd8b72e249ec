"""The game-independent turn track and settle loop."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from engine.core.phases import Phase, TurnTrack, settle

TRACK = TurnTrack(setup=[Phase("setup_a", "A", "A sets up")],
                  turn=[Phase("a_move", "A", "A moves"), Phase("b_move", "B", "B moves"), Phase("end", None, "end")])


def test_the_track_runs_setup_then_turns() -> None:
    p, t = TRACK.next(None, 0)
    assert (p.name, t) == ("setup_a", 0)
    p, t = TRACK.next("setup_a", 0)
    assert (p.name, t) == ("a_move", 1)
    assert TRACK.next("a_move", 1)[0].name == "b_move"
    p, t = TRACK.next("end", 1)
    assert (p.name, t) == ("a_move", 2)
    assert TRACK.side("b_move") == "B" and TRACK.side("end") is None and TRACK.title("a_move") == "A moves"


@dataclass
class Toy:
    phase: str = "a_move"
    turn: int = 1
    pending: list = field(default_factory=list)
    result: dict | None = None


def test_settle_skips_phases_that_owe_nothing() -> None:
    s = Toy()

    def end_phase() -> None:
        p, s.turn = TRACK.next(s.phase, s.turn)
        s.phase = p.name

    settle(lambda: s, lambda st: st.phase == "b_move", end_phase)
    assert s.phase == "b_move"
    s.pending.append("x")
    settle(lambda: s, lambda st: False, end_phase)
    assert s.phase == "b_move"  # a pending decision holds the game


def test_settle_refuses_to_loop_forever() -> None:
    s = Toy()
    with pytest.raises(RuntimeError):
        settle(lambda: s, lambda st: False, lambda: None, limit=10)
