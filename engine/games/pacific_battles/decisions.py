"""The decisions a side may owe in the middle of a phase (``state.pending``, written by
``tell.owe``), one row a kind: the commands that answer it (the legal list), what the
side must do (the prompt and why another command is refused), the rule a refusal
names when the decision names none, and the steps that run by themselves while it is
owed (``flow.settle``).  Who decides is the decision's own "side"."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from engine.core.events import Command
from engine.core.game import Emitter
from engine.games.pacific_battles import arrivals, battles, planning, supplying, variable
from engine.games.pacific_battles.state import PBState

Options = Callable[[PBState, str], Iterator[Command]]
Advance = Callable[[Emitter, dict[str, Any]], bool]


def _nothing(state: PBState, side: str) -> Iterator[Command]:
    return iter(())


def _waits(em: Emitter, d: dict[str, Any]) -> bool:
    return False


def gen_magic(state: PBState, side: str) -> Iterator[Command]:
    for t in state.pending[0]["turns"]:
        yield Command("delay_turn", {"turn": t})
    yield Command("pass")


@dataclass(frozen=True)
class Kind:
    options: Options  # the legal commands of the side that owes it
    text: str  # "<side> must <text>"
    rule: str  # named by a refusal when the decision names no rule of its own
    advance: Advance = _waits  # its automatic steps: True when one ran (the queue is looked at again)


KINDS: dict[str, Kind] = {
    "losses": Kind(battles.gen_losses, "choose the units lost", "15.2", battles.advance_losses),
    "retreat": Kind(battles.gen_retreat, "retreat the units of the battle", "15.3", battles.advance_retreat),
    "pursue": Kind(battles.gen_pursue, "pursue, or stop", "15.4", battles.advance_pursue),
    "react": Kind(battles.gen_react, "play a marker on the declared battles, or pass", "14.41"),
    "crt": Kind(battles.gen_crt, "choose the Raid or the Assault CRT", "14.4"),
    "fire": Kind(planning.gen_fire, "choose how many air superiority points fire at other missions (16.52)",
                 "16.52"),
    "air_hits": Kind(planning.gen_hits, "choose the enemy missions that take the air losses (16.52)", "16.52"),
    "dig_in": Kind(supplying.gen_dig, "place the Dig In fortifications", "21.0"),
    "staff": Kind(supplying.gen_staff, "activate an HQ for free (Staff Planning)", "7.3"),
    "magic": Kind(gen_magic, "delay one turn's Japanese reinforcements, or pass (MAGIC)", "18.7"),
    # runs by itself (battles.advance_landing): never waits for a command, so its rule is never named
    "landing": Kind(_nothing, "land the assault from the sea (22.3)", "4.2", battles.advance_landing),
    variable.OWED: Kind(variable.gen_roll, "roll the die for its start force, in secret (Variable Forces)",
                        "35.4"),
    "interdict": Kind(arrivals.gen_interdict,
                      "choose what the interdiction attacks next: a landing unit or a supply point (16.61)", "16.61"),
}


def owed(state: PBState) -> tuple[dict[str, Any], Kind] | None:
    """The decision at the head of the queue, with its row (None: none owed)."""
    if not state.pending:
        return None
    d = state.pending[0]
    return d, KINDS[d["kind"]]


def options(state: PBState, side: str) -> Iterator[Command]:
    """The commands that answer the owed decision, if ``side`` owes it."""
    head = owed(state)
    if head is not None and head[0]["side"] == side:
        yield from head[1].options(state, side)


def must(d: dict[str, Any]) -> str:
    """What the deciding side must do, in words ("choose the units lost")."""
    return KINDS[d["kind"]].text


def rule(d: dict[str, Any]) -> str:
    """The rule a command refused while ``d`` is owed names."""
    return d.get("rule") or KINDS[d["kind"]].rule


def advance(em: Emitter) -> bool:
    """Run the head decision's automatic steps; True when something changed."""
    d = em.state.pending[0]
    return KINDS[d["kind"]].advance(em, d)
