"""Issue 32's no-cheating rule over many positions: a bot given two positions that differ
only in what its side may not know receives the same view and the same legal commands, and
decides the same.

Each position of a game between two greedy bots gets a twin: the dice secret changed and,
in Pacific Battles, the enemy's hidden things shuffled as its own choices could have left
them: two enemy counters the side has never seen, in stacks it has not examined, trade
places (18.1); a marker the enemy holds trades with one still in its cup (5.4); two enemy
reinforcements on the track it has not seen trade dates (18.6); the enemy's sealed air
allocation, while the side makes its own, splits its points otherwise (4.1 1c).  Over both
games more than 1,000 pairs are checked.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import bot_support
import pytest

from engine.bots import BotInput, make_bot
from engine.core.dice import derive_secret
from engine.core.events import Command
from engine.games import get_rules
from engine.games.pacific_battles import leaks
from engine.games.pacific_battles import queries as pbq
from engine.games.pacific_battles.movement import has_zoc
from engine.games.pacific_battles.state import PBState, other


def positions(game: str, seed: int, decisions: int) -> list[tuple[Any, BotInput, Command]]:
    """Every real choice of a game between two greedy bots: (the state, the input, the command),
    a sealed air allocation among them (one command listed, its points the bot's to split)."""
    rules = get_rules(game)
    bots = {s: make_bot(game, "greedy") for s in rules.sides}
    events = rules.create("campaign", {}, derive_secret(seed, "hidden-twins"))
    return bot_support.recorded_positions(rules, events, bots, decisions, lambda inp: len(
        [c for c in inp.legal if c.type != "undo"]) > 1 or inp.view.get("phase") == "air_allocation")


def pb_twin(state: PBState, side: str, rng: random.Random) -> PBState:
    """``state`` with the dice secret and the enemy's hidden things changed as described above."""
    twin = state.clone()
    twin.secret = f"another {state.secret}"
    enemy = other(side)
    unseen = [p for p in twin.on_map(enemy) if p.id not in twin.revealed[side] and p.id not in twin.face_up[enemy]
              and p.hex not in twin.examined[side] and has_zoc(pbq.forces(), p)]
    rng.shuffle(unseen)
    for a in unseen:
        b = next((b for b in unseen if b.hex != a.hex and b.unit != a.unit), None)
        if b is not None:
            twin.pieces[a.id], twin.pieces[b.id] = replace(a, hex=b.hex), replace(b, hex=a.hex)
            break
    shown = twin.played[enemy] | set(twin.in_effect[enemy])
    held = [m for m in twin.hand[enemy] if m not in shown]
    cup = [m for m in twin.pool[enemy] if m not in held]
    if held and cup:
        m, n = rng.choice(held), rng.choice(cup)
        twin.hand[enemy][twin.hand[enemy].index(m)] = n
        twin.pool[enemy][twin.pool[enemy].index(n)] = m
        twin.pool[enemy].sort()
    track = [o for o in twin.in_box(enemy, "track") if o.id not in twin.revealed[side]]
    rng.shuffle(track)
    for a in track:
        b = next((b for b in track if b.due != a.due), None)
        if b is not None:
            twin.off[a.id], twin.off[b.id] = replace(a, due=b.due), replace(b, due=a.due)
            break
    sealed = twin.round.for_side(enemy)
    if sealed is not None and side in twin.round.waiting:  # another split of the same points (4.1 1c)
        other_split = dict(sealed)
        give, take = ("superiority", "strike") if other_split.get("superiority") else ("strike", "superiority")
        if other_split.get(give):
            other_split[give] -= 1
            other_split[take] = other_split.get(take, 0) + 1
            twin.round.decisions[enemy] = other_split
    return twin


def check(game: str, twin: Any, inp: BotInput, cmd: Command) -> None:
    """The twin's view and legal commands are ``inp``'s, and greedy decides ``cmd`` in it, given
    the twin's log: the same but for the dice secret that the opening event holds."""
    rules = get_rules(game)
    legal = rules.legal_commands(twin, inp.side)
    assert tuple(legal) == inp.legal, "legality tells a hidden thing"
    view = rules.view(twin, inp.side, legal)
    # the commitment to the dice secret is public: a hash of it, made before any die is thrown
    assert {**view, "dice_commitment": None} == {**inp.view, "dice_commitment": None}, "the view tells a hidden thing"
    twin_input = bot_support.with_secret(replace(inp, view=view, legal=tuple(legal)), twin.secret)
    assert make_bot(game, "greedy").decide(twin_input).command == cmd


@pytest.fixture(scope="module")
def pacific_battles() -> list[tuple[Any, BotInput, Command]]:
    return positions("pacific_battles", 3, 1400)


def test_pacific_battles_twins_look_and_decide_the_same(pacific_battles):
    rng = random.Random(32)
    shuffled = resealed = 0
    for state, inp, cmd in pacific_battles:
        twin = pb_twin(state, inp.side, rng)
        hidden = leaks.hidden_things(state, inp.side)
        if leaks.hidden_things(twin, inp.side) != hidden or twin.hand != state.hand or twin.off != state.off:
            shuffled += 1
        resealed += twin.round.decisions != state.round.decisions
        check("pacific_battles", twin, inp, cmd)
    assert len(pacific_battles) >= 700
    assert shuffled >= 0.8 * len(pacific_battles)  # nearly every twin hides something else
    assert resealed >= 5  # the enemy's sealed allocation split otherwise, while this side allocates


def test_first_blood_twins_differ_in_the_dice_secret_and_decide_the_same():
    pairs = positions("first_blood", 5, 600)
    assert len(pairs) >= 300
    for state, inp, cmd in pairs:
        twin = get_rules("first_blood").clone(state)
        twin.secret = f"another {state.secret}"
        check("first_blood", twin, inp, cmd)
