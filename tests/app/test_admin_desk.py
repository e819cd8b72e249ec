"""The referee's desk (issue 34, items 2, 3 and 5): any moment with everything shown or
exactly as one side saw it; the game's history found by kind, side and turn, each line a
link to its moment; the game's figures; and no admin page for a player or a visitor."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from app_support import ADMIN, bearer, drive, listed
from clock_support import new_game as new_clock_game
from fastapi.testclient import TestClient
from pb_support import SET_UP, seat
from pb_support import new_game as new_pb_game

from app.services.fair_dice import chi2_p_value, fit, upper_gamma_q
from app.services.referee import KINDS


def admin_get(client: TestClient, path: str, **params: object):
    r = client.get(path, auth=ADMIN, params=params)
    assert r.status_code == 200, r.text
    return r


def the_board(page: str) -> str:
    """A moment page's board (status, map, displays, log) with its links made the players' own."""
    board = page.split('<section class="status"', 1)[1].split("</main>", 1)[0]
    board = re.sub(r'<section class="card admin-desk".*?</section>', "", board, flags=re.S)
    return re.sub(r'href="/admin(/games/\w+(?:/at/\d+)?)(\?as=\w+)?"', r'href="\1"', board)


def pb_set_up(client: TestClient) -> tuple[dict[str, str], int]:
    """A Pacific Battles game whose Japanese have placed their secret set-up; its log's length."""
    g = new_pb_game(client)
    for _ in SET_UP:
        legal = client.get(f"/api/games/{g['id']}/legal", headers=bearer(g["Japanese"])).json()
        place = next(c for c in listed(legal) if c["type"] == "place")
        r = client.post(f"/api/games/{g['id']}/commands", headers=bearer(g["Japanese"]),
                        json={**place, "expected_seq": legal["seq"]})
        assert r.status_code == 200, r.text
    return g, client.get(f"/api/games/{g['id']}/legal", headers=bearer(g["Japanese"])).json()["seq"]


def test_a_moment_with_everything_and_exactly_as_each_side_saw_it(client: TestClient) -> None:
    g, seq = pb_set_up(client)
    gid = g["id"]
    everything = admin_get(client, f"/admin/games/{gid}/at/{seq}").text
    assert all(name in everything for name in SET_UP) and f"Event #{seq - 1}" in everything
    assert f'href="/admin/games/{gid}/at/{seq - 1}" rel="prev"' in everything  # one event back
    assert f"/admin/games/{gid}/at/{seq}?as=Allied" in everything  # one click to a side's view
    allied = admin_get(client, f"/admin/games/{gid}/at/{seq}", **{"as": "Allied"}).text
    assert [n for n in SET_UP if n in allied] == [] and "Event #" not in allied
    japanese = admin_get(client, f"/admin/games/{gid}/at/{seq}", **{"as": "Japanese"}).text
    assert all(name in japanese for name in SET_UP)
    for side, admins in (("Allied", allied), ("Japanese", japanese)):
        seat(client, gid, g[side])
        own = client.get(f"/games/{gid}/at/{seq}")
        assert own.status_code == 200 and the_board(admins) == the_board(own.text), side
    client.cookies.clear()
    assert client.get(f"/admin/games/{gid}/at/{seq}", auth=ADMIN, params={"as": "Nobody"}).status_code == 404
    assert client.get(f"/admin/games/{gid}/at/{seq + 1}", auth=ADMIN).status_code == 404
    page = admin_get(client, f"/admin/games/{gid}").text
    assert f"/admin/games/{gid}/at/{seq}?as=Japanese" in page and 'class="moment-link"' in page
    assert "&middot; playing &middot;" in page and "status active" not in page  # as the list of games says it


