"""The end of a Pacific Battles game in one sentence, in the log and the prompt: who won and
by how much (24.2's levels), then why, each said once."""

from __future__ import annotations

from engine.core.events import Event
from engine.games.pacific_battles.describe import game_over
from engine.games.pacific_battles.rules import RULES
from engine.games.pacific_battles.state import PBState


def test_the_level_is_said_once_and_the_reason_is_a_sentence():
    ended = {"winner": "Japanese", "level": "Decisive Victory",
             "reason": "the last turn is over: Allied 53 VP, Japanese 70 VP (24.2): Decisive Victory"}
    assert game_over(ended) == "Game over: Japanese, Decisive Victory. The last turn is over: Allied 53 VP, " \
                               "Japanese 70 VP (24.2)."
    assert game_over({**ended, "winner": "draw", "level": "Draw",
                      "reason": "the last turn is over: Allied 60 VP, Japanese 62 VP (24.2): Draw"}) \
        == "Game over: a draw. The last turn is over: Allied 60 VP, Japanese 62 VP (24.2)."
    assert game_over({"winner": "Allied", "level": "won on time", "reason": "Japanese's time ran out"}) \
        == "Game over: Allied wins on time. Japanese's time ran out."


def test_the_log_and_the_prompt_say_the_same():
    ended = {"winner": "Allied", "level": "Sudden Death Victory",
             "reason": "Allied holds Henderson Field activated and every objective hex (25.3)"}
    state = PBState(result=dict(ended))
    assert RULES.prompt(state).text == game_over(ended)
    assert RULES.describe(state, Event("game_ended", ended)) == game_over(ended)
