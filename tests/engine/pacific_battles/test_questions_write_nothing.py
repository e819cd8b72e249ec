"""Questions about a Pacific Battles state never write events nor change the state: the
query modules emit nothing, and on the states of a random game every query function, the
prompt, the legal commands, the views, the refusals (why not), the labels and the notes
leave the state as they found it."""

from __future__ import annotations

import ast
import inspect
import json
from pathlib import Path
from typing import Any

from engine.core.dice import derive_secret
from engine.core.events import Command
from engine.core.game import replay
from engine.core.visibility import ADMIN, SPECTATOR
from engine.games.pacific_battles import describe, leaks, queries, sequence, view, why
from engine.games.pacific_battles.rules import FIELDS, RULES
from engine.games.pacific_battles.state import SIDES, PBState
from engine.selfplay import Chooser, choose

QUESTIONS = (queries, describe, view, leaks, why, sequence)  # modules that only ask


def _writes(path: Path) -> list[str]:
    """Where a module emits an event or reaches for what does (an Emitter, tell.py)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "emit":
            out.append(f"line {node.lineno}: .emit(...)")
        elif isinstance(node, ast.Name) and node.id == "Emitter":
            out.append(f"line {node.lineno}: Emitter")
        elif isinstance(node, ast.ImportFrom) and any(a.name in ("Emitter", "tell") for a in node.names):
            out.append(f"line {node.lineno}: imports {', '.join(a.name for a in node.names)}")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").endswith(".tell"):
            out.append(f"line {node.lineno}: imports {node.module}")
    return out


def test_the_query_modules_write_no_events() -> None:
    found = {m.__name__: w for m in QUESTIONS if (w := _writes(Path(inspect.getfile(m))))}
    assert not found, found


def _frozen(state: PBState) -> str:
    return json.dumps(RULES.state_to_json(state), sort_keys=True)


def _query_calls(state: PBState) -> list[tuple[str, Any, dict[str, Any]]]:
    """Every function of queries.py, called with arguments of this state (by parameter
    name: a new query with a new kind of argument fails here until it is given one)."""
    pieces = sorted(state.pieces.values(), key=lambda p: p.id)[:6]
    calls = []
    for name, f in sorted(vars(queries).items()):
        if not inspect.isfunction(f) or f.__module__ != queries.__name__:
            continue
        params = list(inspect.signature(f).parameters)
        for side in SIDES:
            for p in pieces or [None]:
                if p is None and set(params) & {"p", "hq", "state_or_piece", "unit", "pid", "hex_id", "a", "b"}:
                    continue
                args = {"state": state, "side": side, "p": p, "hq": p, "state_or_piece": p,
                        "unit": p.unit if p else None, "pid": p.id if p else None,
                        "hex_id": p.hex if p else None, "a": p.hex if p else None, "b": pieces[-1].hex if p else None,
                        "index": 0, "name": "Recon", "n": 2}
                unknown = [n for n in params if n not in args]
                assert not unknown, f"queries.{name}: no test argument for {unknown}"
                calls.append((name, f, {n: args[n] for n in params}))
    return calls


def _refused(state: PBState, side: str, legal: list[Command]) -> list[Command]:
    """Commands of every type, mostly illegal: the legal ones bent, the rest with blank data."""
    blank = {"str": "nowhere", "str?": None, "int": 0, "int?": None, "list": []}
    out = [Command(t, {k: blank[v] for k, v in fields.items()}, side) for t, fields in sorted(FIELDS.items())]
    for c in legal[:40]:
        bent = dict(c.data)
        for k, v in bent.items():
            if isinstance(v, str):
                bent[k] = "0101" if k in ("to", "hex") else v + "x"
        out.append(Command(c.type, bent, side))
    legal_set = {(c.type, json.dumps(c.data, sort_keys=True)) for c in legal}
    return [c for c in out if (c.type, json.dumps(c.data, sort_keys=True)) not in legal_set and c.type != "allocate"]


def _ask_everything(state: PBState, last: Any) -> None:
    for _name, f, kwargs in _query_calls(state):
        f(**kwargs)
    prompt = RULES.prompt(state)
    RULES.headline(state)
    RULES.end_phase_notes(state)
    if last is not None:
        RULES.describe(state, last)
    for viewer in (*SIDES, SPECTATOR, ADMIN):
        RULES.view(state, viewer)
        RULES.secrets(state, viewer)
    for side in SIDES:
        legal = RULES.legal_commands(state, side)
        for c in legal[:60]:
            RULES.label(state, c)
        RULES.described_commands(state, side)
        if side in prompt.acting:
            for c in _refused(state, side, legal):
                RULES._why(state, side, c)
    for pid in sorted(state.pieces)[:10]:
        RULES.reachable(state, pid)


def _random_game_asking(seed: int, options: dict[str, Any], every: int) -> int:
    """A random game, every question asked on every ``every``-th state; how many were."""
    rng = Chooser(f"questions:{seed}")
    events = RULES.create("short", options, derive_secret(seed, "questions"))
    state = replay(RULES, events)
    asked = 0
    for n in range(3000):
        prompt = RULES.prompt(state)
        if n % every == 0 or prompt.side is None:
            before = _frozen(state)
            seq = state.seq
            _ask_everything(state, events[-1] if events else None)
            assert state.seq == seq and _frozen(state) == before, f"a question changed the state at event {seq}"
            asked += 1
        if prompt.side is None:
            break
        legal = RULES.legal_commands(state)
        cmd = choose(rng, state.phase, legal)
        events = RULES.decide(state, Command(cmd.type, cmd.data, prompt.side))
        for e in events:
            RULES.apply(state, e)
    return asked


def test_questions_on_the_states_of_random_games_change_nothing() -> None:
    asked = _random_game_asking(3, dict.fromkeys(RULES.options, True), 3)
    asked += _random_game_asking(4, {}, 3)
    assert asked > 100