def test_the_history_finds_each_kind_and_the_figures_count_the_dice(client: TestClient,
                                                                     game: dict[str, str]) -> None:
    gid = game["id"]
    first = client.get(f"/api/games/{gid}/legal", headers=bearer(game["US"])).json()
    r = client.post(f"/api/games/{gid}/commands", headers=bearer(game["US"]),
                    json={**listed(first)[0], "expected_seq": first["seq"]})
    now = client.get(f"/api/games/{gid}/legal", headers=bearer(game["US"])).json()
    take_back = next(c for c in listed(now) if c["type"] == "undo")
    r = client.post(f"/api/games/{gid}/commands", headers=bearer(game["US"]),
                    json={**take_back, "expected_seq": now["seq"]})
    assert r.status_code == 200, r.text
    r = client.post(f"/api/games/{gid}/chat", headers=bearer(game["IJ"]), json={"text": "<i>good luck</i>"})
    assert r.status_code in (200, 201), r.text
    drive(client, game, lambda legal: legal["seq"] > 90)

    def history(**params: object) -> list[dict]:
        return admin_get(client, f"/api/admin/games/{gid}/history", **params).json()["items"]

    undone = history(kind="takeback")
    assert [(e["type"], e["strikes"]) for e in undone if e["type"] == "undone"] == [("undone", [first["seq"]])]
    assert any(e["struck_by"] == now["seq"] for e in undone)
    dice = history(kind="dice")
    rolls = [r for e in dice for r in e["rolls"]]
    assert rolls and all(1 <= r["value"] <= 6 and r["event_no"] is not None for r in rolls)
    assert all(e["moment"] == e["seq"] + 1 for e in dice)
    commands = history(kind="command", side="US")
    assert commands and all(e["actor"] == "US" and "command" in e["kinds"] for e in commands)
    assert {e["turn"] for e in history(turn=1)} == {1}
    (chat,) = history(kind="chat")
    assert chat["side"] == "IJ" and chat["text"] == "<i>good luck</i>" and 0 < chat["moment"] <= now["seq"] + 1

    figures = {f["side"]: f for f in admin_get(client, f"/api/admin/games/{gid}/figures").json()}
    assert sum(f["rolls"] for f in figures.values()) == len(rolls)
    assert figures["US"]["takebacks"] == 1 and figures["US"]["struck"] == 1 and figures["US"]["moves"] > 0
    assert all(sum(f["counts"]) == f["rolls"] for f in figures.values())

    client.post(f"/api/admin/games/{gid}/seats/IJ/new-link", auth=ADMIN)
    (act,) = history(kind="admin")
    assert act["text"] == "admin: new_seat_link" and act["side"] == "IJ"
    page = admin_get(client, f"/admin/games/{gid}", kind="chat").text
    assert "&lt;i&gt;good luck&lt;/i&gt;" in page and "<i>good luck" not in page
    assert 'id="figures"' in admin_get(client, f"/admin/games/{gid}").text


def test_the_fair_die_test() -> None:
    assert abs(chi2_p_value(11.0705, 5) - 0.05) < 1e-4 and abs(chi2_p_value(1.0, 5) - 0.96257) < 1e-4
    assert abs(upper_gamma_q(1, 2) - 0.135335) < 1e-5 and abs(chi2_p_value(20, 5) - 0.00125) < 1e-5
    fair, loaded = fit([1, 2, 3, 4, 5, 6] * 10), fit([6] * 50 + [1, 2, 3, 4, 5] * 2)
    assert fair.chi2 == 0 and fair.p_value == 1.0 and loaded.p_value < 1e-10
    assert fit([6, 6]).p_value is None  # too few rolls to say


