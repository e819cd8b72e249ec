"""The dice seeds: the reverse hash chain, the check of a published seed, and the roll
derivation that needs the period's seed and both players' entropy."""

from __future__ import annotations

import pytest

from engine.core import dice, seeds

TOP = "5e" * 32
PERIODS = 12
ENTROPY = {"US": "us-entropy-1", "IJ": "ij-entropy-1"}


def test_each_seed_is_the_hash_of_the_next_and_the_commitment_that_of_the_first() -> None:
    chain = seeds.chain(TOP, PERIODS)
    assert len(chain) == PERIODS + 1 and chain[PERIODS] == TOP
    for t in range(PERIODS):
        assert chain[t] == seeds.h(chain[t + 1])
    assert seeds.commitment(TOP, PERIODS) == chain[0] == seeds.h(chain[1])
    assert seeds.down(chain[9], 9 - 4) == chain[4]


def test_a_published_seed_is_checked_against_the_commitment_and_the_seeds_before_it() -> None:
    chain = seeds.chain(TOP, PERIODS)
    published: dict[int, str] = {}
    for t in range(1, PERIODS + 1):
        assert seeds.verify_seed(chain[0], t, chain[t]) is None  # against the commitment
        assert seeds.verify_seed(chain[0], t, chain[t], published) is None  # against the last one published
        published[t] = chain[t]
    assert "commitment" in seeds.verify_seed(chain[0], 3, chain[4])
    assert "period 2" in seeds.verify_seed(chain[0], 3, seeds.h("00" * 32), {2: chain[2]})
    assert seeds.verify_seed(chain[0], 3, chain[2]) is not None
    assert seeds.verify_seed(chain[0], 0, chain[0]) is not None
    assert seeds.verify_seed(chain[0], 3, "not hex") is not None
    other = seeds.chain("77" * 32, PERIODS)
    assert seeds.verify_seed(chain[0], 5, other[5]) is not None


def test_seeds_published_up_to_a_period_give_no_later_seed() -> None:
    chain = seeds.chain(TOP, PERIODS)
    for t in range(1, PERIODS):
        published = {k: chain[k] for k in range(1, t + 1)}
        assert seeds.seed_for(t + 1, published) is None
        assert seeds.seed_for(t, published) == chain[t] and seeds.seed_for(1, published) == chain[1]
        # everything that can be computed from them by hashing is a seed of period t or below
        reachable = {seeds.down(s, j) for s in published.values() for j in range(PERIODS + 1)}
        assert not reachable & set(chain[t + 1:])
    assert seeds.seed_for(3, {7: chain[7]}) == chain[3]  # a later seed gives every earlier one


def rolls(seed: str, entropy: dict[str, str], start: int = 0, index: int = 0, count: int = 40) -> list[int]:
    return [seeds.roll(seed, entropy, n, index) for n in range(start, start + count)]


def test_a_roll_needs_the_seed_and_both_players_entropy_and_changes_with_every_input() -> None:
    chain = seeds.chain(TOP, PERIODS)
    base = rolls(chain[3], ENTROPY)
    assert all(1 <= r <= 6 for r in base)
    assert base == [dice.roll(seeds.turn_key(chain[3], ENTROPY), n, 0) for n in range(40)]
    changed = {
        "the seed of another period": rolls(chain[4], ENTROPY),
        "a seed of another chain": rolls(seeds.chain("77" * 32, PERIODS)[3], ENTROPY),
        "US's entropy": rolls(chain[3], {**ENTROPY, "US": "us-entropy-2"}),
        "IJ's entropy": rolls(chain[3], {**ENTROPY, "IJ": "ij-entropy-2"}),
        "the entropies swapped": rolls(chain[3], {"US": ENTROPY["IJ"], "IJ": ENTROPY["US"]}),
        "the event number": rolls(chain[3], ENTROPY, start=1),
        "the die's index": rolls(chain[3], ENTROPY, index=1),
    }
    for what, other in changed.items():
        assert other != base, what
        assert sum(a != b for a, b in zip(base, other, strict=True)) > 20, what  # not a shift of a few dice
    with pytest.raises(ValueError):
        seeds.roll(chain[3], {"US": "us-entropy-1"}, 0)  # one player's entropy is not enough


def test_the_entropy_message_cannot_be_read_two_ways() -> None:
    assert seeds.entropy_message({"a": "bc", "d": "e"}) != seeds.entropy_message({"ab": "c", "d": "e"})
    assert seeds.entropy_message({"US": "1", "IJ": "2"}) == seeds.entropy_message({"IJ": "2", "US": "1"})


def test_draws_and_dice_are_fair() -> None:
    seed = seeds.chain(TOP, PERIODS)[1]
    counts = [0] * 6
    for n in range(6000):
        counts[seeds.roll(seed, ENTROPY, n) - 1] += 1
    assert all(900 < c < 1100 for c in counts), counts
    pool = ["a", "b", "c", "d", "e"]
    drawn = {seeds.draw(seed, ENTROPY, n, pool) for n in range(200)}
    assert drawn == set(pool)
    assert seeds.draw(seed, ENTROPY, 3, pool) == dice.draw(seeds.turn_key(seed, ENTROPY), 3, pool)


def test_an_entropy_commitment_is_the_hash_of_the_entropy() -> None:
    assert seeds.entropy_commitment("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
