"""Level ``search`` for First Blood: greedy, with a time-bounded look-ahead where dice decide.

For a combat step (an attack, a unit added, the roll) and the choices after a roll
(losses, retreats, advance), the few best commands by greedy's ranking are each
played on a copy of the believed state with dice of the bot's own (a new secret per
sample, never the game's), the rest of the combat and its results played by greedy for
both sides, and the position reached scored whole (``evaluation.position_value``).
Samples go round the candidates until the time is up (a look-ahead without a die
needs one); the best mean wins, greedy's order breaking ties.  The number of rounds
is the decision's note: given back in the input (``BotInput.rounds``) it replays the
decision exactly, however fast the machine.  More time weighs more candidates
(``candidates``: four at the default 0.3 s, seven at 1 s).  In a movement or
placement phase the unit greedy picks (the most constrained) is given the best of its
few best places by the same whole-position score after the move.  The air and
engineering phases play greedy's choice.  As the IJ it keeps one IJN Reserve destroyer
out of bombardment for the supply roll (``keep_supply_cover``).  It sets up as greedy does,
from the set-up book (``book.py``).  Same input as every level: only time and its own
dice differ.
"""

from __future__ import annotations

import math
import time

from engine.bots.base import BotInput, Decision, choices, sub_seed
from engine.bots.first_blood.evaluation import position_value
from engine.bots.first_blood.greedy import FirstBloodGreedy, best_command, ranked
from engine.core.events import Command
from engine.games.first_blood import queries as q
from engine.games.first_blood.rules import RULES
from engine.games.first_blood.state import IJN_RESERVE, FBState

DEFAULT_SECONDS = 0.3
CANDIDATES = 4
FOLLOW_UP = 40  # at most this many greedy commands to finish a combat in a sample
SEARCHED = ("attack", "add", "resolve", "eliminate", "retreat", "advance", "end_advance", "move", "place")
SAME_KIND = ("move", "place")  # weighed only against other places for the same unit
MARGIN = 0.5  # a look-ahead must beat greedy's choice by this much (a ground unit is worth 3-10) ...
Z = 2.0  # ... and by this many standard errors of the paired differences


class FirstBloodSearch(FirstBloodGreedy):
    level = "search"

    def decide(self, inp: BotInput) -> Decision:
        legal = choices(inp.legal)
        settled = self.unweighed(inp, legal)
        if settled is not None:
            return settled
        started = time.perf_counter()
        state = self.believed(inp)
        legal = keep_supply_cover(state, inp.side, legal)
        if len(legal) == 1:
            return Decision(legal[0])
        if supply_loss(state):
            return Decision(best_command(state, inp.side, legal))
        budget = DEFAULT_SECONDS if inp.seconds is None else inp.seconds
        cands = ranked(state, inp.side, legal, candidates(budget))
        if cands[0].type in SAME_KIND:
            cands = [c for c in cands if c.type == cands[0].type and c.data["unit"] == cands[0].data["unit"]]
        if len(cands) == 1 or not any(c.type in SEARCHED for c in cands):
            return Decision(cands[0])
        deadline = started + budget
        values: list[list[float]] = [[] for _ in cands]  # each sample's, the same dice for all (paired)
        settled = [False] * len(cands)  # no die in its look-ahead: one sample says all
        sample = 0
        while sample == 0 or (not all(settled) and (time.perf_counter() < deadline if inp.rounds is None
                                                     else sample < inp.rounds)):
            for i, cmd in enumerate(cands):  # a round is whole: its count replays the decision
                if settled[i]:
                    continue
                secret = sub_seed(inp.seed, "dice", len(inp.events), sample)
                value, rolled = look_ahead(state, inp.side, cmd, secret)
                values[i].append(value)
                settled[i] = not rolled
            sample += 1
        means = [sum(v) / len(v) if v else float("-inf") for v in values]
        return Decision(cands[choose(values, settled)], notes={"rounds": sample, "means": means})


