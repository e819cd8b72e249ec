"""Random self-play of whole Pacific Battles games: they end, replay to the same state,
and no side nor a spectator receives anything it may not know (the leak checker, which
a planted leak makes fail)."""

from __future__ import annotations

import io
import json

from engine.core.events import Command
from engine.games.pacific_battles import leaks
from engine.games.pacific_battles.rules import RULES
from engine.games.pacific_battles.testing import new_game, play
from engine.selfplay import find_leaks, run


def test_two_random_games_finish_replay_and_leak_nothing() -> None:
    out = io.StringIO()
    stats = run("pacific_battles", 2, 7, out=out)
    assert (stats["finished"], stats["errors"], stats["replay_mismatches"], stats["leaks"]) == (2, 0, 0, 0), \
        out.getvalue()


def test_a_random_game_with_every_option_on_finishes_replays_and_leaks_nothing() -> None:
    out = io.StringIO()
    stats = run("pacific_battles", 1, 11, out=out, options=dict.fromkeys(RULES.options, True))
    assert (stats["finished"], stats["errors"], stats["replay_mismatches"], stats["leaks"]) == (1, 0, 0, 0), \
        out.getvalue()


def test_the_checker_finds_a_planted_leak_in_a_view(monkeypatch) -> None:
    state = new_game("plant")
    before = RULES.clone(state)
    place = next(c for c in RULES.legal_commands(state, "Japanese") if c.type == "place")
    events = play(state, "place", "Japanese", **place.data)
    assert find_leaks(RULES, before, events, state) == []
    hidden = leaks.hidden_things(state, "Allied")
    assert place.data["unit"] in hidden  # the placed unit, the rest of the set-up, the hand
    real_view = RULES.view

    def leaky(s, side, legal=None):
        v = real_view(s, side, legal)
        if side == "Allied":
            v["note"] = f"the Japanese placed {place.data['unit']} there"
        return v

    monkeypatch.setattr(RULES, "view", leaky)
    hits = find_leaks(RULES, before, events, state)
    assert hits and all(h.startswith("Allied sees") for h in hits)


def test_the_checker_reads_whole_names_only() -> None:
    assert leaks.find(["4 Inf"], json.dumps({"unit": "24 Inf"})) == []
    assert leaks.find(["4 Inf"], "124 Inf and 4 Inf") == ["4 Inf"]
    assert leaks.find(["1 Mar"], "1 Mar Div HQ placed") == []
    assert leaks.find(["J1"], "J17 and J10") == []


def test_an_allocation_stays_sealed_in_every_output_of_the_other_side() -> None:
    state = new_game("sealed")
    for _ in range(3):
        place = next((c for c in RULES.legal_commands(state, "Japanese") if c.type == "place"), None)
        if place is None:
            break
        play(state, "place", "Japanese", **place.data)
    play(state, "end_phase", "Japanese")
    assert state.phase == "air_allocation"
    before = RULES.clone(state)
    secret = {"superiority": 1, "interdiction": 2, "recon": 1, "strike": 1}
    events = RULES.decide(state, Command("allocate", secret, "Allied"))
    for e in events:
        RULES.apply(state, e)
    assert any('"decision": ' in n for n in leaks.hidden_things(state, "Japanese"))
    assert find_leaks(RULES, before, events, state) == []


def test_the_servers_clock_ends_a_game_on_time_and_only_the_clock() -> None:
    import pytest

    from engine.core.errors import IllegalCommandError, MalformedCommandError

    state = new_game("clock")
    with pytest.raises(IllegalCommandError):
        RULES.decide(state, Command("time_forfeit", {"loser": "Japanese"}, "Allied"))  # a player may not
    with pytest.raises(MalformedCommandError):
        RULES.decide(state, Command("time_forfeit", {"loser": "IJ"}, None))
    for e in RULES.decide(state, Command("time_forfeit", {"loser": "Japanese"}, None)):
        RULES.apply(state, e)
    assert state.result["winner"] == "Allied" and RULES.prompt(state).side is None
