"""§1 and §12 Victory, checked at the end of every complete turn (the end of the US
air phase)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalCommandError, MalformedCommandError
from engine.core.events import Command
from engine.core.game import replay
from engine.core.verify import LogEntry, verify_log
from engine.games.first_blood.oob import LAST_TURN, load_oob, turn_number
from engine.games.first_blood.rules import RULES
from engine.games.first_blood.state import ELIMINATED
from engine.games.first_blood.testing import play, position

IJ_INF, IJ_INF_2 = "ij-124-1", "ij-124-3"
JAN_III = turn_number("Jan III")
OCT_III = turn_number("Oct III")


def end_of_turn(units: dict[str, str], turn: int = 7, strips: dict | None = None, others: str | None = None):
    """A state in the US air phase of ``turn`` (nothing left to do there), and the events of
    ending it."""
    kwargs = {} if others is None else {"others": others}
    state = position(units, phase="us_air", turn=turn, strips=strips, **kwargs)
    assert state.result is None
    events = play(state, "end_phase")
    return state, events


def ended(events) -> list[dict]:
    return [e.data for e in events if e.type == "game_ended"]


# --- IJ on a completed air field hex (§1, §12) ------------------------------------------

@pytest.mark.parametrize("hex_id", ["0708", "0709"])
def test_an_ij_ground_unit_on_henderson_at_the_end_of_the_turn_wins(hex_id):
    state, events = end_of_turn({IJ_INF: hex_id, IJ_INF_2: "0220"}, strips={hex_id: {"status": "dest"}},
                                others=ELIMINATED)
    [end] = ended(events)
    assert end["winner"] == "IJ" and end["turn"] == 7
    assert events[-1].type == "game_ended"  # the next turn does not start
    assert state.result["winner"] == "IJ"
    assert hex_id in state.result["reason"]
    assert state.phase == "game_over"
    prompt = RULES.prompt(state)
    assert prompt.side is None and prompt.kind == "game_over"
    assert RULES.legal_commands(state) == []
    with pytest.raises(IllegalCommandError):
        play(state, "end_phase")


@pytest.mark.parametrize("hex_id", ["0605", "0705"])
def test_the_unbuilt_fighter_strip_does_not_count(hex_id):
    state, events = end_of_turn({IJ_INF: hex_id, IJ_INF_2: "0220"}, others=ELIMINATED)
    assert ended(events) == []
    assert state.result is None
    assert state.turn == 8


@pytest.mark.parametrize("status", ["oper", "dam", "dest"])
def test_the_fighter_strip_counts_once_it_has_been_constructed(status):
    state, events = end_of_turn({IJ_INF: "0605", IJ_INF_2: "0220"},
                                strips={"0605": {"status": status, "built": True}}, others=ELIMINATED)
    assert [e["winner"] for e in ended(events)] == ["IJ"]
    assert state.result["winner"] == "IJ"


def test_an_ij_unit_on_henderson_wins_only_at_the_end_of_the_complete_turn():
    state = position({IJ_INF: "0607", IJ_INF_2: "0220"}, phase="ij_movement", turn=7, others=ELIMINATED)
    play(state, "move", unit=IJ_INF, to="0708")
    assert state.units[IJ_INF].loc == "0708"
    assert state.strips["0708"].status == "dest"  # §6.3 overrun
    assert state.result is None
    for _ in range(50):
        if state.result is not None:
            break
        assert state.turn == 7
        if state.pending:  # supply: give up the other unit
            play(state, "eliminate", unit=IJ_INF_2)
        else:
            play(state, "end_phase")
    assert state.result == {"winner": "IJ", "reason": state.result["reason"], "turn": 7}


def test_an_ij_unit_elsewhere_on_the_map_before_jan_iii_does_not_end_the_game():
    state, events = end_of_turn({IJ_INF: "0607", IJ_INF_2: "0220"}, others=ELIMINATED)
    assert ended(events) == [] and state.result is None
    assert state.turn == 8


# --- end of Jan III (§1, §12) ------------------------------------------------------------------

def test_the_last_turn_is_jan_iii():
    assert LAST_TURN == JAN_III == 15


def test_at_the_end_of_jan_iii_any_ij_ground_unit_on_the_map_wins_for_the_ij():
    state, events = end_of_turn({IJ_INF: "0220"}, turn=JAN_III)
    [end] = ended(events)
    assert end["winner"] == "IJ" and end["turn"] == JAN_III
    assert state.result["winner"] == "IJ"


def test_at_the_end_of_jan_iii_ij_units_only_in_off_map_boxes_lose():
    state, events = end_of_turn({IJ_INF: "box:A", IJ_INF_2: "box:D", "ij-dd-tanikaze": "ijn_reserve"},
                                turn=JAN_III)
    assert [e["winner"] for e in ended(events)] == ["US"]
    assert state.result["winner"] == "US"


def test_at_the_end_of_jan_iii_the_us_wins_if_no_ij_ground_unit_is_left():
    state, events = end_of_turn({}, turn=JAN_III)
    assert [e["winner"] for e in ended(events)] == ["US"]


def test_an_ij_unit_on_henderson_at_the_end_of_jan_iii_wins_for_the_ij():
    state, events = end_of_turn({IJ_INF: "0709"}, turn=JAN_III)
    assert [e["winner"] for e in ended(events)] == ["IJ"]


# --- early end: the IJ can no longer win (§12) ---------------------------------------------

def test_the_last_ij_ground_reinforcements_arrive_in_oct_iii():
    arrivals = [s.arrives for s in load_oob().values() if s.side == "IJ" and s.kind == "ground"]
    assert max(arrivals) == OCT_III == 6


@pytest.mark.parametrize("turn", [OCT_III, 10])
def test_the_us_wins_early_when_every_ij_ground_unit_is_gone_and_none_are_coming(turn):
    # IJ air and naval units still around do not matter
    state, events = end_of_turn({"ij-dd-hiei": "ijn_reserve", "ij-204-1": "ijaaf_attack"}, turn=turn)
    [end] = ended(events)
    assert end["winner"] == "US" and end["turn"] == turn
    assert state.result["winner"] == "US"


def test_no_early_end_while_ij_ground_reinforcements_are_still_to_come():
    # Oct II: every IJ ground unit so far is gone, but 228/1 and 228/3 land in Oct III
    state, events = end_of_turn({}, turn=OCT_III - 1)
    assert ended(events) == [] and state.result is None
    assert (state.turn, state.phase) == (OCT_III, "ij_reinforcements")


@pytest.mark.parametrize("where", ["box:B", "0220"])
def test_no_early_end_while_an_ij_ground_unit_is_left_on_or_off_the_map(where):
    state, events = end_of_turn({IJ_INF: where}, turn=10)
    assert ended(events) == [] and state.result is None
    assert state.turn == 11
    assert state.units[IJ_INF].loc == where


def test_time_forfeit_is_the_servers_command_and_ends_the_game_for_the_claimant():
    """Time control lives on the server (app/services/clock.py); the log records its
    ruling as an engine command with no side, so verification decides it again."""
    events = RULES.create("campaign", {}, "clock")
    state = replay(RULES, events)
    with pytest.raises(IllegalCommandError):  # never a player's command
        RULES.decide(state, Command("time_forfeit", {"loser": "US"}, "IJ"))
    with pytest.raises(MalformedCommandError):
        RULES.decide(state, Command("time_forfeit", {"loser": "Allies"}))
    forfeit = Command("time_forfeit", {"loser": "US"})
    ended = RULES.decide(state, forfeit)
    assert [e.type for e in ended] == ["game_ended"] and ended[0].data["winner"] == "IJ"
    for e in ended:
        RULES.apply(state, e)
    assert state.result["winner"] == "IJ" and RULES.prompt(state).side is None
    assert "claimed the game on time" in RULES.describe(replay(RULES, events), ended[0])
    with pytest.raises(IllegalCommandError):
        RULES.decide(state, forfeit)  # once over, over
    entries = [LogEntry(e) for e in events] + [LogEntry(ended[0], forfeit)]
    assert verify_log(RULES, entries).ok
