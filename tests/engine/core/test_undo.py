"""Undo: a player takes back their own steps back to the last die, reveal or handover
(engine/core/undo.py; the ruling is docs/undo.md), shown on First Blood."""

from __future__ import annotations

import json

import pytest
from fb_support import declare

from engine.core import undo
from engine.core.errors import IllegalCommandError, NotYourTurnError
from engine.core.events import Command, Event
from engine.core.game import replay
from engine.core.verify import LogEntry, verify_log
from engine.games.first_blood.rules import RULES
from engine.games.first_blood.state import FBState
from engine.games.first_blood.testing import by_name, force_die, play, position

KUMA = by_name("Kuma", "IJ")
US_1_1 = by_name("1/1", "US")


class Game:
    """A real game from its creation, keeping the log as the server would."""

    def __init__(self) -> None:
        self.log: list[LogEntry] = [LogEntry(e) for e in RULES.create("campaign", {}, "undo-test")]
        self.state = replay(RULES, [x.event for x in self.log])

    def send(self, type_: str, **data) -> list[Event]:
        side = RULES.prompt(self.state).side
        cmd = Command(type_, data, side)
        out = RULES.outcome(self.state, cmd)
        self.log += [LogEntry(e, cmd if i == 0 else None) for i, e in enumerate(out.events)]
        self.state = out.state
        return out.events

    def undo_command(self) -> Command | None:
        return next((c for c in RULES.legal_commands(self.state) if c.type == "undo"), None)

    def take_back(self) -> list[Event]:
        cmd = self.undo_command()
        assert cmd is not None, "undo should be legal"
        return self.send("undo", **cmd.data)

    def places(self, n: int) -> list[tuple[str, str]]:
        done = []
        for _ in range(n):
            c = next(c for c in RULES.legal_commands(self.state) if c.type == "place")
            self.send("place", **c.data)
            done.append((c.data["unit"], c.data["to"]))
        return done


def where(state: FBState) -> dict[str, str]:
    return {uid: u.loc for uid, u in state.units.items()}


def test_a_placement_is_taken_back_one_step_at_a_time_down_to_the_handover():
    g = Game()
    assert g.undo_command() is None  # nothing decided yet: the opening is the server's
    start = where(g.state)
    (u1, _), (u2, to2) = g.places(2)
    after_one = where(g.state)
    after_one[u2] = start[u2]
    assert RULES.label(g.state, g.undo_command()).startswith(f"Take back: US {to2 and ''}")
    g.take_back()
    assert where(g.state) == after_one  # only the second placement went
    g.take_back()
    assert where(g.state) == start
    assert g.undo_command() is None
    with pytest.raises(IllegalCommandError) as err:
        g.send("undo", step=3)
    assert err.value.rule == "undo" and "nothing to take back" in str(err.value)


def test_the_log_keeps_both_and_a_replay_skips_what_was_retracted():
    g = Game()
    g.places(3)
    g.take_back()
    g.take_back()
    kept = g.places(1)
    events = [x.event for x in g.log]
    assert [e.type for e in events].count(undo.UNDONE) == 2
    numbered = list(enumerate(events))
    gone = undo.retracted(numbered)
    # the replay of the whole log equals a replay of the log without what was taken back
    assert RULES.state_to_json(replay(RULES, events)) == RULES.state_to_json(g.state)
    survivors = [e for n, e in numbered if n not in gone and e.type != undo.UNDONE]
    skipped = replay(RULES, survivors)
    assert where(skipped) == where(g.state)
    assert kept[0][0] in {e.data.get("unit") for e in survivors}
    assert verify_log(RULES, g.log).ok
    # two steps taken back in turn: the second reaches past the first take-back, which
    # still happened (a log strikes the placements, never a take-back's own line)
    undos = [n for n, e in numbered if e.type == undo.UNDONE]
    reach = range(int(events[undos[1]].data["step"]), undos[1])
    assert undos[0] in reach and not set(undos) & gone.keys()
    assert all(gone[n] == undos[1] for n in reach if n != undos[0])