def test_no_admin_page_for_a_player_or_a_visitor(client: TestClient, game: dict[str, str]) -> None:
    pb = new_pb_game(client)
    for gid, side, token in ((game["id"], "US", game["US"]), (pb["id"], "Allied", pb["Allied"])):
        pages = ["/admin", "/admin?q=Alice", f"/admin/games/{gid}", f"/admin/games/{gid}/at/1",
                 f"/admin/games/{gid}/at/1?as={side}", f"/admin/games/{gid}?kind=dice", "/admin/audit",
                 "/admin/outbox", "/api/admin/games", f"/api/admin/games?q={gid}", f"/api/admin/games/{gid}/log",
                 f"/api/admin/games/{gid}/history", f"/api/admin/games/{gid}/figures",
                 f"/api/admin/games/{gid}/export", "/api/admin/audit", "/api/admin/outbox"]
        posts = [f"/admin/games/{gid}/verify", f"/api/admin/games/{gid}/verify",
                 f"/api/admin/games/{gid}/seats/{side}/new-link", f"/admin/games/{gid}/rulings",
                 f"/api/admin/games/{gid}/rulings"]
        for who in ("visitor", "player"):
            seat(client, gid, token if who == "player" else None)
            headers = bearer(token) if who == "player" else {}
            for path in pages:
                r = client.get(path, headers=headers)
                assert r.status_code == 401 and token not in r.text, (who, path, r.status_code)
            for path in posts:
                r = client.post(path, headers={**headers, "Origin": "http://testserver"})
                assert r.status_code == 401, (who, path, r.status_code)
            wrong = client.get(f"/admin/games/{gid}", auth=("admin", "not-the-password"))
            assert wrong.status_code == 401
        client.cookies.clear()
        assert admin_get(client, f"/admin/games/{gid}/at/1", **{"as": side}).status_code == 200


def test_a_ruling_is_written_into_both_players_logs_and_audited(client: TestClient) -> None:
    """Item 4: a note and a change of the clock, each with the admin's name and reason, in the
    log both players read (as the log's own event: it verifies), and in the audit."""
    game = new_clock_game(client, move_days=3)
    gid = game["id"]
    seq = client.get(f"/api/games/{gid}/legal", headers=bearer(game["US"])).json()["seq"]
    deadline = client.get(f"/api/games/{gid}/clock").json()["clock"]["deadline"]
    r = client.post(f"/api/admin/games/{gid}/rulings", auth=ADMIN,
                    json={"reason": "<b>mail outage</b>", "note": "US gets a day", "clock_hours": 24})
    assert r.status_code == 200 and r.json()["seq"] == seq + 1, r.text
    later = client.get(f"/api/games/{gid}/clock").json()["clock"]["deadline"]
    assert datetime.fromisoformat(later) - datetime.fromisoformat(deadline) == timedelta(hours=24)
    for side in ("US", "IJ"):
        log = client.get(f"/api/games/{gid}/log", headers=bearer(game[side]), params={"offset": seq}).json()
        (line,) = [e for e in log["items"] if e["type"] == "ruling"]
        assert line["text"] == ("Ruling by the admin: US gets a day. US's clock gains 24 hour(s). "
                                "Reason: <b>mail outage</b>")
    r = client.post(f"/admin/games/{gid}/rulings", auth=ADMIN, data={"reason": "dispute", "note": "0709 is clear"},
                    follow_redirects=False)
    assert r.status_code == 303
    seat(client, gid, game["IJ"])
    board = client.get(f"/games/{gid}").text
    assert "0709 is clear" in board and "&lt;b&gt;mail outage&lt;/b&gt;" in board and "<b>mail" not in board
    client.cookies.clear()
    assert client.post(f"/api/admin/games/{gid}/verify", auth=ADMIN).json()["ok"] is True
    audit = client.get("/api/admin/audit", auth=ADMIN).json()["items"]
    assert [(a["action"], a["detail"]["reason"]) for a in audit if a["game_id"] == gid] == [
        ("ruling", "dispute"), ("ruling", "<b>mail outage</b>")]
    admin_lines = admin_get(client, f"/api/admin/games/{gid}/history", kind="admin").json()["items"]
    assert [e["type"] for e in admin_lines] == ["ruling", "ruling"]
    # refused: no reason; a player's own "ruling"; the clock of a game without one
    assert client.post(f"/api/admin/games/{gid}/rulings", auth=ADMIN,
                       json={"reason": " ", "note": "x"}).status_code == 422
    r = client.post(f"/api/games/{gid}/commands", headers=bearer(game["US"]),
                    json={"type": "ruling", "data": {"admin": "me", "reason": "x", "note": "I win"},
                          "expected_seq": seq + 2})
    assert r.status_code == 422
    pb = new_pb_game(client)
    assert client.post(f"/api/admin/games/{pb['id']}/rulings", auth=ADMIN,
                       json={"reason": "r", "clock_hours": 5}).status_code == 409
    r = client.post(f"/api/admin/games/{pb['id']}/rulings", auth=ADMIN, json={"reason": "r", "note": "n"})
    assert r.status_code == 200 and client.post(f"/api/admin/games/{pb['id']}/verify", auth=ADMIN).json()["ok"]
    assert client.post(f"/api/admin/games/{pb['id']}/rulings", json={"reason": "r", "note": "n"}).status_code == 401


