"""docs/fair-dice.md's worked examples are run: the Python block as it stands, and each
shell command of the shell block, whose output must be the line after it."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[3] / "docs" / "fair-dice.md"


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_python_example_runs() -> None:
    found = blocks("python")
    assert len(found) == 1 and "seeds.roll" in found[0]
    exec(compile(found[0], str(DOC), "exec"), {})  # noqa: S102 - the doc's own example


@pytest.mark.skipif(not all(shutil.which(t) for t in ("openssl", "xxd", "sha256sum")),
                    reason="needs openssl, xxd and sha256sum")
def test_the_shell_example_gives_what_it_says() -> None:
    found = blocks("sh")
    assert len(found) == 1
    lines = found[0].strip().splitlines()
    pairs = [(lines[i][2:], lines[i + 1]) for i in range(0, len(lines), 2)]
    assert len(pairs) == 4 and all(line.startswith("$ ") for line in lines[::2])
    for command, expected in pairs:
        done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=30)
        assert done.stdout.strip() == expected, (command, done.stderr)


def shape(text: str) -> str:
    return re.sub(r"[0-9a-f]{16}|\d+", "#", " ".join(text.split()))


def test_the_verdict_quoted_is_the_checker_s() -> None:
    """The OK line the doc quotes is the checker's of a random First Blood game (up to its
    numbers, which change with the rules)."""
    from engine.record.check import verify_record
    from engine.record.play import play

    book, _ = play("first_blood", 1)
    message = verify_record(book.export("US")).message
    assert shape(f"`{message}`") in shape(DOC.read_text(encoding="utf-8")), message
