"""Level ``greedy`` for First Blood: one ply over the legal commands, each scored by the
evaluation (``evaluation.py``) of what it leads to.

A bot is asked one command at a time, so a phase is built a command at a time: in a
movement or placement phase each call moves (or places) the most constrained unit that
gains by it (fewest places to go), until none does; in a combat phase the attacks are
declared best first and each is given the units worth more to it than to any other
attack they could make (§7's obligations are met because the rules offer only steps of
a plan that meets them, R-7a); losses, retreats and advances are chosen by the same
scores.  Everything is computed from the believed state (``knowledge.py``).  A set-up
is played from the set-up book (``book.py``) as far as the position allows.
"""

from __future__ import annotations

from collections import defaultdict

from engine.bots.base import BotInput, Decision, choices
from engine.bots.first_blood import book as book_setups
from engine.bots.first_blood import odds
from engine.bots.first_blood.book import SetUp
from engine.bots.first_blood.evaluation import (
    NO_PLACE,
    attack_outcome,
    net,
    place_value,
)
from engine.bots.first_blood.picture import Picture, find_joiners, picture
from engine.bots.knowledge import Believer, own_secret
from engine.bots.loops import going_round, way_out
from engine.core.events import Command
from engine.games.first_blood import queries as q
from engine.games.first_blood.phases import mandatory, movement
from engine.games.first_blood.rules import RULES
from engine.games.first_blood.state import CAP, FBState, is_map_hex

GAIN = 0.3  # a unit moves only for more than this (each step is a command: no dithering)
MANY = 4  # alternatives a ranking offers at most, per choice
SUPPORT_GAIN = 0.2  # an air or naval unit supports an attack that gains more than this
TAKEN_BACK = ("combat_cancelled",)  # an attack taken back (loops.py)


class FirstBloodGreedy:
    level = "greedy"

    def __init__(self, book: dict[str, tuple[SetUp, ...]] | None = None) -> None:
        self.believer = Believer(RULES)
        self.book = book_setups.load() if book is None else book  # the set-ups it draws from (book.py)

    def believed(self, inp: BotInput) -> FBState:
        return self.believer.state_for(inp.events, own_secret(inp.seed))

    def decide(self, inp: BotInput) -> Decision:
        legal = choices(inp.legal)
        settled = self.unweighed(inp, legal)
        if settled is not None:
            return settled
        state = self.believed(inp)
        return Decision(best_command(state, inp.side, legal))

    def unweighed(self, inp: BotInput, legal: list[Command]) -> Decision | None:
        """A decision that weighs nothing (every level above random): forced (one legal
        command), the way out of a loop, or the set-up book's next placement; None if not."""
        if len(legal) == 1:
            return Decision(legal[0], forced=True)
        if going_round(inp, TAKEN_BACK):
            return Decision(way_out(inp, legal, "fb-loop"), notes={"loop": True})
        booked = book_setups.placement(inp, legal, self.book)
        return None if booked is None else Decision(booked, notes={"book": True})


def best_command(state: FBState, side: str, legal: list[Command]) -> Command:
    """The greedy choice among ``legal`` (taking back excluded) in the believed ``state``."""
    return ranked(state, side, legal)[0]


def ranked(state: FBState, side: str, legal: list[Command], k: int = 1) -> list[Command]:
    """Greedy's choice first, then up to ``k - 1`` next best (for a search to weigh):
    other places for the unit it moves or places, other units to add, other results."""
    pic = picture(state, side)
    phase = state.phase
    if state.pending:
        cmds = _decision(pic, legal)
    elif phase.endswith("_setup") or phase.endswith("_reinforcements"):
        cmds = _placement(pic, legal)
    elif phase.endswith("_movement"):
        cmds = _movement(pic, legal)
    elif phase.endswith("_combat"):
        cmds = _combat(pic, legal)
    elif phase == "us_engineering":
        cmds = [_engineering(pic, legal)]
    elif phase == "us_air":
        cmds = [_air_phase(legal)]
    else:
        cmds = []
    out: list[Command] = []
    for c in cmds:
        if c is not None and c in legal and c not in out:
            out.append(c)
    if not out:
        out.append(_end(legal) or legal[0])
    return out[:k]


