"""Server-rendered pages: they show what a player needs, and everything a user
typed (names, the game's note) comes back escaped."""

from __future__ import annotations

import json
import re
from html import unescape as html_unescape

import pytest
from app_support import ADMIN, bearer, drive, listed
from fastapi.testclient import TestClient

EVIL = '<script>alert("x")</script> & <b>bold</b>'


def new_game(client: TestClient, side: str = "US", name: str = "Alice", title: str = "") -> str:
    r = client.post("/new", data={"side": side, "name": name, "title": title}, follow_redirects=False)
    assert r.status_code == 303, r.text
    return r.headers["location"].split("?")[0].rsplit("/", 1)[1]


def test_landing_page_starts_a_game_and_lists_it_with_your_move(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "Start a game" in page.text and "reconstructions" in page.text
    gid = new_game(client, "US", "Alice", "Friendly game")
    page = client.get("/").text
    assert f"/games/{gid}" in page and "Friendly game" in page and "your move" in page
    # your games first, named by game, above the forms that start new ones
    assert page.index("Your games") < page.index("Start a game")
    assert "First Blood: The Guadalcanal Campaign: &ldquo;Friendly game&rdquo;" in page


def test_game_page_shows_turn_phase_prompt_map_and_invitation(client: TestClient) -> None:
    gid = new_game(client)
    r = client.get(f"/games/{gid}")
    assert r.status_code == 200
    html = r.text
    assert 'id="turn-name"' in html and 'id="phase-title"' in html and "US set-up" in html
    assert "<svg" in html and 'data-hex="0709"' in html
    assert "Your move:" in html and "Set up your units" in html
    assert re.search(r"/join/" + gid + r"#token=[\w-]+", html)  # the invitation link
    assert "/static/vendor/htmx-2.0.11.min.js" in html
    # told of a move at once, polls now and then; a move told while a poll is on its way, asked after it
    assert re.search(r'<div id="poller"[^>]*hx-sync="this:queue last"\s+hx-trigger="sse:moved, every 30s"', html)
    assert f'sse-connect="/games/{gid}/stream?seq=' in html
    assert 'class="fb-map map-base"' in html and 'id="map-layers"' in html  # base and layers, stacked


def test_private_link_sets_the_cookie_from_a_form_post(client: TestClient) -> None:
    """The secret rides in the link's fragment (never sent in an address); the page posts it."""
    created = client.post("/api/games", json={"side": "IJ", "name": "Bob"}).json()
    gid = created["game_id"]
    client.cookies.clear()
    page = client.get(f"/games/{gid}").text
    assert 'id="token-form"' in page and f'action="/games/{gid}/seat"' in page
    r = client.post(f"/games/{gid}/seat", data={"token": created["token"]}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/games/{gid}"
    assert "HttpOnly" in r.headers["set-cookie"]
    assert client.get(f"/api/games/{gid}").json()["you"] == "IJ"
    client.cookies.clear()
    assert client.post(f"/games/{gid}/seat", data={"token": "wrong"}, follow_redirects=False).status_code == 403


def test_an_old_style_link_moves_its_secret_out_of_the_query(client: TestClient) -> None:
    created = client.post("/api/games", json={"side": "IJ", "name": "Bob"}).json()
    gid, token = created["game_id"], created["token"]
    client.cookies.clear()
    r = client.get(f"/games/{gid}?token={token}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/games/{gid}#token={token}"
    assert "set-cookie" not in r.headers
    invite = created["invite_url"].split("token=")[1]
    r = client.get(f"/join/{gid}?token={invite}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/join/{gid}#token={invite}"


@pytest.mark.parametrize(("game", "side"), [("first_blood", "US"), ("pacific_battles", "Japanese")])
def test_the_invitation_leaves_the_creators_board_once_the_opponent_has_joined(client: TestClient, game: str,
                                                                               side: str) -> None:
    r = client.post("/new", data={"side": side, "name": "Alice", "game": game, "scenario": "short"
                                  if game == "pacific_battles" else "campaign"}, follow_redirects=False)
    gid = r.headers["location"].split("?")[0].rsplit("/", 1)[1]
    html = client.get(f"/games/{gid}").text
    token = re.search(r"/join/" + gid + r"#token=([\w-]+)", html).group(1)
    creator = list(client.cookies.jar)
    client.cookies.clear()
    assert client.post(f"/api/games/{gid}/join", json={"token": token, "name": "Bob"}).status_code == 200
    client.cookies.clear()
    for cookie in creator:  # back at the creator's browser, the invitation cookie still in it
        client.cookies.jar.set_cookie(cookie)
    html = client.get(f"/games/{gid}").text
    assert "You play" in html or "You</span>" in html  # the creator's own board
    assert "Invite your opponent" not in html and token not in html


def test_join_page_and_joining_by_form(client: TestClient) -> None:
    created = client.post("/api/games", json={"side": "US", "name": "Alice", "title": "Let us play"}).json()
    client.cookies.clear()
    token = created["invite_url"].split("token=")[1]
    page = client.get(f"/join/{created['game_id']}").text
    assert "Let us play" in page and "Alice plays US" in page and 'id="token-form"' in page
    assert token not in page
    r = client.post(f"/join/{created['game_id']}", data={"token": token, "name": "Bob"}, follow_redirects=False)
    assert r.status_code == 303
    html = client.get(f"/games/{created['game_id']}").text
    assert "You</span> <strong>IJ" in html and "Bob" in html
    assert client.post(f"/join/{created['game_id']}", data={"token": "nope", "name": "Eve"}).status_code == 403
    # the browser that joined, opening the invitation again, is taken to its board
    again = client.get(f"/join/{created['game_id']}", follow_redirects=False)
    assert again.status_code == 303 and again.headers["location"] == f"/games/{created['game_id']}"
    # anyone else finds the invitation used: no form to fill in and be refused
    client.cookies.clear()
    used = client.get(f"/join/{created['game_id']}").text
    assert "This invitation has been used" in used and 'id="token-form"' not in used


def test_everything_a_user_types_is_escaped(client: TestClient) -> None:
    created = client.post("/api/games", json={"side": "US", "name": EVIL, "title": EVIL}).json()
    gid = created["game_id"]
    token = created["invite_url"].split("token=")[1]
    client.post(f"/api/games/{gid}/join", json={"token": token, "name": EVIL})
    pages = [client.get("/").text, client.get(f"/games/{gid}").text, client.get(f"/join/{gid}").text,
             client.get(f"/games/{gid}/log").text, client.get("/admin", auth=ADMIN).text,
             client.get(f"/admin/games/{gid}", auth=ADMIN).text]
    for html in pages:
        assert "<script>alert" not in html
        assert "<b>bold</b>" not in html
    assert "&lt;script&gt;alert(" in pages[1]


def test_clicking_the_map_places_a_unit_and_errors_name_the_rule(client: TestClient) -> None:
    gid = new_game(client)
    html = client.get(f"/games/{gid}").text
    seq = int(re.search(r'data-seq="(\d+)"', html).group(1))
    board = client.get(f"/games/{gid}/board", params={"select": "us-1-1"}).text
    assert 'class="hex-state reachable' in board  # set-up hexes highlighted for the unit
    r = client.post(f"/games/{gid}/click", data={"hex": "0709", "select": "us-1-1", "seq": seq})
    assert r.status_code == 200
    view = client.get(f"/api/games/{gid}").json()
    assert next(u for u in view["units"] if u["id"] == "us-1-1")["loc"] == "0709"
    # an illegal command posted by hand is refused next to its button, with the rule
    r = client.post(f"/games/{gid}/command", data={"type": "place", "data": '{"unit": "us-1-2", "to": "0101"}',
                                                   "seq": view["seq"]})
    assert 'role="alert"' in r.text and "§3" in r.text
    assert client.get(f"/api/games/{gid}").json()["seq"] == view["seq"]
    # the selected unit's orders are one form, its type and unit said once, each button
    # posting only the place it names
    board = client.get(f"/games/{gid}/board", params={"select": "us-1-2"}).text
    listed = re.search(r'<form [^>]*class="command-list one cmd-place">(.*?)</form>', board, re.S)
    assert listed and listed.group(1).count('name="pick"') > 100 and 'name="command"' not in listed.group(1)
    fields = {k: html_unescape(v) for k, v in re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"',
                                                          listed.group(1))}
    assert fields["type"] == "place" and json.loads(fields["data"]) == {"unit": "us-1-2"}
    pick = re.search(r'name="pick" value="([^"]+)"', listed.group(1)).group(1)
    assert pick.startswith("to ")
    r = client.post(f"/games/{gid}/command", data={**fields, "pick": pick, "seq": view["seq"]})
    assert r.status_code == 200 and client.get(f"/api/games/{gid}").json()["seq"] == view["seq"] + 1
    placed = next(u for u in client.get(f"/api/games/{gid}").json()["units"] if u["id"] == "us-1-2")
    assert placed["loc"] == pick.split()[1]
    # a list of commands that differ in more than one field: each button posts its own
    now = client.get(f"/api/games/{gid}").json()["seq"]
    r = client.post(f"/games/{gid}/command", data={"command": 'place {"unit": "us-1-3", "to": "0709"}', "seq": now})
    assert r.status_code == 200 and client.get(f"/api/games/{gid}").json()["seq"] > now
    assert client.post(f"/games/{gid}/command", data={"seq": 0}).status_code == 422  # neither type nor command


def test_a_post_s_form_is_checked_as_the_socket_s_message_is(client: TestClient) -> None:
    """The board's post reads its form as its socket reads a message (app/routes/board_form.py),
    and a click on its map the same way: a field past its limit, a body that is not UTF-8
    or a form without its log length are refused (422) and write nothing; URL-encoded or
    multipart, a legal command is played."""
    gid = new_game(client)
    seq = client.get(f"/api/games/{gid}").json()["seq"]
    place = {"type": "place", "data": '{"unit": "us-1-1", "to": "0709"}'}
    for bad in ({**place, "seq": seq, "select": "x" * 65}, {**place, "seq": seq, "data": "{" + " " * 4096 + "}"},
                {**place}, {**place, "seq": "seven"}):
        assert client.post(f"/games/{gid}/command", data=bad).status_code == 422, bad
    r = client.post(f"/games/{gid}/command", content=b"type=place&seq=" + str(seq).encode() + b"&select=\xff",
                    headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 422
    assert client.get(f"/api/games/{gid}").json()["seq"] == seq  # nothing written
    for bad in ({"hex": "0709", "select": "us-1-1"}, {"hex": "0" * 65, "select": "us-1-1", "seq": seq}):
        assert client.post(f"/games/{gid}/click", data=bad).status_code == 422, bad  # a click's form too
    assert client.get(f"/api/games/{gid}").json()["seq"] == seq
    r = client.post(f"/games/{gid}/command", files={k: (None, str(v)) for k, v in {**place, "seq": seq}.items()})
    assert r.status_code == 200 and 'role="alert"' not in r.text
    assert client.get(f"/api/games/{gid}").json()["seq"] > seq


def test_spectators_see_the_board_but_cannot_act(client: TestClient) -> None:
    gid = new_game(client)
    client.cookies.clear()
    html = client.get(f"/games/{gid}").text
    assert "spectator" in html and "cmd-end_phase" not in html
    assert 'id="watching"' in html and 'href="/signin"' in html  # a player on a new device: how to sign in
    seq = client.get(f"/api/games/{gid}").json()["seq"]
    r = client.post(f"/games/{gid}/command", data={"type": "place", "data": '{"unit": "us-1-1", "to": "0709"}',
                                                   "seq": seq})
    assert "Only the two players" in r.text
    assert client.get(f"/api/games/{gid}").json()["seq"] == seq


def test_poll_is_204_until_something_happens(client: TestClient) -> None:
    created = client.post("/api/games", json={"side": "US"}).json()
    gid = created["game_id"]
    seq = client.get(f"/api/games/{gid}").json()["seq"]
    assert client.get(f"/games/{gid}/poll", params={"seq": seq}).status_code == 204
    legal = client.get(f"/api/games/{gid}/legal", headers=bearer(created["token"])).json()
    client.post(f"/api/games/{gid}/commands", headers=bearer(created["token"]),
                json={**listed(legal)[0], "expected_seq": seq})
    r = client.get(f"/games/{gid}/poll", params={"seq": seq})
    new = client.get(f"/api/games/{gid}").json()["seq"]
    assert r.status_code == 200 and f'data-seq="{new}"' in r.text and 'hx-swap-oob="true"' in r.text


def test_admin_pages_list_games_and_verify(client: TestClient) -> None:
    gid = new_game(client, title="Admin sees me")
    assert client.get("/admin").status_code == 401
    html = client.get("/admin", auth=ADMIN).text
    assert gid in html and "Admin sees me" in html
    assert "game_created" in client.get(f"/admin/games/{gid}", auth=ADMIN).text
    assert "replay exactly" in client.post(f"/admin/games/{gid}/verify", auth=ADMIN).text


def test_clicking_a_stack_opens_it_in_the_panel(client: TestClient) -> None:
    gid = new_game(client)
    seq = client.get(f"/api/games/{gid}").json()["seq"]
    for unit in ("us-1-1", "us-1-2"):
        client.post(f"/games/{gid}/click", data={"hex": "0709", "select": unit, "seq": seq})
        seq = client.get(f"/api/games/{gid}").json()["seq"]
    client.cookies.clear()  # a spectator may look too
    html = client.post(f"/games/{gid}/click", data={"hex": "0709", "seq": seq}).text
    stack = html.split('id="stack"', 1)[1].split("</section>", 1)[0]
    assert "In 0709" in stack and "US 1/1" in stack and "US 1/2" in stack


def test_a_command_is_answered_with_only_what_changed(client: TestClient) -> None:
    """Not the whole board: the map's base layer never comes again, only its changing
    layers, the status, the panel and the new log lines, each swapped in by its id."""
    gid = new_game(client)
    page = client.get(f"/games/{gid}").text
    seq = int(re.search(r'data-seq="(\d+)"', page).group(1))
    r = client.post(f"/games/{gid}/command", data={"type": "place", "data": '{"unit": "us-1-1", "to": "0709"}',
                                                   "seq": seq})
    answer = r.text
    assert "map-base" not in answer and "/maps/first_blood.svg" not in answer  # no base layer
    for part in ('id="board-state"', 'id="top"', 'id="map-layers"', 'id="panel-actions"', 'id="players"'):
        assert re.search(part + r'[^>]*hx-swap-oob="true"|hx-swap-oob="true"[^>]*' + part, answer), part
    new_lines = re.findall(r'<div hx-swap-oob="afterbegin:#log">(.*?)</div>', answer, re.S)
    assert len(new_lines) == 1 and new_lines[0].count("<li") == client.get(f"/api/games/{gid}").json()["seq"] - seq
    assert "1/1" in new_lines[0]
    assert len(answer) < len(page)  # (the layers whole: this post did not say which parts its page shows)
    # a click that only selects another unit sends no log line at all
    seq = client.get(f"/api/games/{gid}").json()["seq"]
    r = client.get(f"/games/{gid}/board", params={"select": "us-1-2", "seq": seq})
    assert "afterbegin:#log" not in r.text and 'data-select="us-1-2"' in r.text


def test_a_refused_click_gives_the_engines_reason(client: TestClient, game: dict[str, str]) -> None:
    """Issue 10: a click on a hex the selected unit cannot reach says why, in the engine's
    words (the same refusal a real move would get), and keeps the selection."""
    gid = game["id"]
    _, legal = drive(client, game, lambda legal: legal["prompt"]["kind"] == "ij_movement")
    unit = next(c["data"]["unit"] for c in listed(legal) if c["type"] == "move")
    client.post(f"/games/{gid}/seat", data={"token": game["IJ"]})
    seq = client.get(f"/api/games/{gid}").json()["seq"]
    html = client.post(f"/games/{gid}/click", data={"hex": "1110", "select": unit, "seq": seq}).text
    assert 'role="alert"' in html and "Nothing to do" not in html
    assert "§6.1: IJ " in html and "cannot reach 1110 with" in html
    assert f'data-selected="{unit}"' in html or f'name="select" value="{unit}"' in html
    assert client.get(f"/api/games/{gid}").json()["seq"] == seq  # nothing was written


def test_a_refused_placement_click_gives_the_engines_reason(client: TestClient, game: dict[str, str]) -> None:
    """A click on a hex outside the selected unit's set-up area says why, in the engine's
    words (it said only "Nothing to do at 0116 now"), and writes nothing."""
    gid = game["id"]
    client.post(f"/games/{gid}/seat", data={"token": game["US"]})
    seq = client.get(f"/api/games/{gid}").json()["seq"]
    legal = client.get(f"/api/games/{gid}/legal", headers=bearer(game["US"])).json()
    unit = next(c["data"]["unit"] for c in listed(legal) if c["type"] == "place")
    places = {c["data"]["to"] for c in listed(legal) if c["type"] == "place" and c["data"]["unit"] == unit}
    assert "0116" not in places
    html = client.post(f"/games/{gid}/click", data={"hex": "0116", "select": unit, "seq": seq}).text
    error = re.search(r'role="alert"[^>]*>([^<]+)<', html)
    assert error is not None and "Nothing to do" not in error.group(1) and error.group(1).strip().startswith("§")
    refused = client.post(f"/api/games/{gid}/commands", headers=bearer(game["US"]),
                          json={"type": "place", "data": {"unit": unit, "to": "0116"}, "expected_seq": seq})
    assert refused.status_code == 422 and refused.json()["detail"] in html.replace("&#39;", "'")
    assert client.get(f"/api/games/{gid}").json()["seq"] == seq  # nothing was written


def test_with_a_unit_selected_the_map_says_why_a_hex_is_out_of_reach(client: TestClient,
                                                                      game: dict[str, str]) -> None:
    """Issue 9, item 5: hovering a hex the selected unit cannot reach says why, in the
    engine's words (the SVG title and the spoken label of the hex)."""
    gid = game["id"]
    _, legal = drive(client, game, lambda legal: legal["prompt"]["kind"] == "ij_movement")
    unit = next(c["data"]["unit"] for c in listed(legal) if c["type"] == "move")
    client.post(f"/games/{gid}/seat", data={"token": game["IJ"]}, follow_redirects=False)
    board = client.get(f"/games/{gid}/board", params={"select": unit}).text
    reasons = re.findall(r'aria-label="Hex (\d{4}),[^"]*?, not reachable \((§[\d.]+): ([^)"]+)', board)
    assert reasons, "no hex says why it is out of reach"
    state = re.search(rf'<g class="hex-state[^"]*" data-hex="{reasons[0][0]}"[^>]*>(.*?)</g>', board).group(1)
    assert "<title>" in state and '<use class="hit" href="#hex-shape"' in state  # the hex takes the pointer
    for h, rule, why in reasons[:5]:  # each the same refusal a real move there gets
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(game["IJ"]),
                        json={"type": "move", "data": {"unit": unit, "to": h},
                              "expected_seq": client.get(f"/api/games/{gid}").json()["seq"]})
        assert r.status_code == 422 and r.json()["rule"] == rule and why.split(" (")[0] in r.json()["detail"]


def test_every_counter_of_a_stack_is_selectable_from_the_panel(client: TestClient) -> None:
    """Issue 9, item 6: a stack's list names every counter, and the player's own are
    buttons that select them (the top counter alone is not the only way in)."""
    gid = new_game(client)
    seq = client.get(f"/api/games/{gid}").json()["seq"]
    for unit in ("us-1-1", "us-1-2"):
        client.post(f"/games/{gid}/click", data={"hex": "0709", "select": unit, "seq": seq})
        seq = client.get(f"/api/games/{gid}").json()["seq"]
    html = client.post(f"/games/{gid}/click", data={"hex": "0709", "seq": seq}).text
    stack = html.split('id="stack"', 1)[1].split("</section>", 1)[0]
    # one form that asks for the board, each unit's button sending its own id as ``select``
    assert f'<form hx-get="/games/{gid}/board" hx-swap="none"><input type="hidden" name="seq"' in stack
    for unit in ("us-1-1", "us-1-2"):
        assert re.search(rf'<button name="select" value="{unit}" class="stack-pick[^"]*" data-unit="{unit}">', stack)
    picked = client.get(f"/games/{gid}/board", params={"select": "us-1-2", "seq": seq}).text
    assert 'data-select="us-1-2"' in picked


def test_a_click_on_a_stack_fans_it_out_with_every_counter_clickable(client: TestClient,
                                                                     game: dict[str, str]) -> None:
    """Issue 9, item 6: a stack is more than its top counter."""
    gid = game["id"]
    for unit in ("us-1-1", "us-1-2", "us-1-3"):
        seq = client.get(f"/api/games/{gid}").json()["seq"]
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(game["US"]),
                        json={"type": "place", "data": {"unit": unit, "to": "0910"}, "expected_seq": seq})
        assert r.status_code == 200, r.text
    client.post(f"/games/{gid}/seat", data={"token": game["US"]}, follow_redirects=False)
    page = client.get(f"/games/{gid}").text
    assert 'class="fan"' not in page  # stacks are stacks until clicked
    seq = int(re.search(r'data-seq="(\d+)"', page).group(1))
    r = client.post(f"/games/{gid}/click", data={"hex": "0910", "select": "", "seq": seq})
    # (up to the fan's end: its last counter's, that counter's tooltip group's and its own)
    fan = r.text.split('<g class="fan" data-hex="0910"', 1)[1].split("</g></g></g>", 1)[0]
    assert [u for u in ("us-1-1", "us-1-2", "us-1-3") if f'data-unit="{u}"' in fan] == ["us-1-1", "us-1-2", "us-1-3"]
    for unit in ("us-1-1", "us-1-2", "us-1-3"):  # each counter once on the map: the fan replaces the stack
        assert r.text.count(f'data-unit="{unit}" data-loc="0910"') == 1
    # a click on a fanned counter selects that unit, and the fan closes
    r = client.post(f"/games/{gid}/click", data={"unit": "us-1-3", "select": "us-1-1", "seq": seq})
    assert 'class="fan"' not in r.text
    assert re.search(r'class="counter [^"]*selected[^"]*" data-unit="us-1-3"', r.text)


def test_a_units_factors_read_as_its_counter_prints_them(client: TestClient) -> None:
    """The panel names a gun CF-range-MF and an air unit by its letter, as the counter on
    the map does, never "3-4" for a 3-5-4 gun or "0-0" for a fighter."""
    gid = new_game(client)
    gun = client.get(f"/games/{gid}/board", params={"select": "us-11-2"}).text
    assert re.search(r'class="chooser[^"]*" data-unit="us-11-2">US 11/2 3-5-4 <', client.get(f"/games/{gid}").text)
    assert re.search(r"US 11/2 <span class=\"muted\">3-5-4", gun)
    fighter = client.get(f"/games/{gid}/board", params={"select": "us-67fs"}).text
    assert re.search(r"US 67th FS <span class=\"muted\">F[<,]", fighter)
    assert "67th FS <span class=\"muted\">0-0" not in fighter


def test_a_seat_taken_without_a_name_is_not_called_empty(client: TestClient) -> None:
    """A player who gave no name has joined all the same: "(no name)", never "(not joined)"."""
    made = client.post("/api/games", json={"side": "US"}).json()
    gid = made["game_id"]
    client.post(f"/games/{gid}/seat", data={"token": made["token"]})
    page = client.get(f"/games/{gid}").text
    assert "US (no name)" in page and "IJ (not joined)" in page
    client.cookies.clear()
    client.post(f"/api/games/{gid}/join", json={"token": made["invite_url"].split("token=")[1]})
    client.cookies.clear()
    client.post(f"/games/{gid}/seat", data={"token": made["token"]})
    page = client.get(f"/games/{gid}").text
    assert "IJ (no name)" in page and "(not joined)" not in page


def test_a_stack_off_the_map_is_headed_by_what_it_is(client: TestClient) -> None:
    """The panel heads a stack "In <place>", and a pile of units that is no place by what it
    is: "Waiting to be placed", not "In waiting to be placed"."""
    gid = new_game(client)
    seq = client.get(f"/api/games/{gid}").json()["seq"]
    html = client.post(f"/games/{gid}/click", data={"hex": "arriving", "seq": seq}).text
    stack = html.split('id="stack"', 1)[1].split("</section>", 1)[0]
    assert "<h3>Waiting to be placed</h3>" in stack
    client.post(f"/games/{gid}/click", data={"hex": "0709", "select": "us-1-1", "seq": seq})
    seq = client.get(f"/api/games/{gid}").json()["seq"]
    html = client.post(f"/games/{gid}/click", data={"hex": "0709", "seq": seq}).text
    assert "<h3>In 0709</h3>" in html.split('id="stack"', 1)[1]