def test_each_undo_names_the_step_it_takes_back_and_a_stale_one_is_refused():
    g = Game()
    g.places(2)
    step = g.undo_command().data["step"]
    with pytest.raises(IllegalCommandError) as err:
        g.send("undo", step=step - 1)  # the earlier step: only the last may go
    assert err.value.rule == "undo" and str(step) in str(err.value)
    (event,) = g.take_back()
    assert event.type == undo.UNDONE and event.data == {"step": step, "events": 1}
    line = RULES.describe(replay(RULES, [x.event for x in g.log][:-1]), event)
    assert line.startswith("US takes back: ") and "retracted" not in line  # (no count of events)


def test_no_undo_after_a_die_roll():
    s = position({KUMA: "0706", US_1_1: "0707"}, phase="us_combat")
    declare(s, ["0706"], [US_1_1])
    assert any(c.type == "undo" for c in RULES.legal_commands(s))  # declaring is a decision
    force_die(s, 1)
    play(s, "resolve")
    assert not any(c.type == "undo" for c in RULES.legal_commands(s))
    with pytest.raises(IllegalCommandError) as err:
        play(s, "undo", step=s.seq - 1)
    assert err.value.rule == "undo"


def test_no_undo_after_the_handover_for_either_side():
    g = Game()
    while any(c.type == "place" for c in RULES.legal_commands(g.state)):  # the US set-up
        g.places(1)
    assert RULES.prompt(g.state).side == "US" and g.undo_command() is not None  # all placed: may reconsider
    assert RULES.label(g.state, Command("end_phase")) == "End US set-up and hand over to IJ"
    g.send("end_phase")  # the handover, by the player's word
    assert RULES.prompt(g.state).side == "IJ"
    assert g.undo_command() is None and g.state.undo.steps == []
    with pytest.raises(NotYourTurnError) as err:
        RULES.decide(g.state, Command("undo", {"step": g.state.seq - 1}, "US"))
    assert "IJ's decision" in str(err.value)


def test_ending_a_phase_is_a_step_until_a_die_decides_something():
    s = position({KUMA: "0704"}, phase="ij_movement")
    play(s, "move", unit=KUMA, to="0705")
    events = play(s, "end_phase")  # the turn flows on, through the IJ supply die
    assert "supply_rolled" in [e.type for e in events]
    assert not any(c.type == "undo" for c in RULES.legal_commands(s))


def test_a_move_taken_back_restores_its_movement_points_and_its_hex():
    s = position({KUMA: "0704"}, phase="ij_movement")
    before = (s.units[KUMA].loc, s.units[KUMA].mf_left, s.units[KUMA].moved)
    play(s, "move", unit=KUMA, to="0705")
    assert s.units[KUMA].loc == "0705"
    seq = s.seq
    play(s, "undo", step=s.undo.steps[-1])
    assert (s.units[KUMA].loc, s.units[KUMA].mf_left, s.units[KUMA].moved) == before
    assert s.seq == seq + 1  # the undo is an event: the next die has a new number
    assert RULES.reachable(s, KUMA)  # and the unit may move again


def test_the_trail_survives_a_snapshot():
    g = Game()
    g.places(2)
    obj = json.loads(json.dumps(RULES.state_to_json(g.state)))
    back = RULES.state_from_json(obj)
    assert RULES.state_to_json(back) == RULES.state_to_json(g.state)
    assert [c for c in RULES.legal_commands(back) if c.type == "undo"] == [g.undo_command()]
    out = RULES.outcome(back, Command("undo", g.undo_command().data, "US"))
    assert where(out.state) == where(RULES.outcome(g.state, Command("undo", g.undo_command().data, "US")).state)


def test_verify_refuses_a_forged_undo():
    g = Game()
    g.places(2)
    forged = Command("undo", {"step": 3}, "US")  # the first step, not the last
    g.log.append(LogEntry(Event(undo.UNDONE, {"step": 3, "events": 2}, "US"), forged))
    verdict = verify_log(RULES, g.log)
    assert not verdict.ok and "refuses" in verdict.message