def candidates(budget: float) -> int:
    """How many of greedy's best commands a decision weighs: ``CANDIDATES`` at the default
    time, more with more time (as the square root: each needs its share of the samples
    to beat greedy's choice with confidence, ``choose``)."""
    return max(CANDIDATES, round(CANDIDATES * math.sqrt(budget / DEFAULT_SECONDS)))


def keep_supply_cover(state: FBState, side: str, legal: list[Command]) -> list[Command]:
    """The IJ keeps one destroyer of its IJN Reserve out of air strip bombardment (§7.10):
    the supply roll follows the combat phase (§8), and on a 4-6 that destroyer's supply run
    is lost instead of a ground unit (one in two turns: some five battalions a game, of 21).
    The others still bombard; the one kept goes to the Attack box and may bombard next turn (§9)."""
    if side != "IJ" or not state.phase.endswith("_combat"):
        return legal
    reserve = [u for u, x in state.units.items() if x.loc == IJN_RESERVE and q.spec(u).kind == "destroyer"]
    if len(reserve) != 1:
        return legal
    kept = [c for c in legal if not (c.type == "bombard" and c.data.get("unit") == reserve[0])]
    return kept or legal


def supply_loss(state: FBState) -> bool:
    """Whether the IJ is choosing what to give up to the supply roll (§8).  Greedy's
    choice stands: an IJN Reserve destroyer first.  The look-ahead's whole-position score
    counts no destroyer, and an IJ battalion held far from the strips, with its exposure,
    can score near nothing there: it gave up a battalion instead of the destroyer kept
    for this (``keep_supply_cover``) in two turns of four where it had the choice."""
    return any(p.get("kind") == "supply_loss" for p in state.pending)


def choose(values: list[list[float]], settled: list[bool]) -> int:
    """Greedy's choice (the first) unless another beats it with confidence: its paired
    differences with greedy's (the same dice in each sample) average more than ``MARGIN``
    and more than ``Z`` standard errors.  A few noisy samples then never overrule greedy's
    evaluation, which is what the look-ahead's scores are least sure of."""
    best, best_gain = 0, 0.0
    base = values[0]
    for i in range(1, len(values)):
        v = values[i]
        if not v or not base:
            continue
        n = max(len(v), len(base))
        diffs = [v[k % len(v)] - base[k % len(base)] for k in range(n)]  # a settled one is the same each sample
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
        stderr = math.sqrt(var / n)
        if n == 1 and not (settled[i] and settled[0]):
            continue  # one sample of dice says too little
        if mean > MARGIN and mean > Z * stderr and mean > best_gain:
            best, best_gain = i, mean
    return best


def look_ahead(state: FBState, side: str, cmd: Command, secret: str) -> tuple[float, bool]:
    """``cmd`` played on a copy with dice from ``secret``, the combat it belongs to and the
    results after it finished by greedy, the position then scored for ``side``; and
    whether a die was rolled on the way."""
    s = RULES.clone(state)
    s.secret = secret
    rolled = _play(s, Command(cmd.type, cmd.data, side))
    for _ in range(FOLLOW_UP):
        if s.result is not None or (s.combat is None and not s.pending):
            break
        acting = RULES.prompt(s).side
        if acting is None:
            break
        legal = choices(RULES.legal_commands(s, acting))
        if not legal:
            break
        rolled |= _play(s, Command(*_as_pair(best_command(s, acting, legal)), acting))
    return position_value(s, side), rolled


def _as_pair(cmd: Command) -> tuple[str, dict]:
    return cmd.type, cmd.data


def _play(state: FBState, cmd: Command) -> bool:
    """Play ``cmd``; whether a die was rolled."""
    rolled = False
    for e in RULES.decide(state, cmd):
        rolled |= e.data.get("die") is not None
        RULES.apply(state, e)
    return rolled
