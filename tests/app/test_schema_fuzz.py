"""Schema fuzz of the JSON API (schemathesis): every operation in /openapi.json gets
generated requests, valid and invalid (schemathesis' coverage and fuzzing phases).
No answer may be a server error, and every answer must match the schema: a documented
status code, its documented content type and its documented body.

The app runs in this process: ``with TestClient(app)`` runs its lifespan (the
migrations), and the cases go to the same app object in-process through schemathesis'
ASGI client.  An exception escaping the app (which a server answers with a 500) fails
the case with its traceback.

To reach past 404s and 401s, a real game is created and joined first, one of each game
(First Blood, Pacific Battles) on each database.  Most cases get
its id as ``game_id``, a seat's secret as a bearer token (the admin endpoints and the
import get the admin's basic credentials instead), real unit ids, hexes, command verbs,
field names and the current sequence number, and the import gets the game's export
file, as it is or tampered with; the other cases keep what was generated.  Which case
gets what is a pure function of the case, so a run is reproducible (``derandomize``).

    python -m pytest tests/app/test_schema_fuzz.py
"""

from __future__ import annotations

import base64
import copy
import json
import tempfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from app_support import ADMIN, bearer, listed
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase
from hypothesis import settings as hypothesis_settings
from requests.structures import CaseInsensitiveDict
from schemathesis.checks import not_a_server_error
from schemathesis.core import NotSet
from schemathesis.python.asgi import ASGIClient
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from app.config import Settings
from app.main import create_app
from engine.games import get_rules
from engine.games.first_blood.rules import FIELDS as FB_FIELDS
from engine.games.pacific_battles.rules import FIELDS as PB_FIELDS

# No 5xx; status code documented; content type as documented; body (and headers) as documented.
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          response_headers_conformance]
MAX_EXAMPLES = 25  # generated cases per operation and database, besides the coverage phase's own


@dataclass
class Target:
    client: TestClient  # runs the lifespan; used to look the game up between cases
    session: ASGIClient  # what the cases are sent with: the same app, in-process
    game_id: str
    tokens: dict[str, str]
    units: list[str]
    hexes: list[str]
    export: dict[str, Any]  # the game's export file (unfinished: only an admin may import it)
    verbs: list[str]  # the game's command types

    def legal(self) -> tuple[str, dict[str, Any]]:
        """The side to act now and its legal commands."""
        return acting(self.client, self.game_id, self.tokens)


def acting(client: TestClient, game_id: str, tokens: dict[str, str]) -> tuple[str, dict[str, Any]]:
    first = next(iter(tokens))
    legal = client.get(f"/api/games/{game_id}/legal", headers=bearer(tokens[first])).json()
    side = legal["prompt"]["side"] or first
    if side != first:
        legal = client.get(f"/api/games/{game_id}/legal", headers=bearer(tokens[side])).json()
    return side, legal


def get_fields(game: str) -> dict[str, dict[str, str]]:
    return {"first_blood": FB_FIELDS, "pacific_battles": PB_FIELDS}[game]


GAMES = {"first_blood": {"side": "US"}, "pacific_battles": {"scenario": "short", "side": "Japanese"}}


