"""Random self-play: both sides pick random legal commands until the game ends.

    python -m engine.selfplay --game first_blood --games 200 --seed 1
    python -m engine.selfplay --game first_blood --bots greedy,random   (levels, in the order of the sides)

A game "finished" when the rules declared a result; an "error" is an exception
or a dead end (no legal command while the game is not over); a "replay
mismatch" is a game whose log, written to JSON and replayed from scratch, does
not give the same final state.  For a game with hidden information (its rules'
``hidden_information``), a "leak" is any view, log line or event that a side or a
spectator receives after a command holding something the state says it may not
know (engine/games/pacific_battles/leaks.py).  The engine may not use ``random``, so the
chooser is a small hash-based generator of its own.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from engine.core.dice import derive_secret
from engine.core.events import Command, Event
from engine.core.game import replay
from engine.core.visibility import SPECTATOR, for_viewer
from engine.games import get_rules

MAX_DECISIONS = 20_000
# How eagerly the random players end a phase when they may (the rest of the
# time they pick a random kind of command, then a random command of that kind).
END_BIAS = {"movement": 0.12, "combat": 0.05, "engineering": 0.3, "air": 0.3}
UNDO_RATE = 0.03  # how often a random player takes back a step when it may


class Chooser:
    """Deterministic stream of choices from a seed (SHA-256 in counter mode)."""

    def __init__(self, seed: str) -> None:
        self.seed = seed.encode()
        self.counter = 0

    def unit(self) -> float:
        self.counter += 1
        digest = hashlib.sha256(self.seed + self.counter.to_bytes(8, "big")).digest()
        return int.from_bytes(digest[:8], "big") / 2**64

    def pick(self, items: list[Any]) -> Any:
        return items[int(self.unit() * len(items))]


def choose(rng: Chooser, phase: str, legal: list[Command]) -> Command:
    undos = [c for c in legal if c.type == "undo"]
    if undos and (rng.unit() < UNDO_RATE or len(undos) == len(legal)):
        return undos[0]
    legal = [c for c in legal if c.type != "undo"]
    ends = [c for c in legal if c.type in ("end_phase", "end_advance")]
    rest = [c for c in legal if c.type not in ("end_phase", "end_advance", "cancel_attack", "cancel", "withdraw")]
    bias = next((v for k, v in END_BIAS.items() if k in phase), 0.1)
    if ends and (not rest or rng.unit() < bias):
        return ends[0]
    if not rest:
        return rng.pick(legal)
    by_type: dict[str, list[Command]] = defaultdict(list)
    for c in rest:
        by_type[c.type].append(c)
    kinds = sorted(by_type)
    for eager in ("resolve", "fight"):  # a declared attack is fought more often than not
        if eager in by_type and rng.unit() < 0.5:
            return by_type[eager][0]
    return rng.pick(by_type[rng.pick(kinds)])


@dataclass
class GameRecord:
    events: list[Event] = field(default_factory=list)
    winner: str | None = None
    error: str | None = None
    replay_ok: bool = True
    leaks: int = 0
    leak_examples: list[str] = field(default_factory=list)


def find_leaks(rules: Any, before: Any, new: list[Event], after: Any) -> list[str]:
    """What each viewer receives for one command (the view after it, and each event as it
    may read it with its log line), searched for what the state says it may not know."""
    from engine.games.pacific_battles.leaks import find

    hits = []
    for viewer in (*rules.sides, SPECTATOR):
        needles = rules.secrets(after, viewer)
        if not needles:
            continue
        texts = [json.dumps(rules.view(after, viewer), sort_keys=True)]
        scratch = rules.clone(before)
        for e in new:
            seen = for_viewer(e, viewer, rules.sides)
            if seen is not None:
                texts.append(json.dumps(seen.data, sort_keys=True))
                texts.append(rules.describe(scratch, seen) or "")
            rules.apply(scratch, e)
        for needle in find(needles, "\n".join(texts)):
            hits.append(f"{viewer or 'spectator'} sees {needle!r} at event {after.seq}")
    return hits


def play_one(game: str, seed: int, index: int, check_leaks: bool = True,
             options: dict[str, Any] | None = None, bots: tuple[str, ...] | None = None) -> GameRecord:
    """One game; ``bots``: a bot level for each side, in the order of the rules' sides
    (engine/bots), instead of the random chooser for both."""
    rules = get_rules(game)
    check_leaks = check_leaks and rules.hidden_information
    rng = Chooser(f"{game}:{seed}:{index}")
    rec = GameRecord()
    try:
        rec.events = rules.create("campaign", dict(options or {}), derive_secret(seed, f"selfplay-{index}"))
        state = replay(rules, rec.events)
        seated = _seat_bots(rules, bots, rec.events)
        for _ in range(MAX_DECISIONS):
            prompt = rules.prompt(state)
            if prompt.side is None:
                break
            legal = rules.legal_commands(state)
            if not legal:
                rec.error = f"dead end at event {state.seq}: {prompt.text}"
                break
            if seated is None:
                cmd = choose(rng, getattr(state, "phase", ""), legal)
            else:
                seats, players = seated
                inp = seats.input_for(state, prompt.side, f"{game}:{seed}:{index}:{prompt.side}")
                cmd = players[prompt.side].decide(inp).command
            before = rules.clone(state) if check_leaks else None
            new = rules.decide(state, Command(cmd.type, cmd.data, prompt.side))
            for e in new:
                rules.apply(state, e)
            rec.events.extend(new)
            if seated is not None:
                seated[0].hand_out(new)
            if check_leaks:
                hits = find_leaks(rules, before, new, state)
                rec.leaks += len(hits)
                rec.leak_examples.extend(hits[: max(0, 3 - len(rec.leak_examples))])
        else:
            rec.error = "too many decisions"
        if rec.error is None:
            rec.winner = (state.result or {}).get("winner")
        round_trip = [Event.from_json(o) for o in json.loads(json.dumps([e.to_json() for e in rec.events]))]
        again = replay(rules, round_trip)
        rec.replay_ok = rules.state_to_json(again) == rules.state_to_json(state)
    except Exception as exc:  # noqa: BLE001 - self-play reports every failure
        rec.error = f"{type(exc).__name__}: {exc}"
    return rec


def _seat_bots(rules: Any, bots: tuple[str, ...] | None, events: list[Event]) -> tuple[Any, dict[str, Any]] | None:
    """The seats and a bot for each side, or None for the random chooser."""
    if not bots:
        return None
    from engine.bots import make_bot
    from engine.bots.seat import Seats

    if len(bots) != len(rules.sides):
        raise ValueError(f"--bots names one level per side ({', '.join(rules.sides)})")
    players = {side: make_bot(rules.id, level) for side, level in zip(rules.sides, bots, strict=True)}
    return Seats(rules, events), players


def run(game: str, games: int, seed: int, out: Any = None, keep_longest: bool = False,
        check_leaks: bool = True, options: dict[str, Any] | None = None,
        bots: tuple[str, ...] | None = None) -> dict[str, Any]:
    out = out or sys.stdout
    stats = {"games": games, "finished": 0, "errors": 0, "replay_mismatches": 0}
    hidden = check_leaks and get_rules(game).hidden_information
    if hidden:
        stats["leaks"] = 0
    wins: dict[str, int] = defaultdict(int)
    longest: list[Event] = []
    started = time.perf_counter()
    for i in range(games):
        rec = play_one(game, seed, i, check_leaks, options, bots)
        if rec.error:
            stats["errors"] += 1
            print(f"game {i}: ERROR {rec.error}", file=out)
        if not rec.replay_ok:
            stats["replay_mismatches"] += 1
            print(f"game {i}: replay mismatch", file=out)
        if rec.leaks:
            stats["leaks"] += rec.leaks
            for example in rec.leak_examples:
                print(f"game {i}: LEAK {example}", file=out)
        if rec.winner:
            stats["finished"] += 1
            wins[rec.winner] += 1
        if keep_longest and len(rec.events) > len(longest):
            longest = rec.events
    stats["seconds"] = round(time.perf_counter() - started, 1)
    sides = get_rules(game).sides
    stats.update({f"{s.lower()}_wins": wins[s] for s in sides})
    if keep_longest:
        stats["longest"] = longest
    summary = " ".join(f"{k}={v}" for k, v in stats.items() if k not in ("seconds", "longest"))
    print(f"# {stats['seconds']} s", file=out)
    print(summary, file=out)
    return stats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="first_blood")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save-longest", help="write the longest game's log (JSON) here")
    parser.add_argument("--options", default="", help="game options to switch on, comma-separated")
    parser.add_argument("--bots", default="", help="a bot level per side, in the order of the sides "
                                                   "(e.g. greedy,random); default: random chooser for both")
    args = parser.parse_args(argv)
    options = {name: True for name in args.options.split(",") if name}
    bots = tuple(level for level in args.bots.split(",") if level) or None
    stats = run(args.game, args.games, args.seed, keep_longest=bool(args.save_longest), options=options,
                bots=bots)
    if args.save_longest:
        with open(args.save_longest, "w") as fh:
            json.dump([e.to_json() for e in stats["longest"]], fh)
    return 0 if stats["errors"] == 0 and stats["replay_mismatches"] == 0 and not stats.get("leaks") else 1


if __name__ == "__main__":
    raise SystemExit(main())
