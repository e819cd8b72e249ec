"""The invitation page says what the invited player agrees to by joining: the scenario,
the clock (days per decision, vacation days) and the optional rules chosen."""

from __future__ import annotations

import html
import re

from fastapi.testclient import TestClient


def _terms(client: TestClient, body: dict) -> list[str]:
    created = client.post("/api/games", json=body)
    assert created.status_code == 201, created.text
    client.cookies.clear()
    page = client.get(f"/join/{created.json()['game_id']}").text
    block = re.search(r'<ul class="terms[^"]*"[^>]*>(.*?)</ul>', page, re.S)
    assert block, "no terms on the invitation"
    return [html.unescape(t) for t in re.findall(r"<li>(.*?)</li>", block.group(1))]


def test_the_invitation_names_the_scenario_the_clock_and_the_optional_rules(client: TestClient) -> None:
    terms = _terms(client, {"game": "pacific_battles", "scenario": "short", "side": "Allied", "name": "Alice",
                            "move_days": 3, "vacation_days": 2, "options": {"deception": True}})
    assert terms[0].startswith("Scenario: ") and "short" not in terms[0]  # its title, not its id
    assert "3 days per decision, and 2 vacation days each" in terms[1]
    assert terms[2:] == ["Optional 34.1-34.4 and 35.2: deception markers, stacks that are nothing"]


def test_without_a_clock_or_optional_rules_it_says_so(client: TestClient) -> None:
    terms = _terms(client, {"side": "US", "name": "Alice"})
    assert terms[0] == "Scenario: The campaign: US set-up, then Sep I to Jan III (15 turns)"
    assert terms[1] == "Clock: none (no time limit)"