def _end(legal: list[Command]) -> Command | None:
    return next((c for c in legal if c.type == "end_phase"), None)


def own_stacks(pic: Picture, without: str | None = None) -> dict[str, list[str]]:
    """The side's map stacks (hex -> units), leaving out ``without``."""
    out: dict[str, list[str]] = defaultdict(list)
    for u, h in pic.pos.items():
        if u != without and q.spec(u).side == pic.side:
            out[h].append(u)
    return out


# --- placing: set-up and reinforcements (§3, §5) -----------------------------------

def _placement(pic: Picture, legal: list[Command]) -> list[Command | None]:
    by_unit: dict[str, list[str]] = defaultdict(list)
    for c in legal:
        if c.type == "place":
            by_unit[c.data["unit"]].append(c.data["to"])
    if not by_unit:
        return [_end(legal)]
    # the most constrained unit first; among equals the strongest
    uid = min(by_unit, key=lambda u: (len(by_unit[u]), -q.spec(u).cf, u))
    own = own_stacks(pic)
    order = sorted(by_unit[uid], key=lambda to: (place_value(pic, uid, to, own, placing=True,
                                                             attacking_next=False), to), reverse=True)
    return [Command("place", {"unit": uid, "to": to}) for to in order[:MANY]]


# --- movement (§6), with air and naval support (§6.6-§6.8) ---------------------------

def _movement(pic: Picture, legal: list[Command]) -> list[Command | None]:
    state = pic.state
    by_unit: dict[str, list[str]] = defaultdict(list)
    for c in legal:
        if c.type == "move":
            by_unit[c.data["unit"]].append(c.data["to"])
    end = _end(legal)
    find_joiners(pic)
    must = set(movement.unmet_must_moves(state, pic.side))
    over = set(q.overstacked(state))
    plans: list[tuple[int, float, str, list[str]]] = []
    for uid, dests in by_unit.items():
        u = state.units[uid]
        obliged = uid in must or u.loc in over
        if u.moved and not obliged:
            continue  # each unit is moved once a phase: its best place was weighed then
        own = own_stacks(pic, without=uid)
        stay = NO_PLACE if obliged else place_value(pic, uid, u.loc, own)
        scored = sorted(((place_value(pic, uid, d, own), d) for d in dests), reverse=True)
        value = scored[0][0]
        if obliged or value > stay + GAIN:
            plans.append((len(dests), -(value - stay), uid, [d for _, d in scored[:MANY]]))
    if plans:
        _, _, uid, dests = min(plans)
        return [Command("move", {"unit": uid, "to": d}) for d in dests] + [end]
    air = [c for c in legal if c.type == "air_attack"]
    if air:  # IJAAF against CAP, then Ground Attack (§6.7): every kill clears the way
        return [min(air, key=lambda c: (len(c.data["units"]), c.data["target"] != CAP,
                                        [q.spec(u).kind != "fighter" for u in c.data["units"]]))]
    support = _support(pic, [c for c in legal if c.type in ("naval_support", "air_support")])
    return [support, end]


def _support(pic: Picture, legal: list[Command]) -> Command | None:
    """The support (+2 a destroyer, +1 a bomber) that adds most to a coming attack."""
    best, best_gain = None, SUPPORT_GAIN
    b = q.board()
    own = own_stacks(pic)
    for c in legal:
        hex_id = c.data["hex"]
        group = [(v, oh) for oh in b.neighbors(hex_id) for v in own.get(oh, ())]
        if not group:
            continue
        drm = 2 if c.type == "naval_support" else 1
        gain = net(attack_outcome(pic, pic.side, group, [hex_id], extra_drm=drm)) \
            - net(attack_outcome(pic, pic.side, group, [hex_id]))
        if gain > best_gain:
            best, best_gain = c, gain
    return best


# --- combat (§7) --------------------------------------------------------------------------

