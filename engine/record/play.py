"""A real game played and recorded the way a server would record it: random legal
commands for both sides (``engine.selfplay``'s chooser), each decision keyed by its
period's seed and both players' entropy, the open seeds published as the periods end,
chat lines, clock entries and an admin's note along the way, and when the game is over
the top seeds and the record's salt.  For tests, examples and the documentation; every
secret is derived from the arguments, where a server draws them from ``secrets``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from typing import Any

from engine.core import record as rec
from engine.core import seeds
from engine.core.events import Command, Event
from engine.core.game import replay
from engine.games import get_rules
from engine.record.book import ADMIN, SPECTATOR, Recorder
from engine.record.keyed import Periods, captured, decide_keyed, rolls_by_event
from engine.selfplay import Chooser, choose

PERIODS = 64
MAX_DECISIONS = 20_000


def derived(label: str, tag: str) -> str:
    """A 64-hex-digit secret for tests (a server uses ``secrets.token_hex(32)``)."""
    return hashlib.sha256(f"{label}:{tag}".encode()).hexdigest()


def append_batch(book: Recorder, events: list[Event], command: Command | None, key: tuple[str, int],
                 rolls: list[list[int]]) -> None:
    """One decision: its command (none for the game's creation), then its events, each with
    the decision's key and, when the key is the open chain's, the rolls made while it was
    the next event (a hidden decision's rolls are not listed: they could tell a side what it
    may not know, and its seed comes out only at the end, when the replay checks every die)."""
    if command is not None:
        book.command(command.to_json())
    first = book.events
    by_event = rolls_by_event(rolls, first, len(events)) if key[0] == seeds.OPEN else {}
    for i, event in enumerate(events):
        book.event(event.to_json(), key, by_event.get(first + i))


def play(game: str, seed: int = 1, options: dict[str, Any] | None = None, stop_after: int | None = None,
         chat_every: int = 50) -> tuple[Recorder, Any]:
    """The record of one random game of ``game`` and its last state; ``stop_after``: stop
    (unfinished, nothing published at the end) once that many events are written."""
    rules = get_rules(game)
    tag = f"{game}:{seed}"
    book = Recorder(rules.id, rules.sides, rules.hidden_information, open_top=derived("open", tag),
                    hidden_top=derived("hidden", tag), record_salt=derived("salt", tag), periods=PERIODS)
    entropy = {side: derived(f"entropy:{side}", tag)[:32] for side in rules.sides}
    for side in rules.sides:
        book.entropy_commit(side, seeds.entropy_commitment(entropy[side]))
    for side in rules.sides:
        book.entropy_reveal(side, entropy[side])
    with captured() as rolls:
        created = rules.create("campaign", dict(options or {}), book.key(seeds.HIDDEN, 1))
    append_batch(book, created, None, (seeds.HIDDEN, 1), rolls)
    state = replay(rules, created)
    rng, periods = Chooser(tag), Periods()
    for step in range(MAX_DECISIONS):
        prompt = rules.prompt(state)
        if prompt.side is None or (stop_after is not None and book.events >= stop_after):
            break
        legal = rules.legal_commands(state)
        picked = choose(rng, getattr(state, "phase", ""), legal)
        command = Command(picked.type, picked.data, prompt.side)
        period = periods.at(rules, state)
        for done in range(1, period):  # the periods over: their open seeds are published
            if done not in book.published[seeds.OPEN]:
                book.publish_seed(seeds.OPEN, done)
        events, rolls, chain = decide_keyed(rules, state, command, lambda c, p=period: book.key(c, p))
        append_batch(book, events, command, (chain, period), rolls)
        for event in events:
            rules.apply(state, event)
        if step % chat_every == 0:
            book.chat(prompt.side, f"step {step}: your move", at=f"2026-01-01T00:{step % 60:02d}:00Z")
            book.note(rec.CLOCK, side=prompt.side, hours_left=72 - step % 72)
        if step == 7:
            book.note(rec.ADMIN_ACT, admin="referee", act="note", text="a word to everybody")
            book.chat(None, f"to {rules.sides[0]} only: a word from the referee", readers=[rules.sides[0]])
    if state.result is not None:
        book.finish()
    return book, state


def main(argv: list[str] | None = None) -> int:
    """``python -m engine.record.play --game first_blood --viewer US > record.json``: a record
    file to try ``python -m engine.verify`` on."""
    parser = argparse.ArgumentParser(prog="python -m engine.record.play", description=main.__doc__)
    parser.add_argument("--game", default="first_blood")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stop-after", type=int, help="stop the game once this many events are written")
    parser.add_argument("--viewer", default=ADMIN, help=f"a side, {SPECTATOR} or {ADMIN}")
    args = parser.parse_args(argv)
    book, _ = play(args.game, args.seed, stop_after=args.stop_after)
    json.dump(book.export(args.viewer), sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
