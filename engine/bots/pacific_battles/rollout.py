"""A choice played out: on a believed state (``belief.py``), the choice, then greedy for
both sides to the end of the turn; what it is worth is the side's lead in victory points
then (every VP of the turn: the air units shot down, the units struck and fought, the
objective hexes and Henderson Field at the checks).

Greedy plays each side from that side's view of the believed state, as it plays a game;
the dice are the rollout's own secret.  Everything here is the bot's belief: the rules run
on it as they run on a game, and nothing of the game's own state is read.
"""

from __future__ import annotations

from engine.bots.base import BotInput, sub_seed
from engine.bots.pacific_battles.greedy import PacificBattlesGreedy
from engine.core.errors import RuleError
from engine.core.events import Command
from engine.games.pacific_battles.rules import PacificBattles
from engine.games.pacific_battles.state import PBState, other

MAX_DECISIONS = 2_000  # a turn of greedy against greedy takes some 300-600


def play_out(rules: PacificBattles, believed: PBState, side: str, command: Command, seed: str) -> float | None:
    """``side``'s VP lead at the end of the turn after ``command`` on ``believed`` (left as
    it is: played on a copy), greedy playing both sides on; None: the rules refuse it
    there."""
    state = rules.clone(believed)
    state.secret = sub_seed(seed, "dice")
    try:
        for e in rules.decide(state, Command(command.type, command.data, side)):
            rules.apply(state, e)
    except RuleError:
        return None
    turn = state.turn
    greedy = PacificBattlesGreedy()
    for n in range(MAX_DECISIONS):
        prompt = rules.prompt(state)
        if prompt.side is None or state.turn != turn:
            break
        who = prompt.side
        try:
            legal = rules.legal_commands(state, who)
            if not legal:
                break
            inp = BotInput(rules.id, who, (), rules.view(state, who, legal), tuple(legal), sub_seed(seed, who, n))
            cmd = greedy.decide(inp).command
            for e in rules.decide(state, Command(cmd.type, cmd.data, who)):
                rules.apply(state, e)
        except Exception as exc:  # noqa: BLE001 - a guess the rules cannot play on from
            raise Unplayable(f"{type(exc).__name__}: {exc}") from exc
    return float(state.vp[side] - state.vp[other(side)])


class Unplayable(Exception):
    """The belief holds a guess the rules cannot go on from (an approximation of what is
    hidden, not a rule): the sample is dropped, for every choice alike."""