def test_a_rewind_strikes_what_came_after_and_play_goes_on(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    before = client.get(f"/api/games/{gid}").json()["units"]
    moments = []
    for _ in range(2):  # the US places two units
        legal = client.get(f"/api/games/{gid}/legal", headers=bearer(game["US"])).json()
        moments.append(legal["seq"])
        place = next(c for c in listed(legal) if c["type"] == "place")
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(game["US"]),
                        json={**place, "expected_seq": legal["seq"]})
        assert r.status_code == 200, r.text
    after_one = moments[1]
    r = client.post(f"/api/admin/games/{gid}/rewind", auth=ADMIN, json={"to": after_one, "reason": "a wrong click"})
    assert r.status_code == 200, r.text
    rewound = r.json()["seq"] - 1
    units = {u["id"]: u["loc"] for u in client.get(f"/api/games/{gid}").json()["units"]}
    placed = [u["id"] for u in before if units[u["id"]] != u["loc"]]
    assert len(placed) == 1  # the second placement is gone, the first stands
    log = client.get(f"/api/games/{gid}/log", headers=bearer(game["IJ"]), params={"offset": after_one}).json()
    rows = {e["seq"]: e for e in log["items"]}
    assert rows[rewound]["text"].startswith(f"Rewound by the admin admin to moment {after_one}")
    assert "state" not in rows[rewound]["data"] and all(rows[n]["retracted_by"] == rewound
                                                        for n in range(after_one, rewound))
    # refused: a moment showing struck events, the middle of a command's events, no reason
    for body in ({"to": rewound, "reason": "x"}, {"to": after_one + 1, "reason": "x"}, {"to": 1, "reason": " "}):
        assert client.post(f"/api/admin/games/{gid}/rewind", auth=ADMIN, json=body).status_code == 422, body
    legal = client.get(f"/api/games/{gid}/legal", headers=bearer(game["US"])).json()
    place = next(c for c in listed(legal) if c["type"] == "place")
    r = client.post(f"/api/games/{gid}/commands", headers=bearer(game["US"]),
                    json={**place, "expected_seq": legal["seq"]})
    assert r.status_code == 200, r.text
    assert client.post(f"/api/admin/games/{gid}/verify", auth=ADMIN).json()["ok"] is True
    page = admin_get(client, f"/admin/games/{gid}", kind="admin").text
    assert "Rewound by the admin" in page and "a wrong click" in page
    exported = admin_get(client, f"/api/admin/games/{gid}/export").json()
    r = client.post("/api/games/import", json=exported, auth=ADMIN)  # the rewind travels with the game
    assert r.status_code == 201, r.text
    assert client.post(f"/api/admin/games/{r.json()['game_id']}/verify", auth=ADMIN).json()["ok"] is True

    g, seq = pb_set_up(client)  # Pacific Battles: the state the rewind carries is the admin's alone
    r = client.post(f"/admin/games/{g['id']}/rewind", auth=ADMIN, data={"to": seq - 1, "reason": "r"},
                    follow_redirects=False)
    assert r.status_code == 303, r.text
    allied = client.get(f"/api/games/{g['id']}/log", headers=bearer(g["Allied"]), params={"offset": seq - 1}).json()
    assert [n for n in SET_UP if n in str(allied)] == [] and any(e["type"] == "rewound" for e in allied["items"])
    assert client.post(f"/api/admin/games/{g['id']}/verify", auth=ADMIN).json()["ok"] is True


