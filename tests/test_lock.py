"""The lock files hold what pyproject.toml asks for: every requirement, at a version its
range allows, with hashes; and the server's lock agrees with the tests' on every version."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")


def locked(name: str) -> dict[str, str]:
    """name -> version of every pin in a lock file; each pin must carry hashes."""
    text = (ROOT / name).read_text()
    pins: dict[str, str] = {}
    for entry in re.split(r"\n(?=\S)", text):
        match = PIN.match(entry)
        if match:
            assert "--hash=sha256:" in entry, f"{name}: {match[1]} has no hash"
            pins.setdefault(canonicalize_name(match[1]), match[2])
    return pins


def requirements(*extras: str) -> list[Requirement]:
    wanted = list(PYPROJECT["dependencies"])
    for extra in extras:
        wanted += PYPROJECT["optional-dependencies"][extra]
    return [Requirement(r) for r in wanted]


@pytest.mark.parametrize(("lock", "extras"), [("requirements.txt", ("redis",)),
                                              ("requirements-test.txt", ("redis", "test"))])
def test_the_lock_holds_every_requirement_in_its_range(lock: str, extras: tuple[str, ...]) -> None:
    pins = locked(lock)
    for requirement in requirements(*extras):
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{lock} lacks {requirement}: refresh the lock (README, 'Dependencies')"
        assert requirement.specifier.contains(pins[name], prereleases=True), \
            f"{lock} pins {name}=={pins[name]}, outside {requirement}: refresh the lock"


def test_the_server_and_the_tests_lock_the_same_versions() -> None:
    server, tests = locked("requirements.txt"), locked("requirements-test.txt")
    differ = {name: (version, tests.get(name)) for name, version in server.items() if tests.get(name) != version}
    assert not differ, differ
