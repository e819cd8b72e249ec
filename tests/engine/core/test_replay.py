"""engine.core.game: replay, evolve, decide purity, check_turn and the registry.

The generic machinery is tested with a tiny counter game defined here, then
with the First Blood plug-in (the only registered game) over a whole
self-played game.
"""

from __future__ import annotations

import ast
import copy
import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from engine.core import dice
from engine.core.errors import IllegalCommandError, MalformedCommandError, NotYourTurnError
from engine.core.events import Command, Event, dumps_events, loads_events
from engine.core.game import Emitter, Prompt, check_turn, evolve, replay
from engine.games import game_ids, get_rules
from engine.selfplay import Chooser, choose

ROOT = Path(__file__).resolve().parents[3]


# --- a tiny game for the generic machinery ------------------------------------------

@dataclass
class CounterState:
    seq: int = 0
    secret: str = ""
    result: dict[str, Any] | None = None
    total: int = 0
    history: list[int] = field(default_factory=list)


class CounterRules:
    id = "core-test-counter"

    def blank(self) -> CounterState:
        return CounterState()

    def clone(self, state: CounterState) -> CounterState:
        return CounterState(state.seq, state.secret, state.result, state.total, list(state.history))

    def apply(self, state: CounterState, event: Event) -> None:
        if event.type == "created":
            state.secret = event.data["secret"]
        elif event.type == "added":
            state.total += event.data["n"]
            state.history.append(event.data["n"])
        state.seq += 1


COUNTER = CounterRules()
COUNTER_LOG = [Event("created", {"secret": "s"})] + [Event("added", {"n": n}) for n in (3, 1, 4, 1, 5)]


def test_replay_folds_events_from_blank() -> None:
    state = replay(COUNTER, COUNTER_LOG)
    assert (state.seq, state.secret, state.total, state.history) == (6, "s", 14, [3, 1, 4, 1, 5])
    assert replay(COUNTER, []) == CounterState()


def test_replay_from_a_snapshot_does_not_touch_the_snapshot() -> None:
    snap = replay(COUNTER, COUNTER_LOG[:3])
    before = copy.deepcopy(snap)
    full = replay(COUNTER, COUNTER_LOG[3:], snap)
    assert snap == before
    assert full == replay(COUNTER, COUNTER_LOG)
    assert full is not snap


def test_replay_accepts_any_iterable() -> None:
    assert replay(COUNTER, iter(COUNTER_LOG)) == replay(COUNTER, COUNTER_LOG)


def test_evolve_returns_a_new_state_and_leaves_the_old_one() -> None:
    old = replay(COUNTER, COUNTER_LOG[:2])
    before = copy.deepcopy(old)
    new = evolve(COUNTER, old, Event("added", {"n": 10}))
    assert old == before
    assert new is not old
    assert (new.total, new.history, new.seq) == (13, [3, 10], 3)


def test_emitter_works_on_a_private_copy() -> None:
    state = replay(COUNTER, COUNTER_LOG)
    before = copy.deepcopy(state)
    em = Emitter(COUNTER, state)
    assert em.state is not state
    e1 = em.emit("added", "US", n=2)
    e2 = em.emit("added", None, n=7)
    assert e1 == Event("added", {"n": 2}, "US")
    assert e2 == Event("added", {"n": 7}, None)
    assert em.events == [e1, e2]
    assert (em.state.total, em.state.seq) == (23, 8)  # each emitted event is applied at once
    assert state == before
    assert replay(COUNTER, em.events, state) == em.state


def test_emitter_roll_is_keyed_by_the_next_event_number() -> None:
    state = replay(COUNTER, COUNTER_LOG)
    em = Emitter(COUNTER, state)
    assert [em.roll(i) for i in range(5)] == [dice.roll("s", 6, i) for i in range(5)]
    em.emit("added", None, n=0)
    assert [em.roll(i) for i in range(5)] == [dice.roll("s", 7, i) for i in range(5)]
    assert em.roll() == em.roll(0)


def _prompt(side: str | None) -> Prompt:
    return Prompt(side, "move", "Move", f"Waiting for {side}")


def test_check_turn_accepts_the_acting_side_and_anonymous_commands() -> None:
    check_turn(_prompt("US"), Command("move", {}, "US"))
    check_turn(_prompt("US"), Command("move", {}))


def test_check_turn_rejects_the_other_side() -> None:
    with pytest.raises(NotYourTurnError) as info:
        check_turn(_prompt("US"), Command("move", {}, "IJ"))
    assert "US" in str(info.value)
    assert "Waiting for US" in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("side", ["US", "IJ", None])