@pytest.fixture(scope="module", params=sorted(GAMES))
def fuzz_target(request: pytest.FixtureRequest, module_settings: Settings) -> Iterator[Target]:
    """One game of each kind per database for all the module's cases, which build on one another."""
    game = request.param
    # Without rate limits: the fuzz sends hundreds of requests, wrong secrets among them, from one address,
    # and would otherwise meet mostly 429s (the limits have tests of their own).
    app = create_app(module_settings.model_copy(update={"rate_limit_enabled": False}))
    with TestClient(app) as client:
        r = client.post("/api/games", json={"game": game, "name": "Alice", **GAMES[game]})
        assert r.status_code == 201, r.text
        created = r.json()
        gid, invite = created["game_id"], created["invite_url"].split("token=")[1]
        r = client.post(f"/api/games/{gid}/join", json={"token": invite, "name": "Bob"})
        assert r.status_code == 200, r.text
        other = next(side for side in get_rules(game).sides if side != created["side"])
        tokens = {created["side"]: created["token"], other: r.json()["token"]}
        client.cookies.clear()  # the cases choose their own credentials
        view = client.get(f"/api/games/{gid}", headers=bearer(tokens[created["side"]]))
        assert view.status_code == 200, view.text
        units = view.json()["units"]
        export = client.get(f"/api/admin/games/{gid}/export", auth=ADMIN)
        assert export.status_code == 200, export.text
        _, legal = acting(client, gid, tokens)
        hexes = sorted({u.get("loc") or u.get("hex") for u in units if u.get("loc") or u.get("hex")}
                       | {c["data"]["to"] for c in listed(legal) if isinstance(c["data"].get("to"), str)})
        yield Target(client=client, session=ASGIClient(app), game_id=gid, tokens=tokens,
                     units=sorted(u["id"] for u in units) or ["no-unit"], hexes=hexes or ["0101"],
                     export=export.json(), verbs=sorted(get_fields(game)))


def api_spec() -> dict[str, Any]:
    """The API's OpenAPI document, as the app serves it (no request is made: no migration runs)."""
    with tempfile.TemporaryDirectory() as folder:
        spec = create_app(Settings(database_url=f"sqlite:///{folder}/unused.db", secret_key="schema-only")).openapi()
    # the live stream never ends by design; tests/app/test_live_updates.py covers it, refusals too
    del spec["paths"]["/api/games/{game_id}/stream"]
    return spec


# Loaded when the module is, so that each operation is a test of its own (schemathesis' pytest
# integration); every operation's cases go to the module's game on each database.
schema = schemathesis.openapi.from_dict(api_spec())


