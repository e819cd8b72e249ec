"""engine.core.dice: deterministic, verifiable, fair dice."""

from __future__ import annotations

import hashlib
import hmac
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from engine.core import dice
from engine.core.dice import commitment, derive_secret, roll

ROOT = Path(__file__).resolve().parents[3]


def reference_roll(secret: str, event_no: int, index: int = 0, sides: int = 6) -> int:
    """What anyone holding the revealed secret can recompute: HMAC-SHA256 over
    ``event:index:counter``, bytes below the largest multiple of ``sides`` kept."""
    counter = 0
    while True:
        digest = hmac.new(secret.encode(), f"{event_no}:{index}:{counter}".encode(), hashlib.sha256).digest()
        for byte in digest:
            if byte < 256 - 256 % sides:
                return byte % sides + 1
        counter += 1


def test_roll_is_deterministic() -> None:
    for n in range(50):
        for i in range(3):
            assert roll("secret", n, i) == roll("secret", n, i)


def test_roll_is_pinned_so_old_games_stay_verifiable() -> None:
    # Changing the algorithm would make every published commitment unverifiable.
    assert [roll("secret", n) for n in range(12)] == [1, 3, 5, 5, 5, 1, 2, 2, 4, 5, 6, 1]
    assert [roll("secret", 5, i) for i in range(12)] == [1, 6, 5, 1, 3, 4, 5, 2, 3, 5, 5, 1]
    assert [roll("golden", n, 0, 20) for n in range(12)] == [10, 5, 11, 11, 8, 16, 17, 6, 12, 2, 18, 4]


def test_roll_matches_the_published_recipe() -> None:
    for secret in ("secret", "another", "ünïcode-ß"):
        for n in range(200):
            assert roll(secret, n, n % 3) == reference_roll(secret, n, n % 3)
    for sides in (2, 3, 4, 8, 10, 12, 20, 100):
        for n in range(50):
            assert roll("s", n, 1, sides) == reference_roll("s", n, 1, sides)


def test_default_index_is_zero() -> None:
    assert [roll("x", n) for n in range(30)] == [roll("x", n, 0) for n in range(30)]


def test_roll_always_in_range() -> None:
    values = {roll("range", n, i) for n in range(2000) for i in range(2)}
    assert values == {1, 2, 3, 4, 5, 6}
    for sides in (1, 2, 3, 7, 20, 100, 256):
        vals = [roll("range", n, 0, sides) for n in range(300)]
        assert all(1 <= v <= sides for v in vals), sides
    assert {roll("range", n, 0, 1) for n in range(20)} == {1}
    assert {roll("range", n, 0, 2) for n in range(200)} == {1, 2}


def test_roll_is_roughly_uniform_over_event_numbers() -> None:
    counts = Counter(roll("uniform", n) for n in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    for face, count in counts.items():
        assert 850 <= count <= 1150, (face, count)


def test_roll_is_roughly_uniform_over_indices() -> None:
    counts = Counter(roll("uniform-index", 7, i) for i in range(6000))
    for face in range(1, 7):
        assert 850 <= counts[face] <= 1150, (face, counts[face])


def test_successive_rolls_are_not_correlated() -> None:
    # Pairs of consecutive rolls: each of the 36 pairs about 1/36 of the time.
    seq = [roll("pairs", n) for n in range(18001)]
    pairs = Counter(zip(seq, seq[1:], strict=False))
    assert len(pairs) == 36
    assert all(350 <= c <= 650 for c in pairs.values()), pairs


def test_different_event_numbers_give_different_sequences() -> None:
    a = [roll("secret", 1, i) for i in range(20)]
    b = [roll("secret", 2, i) for i in range(20)]
    assert a != b


def test_different_indices_give_different_sequences() -> None:
    a = [roll("secret", n, 0) for n in range(20)]
    b = [roll("secret", n, 1) for n in range(20)]
    assert a != b


def test_different_secrets_give_different_sequences() -> None:
    a = [roll("secret-a", n) for n in range(20)]
    b = [roll("secret-b", n) for n in range(20)]
    assert a != b


def test_event_and_index_are_not_confused() -> None:
    # "1:23" and "12:3" must not collide; (n, i) and (i, n) are different dice.
    assert [roll("s", 1, 20 + k) for k in range(20)] != [roll("s", 12, k) for k in range(20)]
    assert [roll("s", n, 3) for n in range(20)] != [roll("s", 3, n) for n in range(20)]


def test_commitment_is_sha256_hex_of_the_secret() -> None:
    assert commitment("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert commitment("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    for s in ("secret", "doc", "ünïcode"):
        assert commitment(s) == hashlib.sha256(s.encode()).hexdigest()
    assert commitment("secret") != commitment("secret2")


def test_commitment_does_not_reveal_the_dice() -> None:
    # Using the commitment as the key gives different dice from the secret itself.
    c = commitment("secret")
    assert [roll(c, n) for n in range(20)] != [roll("secret", n) for n in range(20)]


def test_derive_secret_is_deterministic() -> None:
    assert derive_secret(1, "game-1") == derive_secret(1, "game-1")
    assert derive_secret("seed") == derive_secret("seed", "")


def test_derive_secret_recipe() -> None:
    assert derive_secret(7, "g") == hashlib.sha256(b"1:g:7").hexdigest()
    assert derive_secret(7) == hashlib.sha256(b"0::7").hexdigest()
    assert derive_secret("c", "a:b") != derive_secret("b:c", "a")  # no collision across the separator
    s = derive_secret(42, "x")
    assert len(s) == 64 and set(s) <= set("0123456789abcdef")


def test_derive_secret_differs_per_game_and_seed() -> None:
    secrets = {derive_secret(seed, f"game-{g}") for seed in range(10) for g in range(10)}
    assert len(secrets) == 100
    assert derive_secret(1, "a") != derive_secret(1, "b")
    assert derive_secret(1, "a") != derive_secret(2, "a")


def test_derived_secrets_give_different_dice() -> None:
    a, b = derive_secret(1, "game-a"), derive_secret(1, "game-b")
    assert [roll(a, n) for n in range(20)] != [roll(b, n) for n in range(20)]


def test_roll_with_more_than_256_sides_terminates() -> None:
    code = (
        "from engine.core.dice import roll\n"
        "try:\n"
        "    v = roll('s', 0, 0, 1000)\n"
        "    assert 1 <= v <= 1000, v\n"
        "except ValueError:\n"
        "    pass\n"
    )
    try:
        subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, timeout=3)
    except subprocess.TimeoutExpired:
        pytest.fail("roll(sides=1000) did not return within 3 s")


def test_recording_lists_each_die_rolled_in_its_block_and_only_there() -> None:
    dice.roll("s", 1)
    with dice.recording() as rolls:
        first = dice.roll("s", 7, 0)
        second = dice.roll("s", 7, 1, sides=10)
    dice.roll("s", 8)
    assert rolls == [[7, 0, 6, first], [7, 1, 10, second]]
