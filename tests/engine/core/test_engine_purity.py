"""The engine imports nothing from the web or DB side, nor ``random`` (style.md §1, §6)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
ENGINE = ROOT / "engine"
FORBIDDEN = {"app", "fastapi", "sqlalchemy", "starlette", "jinja2", "random", "psycopg", "psycopg2"}


def imported_modules(source: str) -> list[tuple[int, str]]:
    """Every absolute module named by an import statement or an ``import_module``/``__import__``
    call with a literal name, anywhere in the file (functions included)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module))
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
            if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                out.append((node.lineno, node.args[0].value))
    return out


def forbidden_imports(source: str, forbidden: set[str] = FORBIDDEN) -> list[tuple[int, str]]:
    return [(line, mod) for line, mod in imported_modules(source) if mod.split(".")[0] in forbidden]


ENGINE_FILES = sorted(ENGINE.rglob("*.py"))


def test_the_engine_has_python_files() -> None:
    names = {p.relative_to(ENGINE).as_posix() for p in ENGINE_FILES}
    assert {"core/hexes.py", "core/dice.py", "core/events.py", "core/errors.py",
            "core/crt.py", "core/game.py"} <= names


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_engine_module_imports_nothing_forbidden(path: Path) -> None:
    assert forbidden_imports(path.read_text(encoding="utf-8")) == []


def test_whole_engine_is_pure() -> None:
    bad = {p.relative_to(ROOT).as_posix(): found for p in ENGINE_FILES
           if (found := forbidden_imports(p.read_text(encoding="utf-8")))}
    assert bad == {}


CORE_FILES = sorted((ENGINE / "core").rglob("*.py"))


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_core_names_no_specific_game(path: Path) -> None:
    """engine.core may load the bundled-games package, but never a game's own modules."""
    for _, mod in imported_modules(path.read_text(encoding="utf-8")):
        assert not mod.startswith("engine.games."), mod


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import random", ["random"]),
        ("import os, random as r", ["random"]),
        ("from random import randint", ["random"]),
        ("from app.models import Game", ["app.models"]),
        ("import fastapi.routing", ["fastapi.routing"]),
        ("from sqlalchemy.orm import Session", ["sqlalchemy.orm"]),
        ("from starlette.requests import Request", ["starlette.requests"]),
        ("import jinja2", ["jinja2"]),
        ("import psycopg", ["psycopg"]),
        ("def f():\n    import random\n    return random.random()", ["random"]),
        ("try:\n    import jinja2\nexcept ImportError:\n    pass", ["jinja2"]),
        ("import importlib\nimportlib.import_module('random')", ["random"]),
        ("__import__('sqlalchemy')", ["sqlalchemy"]),
        ("import secrets, hashlib, hmac", []),
        ("import application, apple, randomize", []),
        ("from . import app", []),
        ("from .random import x", []),
        ("from engine.core import dice", []),
    ],
)
def test_checker_finds_forbidden_imports(source: str, expected: list[str]) -> None:
    assert [mod for _, mod in forbidden_imports(source)] == expected
