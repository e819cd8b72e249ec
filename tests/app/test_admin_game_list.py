"""The admin's list of every game (issue 34, item 1): each game's title, scenario, options,
players, turn and phase, whose move, last move, clock and status, from columns kept with
every append; sorted, filtered, searched and paged, on the page and in the JSON API."""

from __future__ import annotations

from alembic import command
from app_support import ADMIN, bearer
from clock_support import DAY, moved_clock, new_game
from fastapi.testclient import TestClient
from live_server import set_up_and_hand_over
from pb_support import new_game as new_pb_game

from app.db import alembic_config, migrate
from app.services.game_list import SORTS


def listed(client: TestClient, **params: object) -> dict:
    r = client.get("/api/admin/games", auth=ADMIN, params=params)
    assert r.status_code == 200, r.text
    return r.json()


def test_the_list_shows_where_each_game_stands_and_finds_it(client: TestClient) -> None:
    clock = moved_clock(client)
    clock.now -= 5 * DAY  # the clock game's first decision was handed over five days ago: its time is up
    late = new_game(client, move_days=3)
    clock.now += 5 * DAY
    pb = new_pb_game(client)
    waiting = client.post("/api/games", json={"side": "US", "name": "Carol", "title": "<b>Cup</b> final",
                                              "email": "carol@example.com"}).json()["game_id"]
    client.cookies.clear()

    items = {g["game_id"]: g for g in listed(client)["items"]}
    fb = items[late["id"]]
    assert (fb["state"], fb["to_move"], fb["turn"], fb["turn_name"]) == ("claimable", ["US"], 0, "set-up")
    assert fb["phase"] and fb["clock"]["days_per_decision"] == 3 and fb["clock"]["deadline"]
    assert {s["side"]: (s["name"], s["email"]) for s in fb["seats"]} == {
        "US": ("Alice", "alice@example.org"), "IJ": ("Bob", "bob@example.net")}
    assert items[pb["id"]]["state"] == "playing" and items[pb["id"]]["game"] == "pacific_battles"
    assert items[pb["id"]]["clock"] is None and items[pb["id"]]["to_move"]
    assert items[waiting]["state"] == "waiting" and items[waiting]["title"] == "<b>Cup</b> final"

    def ids(**params: object) -> set[str]:
        return {g["game_id"] for g in listed(client, **params)["items"]}

    assert ids(q="bob@example") == {late["id"]} and ids(q="CAROL") == {waiting}
    assert ids(q=pb["id"]) == {pb["id"]} and ids(q="nobody%") == set()
    assert ids(status="claimable") == {late["id"]} and ids(status="waiting") == {waiting}
    assert ids(status="playing") == {pb["id"]}
    assert ids(game="pacific_battles") == {pb["id"]} and ids(to_move="US") == {late["id"], waiting}
    assert ids(turn=0, game="first_blood") == {late["id"], waiting}
    page = listed(client, sort="id", desc=False, limit=2)
    everything = sorted([late["id"], pb["id"], waiting])
    assert page["total"] == 3 and [g["game_id"] for g in page["items"]] == everything[:2]
    assert [g["game_id"] for g in listed(client, sort="id", desc=False, limit=2, offset=2)["items"]] == everything[2:]

    for key in SORTS:  # every column sorts, both ways, games without a value last
        for desc in (True, False):
            got = listed(client, sort=key, desc=desc)["items"]
            assert sorted(g["game_id"] for g in got) == everything, key
    assert [g["game_id"] for g in listed(client, sort="clock")["items"]][0] == late["id"]

    html = client.get("/admin", auth=ADMIN, params={"q": "carol"}).text
    assert "&lt;b&gt;Cup&lt;/b&gt; final" in html and "<b>Cup</b>" not in html  # escaped
    assert "carol@example.com" in html and "waiting for a join" in html and late["id"] not in html
    html = client.get("/admin", auth=ADMIN, params={"status": "claimable"}).text
    assert "claimable" in html and "alice@example.org" in html and waiting not in html


def test_the_columns_follow_the_game_and_the_clock(client: TestClient) -> None:
    clock = moved_clock(client)
    game = new_game(client, move_days=1, vacation_days=3)
    gid = game["id"]
    clock.now += 2 * DAY
    assert listed(client, q=gid)["items"][0]["state"] == "claimable"
    r = client.post(f"/api/games/{gid}/clock/vacation", headers=bearer(game["US"]), json={"days": 3})
    assert r.status_code == 200, r.text
    assert listed(client, q=gid)["items"][0]["state"] == "playing"  # the vacation moved the deadline
    clock_lines = client.get(f"/api/admin/games/{gid}/history", auth=ADMIN, params={"kind": "clock"}).json()
    assert [(e["kind"], e["text"]) for e in clock_lines["items"]] == [("clock", "US took a vacation of 3 day(s)")]
    # the US sets up and hands over: whose move and the phase change with the log
    before = listed(client, q=gid)["items"][0]["phase"]
    set_up_and_hand_over(client, gid, game["US"])
    after = listed(client, q=gid)["items"][0]
    assert after["to_move"] == ["IJ"] and after["phase"] != before and after["state"] == "playing"


def test_the_migration_fills_in_the_columns_of_existing_games(client: TestClient, database_url: str) -> None:
    """Games from before migration 0011 get their list columns from one replay each."""
    game = new_game(client, move_days=3)
    set_up_and_hand_over(client, game["id"], game["US"])
    new_pb_game(client)
    fields = ("game_id", "state", "turn", "turn_name", "phase", "to_move", "clock")
    before = [{k: g[k] for k in fields} for g in listed(client, sort="id")["items"]]
    command.downgrade(alembic_config(database_url), "0010")
    migrate(database_url)
    after = [{k: g[k] for k in fields} for g in listed(client, sort="id")["items"]]
    assert after == before and {g["to_move"][0] for g in after} == {"IJ", "Japanese"}
