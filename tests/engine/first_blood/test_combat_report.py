"""Issue 9, item 3: after the roll, both players read the combat in full (odds, every
modifier with its rule, the die, the result in words) until the next combat phase."""

from __future__ import annotations

from fb_support import declare

from engine.games.first_blood.rules import RULES
from engine.games.first_blood.testing import by_name, force_die, play, position

KUMA = by_name("Kuma", "IJ")
US_1_1 = by_name("1/1", "US")
US_1_2 = by_name("1/2", "US")


def test_the_report_of_a_resolved_attack_is_in_both_views_until_the_next_combat_phase():
    s = position({KUMA: "0304", US_1_1: "0305", US_1_2: "0303"}, phase="us_combat")  # 0304: jungle
    assert RULES.view(s, "IJ")["last_combat"] is None
    declare(s, ["0304"], [US_1_1, US_1_2])
    force_die(s, 5)
    play(s, "resolve")
    for side in ("US", "IJ", None):
        r = RULES.view(s, side)["last_combat"]
        assert (r["side"], r["targets"], r["attack"], r["defence"], r["odds"]) == ("US", ["0304"], 10, 4, "2:1")
        assert r["attackers"] == ["US 1/1", "US 1/2"] and r["defenders"] == ["IJ Kuma"]
        assert r["modifiers"] == [{"value": -1, "why": "defender in a jungle hex", "rule": "§7.1"}]
        assert (r["die"], r["modifier"], r["total"]) == (5, -1, 4)
        assert r["result"] == "D1" and r["result_words"] == "one defender eliminated, the rest retreat"
        assert r["table"] == "US Attack Table (Table 10)"
    # still there after the phase flowed on; gone when the next turn begins
    while RULES.prompt(s).side == "US" and not s.pending:
        play(s, "end_phase")
    assert s.turn == 2 and RULES.view(s, "IJ")["last_combat"] is None


def test_a_view_once_given_does_not_change_with_the_game():
    # a bot's logged input holds its view: the next command must not rewrite it
    s = position({KUMA: "0304", US_1_1: "0305", US_1_2: "0303"}, phase="us_combat")
    play(s, "attack", hex="0304")
    before = RULES.view(s, "US")
    assert before["combat"]["attackers"] == []
    play(s, "add", unit=US_1_1)
    assert before["combat"]["attackers"] == [] and RULES.view(s, "US")["combat"]["attackers"] == [US_1_1]
