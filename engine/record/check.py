"""Checking a record file (an export of ``engine.record.book``), as ``python -m engine.verify``
does: the chain, the entropy, every published seed, every roll whose seed is published,
and, when the file holds every event and every seed, the whole game replayed by the rules
(``engine.core.verify.verify_log``, each decision with its period's key).  The verdict
names the first entry that is wrong and why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core import dice, seeds
from engine.core import record as rec
from engine.core.errors import RuleError
from engine.core.events import Command, Event
from engine.core.verify import LogEntry, verify_log
from engine.record.book import ADMIN, FORMAT, VERSION
from engine.record.keyed import Periods, decide_with, hides_a_roll, rolls_by_event

ITEM_FIELDS = {"seq", "hash", "entry", "salt", "link"}


@dataclass(frozen=True)
class Verdict:
    ok: bool
    message: str  # the one line to print
    bad_seq: int | None = None  # the first wrong entry (None: the file as a whole, or nothing)
    entries: int = 0
    rolls_checked: int = 0
    rolls_waiting: int = 0  # listed with a seed not published yet (or in entries the viewer may not read)
    replayed: bool = False


class Bad(Exception):
    def __init__(self, seq: int | None, why: str, what: str = "") -> None:
        super().__init__(why)
        self.seq, self.why, self.what = seq, why, what


def verify_record(doc: Any, head: str | None = None) -> Verdict:
    """The verdict on a record file (parsed JSON); ``head``: the last hash the checker saw
    elsewhere (a page of the game, a mail), which the file must end with."""
    checker = _Checker()
    try:
        return checker.run(doc, head)
    except Bad as bad:
        where = "the file" if bad.seq is None else f"entry {bad.seq}" + (f" ({bad.what})" if bad.what else "")
        return Verdict(False, f"FAIL: {where}: {bad.why}", bad.seq, checker.count)
    except Exception as exc:  # noqa: BLE001 - a file that breaks the checker does not verify
        return Verdict(False, f"FAIL: entry {checker.count}: the checker cannot read it "
                              f"({type(exc).__name__}: {exc})", checker.count, checker.count)


def describe(entry: dict[str, Any]) -> str:
    kind = entry.get("kind")
    if kind == rec.EVENT:
        if "n" in entry:
            etype = (entry.get("event") or {}).get("type", "?") if isinstance(entry.get("event"), dict) else "?"
            return f"event {entry['n']}, {etype}"
        return "a sealed event"
    if kind == rec.COMMAND:
        command = entry.get("command")
        if isinstance(command, dict):
            return f"command {command.get('type')} by {command.get('side') or 'the server'}"
        return "a sealed command"
    if kind == rec.SEED:
        return f"{entry.get('chain')} seed of period {entry.get('period')}"
    return str(kind)


class _Checker:
    def __init__(self) -> None:
        self.count = 0

    def run(self, doc: Any, head: str | None) -> Verdict:
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise Bad(None, f"not a record file (its format must be {FORMAT!r})")
        if doc.get("version") != VERSION:
            raise Bad(None, f"version {doc.get('version')!r} of the format is not known (this checker reads {VERSION})")
        items = doc.get("entries")
        if not isinstance(items, list) or not items:
            raise Bad(None, "it holds no entries")
        self.items = items
        self.record_salt: str | None = None
        self.salts: dict[int, str] = {}  # of the sealed entries this viewer reads
        self.sealed_items: list[int] = []  # the entries this viewer has only the links of
        self.viewer = doc.get("viewer")
        self.chain(items)
        if doc.get("game") != self.game:
            raise Bad(None, f"it says it records a game of {doc.get('game')!r}, its first entry {self.game!r}")
        self.salted()
        if head is not None and self.hashes[-1] != head:
            raise Bad(len(items) - 1, f"the record ends with hash {self.hashes[-1]}, not {head}", "the last entry")
        checked, waiting = self.rolls()
        replayed, why_not = self.replay()
        what = f"{len(items)} entries chained (head {self.hashes[-1][:16]}...), {checked} listed rolls checked"
        if waiting:
            what += f", {waiting} wait for their seeds"
        what += (f"; the rules replay all {len(self.events)} events and their {self.replay_rolls} dice" if replayed
                 else f"; no replay: {why_not}")
        return Verdict(True, f"OK: {what}", None, len(items), checked, waiting, replayed)

    # -- the chain, entry by entry ----------------------------------------------------

    def chain(self, items: list[Any]) -> None:
        prev = rec.GENESIS
        self.hashes: list[str] = []
        self.entries: list[dict[str, Any] | None] = []  # None: sealed for this viewer
        self.events: dict[int, int] = {}  # event number -> entry
        self.sealed_events = self.sealed_commands = 0
        self.pending: tuple[int, dict[str, Any] | None] | None = None  # a command read, its events to come
        self.commands: dict[int, dict[str, Any] | None] = {}  # first event of a batch -> its command (None: sealed)
        self.keyed: list[tuple[int, dict[str, Any]]] = []  # (entry, what this viewer reads of an event)
        self.published: dict[str, dict[int, str]] = {c: {} for c in seeds.CHAINS}
        self._seeds: dict[tuple[str, int, int], str | None] = {}  # (chain, period, seeds published) -> seed
        self.commits: dict[str, str] = {}
        self.entropy: dict[str, str] = {}
        self.last_key: list[Any] | None = None  # of the last decision read (the periods never go back)
        self.batch_key: list[Any] | None = None  # of the event before, when this viewer read it
        for k, item in enumerate(items):
            self.count = k
            if not isinstance(item, dict) or set(item) - ITEM_FIELDS or item.get("seq") != k:
                raise Bad(k, f"an item of the file is an object with its seq ({k}), its hash, and its entry or link")
            if "entry" in item:
                entry = item["entry"]
                if not isinstance(entry, dict) or entry.get("seq") != k:
                    raise Bad(k, f"its entry is not an object numbered {k}")
                link = self.link(k, entry, item)
            elif isinstance(item.get("link"), dict) and "sealed" in item["link"]:
                entry, link = None, item["link"]
                readers = link.get(rec.READERS)
                if link.get("seq") != k or not isinstance(readers, list) or k == 0:
                    raise Bad(k, f"its link is not a sealed entry's, numbered {k}", "sealed")
                # sealed for a reader, or in the admin's copy (which holds all), is wrong; an
                # entry for the players alone (a chat line) is sealed in a spectator's copy
                if self.viewer in readers or self.viewer == ADMIN:
                    raise Bad(k, f"it is sealed, though {self.viewer} may read it", describe(link))
                self.sealed_items.append(k)
            else:
                raise Bad(k, "it has neither an entry nor a sealed link")
            what = describe(entry if entry is not None else link)
            try:
                computed = rec.chain_next(prev, link)
            except (TypeError, ValueError) as exc:
                raise Bad(k, f"its content is not JSON the chain can hash: {exc}", what) from None
            if item.get("hash") != computed:
                raise Bad(k, "its hash is not SHA-256 of its content and the hash before it: the entry, "
                             f"or the hash, was changed (the content gives {computed[:16]}..., the file says "
                             f"{str(item.get('hash'))[:16]}...)", what)
            prev = computed
            self.hashes.append(computed)
            self.entries.append(entry)
            kind = (entry or link).get("kind")
            if k == 0 and (entry is None or kind != rec.DICE):
                raise Bad(0, "a record starts with its dice commitments", what)
            if entry is not None:
                self.entry(k, entry, what)
            elif kind == rec.EVENT:
                self.sealed_events += 1
                if self.pending is not None:
                    self.commands[len(self.events)] = self.pending[1]
                    self.pending = None
                self.events[len(self.events)] = k
                self.batch_key = None
            elif kind == rec.COMMAND:
                self.sealed_commands += 1
                self.command(k, None, what)
        if self.pending is not None:
            raise Bad(self.pending[0], "a command is followed by the events it gave", describe(self.entries[-1] or {}))

    def link(self, k: int, entry: dict[str, Any], item: dict[str, Any]) -> dict[str, Any]:
        if k == 0:
            return entry
        readers, public = rec.visibility(entry, self.sides, self.hidden_information)
        if readers is None:
            if "salt" in item or "link" in item:
                raise Bad(k, "an entry every side reads has no salt nor link", describe(entry))
            return entry
        salt = item.get("salt")
        if not isinstance(salt, str):
            raise Bad(k, "an entry sealed for some side comes with its salt", describe(entry))
        self.salts[k] = salt
        return rec.sealed_link(entry, salt, readers, public)

    def salted(self) -> None:
        """Once the record's salt is published, every sealed entry's salt is the one it gives."""
        if self.record_salt is None:
            return
        if self.sealed_items:
            raise Bad(self.sealed_items[0], "it is sealed, though the record's salt is published: once the game "
                                            "is over every entry comes whole", "sealed")
        for k, salt in self.salts.items():
            if salt != rec.entry_salt(self.record_salt, k):
                raise Bad(k, "its salt is not the one the record's published salt gives",
                          describe(self.entries[k] or {}))

    def entry(self, k: int, entry: dict[str, Any], what: str) -> None:
        kind = entry.get("kind")
        if kind == rec.DICE:
            if k != 0:
                raise Bad(k, "the dice commitments come first, once", what)
            sides, periods = entry.get("sides"), entry.get("periods")
            if not (isinstance(sides, list) and len(sides) >= 2 and all(isinstance(s, str) for s in sides)
                    and isinstance(periods, int) and periods >= 1
                    and all(isinstance(entry.get(c), str) and len(entry[c]) == 64 for c in seeds.CHAINS)):
                raise Bad(k, "the dice entry names the game's sides, its periods and both commitments", what)
            self.game, self.sides, self.periods = entry.get("game"), tuple(sides), periods
            self.hidden_information = bool(entry.get("hidden_information"))
            self.commitments = {c: entry[c] for c in seeds.CHAINS}
        elif kind == rec.ENTROPY_COMMIT:
            side = entry.get("side")
            if side not in self.sides or side in self.commits or self.entropy or self.commanded:
                raise Bad(k, "each side commits to its entropy once, before any entropy is shown and "
                             "before the first command", what)
            self.commits[side] = str(entry.get("commitment"))
        elif kind == rec.ENTROPY:
            side, text = entry.get("side"), entry.get("entropy")
            if set(self.commits) != set(self.sides) or side in self.entropy or self.commanded:
                raise Bad(k, "a side shows its entropy once, after every side has committed to its own, "
                             "before the first command", what)
            if not isinstance(text, str) or seeds.entropy_commitment(text) != self.commits.get(side):
                raise Bad(k, f"{side}'s entropy is not the one it committed to", what)
            self.entropy[side] = text
        elif kind == rec.SEED:
            self.seed(k, entry, what)
        elif kind == rec.SALT:
            if self.record_salt is not None or not isinstance(entry.get("salt"), str):
                raise Bad(k, "a record publishes one salt, a string", what)
            self.record_salt = entry["salt"]
        elif kind == rec.EVENT:
            self.event(k, entry, what)
        elif kind == rec.COMMAND:
            if not (isinstance(entry.get("command"), dict) and isinstance(entry["command"].get("type"), str)):
                raise Bad(k, "a command entry holds a command (type, data, side)", what)
            self.command(k, entry["command"], what)

    @property
    def commanded(self) -> bool:
        """Whether a command has been read."""
        return bool(self.commands) or self.pending is not None

    def command(self, k: int, command: dict[str, Any] | None, what: str) -> None:
        if self.pending is not None:
            raise Bad(self.pending[0], "a command is followed by the events it gave", what)
        if set(self.entropy) != set(self.sides):
            raise Bad(k, "no command comes before every side has shown its entropy", what)
        self.pending = (k, command)

    def seed(self, k: int, entry: dict[str, Any], what: str) -> None:
        chain, period, seed = entry.get("chain"), entry.get("period"), entry.get("seed")
        if chain not in seeds.CHAINS or not isinstance(period, int) or not 1 <= period <= self.periods:
            raise Bad(k, f"a seed is published for the open or hidden chain and a period 1 to {self.periods}", what)
        why = seeds.verify_seed(self.commitments[chain], period, seed, self.published[chain])  # type: ignore[arg-type]
        if why is not None:
            raise Bad(k, f"the seed is not the chain's: {why}", what)
        self.published[chain][period] = seed  # type: ignore[assignment]

    def event(self, k: int, entry: dict[str, Any], what: str) -> None:
        n = entry.get("n")
        if n != len(self.events):
            raise Bad(k, f"the events are numbered in order: this one should be {len(self.events)}", what)
        if not isinstance(entry.get("event"), dict) or not isinstance(entry["event"].get("type"), str):
            raise Bad(k, "an event entry holds an event (type, data, side)", what)
        if set(self.entropy) != set(self.sides):
            # only the game's creation may come first, and it rolls nothing: no key yet
            data = entry["event"].get("data")
            if self.commanded or entry.get("rolls") or (
                    entry["event"]["type"] == rec.CREATED and (not isinstance(data, dict) or data.get("secret"))):
                raise Bad(k, "no command, and no event that rolls, comes before every side has shown its "
                             "entropy (a creation made before it has no dice secret)", what)
        self.events[n] = k
        self.keyed.append((k, entry))
        key = entry.get("key")
        if not (isinstance(key, list) and len(key) == 2 and key[0] in seeds.CHAINS and isinstance(key[1], int)
                and not isinstance(key[1], bool) and 1 <= key[1] <= self.periods):
            raise Bad(k, "its dice key is a chain (open or hidden) and a period", what)
        if self.pending is not None:  # the first event of a command's decision
            self.commands[n] = self.pending[1]
            self.pending = None
            if self.last_key is not None and key[1] < self.last_key[1]:
                raise Bad(k, "the periods of the decisions never go back", what)
            self.last_key = key
        elif self.batch_key is not None and key != self.batch_key:
            raise Bad(k, "the events of one decision have its one key", what)
        if any(p >= key[1] for p in self.published[key[0]]):
            raise Bad(k, f"it is keyed to the {key[0]} seed of period {key[1]}, published already: "
                         "anybody could foresee these dice", what)
        self.batch_key = key
        rolls = entry.get("rolls", [])
        if not (isinstance(rolls, list) and all(isinstance(r, list) and len(r) == 4 and all(
                isinstance(x, int) and not isinstance(x, bool) for x in r) for r in rolls)):
            raise Bad(k, "its rolls are a list of [event number, index, sides, value]", what)
        if rolls and key[0] != seeds.OPEN:
            raise Bad(k, "the rolls of a decision keyed to the hidden seed are never listed", what)
        for r in rolls:
            if not (0 <= r[0] <= n + 1 and r[1] >= 0 and 1 <= r[2] <= 256 and 1 <= r[3] <= r[2]):
                raise Bad(k, f"the roll {r} is not a die of this event", what)

    # -- the dice -----------------------------------------------------------------------

    def seed_for(self, chain: str, period: int) -> str | None:
        """``seeds.seed_for`` of the seeds published so far, once per period (a period's
        decisions are many, and a seed can be a thousand hashes below the one published)."""
        key = (chain, period, len(self.published[chain]))
        if key not in self._seeds:
            self._seeds[key] = seeds.seed_for(period, self.published[chain])
        return self._seeds[key]

    def rolls(self) -> tuple[int, int]:
        checked = waiting = 0
        for k, entry in self.keyed:
            chain, period = entry["key"]
            seed = self.seed_for(chain, period)
            if seed is None:
                waiting += len(entry.get("rolls", []))
                continue
            if set(self.entropy) != set(self.sides):
                continue  # the game's creation before the entropy: it rolls nothing (``event``)
            key = seeds.turn_key(seed, self.entropy)
            what = describe(entry)
            for n, index, sides, value in entry.get("rolls", []):
                got = dice.roll(key, n, index, sides)
                if got != value:
                    raise Bad(k, f"die {index} of event {n} ({sides} sides) is {value} in the record, but the "
                                 f"{chain} seed of period {period} and the players' entropy give {got}", what)
                checked += 1
            data = entry["event"].get("data") or {}
            if entry["event"].get("type") == rec.CREATED and data.get("secret") not in (None, key):
                raise Bad(k, f"the game's secret is not the key of the {chain} seed of period {period}", what)
        return checked, waiting

    # -- the rules ----------------------------------------------------------------------

    def replay(self) -> tuple[bool, str]:
        self.replay_rolls = 0
        if self.sealed_events or self.sealed_commands:
            return False, f"{self.sealed_events + self.sealed_commands} entries sealed for this viewer"
        if not self.events:
            return False, "no events"
        from engine.games import game_ids, get_rules

        if self.game not in game_ids():
            return False, f"the game {self.game!r} is not known here"
        log, keys = [], {}
        for n in range(len(self.events)):
            entry = self.entries[self.events[n]]
            assert entry is not None
            command = self.commands.get(n)
            try:
                log.append(LogEntry(Event.from_json(entry["event"]),
                                    None if command is None else Command.from_json(command)))
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                raise Bad(self.events[n], f"the event or its command is malformed: {exc}", describe(entry)) from None
            if command is not None:
                chain, period = entry["key"]
                if self.seed_for(chain, period) is None:
                    return False, "the seeds are not all published (they are when the game is over)"
                keys[n] = (chain, period, {c: self.seed_for(c, period) for c in seeds.CHAINS})
        rules = get_rules(self.game)
        annotated = {n: self.entries[k].get("rolls", []) for n, k in self.events.items()}  # type: ignore[union-attr]
        keyed = _Keyed(rules, keys, self.entropy, annotated)
        try:
            verdict = verify_log(keyed, log)  # type: ignore[arg-type]
        except Exception as exc:  # noqa: BLE001 - events the rules cannot even apply
            k = self.events.get(keyed.last_n, len(self.entries) - 1)
            raise Bad(k, f"the rules cannot replay the log from here: {type(exc).__name__}: {exc}",
                      describe(self.entries[k] or {})) from None
        if not verdict.ok:
            n = keyed.bad_n if keyed.bad_n is not None else verdict.bad_seq
            k = self.events.get(n, len(self.entries) - 1) if n is not None else None
            why = keyed.bad_why or verdict.message
            raise Bad(k, f"the rules do not give this: {why}", describe(self.entries[k] or {}) if k is not None else "")
        self.replay_rolls = keyed.rolled
        return True, ""


class _Keyed:
    """The game's rules, deciding each command with the key its record entry names, and
    checking that key (period and chain) and the rolls listed with the events."""

    def __init__(self, rules: Any, keys: dict[int, tuple[str, int, dict[str, str | None]]],
                 entropy: dict[str, str], annotated: dict[int, list[list[int]]]) -> None:
        self.rules, self.keys, self.entropy, self.annotated = rules, keys, entropy, annotated
        self.periods = Periods()
        self.rolled = 0
        self.last_n = 0  # the first event of the last decision made
        self.bad_n: int | None = None
        self.bad_why = ""

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rules, name)

    def _refuse(self, n: int, why: str) -> RuleError:
        self.bad_n, self.bad_why = n, why
        return RuleError("", why)

    def decide(self, state: Any, command: Command) -> list[Event]:
        n = self.last_n = state.seq
        chain, period, chain_seeds = self.keys[n]
        expected = self.periods.at(self.rules, state)
        if period != expected:
            raise self._refuse(n, f"the decision is keyed to period {period}, but the turns make it period {expected}")

        def key(c: str) -> str:
            seed = chain_seeds[c]
            if seed is None:
                raise self._refuse(n, f"the {c} seed of period {period} is not published")
            return seeds.turn_key(seed, self.entropy)

        events, rolls = decide_with(self.rules, state, command, key(chain))
        self.rolled += len(rolls)
        sides = tuple(self.rules.sides)
        if chain == seeds.OPEN and hides_a_roll(events, rolls, sides):
            raise self._refuse(n, "it rolls for an event a side may not read, which takes the hidden seed")
        if chain == seeds.HIDDEN and not hides_a_roll(*decide_with(self.rules, state, command, key(seeds.OPEN)), sides):
            raise self._refuse(n, "it is keyed to the hidden seed, but with the open one every roll would be seen")
        by_event = rolls_by_event(rolls, n, len(events)) if chain == seeds.OPEN else {}
        for m in range(n, n + len(events)):
            if self.annotated.get(m, []) != by_event.get(m, []):
                raise self._refuse(m, f"the rolls listed with event {m} are not the ones its decision made: "
                                      f"{by_event.get(m, [])}")
        return events