def test_every_admin_page_answers_for_both_games(client: TestClient, game: dict[str, str]) -> None:
    pb, _seq = pb_set_up(client)
    for gid, sides in ((game["id"], ("US", "IJ")), (pb["id"], ("Allied", "Japanese"))):
        last = admin_get(client, "/api/admin/games", q=gid).json()["items"][0]["seq"]
        assert gid in admin_get(client, "/admin", q=gid).text
        for kind in ("", *KINDS):
            assert 'id="history"' in admin_get(client, f"/admin/games/{gid}", kind=kind).text
            assert admin_get(client, f"/api/admin/games/{gid}/history", kind=kind).json()["total"] >= 0
        assert {f["side"] for f in admin_get(client, f"/api/admin/games/{gid}/figures").json()} == set(sides)
        for seq in (0, 1, last):
            assert f"Moment {seq} of {last}" in admin_get(client, f"/admin/games/{gid}/at/{seq}").text
            for side in sides:
                page = admin_get(client, f"/admin/games/{gid}/at/{seq}", **{"as": side}).text
                assert f"Moment {seq} of {last}" in page and f"<strong>{side}</strong>" in page


def test_a_rewind_across_a_reveal_names_what_each_side_saw_and_needs_both_players_agreement(
        client: TestClient) -> None:
    """Issue 34: rewound across the reveal of the sealed air allocations, each side would know
    again what the board hides: the admin's moment page names it, and the rewind needs the
    admin's word that both players agreed."""
    g, _ = pb_set_up(client)
    gid, allocations, before_allocating = g["id"], 0, None
    for _ in range(200):
        if allocations == 2:
            break
        side, legal = next((s, lg) for s in ("Allied", "Japanese")
                           if (lg := client.get(f"/api/games/{gid}/legal", headers=bearer(g[s])).json())["your_turn"])
        cmd = next(c for c in listed(legal) if c["type"] != "undo")
        if cmd["type"] == "allocate":
            allocations += 1
            if allocations == 2:  # the moment one allocation is sealed and the other not yet made
                before_allocating = legal["seq"]
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(g[side]),
                        json={**cmd, "expected_seq": legal["seq"]})
        assert r.status_code == 200, r.text
    assert before_allocating is not None
    desk = admin_get(client, f"/admin/games/{gid}/at/{before_allocating}").text
    assert "A rewind here crosses a reveal" in desk and "Japanese has seen" in desk and 'name="agreed"' in desk
    body = {"to": before_allocating, "reason": "the Allies misclicked their allocation"}
    r = client.post(f"/api/admin/games/{gid}/rewind", auth=ADMIN, json=body)
    assert r.status_code == 422 and "has seen" in r.json()["detail"] and "agreement" in r.json()["detail"]
    r = client.post(f"/api/admin/games/{gid}/rewind", auth=ADMIN, json={**body, "agreed": True})
    assert r.status_code == 200, r.text
    audit = admin_get(client, "/admin/audit").text
    assert "rewound" in audit and "agreed" in audit


def test_a_draw_shows_its_inputs_and_that_the_secret_gives_it(client: TestClient) -> None:
    """Issue 34, "dice and draws with their inputs and results": a command marker drawn from a
    cup, at its moment, with the pool as it stood and the check that the game's secret draws it."""
    g, _ = pb_set_up(client)
    gid = g["id"]
    for _ in range(20):  # the set-up ends, turn 1 begins: the markers are drawn
        legal = client.get(f"/api/games/{gid}/legal", headers=bearer(g["Japanese"])).json()
        log = admin_get(client, f"/api/admin/games/{gid}/log", limit=1000).json()["items"]
        drawn = [e for e in log if e["type"] == "marker_drawn"]
        if drawn or not legal["your_turn"]:
            break
        cmd = next(c for c in listed(legal) if c["type"] != "undo")
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(g["Japanese"]),
                        json={**cmd, "expected_seq": legal["seq"]})
        assert r.status_code == 200, r.text
    assert drawn, [e["type"] for e in log][-10:]
    moment = admin_get(client, f"/admin/games/{gid}/at/{drawn[0]['seq'] + 1}").text
    assert "Drawn: <strong>" in moment and "The secret gives exactly this draw." in moment
    assert drawn[0]["data"]["marker"] in moment.split('class="small draw"')[1]
