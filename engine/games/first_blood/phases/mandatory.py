"""§7 mandatory combat: which attacks still leave every obligation within reach.

§7: "All defending units in an attacker's ZOC must be attacked. All attacking units
in enemy ZOC must attack at least one hex."  The *obligations* are the own units on
the map that have not fought and touch an enemy hex not yet attacked, and those enemy
hexes.  A *plan* is a set of attacks obeying §7 (defending hexes adjacent to each
other, at most three; every attacker adjacent to every defending hex; one combat per
unit and per hex) plus attacks upon entry (§5.1, one hex each, no map unit joins).

Ruling R-7a: a plan's worth is the number of obligations it meets (each own unit that
attacks and each enemy hex attacked counts one).  A step of a declaration (a target,
a unit) is offered, and an attack may be resolved, only if it belongs to a plan worth
as much as the best plan from the current position.  So while a plan meeting every
obligation exists, every attack must be part of one; an obligation lapses only when
no plan can meet it together with as many others.

The search works front by front (connected groups of own stacks and enemy hexes) on
bit sets, with memoisation; units in one hex touch the same hexes, so a stack is one
item with a count.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass, field

from engine.games.first_blood import queries as q
from engine.games.first_blood.state import FBState, is_map_hex

NEVER = -(1 << 20)  # the worth of a declaration no plan can complete


def undefended_enemy_hexes(state: FBState, side: str) -> dict[str, list[str]]:
    """Enemy-held map hexes whose units have not been attacked this phase (R-7b)."""
    occ = q.occupancy(state)
    enemy = q.other(side)
    return {h: us for h, us in occ.items()
            if q.spec(us[0]).side == enemy and not all(state.units[u].defended for u in us)}


def free_attackers(state: FBState, side: str) -> list[str]:
    """Own ground units on the map that have not yet fought this phase."""
    return [uid for uid in q.ground_on_map(state, side) if not state.units[uid].fought]


@dataclass
class _Front:
    """One connected front: hexes and stacks by index, neighbour sets as bit masks.
    Hexes are numbered in a sweep along the front, so that the search below, which
    always settles the lowest-numbered hex left, keeps few stacks half-settled."""
    hexes: list[str]
    adj: list[int]  # hex -> mask of the front's hexes adjacent to it
    stack_hex: list[str]
    stack_units: list[list[str]]
    stack_touch: list[int]  # stack -> mask of the front's hexes it touches
    entry: int  # mask of hexes open to an attack upon entry
    entry_units: int
    free: int = 0  # the best plan's worth on this front
    memo: dict[tuple[int, tuple[int, ...], int, int], int] = field(default_factory=dict)

    def mask(self, hexes: set[str] | list[str]) -> int:
        return sum(1 << i for i, h in enumerate(self.hexes) if h in hexes)

    def best(self, rest: int, caps: tuple[int, ...], joined: int, entry_units: int) -> int:
        """The most obligations a plan can still meet: ``rest`` hexes not yet in an
        attack, ``caps`` the units of each stack free to lead a new attack, ``joined``
        the stacks already touching every hex of some attack (their units are counted:
        each joins one), ``entry_units`` the units left to attack upon entry."""
        if not rest:
            return 0
        # only what touches the hexes left matters: a stack leads at most one attack
        # per hex it touches, and a settled stack's units are counted already
        touch = self.stack_touch
        live = sum(1 << s for s, t in enumerate(touch) if t & rest)
        caps = tuple(min(c, (t & rest).bit_count()) for c, t in zip(caps, touch, strict=True))
        joined &= live
        entry_units = min(entry_units, (self.entry & rest).bit_count())
        key = (rest, caps, joined, entry_units)
        if key in self.memo:
            return self.memo[key]
        bound = rest.bit_count() + sum(len(self.stack_units[s]) for s in _bits(live & ~joined))
        h = rest & -rest  # the lowest hex left: it is attacked in some group, or never
        i = h.bit_length() - 1
        best = NEVER
        others = self.adj[i] & rest
        groups = [h]
        for j in _bits(others):
            groups.append(h | (1 << j))
            for k in _bits(others & self.adj[j] & ~((1 << (j + 1)) - 1)):
                groups.append(h | (1 << j) | (1 << k))
        for g in groups:
            size = g.bit_count()
            left = rest & ~g
            if size == 1 and self.entry & g and entry_units:
                best = max(best, 1 + self.best(left, caps, joined, entry_units - 1))
            fit = [s for s, t in enumerate(touch) if g & ~t == 0]
            if not fit:
                continue
            new = sum(1 << s for s in fit) & ~joined
            gain = size + sum(len(self.stack_units[s]) for s in _bits(new))
            for s in fit:
                if caps[s]:
                    lead = caps[:s] + (caps[s] - 1,) + caps[s + 1:]
                    best = max(best, gain + self.best(left, lead, joined | new, entry_units))
                    if best == bound:  # nothing can do better: stop looking
                        self.memo[key] = best
                        return best
        best = max(best, self.best(rest & ~h, caps, joined, entry_units))  # h never attacked
        self.memo[key] = best
        return best


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask &= ~low
    return out


def _sweep(hexes: list[str], touch: dict[str, set[str]]) -> list[str]:
    """The hexes in breadth-first order from the first, through the stacks touching them."""
    order, seen = [], {hexes[0]}
    queue = [hexes[0]]
    while queue:
        h = queue.pop(0)
        order.append(h)
        for t in touch.values():
            if h in t:
                for n in sorted(t - seen):
                    seen.add(n)
                    queue.append(n)
    return order


class Plan:
    """The obligations of ``side`` in the current combat phase and what a declaration
    is worth against them."""

    def __init__(self, state: FBState, side: str, entry_targets: dict[str, list[str]]) -> None:
        b = q.board()
        self.state, self.side = state, side
        self.undefended = undefended_enemy_hexes(state, side)
        by_hex: dict[str, list[str]] = {}
        for uid in free_attackers(state, side):
            by_hex.setdefault(state.units[uid].loc, []).append(uid)
        touch = {loc: {n for n in b.neighbors(loc) if n in self.undefended} for loc in by_hex}
        self.owed_units = {u for loc, us in by_hex.items() if touch[loc] for u in us}
        self.owed_hexes = {h for t in touch.values() for h in t}
        self.entry_targets = entry_targets  # off-map unit -> hexes it may attack upon entry
        self.fronts = self._fronts(b, by_hex, touch)
        for f in self.fronts:
            f.free = f.best(f.mask(f.hexes), tuple(len(u) for u in f.stack_units), 0, f.entry_units)

    def _fronts(self, b, by_hex: dict[str, list[str]], touch: dict[str, set[str]]) -> list[_Front]:
        stacks = sorted(loc for loc in by_hex if touch[loc])
        parent = {x: x for x in stacks + sorted(self.owed_hexes)}

        def find(x: str) -> str:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for loc in stacks:
            for h in touch[loc]:
                parent[find(h)] = find(loc)
        groups: dict[str, tuple[list[str], list[str]]] = {}
        for loc in stacks:
            groups.setdefault(find(loc), ([], []))[0].append(loc)
        for h in sorted(self.owed_hexes):
            groups[find(h)][1].append(h)
        out = []
        for locs, owed in groups.values():
            hexes = _sweep(owed, {loc: touch[loc] for loc in locs})
            index = {h: i for i, h in enumerate(hexes)}
            adj = [sum(1 << index[n] for n in b.neighbors(h) if n in index) for h in hexes]
            entry_units = [u for u, ts in self.entry_targets.items() if any(t in index for t in ts)]
            entry = sum(1 << index[t] for u in entry_units for t in self.entry_targets[u] if t in index)
            out.append(_Front(hexes, adj, locs, [by_hex[loc] for loc in locs],
                              [sum(1 << index[h] for h in touch[loc]) for loc in locs],
                              entry, len(entry_units)))
        return out

    # --- worth ------------------------------------------------------------------------
    def best(self) -> int:
        return sum(f.free for f in self.fronts)

    def allows(self, targets: list[str], attackers: list[str], exact: bool, remote: bool = False,
               reach: Collection[str] | None = None) -> bool:
        return self.worth(targets, attackers, exact, remote, stop_at=self.best(), reach=reach) >= self.best()

    def worth(self, targets: list[str], attackers: list[str], exact: bool, remote: bool = False,
              stop_at: int | None = None, reach: Collection[str] | None = None) -> int:
        """The best plan containing this attack (``exact``: with just these targets and
        attackers, as when it is resolved now; else any completion of it; ``remote``:
        artillery gives it remote fire; ``reach``: the only hexes it may still take in, as
        its artillery's range allows, §7.5).  NEVER if no completion is a legal attack."""
        fronts = [f for f in self.fronts if any(t in f.hexes for t in targets)
                  or any(a in us for us in f.stack_units for a in attackers)]
        if len(fronts) > 1:
            return NEVER  # no attack spans two fronts: its attackers touch all its targets
        landing = [a for a in attackers if not is_map_hex(self.state.units[a].loc)]
        # §5.1: one hex, only units from off the map, no remote fire for the IJ (§5.3)
        entry = (len(targets) == 1 and len(landing) == len(attackers) and (landing or not exact)
                 and not (remote and self.side == "IJ")
                 and any(targets[0] in self.entry_targets.get(u, ()) for u in landing or self.entry_targets))
        if not fronts:  # no unit on the map touches its hexes: only a landing can make it
            return self.best() if entry else NEVER
        front = fronts[0]
        rest = self.best() - front.free
        best = NEVER
        for value in self._options(front, targets, attackers, exact, entry, landing, reach):
            best = max(best, rest + value)
            if stop_at is not None and best >= stop_at:
                break
        return best

    def _options(self, front: _Front, targets: list[str], attackers: list[str], exact: bool,
                 entry: bool, landing: list[str], reach: Collection[str] | None) -> Iterator[int]:
        """The worth on its front of each way the attack may end (lazily: ``allows``
        stops at the first good enough)."""
        if entry:
            yield self._entry_worth(front, targets[0], landing)
        if not landing:
            for g in self._groups(targets, attackers, exact, reach):
                yield self._map_worth(front, g, attackers, exact)

    def _entry_worth(self, f: _Front, target: str, attackers: list[str]) -> int:
        used = max(1, len(attackers))
        g = f.mask({target})
        caps = tuple(len(u) for u in f.stack_units)
        return g.bit_count() + f.best(f.mask(f.hexes) & ~g, caps, 0, max(0, f.entry_units - used))

    def _groups(self, targets: list[str], attackers: list[str], exact: bool,
                reach: Collection[str] | None = None) -> list[set[str]]:
        """The defending hexes the attack may end with (§7, Figure 6), those added from ``reach`` only."""
        base = set(targets)
        if exact or len(base) >= 3:
            return [base]
        b = q.board()
        locs = {self.state.units[a].loc for a in attackers}
        extra = [h for h in self.undefended if h not in base and (reach is None or h in reach)
                 and all(t in b.neighbors(h) for t in base)
                 and all(h in b.neighbors(loc) for loc in locs)]
        out = [base]
        for i, x in enumerate(extra):
            out.append(base | {x})
            if len(base) == 1:
                out += [base | {x, y} for y in extra[i + 1:] if y in b.neighbors(x)]
        return out

    def _map_worth(self, f: _Front, g: set[str], attackers: list[str], exact: bool) -> int:
        gm = f.mask(g)
        caps = [len(u) for u in f.stack_units]
        for a in attackers:
            for s, us in enumerate(f.stack_units):
                if a in us:
                    caps[s] -= 1
        met = len(g & self.owed_hexes) + sum(1 for a in attackers if a in self.owed_units)
        off_front = len(g - set(f.hexes))
        fit = [s for s, t in enumerate(f.stack_touch) if gm & ~t == 0 and not off_front]
        rest = f.mask(f.hexes) & ~gm
        if exact:
            return met + f.best(rest, tuple(caps), 0, f.entry_units)
        joined = sum(1 << s for s in fit)
        met += sum(caps[s] for s in fit)
        if attackers:
            return met + f.best(rest, tuple(caps), joined, f.entry_units)
        best = NEVER
        for s in fit:  # with no attacker yet, one unit that fits must lead it
            if caps[s]:
                lead = caps[:s] + [caps[s] - 1] + caps[s + 1:]
                best = max(best, met + f.best(rest, tuple(lead), joined, f.entry_units))
        return best

    # --- what a refusal says -----------------------------------------------------------
    def left_behind(self, targets: list[str], attackers: list[str]) -> tuple[list[str], list[str]]:
        """The obligations that resolving this attack now would make impossible: own
        units whose every enemy neighbour it attacks without them, enemy hexes only
        its attackers touch."""
        b = q.board()
        busy = set(attackers)
        units = sorted(u for u in self.owed_units if u not in busy
                       and all(n in targets for n in b.neighbors(self.state.units[u].loc)
                               if n in self.undefended))
        free = [u for u in self.owed_units if u not in busy]
        hexes = sorted(h for h in self.owed_hexes if h not in targets
                       and not any(h in b.neighbors(self.state.units[u].loc) for u in free))
        return units, hexes