def test_check_turn_when_the_game_is_over(side: str | None) -> None:
    with pytest.raises(IllegalCommandError, match="over"):
        check_turn(_prompt(None), Command("move", {}, side))


def test_prompt_defaults() -> None:
    p = _prompt("IJ")
    assert (p.rule, p.details) == ("", {})
    assert _prompt("IJ").details is not p.details


# --- registry ---------------------------------------------------------------------------

def test_get_rules_unknown_game() -> None:
    with pytest.raises(KeyError, match="nope"):
        get_rules("nope")
    with pytest.raises(KeyError, match="first_blood"):  # the message lists the known games
        get_rules("nope")


def test_game_ids_and_get_rules() -> None:
    assert "first_blood" in game_ids()
    assert game_ids() == sorted(game_ids())
    rules = get_rules("first_blood")
    assert rules.id == "first_blood"
    assert get_rules("first_blood") is rules
    assert set(rules.sides) == {"US", "IJ"}


def _fresh(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_the_core_names_no_game() -> None:
    """The core is below the games: nothing in ``engine/core`` imports ``engine.games``,
    and importing it loads no game."""
    for path in (ROOT / "engine" / "core").glob("*.py"):
        tree = ast.parse(path.read_text())
        imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        assert not [m for m in imported if m.startswith("engine.games")], path.name
    proc = _fresh("import sys\nimport engine.core.game, engine.core.verify\n"
                  "assert not [m for m in sys.modules if m.startswith('engine.games')]\nprint('ok')\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


# --- First Blood: the real plug-in ------------------------------------------------------------

@pytest.fixture(scope="module")
def rules() -> Any:
    return get_rules("first_blood")


@pytest.fixture(scope="module")
def opening(rules: Any) -> list[Event]:
    return rules.create("campaign", {}, "secret")


def _dump(rules: Any, state: Any) -> str:
    return json.dumps(rules.state_to_json(state), sort_keys=True)


def test_create_is_deterministic(rules: Any, opening: list[Event]) -> None:
    again = rules.create("campaign", {}, "secret")
    assert dumps_events(again) == dumps_events(opening)
    assert opening[0].type == "game_created"
    assert opening[0].data["commitment"] == dice.commitment("secret")


def test_replay_twice_gives_equal_states(rules: Any, opening: list[Event]) -> None:
    a = replay(rules, opening)
    b = replay(rules, opening)
    assert a is not b
    assert rules.state_to_json(a) == rules.state_to_json(b)
    assert a.seq == len(opening)


def test_replay_does_not_mutate_the_events(rules: Any, opening: list[Event]) -> None:
    text = dumps_events(opening)
    replay(rules, opening)
    assert dumps_events(opening) == text


def test_evolve_does_not_mutate_its_input(rules: Any, opening: list[Event]) -> None:
    state = replay(rules, opening[:-1])
    before = _dump(rules, state)
    new = evolve(rules, state, opening[-1])
    assert _dump(rules, state) == before
    assert new is not state
    assert _dump(rules, new) == _dump(rules, replay(rules, opening))
    assert _dump(rules, new) != before


def test_decide_does_not_mutate_the_state(rules: Any, opening: list[Event]) -> None:
    state = replay(rules, opening)
    legal = rules.legal_commands(state)
    assert legal
    before = _dump(rules, state)
    for cmd in legal[:: max(1, len(legal) // 25)]:
        events = rules.decide(state, Command(cmd.type, cmd.data, "US"))
        assert events
        assert _dump(rules, state) == before
        assert state.seq == len(opening)


def test_decide_does_not_mutate_the_command(rules: Any, opening: list[Event]) -> None:
    state = replay(rules, opening)
    cmd = rules.legal_commands(state)[0]
    sent = Command(cmd.type, dict(cmd.data), "US")
    before = json.dumps(sent.to_json(), sort_keys=True)
    rules.decide(state, sent)
    assert json.dumps(sent.to_json(), sort_keys=True) == before


def test_decide_is_deterministic(rules: Any, opening: list[Event]) -> None:
    state = replay(rules, opening)
    cmd = rules.legal_commands(state)[-1]
    assert dumps_events(rules.decide(state, cmd)) == dumps_events(rules.decide(state, cmd))


def test_state_json_round_trip_is_lossless(rules: Any, opening: list[Event]) -> None:
    state = replay(rules, opening)
    obj = rules.state_to_json(state)
    back = rules.state_from_json(json.loads(json.dumps(obj)))
    assert rules.state_to_json(back) == obj
    # and the rebuilt state behaves the same
    assert rules.prompt(back) == rules.prompt(state)
    assert rules.legal_commands(back) == rules.legal_commands(state)


def test_clone_is_equal_and_independent(rules: Any, opening: list[Event]) -> None:
    state = replay(rules, opening)
    twin = rules.clone(state)
    assert twin is not state
    assert _dump(rules, twin) == _dump(rules, state)
    before = _dump(rules, state)
    for e in rules.decide(twin, rules.legal_commands(twin)[0]):
        rules.apply(twin, e)
    assert _dump(rules, state) == before
    assert _dump(rules, twin) != before


def test_wrong_side_is_not_your_turn(rules: Any, opening: list[Event]) -> None:
    state = replay(rules, opening)
    assert rules.prompt(state).side == "US"
    cmd = rules.legal_commands(state)[0]
    with pytest.raises(NotYourTurnError):
        rules.decide(state, Command(cmd.type, cmd.data, side="IJ"))
    # the same command from the right side (or anonymously) is accepted
    assert rules.decide(state, Command(cmd.type, cmd.data, side="US"))
    assert rules.decide(state, Command(cmd.type, cmd.data))


def test_legal_commands_for_the_waiting_side_is_empty(rules: Any, opening: list[Event]) -> None:
    state = replay(rules, opening)
    assert rules.legal_commands(state, "IJ") == []
    assert rules.legal_commands(state, "US") == rules.legal_commands(state)


def test_unknown_command_type_is_malformed(rules: Any, opening: list[Event]) -> None:
    state = replay(rules, opening)
    with pytest.raises(MalformedCommandError):
        rules.decide(state, Command("fly_to_the_moon", {}, "US"))
    with pytest.raises(ValueError):
        rules.decide(state, Command("fly_to_the_moon"))


def test_illegal_command_is_rejected_without_events(rules: Any, opening: list[Event]) -> None:
    state = replay(rules, opening)
    before = _dump(rules, state)
    with pytest.raises(IllegalCommandError):
        rules.decide(state, Command("place", {"unit": "no-such-unit", "to": "0709"}, "US"))
    assert _dump(rules, state) == before


# --- First Blood: a whole self-played game -----------------------------------------------------

@dataclass
class Played:
    events: list[Event]
    final: Any
    decisions: int
    mutated: list[int]  # decisions after which the caller's state had changed
    outcome_differs: list[int]  # decisions whose ``outcome`` was not decide + describe + apply
    marks: list[int]  # event counts at which to check snapshots


@pytest.fixture(scope="module")
def played(rules: Any) -> Played:
    """One random game to the end, checking at every decision that decide leaves the state alone."""
    rng = Chooser("core-tests")
    events = rules.create("campaign", {}, dice.derive_secret(1, "core-tests"))
    state = replay(rules, events)
    mutated, marks, decisions, differs = [], [], 0, []
    while rules.prompt(state).side is not None and decisions < 5000:
        legal = rules.legal_commands(state)
        assert legal, f"dead end at event {state.seq}"
        cmd = choose(rng, state.phase, legal)
        before = _dump(rules, state)
        command = Command(cmd.type, cmd.data, rules.prompt(state).side)
        new = rules.decide(state, command)
        outcome = rules.outcome(state, command)
        if _dump(rules, state) != before:
            mutated.append(decisions)
        texts = []
        for e in new:
            texts.append(rules.describe(state, e))
            rules.apply(state, e)
        if (outcome.events, outcome.texts, _dump(rules, outcome.state)) != (new, texts, _dump(rules, state)):
            differs.append(decisions)
        events.extend(new)
        decisions += 1
        if state.combat is not None or state.pending or decisions % 40 == 0:
            marks.append(len(events))
    return Played(events, state, decisions, mutated, differs, marks)


def test_selfplay_game_finishes(rules: Any, played: Played) -> None:
    assert rules.prompt(played.final).side is None
    assert played.final.result is not None
    assert played.final.result["winner"] in rules.sides
    assert played.decisions > 50


def test_decide_never_mutated_the_state_during_a_whole_game(played: Played) -> None:
    assert played.mutated == []


def test_outcome_is_decide_then_describe_and_apply_during_a_whole_game(played: Played) -> None:
    """What the server appends (``outcome``: events, log lines, the state after) is
    what deciding and then replaying the events gives."""
    assert played.outcome_differs == []


def test_full_log_json_round_trip_replays_to_the_same_state(rules: Any, played: Played) -> None:
    text = dumps_events(played.events)
    again = replay(rules, loads_events(text))
    assert rules.state_to_json(again) == rules.state_to_json(played.final)
    assert dumps_events(played.events) == text  # replay did not touch the log


def test_replay_from_snapshots_matches_full_replay(rules: Any, played: Played) -> None:
    for k in played.marks[:: max(1, len(played.marks) // 15)]:
        snap = replay(rules, played.events[:k])
        snap_json = rules.state_to_json(snap)
        # a snapshot stored as JSON, reloaded, then the rest of the log
        reloaded = rules.state_from_json(json.loads(json.dumps(snap_json)))
        assert rules.state_to_json(reloaded) == snap_json
        rest = replay(rules, played.events[k:], reloaded)
        assert rules.state_to_json(rest) == rules.state_to_json(played.final)
        assert rules.state_to_json(reloaded) == snap_json  # the snapshot was not touched


def test_evolve_never_mutates_its_input_during_a_whole_game(rules: Any, played: Played) -> None:
    state = rules.blank()
    for e in played.events[:300]:
        before = _dump(rules, state)
        new = evolve(rules, state, e)
        assert _dump(rules, state) == before, e.type
        state = new
    assert _dump(rules, state) == _dump(rules, replay(rules, played.events[:300]))


def test_state_json_round_trip_mid_combat(rules: Any, played: Played) -> None:
    seen_combat = seen_pending = False
    state = rules.blank()
    for e in played.events:
        rules.apply(state, e)
        if state.combat is not None or state.pending:
            seen_combat |= state.combat is not None
            seen_pending |= bool(state.pending)
            obj = rules.state_to_json(state)
            back = rules.state_from_json(json.loads(json.dumps(obj)))
            assert rules.state_to_json(back) == obj
            assert rules.prompt(back) == rules.prompt(state)
    assert seen_combat


def test_game_over_rejects_every_command(rules: Any, played: Played) -> None:
    assert rules.legal_commands(played.final) == []
    with pytest.raises(IllegalCommandError):
        rules.decide(played.final, Command("end_phase", {}, "US"))


def _mutable_parts(obj: Any, out: dict[int, str], path: str = "state") -> dict[int, str]:
    """id -> path of every mutable object reachable from ``obj`` (dataclasses, dicts, lists, sets)."""
    if hasattr(obj, "__dataclass_fields__"):
        out[id(obj)] = path
        for name in obj.__dataclass_fields__:
            _mutable_parts(getattr(obj, name), out, f"{path}.{name}")
    elif isinstance(obj, dict):
        out[id(obj)] = path
        for k, v in obj.items():
            _mutable_parts(v, out, f"{path}[{k!r}]")
    elif isinstance(obj, (list, set)):
        out[id(obj)] = path
        for i, v in enumerate(obj):
            _mutable_parts(v, out, f"{path}[{i}]")
    elif isinstance(obj, tuple):
        for i, v in enumerate(obj):
            _mutable_parts(v, out, f"{path}[{i}]")
    return out


def test_clone_shares_no_mutable_part_with_the_original(rules: Any, played: Played) -> None:
    """decide works on a clone: any list or dict the clone shares with the caller's
    state could be changed behind the caller's back."""
    state = rules.blank()
    checked = 0
    for n, e in enumerate(played.events):
        rules.apply(state, e)
        if n % 25 and not (state.combat or state.pending):
            continue
        mine = _mutable_parts(state, {})
        theirs = _mutable_parts(rules.clone(state), {})
        # the undo trail's base state and past events are shared by design: nothing
        # changes them (a rebuild clones the base), and copying them would be waste; so
        # are the units, each copied by the state that changes it first (the next test)
        shared = sorted(p for p in (mine[i] for i in set(mine) & set(theirs))
                        if not p.startswith(("state.undo.base", "state.undo.events[", "state.units[")))
        assert shared == [], f"after event {n}: {shared[:5]}"
        checked += 1
    assert checked > 10


def test_a_clone_and_its_original_change_apart(rules: Any, played: Played) -> None:
    """The units a clone shares with its original (FBState.unit): the events applied to
    either leave the other as it was, whichever changes a unit first, and again after
    both have been cloned once more."""
    state, checked = rules.blank(), 0
    for n, e in enumerate(played.events):
        rules.apply(state, e)
        if n % 40 or n + 60 > len(played.events):
            continue
        before = rules.state_to_json(state)
        clone = rules.clone(state)
        for later in played.events[n + 1:n + 30]:  # the clone moves on ...
            rules.apply(clone, later)
        assert rules.state_to_json(state) == before, f"the original changed with its clone after event {n}"
        ahead = rules.state_to_json(clone)
        again = rules.clone(clone)  # ... and the original too, past a second clone
        for later in played.events[n + 1:n + 60]:
            rules.apply(state, later)
        assert rules.state_to_json(clone) == ahead, f"the clone changed with its original after event {n}"
        assert rules.state_to_json(again) == ahead
        state = replay(rules, played.events[:n + 1])  # back to where the walk was
        checked += 1
    assert checked > 5
