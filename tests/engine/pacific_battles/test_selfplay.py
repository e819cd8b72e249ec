"""Random self-play of whole Pacific Battles games: they end, replay to the same state,
and no side nor a spectator receives anything it may not know (the leak checker, which
a planted leak makes fail)."""

from __future__ import annotations

import io
import json
import re

from engine.core.events import Command
from engine.core.visibility import SPECTATOR, for_viewer
from engine.games.pacific_battles import leaks
from engine.games.pacific_battles.rules import RULES
from engine.games.pacific_battles.state import SIDES
from engine.games.pacific_battles.testing import new_game, play
from engine.selfplay import Chooser, choose, find_leaks, run


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


UNTOLD = re.compile(r"whether the stack in \d{4} has a ZOC \(18\.4\)|what the stack in \d{4} holds \(18\.1\)"
                    r"|when .+ is due \(18\.6\)")


def test_what_a_text_could_name_is_all_a_search_of_a_step_needs() -> None:
    """``hidden_names`` (what the search of another side's reading of a step looks for) is
    ``hidden_things`` less only what no text names, so a search finds the same in either:
    over a random game's first 400 steps, for each side and a spectator."""
    state, rng, searched, hits = new_game("names"), Chooser("names"), 0, 0
    for _ in range(400):
        prompt = RULES.prompt(state)
        legal = RULES.legal_commands(state)
        if prompt.side is None or not legal:
            break
        cmd = choose(rng, state.phase, legal)
        before = RULES.clone(state)
        events = RULES.decide(state, Command(cmd.type, cmd.data, prompt.side))
        for e in events:
            RULES.apply(state, e)
        for viewer in (*SIDES, SPECTATOR):
            names, things = leaks.hidden_names(before, viewer), leaks.hidden_things(before, viewer)
            assert set(names) <= set(things)
            assert all(UNTOLD.fullmatch(t) for t in set(things) - set(names))
            text = "\n".join(json.dumps(seen.data, sort_keys=True) for e in events
                             if (seen := for_viewer(e, viewer, RULES.sides)) is not None)
            found = leaks.find(things, text)
            assert leaks.find(names, text) == found
            searched, hits = searched + 1, hits + bool(found)
    assert searched > 800 and hits > 0  # (a step that shows a viewer something names it)
