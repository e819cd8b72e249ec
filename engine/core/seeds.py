"""Dice seeds nobody can bend: a reverse hash chain of per-period seeds, both players'
entropy, and the roll derivation (docs/fair-dice.md tells a player how to check them).

Before a game starts the server picks a random top seed ``seed[N]`` for each of two
chains and hashes down: ``seed[t] = H(seed[t+1])``; the hash of ``seed[1]`` is the
chain's *commitment* (``seed[0]``), shown to both players before they give their
entropy.  The seeds are used upwards: period 1 rolls with ``seed[1]``, period 2 with
``seed[2]``...  Once a period is over its seed is published, and anyone checks it by
hashing it ``t`` times back to the commitment (or fewer times to a seed published
earlier).  Nobody can go the other way: from ``seed[1..t]`` to ``seed[t+1]`` means
inverting SHA-256.

* The *open* chain keys the rolls every side may see; its seeds are published period by
  period, so the players can check the dice as the game goes.
* The *hidden* chain keys the decisions that roll for something a side may not see (a
  secret die, a marker drawn into a hidden hand): publishing its seeds early would tell
  the other side the result, so its top seed is published only when the game is over.

A roll is ``dice.roll(turn_key(seed, entropy), event_no, index, sides)``: the period's
key is an HMAC of the seed over both players' entropy, and the die an HMAC of that key
over the event's number, the die's index and a counter, by rejection sampling (no
modulo bias).  Without the seed nor without either player's entropy nobody can compute
a roll; the server commits to the seeds before it sees the entropy, and each player
commits to its entropy before it sees the other's (``entropy_commitment``), so nobody
can pick the dice.

Seeds, keys and commitments are lowercase hex strings (64 characters).
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Mapping, Sequence
from typing import TypeVar

from engine.core import dice

T = TypeVar("T")

OPEN, HIDDEN = "open", "hidden"
CHAINS = (OPEN, HIDDEN)
KEY_LABEL = b"hexwar-dice-key-v1|"


def h(seed: str) -> str:
    """One step down the chain: SHA-256 of the seed's 32 bytes, as hex."""
    return hashlib.sha256(_bytes(seed)).hexdigest()


def _steps(seed: str, steps: int) -> list[str]:
    """``[seed, h(seed), h(h(seed)), ...]``, ``steps`` hashes: on the bytes, checked once
    (a chain has a thousand periods; a hex check at each step was most of the work)."""
    raw, out = _bytes(seed), [seed]
    for _ in range(steps):
        raw = hashlib.sha256(raw).digest()
        out.append(raw.hex())
    return out


def chain(top: str, periods: int) -> list[str]:
    """``[commitment, seed[1], ..., seed[periods]]`` from the top seed ``seed[periods]``
    (64 hex digits, from a cryptographic random source: ``secrets.token_hex(32)``)."""
    if periods < 1:
        raise ValueError("a chain has at least one period")
    return _steps(top, periods)[::-1]


def commitment(top: str, periods: int) -> str:
    """The chain's public commitment, ``H(seed[1])``."""
    return chain(top, periods)[0]


def down(seed: str, steps: int) -> str:
    """``seed`` hashed ``steps`` times: ``down(seed[t], t - k) == seed[k]``."""
    raw = _bytes(seed)
    for _ in range(steps):
        raw = hashlib.sha256(raw).digest()
    return raw.hex()


def verify_seed(commitment_: str, period: int, seed: str, earlier: Mapping[int, str] | None = None) -> str | None:
    """Why the ``seed`` published for ``period`` is not the chain's (None: it is).  It is
    checked against the latest of the ``earlier`` published seeds (period -> seed) below
    ``period`` (fewer hashes), and against the commitment when there is none."""
    if not isinstance(period, int) or isinstance(period, bool) or period < 1:
        return f"period {period!r} is not a period (1, 2, ...)"
    try:
        _check_hex(seed)
    except ValueError as exc:
        return str(exc)
    below = [k for k in (earlier or {}) if k < period]
    if below:
        k = max(below)
        if down(seed, period - k) != earlier[k]:  # type: ignore[index]
            return f"hashed {period - k} time(s) it is not the seed published for period {k}"
        return None
    if down(seed, period) != commitment_:
        return f"hashed {period} time(s) it is not the commitment {commitment_[:16]}..."
    return None


def seed_for(period: int, published: Mapping[int, str]) -> str | None:
    """The seed of ``period`` from the seeds published so far (a later one gives every earlier
    one; an earlier one gives no later one), or None."""
    later = [k for k in published if k >= period]
    if not later:
        return None
    k = min(later)
    return down(published[k], k - period)


def entropy_commitment(entropy: str) -> str:
    """What a player shows first, before the other player's entropy is known: SHA-256 of its
    entropy's UTF-8 bytes, as hex."""
    return hashlib.sha256(entropy.encode()).hexdigest()


def entropy_message(entropy: Mapping[str, str]) -> bytes:
    """Both players' entropy as the bytes the key is made over: each side's name and entropy,
    in the order of the sides' names, each prefixed by its length in UTF-8 bytes."""
    out = bytearray(KEY_LABEL)
    for side in sorted(entropy):
        for text in (side, entropy[side]):
            raw = text.encode()
            out += f"{len(raw)}:".encode() + raw
    return bytes(out)


def turn_key(seed: str, entropy: Mapping[str, str]) -> str:
    """A period's dice key: HMAC-SHA256 keyed by the seed's bytes over ``entropy_message``,
    as hex.  It is what ``engine.core.dice.roll`` takes as its ``secret``."""
    if len(entropy) < 2:
        raise ValueError("the dice need every player's entropy")
    return hmac.new(_bytes(seed), entropy_message(entropy), hashlib.sha256).hexdigest()


def roll(seed: str, entropy: Mapping[str, str], event_no: int, index: int = 0, sides: int = 6) -> int:
    """Die ``index`` of event ``event_no`` in the period of ``seed``: 1..``sides``."""
    return dice.roll(turn_key(seed, entropy), event_no, index, sides)


def draw(seed: str, entropy: Mapping[str, str], event_no: int, pool: Sequence[T], index: int = 0) -> T:
    """Draw ``index`` of event ``event_no`` from ``pool``, every item equally likely."""
    return dice.draw(turn_key(seed, entropy), event_no, pool, index)


_HEX = re.compile(r"[0-9a-f]{64}")


def _check_hex(seed: str) -> str:
    if not (isinstance(seed, str) and _HEX.fullmatch(seed)):
        raise ValueError("a seed is 64 lowercase hex digits")
    return seed


def _bytes(seed: str) -> bytes:
    return bytes.fromhex(_check_hex(seed))
