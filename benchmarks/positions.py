"""Games at positions spread from the set-up to the last turn, for the benchmarks.

A whole game of random legal commands is played by the engine in this process (the
self-play chooser of ``engine/selfplay.py``, the server's default scenario), written as
the export file the server would give for it, cut after the command that ends at or
before the wanted number of events, and imported by an admin (``POST
/api/games/import``: the server replays and checks every command).  The imported game
is the position: its seats' secrets come back in the answer's links, and a browser's
seat cookie is had as a browser has it, by posting the secret to ``POST
/games/{id}/seat``.

Over the API the benchmarks then play on from there with :func:`pick`, the same
chooser on the commands ``/legal`` answers, so that two copies of one position (one for
the JSON API, one for the board's form post) are sent the same commands and roll the
same dice.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import httpx

from app.services.dice_keys import PERIODS
from engine.core import seeds
from engine.core.choices import expand
from engine.core.dice import derive_secret
from engine.core.events import Command
from engine.core.game import replay
from engine.games import get_rules
from engine.record.keyed import Periods, decide_keyed
from engine.selfplay import Chooser, choose

# how the positions' dice are made: "chains" (record version 2, as a game made now: each
# decision keyed by its period's seed and both players' entropy) or "legacy" (one secret)
DICE = ("chains", "legacy")

EXPORT_FORMAT = "guadalcanal-pbem/1"  # app/services/games.py
SCENARIO = "campaign"  # the server's default (app/schemas.py NewGame)
GAMES = ("first_blood", "pacific_battles")
TITLES = {"first_blood": "First Blood", "pacific_battles": "Pacific Battles"}


@dataclass
class Played:
    """A whole game played by the engine: its events as an export file lists them."""

    game: str
    events: list[dict[str, Any]]  # each: seq, type, data, side, actor, command
    starts: list[int]  # the seq that starts each command's events (the creation's at 0)
    dice: dict[str, Any] | None = None  # "chains": the export's "dice" (tops and entropy)


def _tops(game: str, index: int, seed: int) -> str:
    return "".join(hashlib.sha256(f"bench-{c}-{game}-{seed}-{index}".encode()).hexdigest() for c in seeds.CHAINS)


@cache
def play_whole(game: str, index: int, seed: int = 1, dice: str = "chains") -> Played:
    """One random game to its end (or 20,000 decisions), deterministic in its arguments."""
    rules = get_rules(game)
    rng = Chooser(f"bench:{game}:{seed}:{index}")
    tops = _tops(game, index, seed)
    chains = {c: seeds.chain(tops[k * 64:(k + 1) * 64], PERIODS) for k, c in enumerate(seeds.CHAINS)}
    entropy = {side: f"bench {side} {index}" for side in rules.sides}
    periods = Periods()
    created = rules.create(SCENARIO, {}, None if dice == "chains" else  # type: ignore[arg-type]
                           derive_secret(seed, f"bench-{game}-{index}"))
    events = [_row(len_, e, None, None) for len_, e in enumerate(created)]
    starts = [0]
    state = replay(rules, created)
    for _ in range(20_000):
        prompt = rules.prompt(state)
        if prompt.side is None:
            break
        legal = rules.legal_commands(state)
        if not legal:
            break
        cmd = choose(rng, getattr(state, "phase", ""), legal)
        cmd = Command(cmd.type, cmd.data, prompt.side)
        if dice == "chains":
            period = periods.at(rules, state)
            new, _rolls, _chain = decide_keyed(rules, state, cmd,
                                               lambda c, p=period: seeds.turn_key(chains[c][p], entropy))
        else:
            new = rules.decide(state, cmd)
        starts.append(len(events))
        for i, e in enumerate(new):
            rules.apply(state, e)
            events.append(_row(len(events), e, prompt.side, cmd.to_json() if i == 0 else None))
    made = {"tops": tops, "entropy": {s: {"text": t, "made_by": "player"} for s, t in entropy.items()}}
    return Played(game, events, starts, made if dice == "chains" else None)


def _row(seq: int, e: Any, actor: str | None, command: dict[str, Any] | None) -> dict[str, Any]:
    return {"seq": seq, "type": e.type, "data": json.loads(json.dumps(e.data)), "side": e.side, "actor": actor,
            "command": command}


def export_at(played: Played, events: int) -> dict[str, Any]:
    """The export file of the game cut after the last whole command that ends at or before
    ``events`` events (never at the game's end: the position is still to be played)."""
    cut = max(s for s in played.starts if s <= events and s < len(played.events))
    if cut == played.starts[-1]:  # keep the game unfinished: leave its last command out
        cut = played.starts[-2]
    return {"format": EXPORT_FORMAT, "game": played.game, "scenario": SCENARIO, "options": {}, "title": "bench",
            "status": "active", "result": None, "created_at": "2026-01-01T00:00:00+00:00",
            "seats": [{"side": s, "name": f"bench {s}"} for s in get_rules(played.game).sides],
            "events": played.events[:cut], **({"dice": played.dice} if played.dice else {})}


@dataclass
class Position:
    """An imported game: its secrets, and each seat's signed cookie as a browser holds it."""

    game: str
    id: str
    tokens: dict[str, str]
    cookies: dict[str, str] = field(default_factory=dict)
    pages: dict[str, dict[str, str]] = field(default_factory=dict)  # side -> the map parts its page shows
    start_events: int = 0
    last_seq: int = -1


def import_position(client: httpx.Client, base: str, export: dict[str, Any], admin: tuple[str, str],
                    seats: bool = True) -> Position:
    """Import ``export`` as an admin; with ``seats``, take each seat's cookie as its browser would."""
    client.cookies.clear()
    r = client.post(f"{base}/api/games/import", json=export, auth=admin)
    if r.status_code != 201:
        raise RuntimeError(f"import refused: {r.status_code} {r.text[:500]}")
    body = r.json()
    pos = Position(export["game"], body["game_id"],
                   {side: link.split("#token=", 1)[1] for side, link in body["seats"].items()},
                   start_events=len(export["events"]))
    if seats:
        for side, token in pos.tokens.items():
            pos.cookies[side] = seat_cookie(client, base, pos.id, token)
    return pos


def seat_cookie(client: httpx.Client, base: str, gid: str, token: str) -> str:
    """``POST /games/{id}/seat`` with the secret, as the page posts it from its link: the cookie."""
    client.cookies.clear()
    r = client.post(f"{base}/games/{gid}/seat", data={"token": token},
                    headers={"Origin": base, "Sec-Fetch-Site": "same-origin"}, follow_redirects=False)
    if r.status_code != 303:
        raise RuntimeError(f"taking the seat failed: {r.status_code} {r.text[:300]}")
    cookie = r.cookies[f"seat_{gid}"]
    client.cookies.clear()
    return cookie


def pick(legal: dict[str, Any], rng: Chooser) -> dict[str, Any] | None:
    """A command for the ``/legal`` answer ``legal`` (its choices, expanded) by the
    self-play chooser, as JSON (None: nothing listed).  Take-backs are left out: a
    benchmark times moving on."""
    commands = [Command(c["type"], c["data"]) for c in expand(legal["choices"]) if c["type"] != "undo"]
    if not commands:
        return None
    kind = f"{legal['prompt'].get('kind') or ''} {legal['prompt'].get('rule') or ''}".lower()
    c = choose(rng, kind, commands)
    return {"type": c.type, "data": c.data}