def _combat(pic: Picture, legal: list[Command]) -> list[Command | None]:
    state = pic.state
    c = state.combat
    if c is None:
        bombard = _bombard(pic, legal)
        if bombard is not None:
            return [bombard]
        attacks = [cmd for cmd in legal if cmd.type == "attack"]
        if attacks:
            free = mandatory.free_attackers(state, pic.side)
            return sorted(attacks, key=lambda cmd: (_attack_worth(pic, cmd.data["hex"], free), cmd.data["hex"]),
                          reverse=True)
        return [_end(legal)]
    adds = [cmd for cmd in legal if cmd.type == "add"]
    scored = sorted(((_add_worth(pic, cmd.data["unit"]), cmd.data["unit"], cmd) for cmd in adds),
                    key=lambda t: (t[0], t[1]), reverse=True)
    resolve = next((cmd for cmd in legal if cmd.type == "resolve"), None)
    good = [t[2] for t in scored if t[0] > 0.05]
    rest = [t[2] for t in scored if t[0] <= 0.05]
    more = [cmd for cmd in legal if cmd.type == "attack"]
    if resolve is not None:
        return _live(pic, good + [resolve] + rest + more)
    if good or rest or more:
        return _live(pic, good + rest + more)  # never cancel: the same attack would be declared again
    return [cmd for cmd in legal if cmd.type == "cancel_attack"]


def _live(pic: Picture, order: list[Command]) -> list[Command]:
    """``order`` without the units whose adding would leave the attack nothing to do but be
    cancelled however it went on (declared again, it would be built the same way, for
    ever), as far as the first ``MANY`` commands kept; if every one would, ``order``."""
    out: list[Command] = []
    for cmd in order:
        if cmd.type == "add" and len(out) < MANY and not _can_resolve(pic.state, pic.side, cmd, DEAD_END_DEPTH):
            continue
        out.append(cmd)
    return out or order


DEAD_END_DEPTH = 3  # steps looked ahead for an attack that can still be resolved


def _can_resolve(state: FBState, side: str, cmd: Command, depth: int) -> bool:
    """Whether, after ``cmd``, the attack being declared can still be resolved within
    ``depth`` more steps (units added, hexes joined); past that depth it is assumed it can."""
    s = RULES.clone(state)
    for e in RULES.decide(s, Command(cmd.type, cmd.data, side)):
        RULES.apply(s, e)
    if s.combat is None:
        return True
    legal = choices(RULES.legal_commands(s, side))
    if depth <= 0 or any(c.type == "resolve" for c in legal):
        return True
    return any(_can_resolve(s, side, c, depth - 1) for c in legal if c.type in ("add", "attack"))


def _group(pic: Picture, units: list[str]) -> list[tuple[str, str]]:
    return [(u, pic.state.units[u].loc) for u in units]


def _attack_worth(pic: Picture, hex_id: str, free: list[str]) -> float:
    """An attack on ``hex_id`` by every free unit next to it."""
    b = q.board()
    near = [u for u in free if pic.state.units[u].loc in b.neighbors(hex_id)]
    if not near:
        return -50.0  # an attack upon entry: last
    return net(attack_outcome(pic, pic.side, _group(pic, near), [hex_id]))


def _add_worth(pic: Picture, uid: str) -> float:
    """What adding ``uid`` to the attack being declared gains, less what it would gain in
    the best other attack it could make instead (a unit the only one able to attack some
    other enemy hex is kept for it)."""
    state, c = pic.state, pic.state.combat
    b = q.board()
    loc = state.units[uid].loc
    direct = is_map_hex(loc) and all(t in b.neighbors(loc) for t in c.targets)
    group = _group(pic, c.attackers)
    base = net(attack_outcome(pic, pic.side, group, c.targets, tuple(c.artillery))) if group else 0.0
    if direct:
        after = net(attack_outcome(pic, pic.side, group + [(uid, loc)], c.targets, tuple(c.artillery)))
    else:
        after = net(attack_outcome(pic, pic.side, group, c.targets, (*c.artillery, uid)))
    gain = after - base
    if not direct or not is_map_hex(loc):
        return gain
    undefended = mandatory.undefended_enemy_hexes(state, pic.side)
    free = [u for u in mandatory.free_attackers(state, pic.side) if u != uid and u not in c.attackers]
    elsewhere = 0.0
    for e in b.neighbors(loc):
        if e not in undefended or e in c.targets:
            continue
        others = [u for u in free if state.units[u].loc in b.neighbors(e)]
        if not others:
            return gain - 100.0  # the only unit able to meet that obligation
        without = net(attack_outcome(pic, pic.side, _group(pic, others), [e]))
        with_it = net(attack_outcome(pic, pic.side, _group(pic, others + [uid]), [e]))
        elsewhere = max(elsewhere, with_it - without)
    return gain - elsewhere