def basic(user: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def stable(value: Any) -> str:
    """A text of a generated value that is the same in every run (no object addresses)."""
    if isinstance(value, NotSet):
        return "(not set)"
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def chooser(case: Any) -> Any:
    """pick(salt, n): a choice in range(n) that depends only on the case as generated."""
    seen = "|".join(stable(part) for part in (case.method, case.path, case.path_parameters, dict(case.headers or {}),
                                               case.query, case.body))

    def pick(salt: str, n: int) -> int:
        return zlib.crc32(f"{salt}|{seen}".encode()) % n

    return pick


def values(generated: Any) -> list[Any]:
    """Generated values to put into real fields."""
    if isinstance(generated, dict):
        return list(generated.values()) or [generated]
    return [generated]


def is_json(body: Any) -> bool:
    """Whether a generated body is a JSON value (not raw bytes made up to break the parser)."""
    try:
        json.dumps(body)
    except (TypeError, ValueError):
        return False
    return True


def with_nul(value: Any) -> Any:
    """A copy with a NUL character in the middle of every string value."""
    if isinstance(value, str):
        return value[: len(value) // 2] + "\x00" + value[len(value) // 2 :]
    if isinstance(value, dict):
        return {k: with_nul(v) for k, v in value.items()}
    if isinstance(value, list):
        return [with_nul(v) for v in value]
    return value


def feed(case: Any, target: Target) -> None:
    """Put the real game, its secrets and its vocabulary into most cases (in place)."""
    pick = chooser(case)
    # Copies: generated cases may share their containers (the coverage phase derives cases from one another).
    params = dict(case.path_parameters or {})
    if "game_id" in params and pick("game", 5):
        params["game_id"] = target.game_id
    if "unit_id" in params and pick("unit", 3):
        params["unit_id"] = target.units[pick("which unit", len(target.units))]
    # Some cases get a NUL in every string of their path, others in every string of their body:
    # text columns must survive it.
    if pick("nul in path", 6) == 0:
        params = with_nul(params)
    if params:
        case.path_parameters = params
    headers = CaseInsensitiveDict(case.headers or {})
    if case.path.startswith("/api/admin/") or case.path == "/api/games/import":
        who = pick("admin", 5)  # 0: as generated (schemathesis makes up basic credentials), 1: none
        if who == 1:
            headers.pop("Authorization", None)
        elif who == 2:
            headers["Authorization"] = basic(ADMIN[0], "wrong password")
        elif who > 2:
            headers["Authorization"] = basic(*ADMIN)
    else:
        who = pick("seat", 6)  # 0: as generated (none), 1: a wrong secret, 2-3: US, 4-5: IJ
        if who == 1:
            headers["Authorization"] = "Bearer not-a-seat-secret"
        elif who > 1:
            headers.update(bearer(list(target.tokens.values())[0 if who < 4 else 1]))
    case.headers = dict(headers)
    body = case.body
    if is_json(body):
        body = case.body = with_nul(body) if pick("nul in body", 6) == 0 else copy.deepcopy(body)
    if case.path == "/api/games" and isinstance(body, dict) and pick("new game", 3):
        body["side"] = ("US", "IJ")[pick("side", 2)]
        if pick("defaults", 2):
            body.pop("game", None)
            body.pop("scenario", None)
    elif case.path.endswith("/join") and isinstance(body, dict) and pick("join", 3):
        body["token"] = list(target.tokens.values())[pick("join side", 2)]
    elif case.path.endswith("/attack-preview") and isinstance(body, dict) and pick("preview", 3):
        body["targets"] = [target.hexes[pick("target", len(target.hexes))]]
        if pick("with units", 2):
            body["units"] = [target.units[pick("attacker", len(target.units))]]
    elif case.path.endswith("/commands") and isinstance(body, dict) and pick("command", 4):
        side, legal = target.legal()
        body["expected_seq"] = legal["seq"]
        how, commands = pick("how", 3), listed(legal)
        if how == 0 or not commands:  # any verb, generated data
            body["type"] = target.verbs[pick("verb", len(target.verbs))]
        else:  # a legal command, some of its fields given generated values (all kept if none were generated)
            command = commands[pick("legal", len(commands))]
            data = dict(command["data"])
            given = values(body.get("data", {})) if how == 1 else []
            for i, name in enumerate(sorted(data)):
                if i < len(given) and pick(f"field {name}", 2):
                    data[name] = given[i]
            body["type"], body["data"] = command["type"], data
        if headers.get("Authorization", "").startswith("Bearer ") and pick("acting seat", 2):
            case.headers = {**case.headers, **bearer(target.tokens[side])}
    elif case.path == "/api/games/import" and is_json(body) and pick("import", 3):
        export = copy.deepcopy(target.export)
        how = pick("tamper", 4)
        if how == 1 and isinstance(body, dict):  # generated top-level fields over the real ones
            export.update(body)
        elif how == 2:  # a generated value in one field of one event
            event = export["events"][pick("event", len(export["events"]))]
            field = ("type", "data", "side", "command", "seq")[pick("event field", 5)]
            event[field] = values(body)[0]
        elif how == 3:  # a generated event appended
            export["events"].append(body)
        case.body = export


@hypothesis_settings(max_examples=MAX_EXAMPLES, deadline=None, derandomize=True, database=None,
                     suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate])
@schema.parametrize()
def test_the_api_answers_as_its_schema_says(case: Any, fuzz_target: Target) -> None:
    fuzz_target.session.cookies.clear()  # a seat cookie set by an earlier case would authenticate this one
    feed(case, fuzz_target)
    response = case.call_and_validate(session=fuzz_target.session, checks=CHECKS)
    if case.path.endswith("/new-link") and response.status_code == 200:  # a seat got a new secret: follow it
        link = response.json()
        if link["game_id"] == fuzz_target.game_id:
            fuzz_target.tokens[link["side"]] = link["token"]