def _bombard(pic: Picture, legal: list[Command]) -> Command | None:
    """§7.10: destroyers and bombers always bombard (they are spent otherwise); artillery
    only when it can support no attack.  USAF units first, then the strip itself."""
    bombards = [c for c in legal if c.type == "bombard"]
    if not bombards:
        return None
    may_fight = any(c.type == "attack" for c in legal)
    usable = [c for c in bombards if not (q.spec(c.data["unit"]).is_artillery and may_fight)]
    if not usable:
        return None
    return min(usable, key=lambda c: (c.data["target"] is None, q.spec(c.data["unit"]).is_artillery,
                                      c.data["unit"], c.data["hex"], c.data["target"] or ""))


# --- decisions after a roll: losses, retreats, advance (§7.7-§7.9), supply (§8) ------------

def _decision(pic: Picture, legal: list[Command]) -> list[Command | None]:
    state = pic.state
    kinds = {c.type for c in legal}
    if "eliminate" in kinds:
        return sorted((c for c in legal if c.type == "eliminate"),
                      key=lambda c: (_keep_value(state, c.data["unit"]), c.data["unit"]))
    if "retreat" in kinds:
        options = []
        for c in legal:
            if c.type != "retreat":
                continue
            uid, to = c.data["unit"], c.data["to"]
            own = own_stacks(pic, without=uid)
            value = -100.0 if to is None else place_value(pic, uid, to, own, attacking_next=False)
            options.append((value, uid, to or "", c))
        return [t[3] for t in sorted(options, key=lambda t: t[:3], reverse=True)]
    if "advance" in kinds:
        worth = []
        for c in legal:
            if c.type != "advance":
                continue
            uid, to = c.data["unit"], c.data["to"]
            own = own_stacks(pic, without=uid)
            here = state.units[uid].loc
            gain = place_value(pic, uid, to, own, attacking_next=False) \
                - place_value(pic, uid, here, own, attacking_next=False)
            worth.append((gain, uid, to, c))
        worth.sort(key=lambda t: t[:3], reverse=True)
        end = next((c for c in legal if c.type == "end_advance"), None)
        good = [t[3] for t in worth if t[0] > GAIN]
        return good + [end] + [t[3] for t in worth if t[0] <= GAIN]
    return []


def _keep_value(state: FBState, uid: str) -> float:
    """What a unit is worth keeping: destroyers about to leave play (§9) cost least."""
    s = q.spec(uid)
    if s.kind == "ground":
        return odds.unit_value(uid)
    loc = state.units[uid].loc
    return {"ijn_attack": 0.2, "ijaaf_attack": 0.3, "ijn_reserve": 0.5}.get(loc, 1.0)


# --- the US's own phases: engineering (§10), air (§11) ----------------------------------------

def _engineering(pic: Picture, legal: list[Command]) -> Command | None:
    """Repair Henderson (a new fighter strip would only be one more hex for the IJ to take, §1)."""
    henderson = q.board().henderson
    work = [c for c in legal if c.type == "work" and c.data["hex"] in henderson]
    return work[0] if work else _end(legal)


def _air_phase(legal: list[Command]) -> Command | None:
    for kind in ("to_reserve", "land"):
        cmds = [c for c in legal if c.type == kind]
        if cmds:
            return cmds[0]
    allocate = [c for c in legal if c.type == "allocate"]
    for c in allocate:  # fighters patrol, bombers support the ground
        kind = q.spec(c.data["unit"]).kind
        if (c.data["box"] == CAP) == (kind in ("fighter", "fighter_bomber")):
            return c
    return _end(legal)


