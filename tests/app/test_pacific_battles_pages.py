"""The first Pacific Battles board in the browser (issue 12): each side's page offers its
legal commands and takes them, the map shows its own counters and the enemy's stacks as
unknown, and nothing hidden reaches the other side's page or a spectator's."""

from __future__ import annotations

import json
import re

from app_support import ADMIN, bearer, listed
from fastapi.testclient import TestClient
from pb_support import SET_UP, new_game, seat, seq_of


def options(page: str, kind: str) -> list[dict]:
    form = re.search(rf'name="type" value="{kind}".*?</form>', page, re.S)
    assert form, f"no {kind} form on the page"
    return [json.loads(v.replace("&#34;", '"').replace("&quot;", '"'))
            for v in re.findall(r'<option value="([^"]*)"', form.group(0))]


def set_up_of(client: TestClient, gid: str, page: str, unit: str) -> dict:
    """The first set-up the page lists for ``unit`` once it is selected (a list of every
    unit's would be too long: none is listed until a unit is selected)."""
    picked = client.post(f"/games/{gid}/click", data={"seq": seq_of(page), "unit": unit, "select": ""}).text
    return next(o for o in options(picked, "place") if o["unit"] == unit)


def test_the_japanese_set_up_is_played_from_the_page_and_stays_hidden(client: TestClient) -> None:
    g = new_game(client)
    gid = g["id"]
    seat(client, gid, g["Japanese"])
    page = client.get(f"/games/{gid}").text
    assert "Set up a unit (25.4)" in page and "reconstruction" in page
    # too many set-ups to list (every unit by every hex): a hint, and the selected unit's own
    assert "choices: select a piece" in page and 'name="type" value="place"' not in page
    for unit in SET_UP:
        page = client.get(f"/games/{gid}").text
        first = set_up_of(client, gid, page, unit)
        r = client.post(f"/games/{gid}/command", data={"type": "place", "data": json.dumps(first),
                                                        "seq": seq_of(page)})
        assert r.status_code == 200 and 'id="pb-layers" hx-swap-oob="true"' in r.text
        assert 'id="pb-panels" hx-swap-oob="true"' in r.text and 'id="board"' not in r.text
        assert 'class="hex terrain-' not in r.text  # the answer leaves the terrain, drawn once, alone
    page = client.get(f"/games/{gid}").text
    assert all(name in page for name in SET_UP)  # its own counters, on the map and in the log
    assert 'class="counter own' in page

    for who in (g["Allied"], None):
        seat(client, gid, who)
        seen = client.get(f"/games/{gid}").text + client.get(f"/games/{gid}/board", params={"seq": 0}).text
        assert [n for n in (*SET_UP, "Banzai!") if n in seen] == []
        assert seen.count('class="counter enemy unknown"') >= 2 and "not examined" in seen


def test_a_wrong_command_from_the_page_says_why_and_changes_nothing(client: TestClient) -> None:
    g = new_game(client)
    gid = g["id"]
    seat(client, gid, g["Japanese"])
    page = client.get(f"/games/{gid}").text
    wrong = json.dumps({"unit": "81 Inf", "hex": "1648"})  # Cape Esperance: far from Henderson Field
    r = client.post(f"/games/{gid}/command", data={"type": "place", "data": wrong, "seq": seq_of(page)})
    assert r.status_code == 200 and "25.4" in r.text and 'role="alert"' in r.text
    assert seq_of(client.get(f"/games/{gid}").text) == seq_of(page)
    seat(client, gid, g["Allied"])
    r = client.post(f"/games/{gid}/allocate", data={"seq": seq_of(page), "superiority": 1})
    assert r.status_code == 200 and 'role="alert"' in r.text  # not the Allies' decision yet


def test_the_landing_page_starts_either_game(client: TestClient) -> None:
    page = client.get("/").text
    assert "First Blood" in page and "Pacific Battles Vol. 1: Guadalcanal" in page
    assert 'name="game" value="pacific_battles"' in page and 'value="short"' in page
    r = client.post("/new", data={"game": "pacific_battles", "scenario": "short", "side": "Allied",
                                  "name": "Vandegrift", "option": ["high_ground", "deception"]},
                follow_redirects=False)
    assert r.status_code == 303, r.text
    gid = r.headers["location"].split("/games/")[1].split("?")[0]
    page = client.get(f"/games/{gid}").text
    assert "Pacific Battles: Guadalcanal" in page and "You play the Allied" in page
    view = client.get(f"/api/games/{gid}", headers={"Cookie": r.headers["set-cookie"].split(";")[0]}).json()
    assert view["options"] == {"high_ground": True, "deception": True}
    r = client.post("/new", data={"game": "pacific_battles", "side": "Allied", "option": ["no_such_rule"]})
    assert r.status_code == 422 and "no_such_rule" in r.text
    r = client.post("/new", data={"game": "pacific_battles", "scenario": "longest", "side": "Allied"})
    assert r.status_code == 422 and "scenario" in r.text


def test_the_board_has_the_seat_the_clock_and_the_chat_as_first_blood_has(client: TestClient) -> None:
    """A player sat down from the landing page sees their private link first, with the
    notices; the clock of the decision; the chat, which the opponent reads and which the
    board's own updates leave in place."""
    r = client.post("/new", data={"game": "pacific_battles", "scenario": "short", "side": "Japanese",
                                  "name": "Hyakutake", "move_days": "3"}, follow_redirects=False)
    assert r.status_code == 303, r.text
    welcome = client.get(r.headers["location"]).text
    assert 'id="private-link" open' in welcome and "Keep this link" in welcome
    assert welcome.index('id="private-link"') < welcome.index('class="card status"')  # at the top of the page
    assert welcome.index('id="invite"') < welcome.index('id="private-link"')  # after what to send
    # both outside the parts an answer swaps: the computer's first move, answered at once,
    # took the link away when it was inside the top card
    assert welcome.index('id="private-link"') < welcome.index('<div id="pb-top"')
    assert 'data-copy="invite-link"' in welcome
    assert 'class="seat-email"' in welcome and 'id="chat"' in welcome and "Spectator link" in welcome
    gid = r.headers["location"].split("/games/")[1].split("?")[0]
    said = client.post(f"/games/{gid}/chat", data={"text": "Tokyo Express <b>tonight</b>"})
    assert said.status_code == 200 and "Tokyo Express &lt;b&gt;tonight&lt;/b&gt;" in said.text
    page = client.get(f"/games/{gid}").text
    assert "Tokyo Express &lt;b&gt;tonight" in page and 'id="private-link"' in page
    assert "3 days per decision" in page  # the clock
    # a command's answer swaps the board whole and leaves the chat, outside it, alone
    first = set_up_of(client, gid, page, SET_UP[0])
    answer = client.post(f"/games/{gid}/command", data={"type": "place", "data": json.dumps(first),
                                                         "seq": seq_of(page)})
    assert 'id="pb-panels"' in answer.text and 'id="chat"' not in answer.text
    assert 'id="pb-top" hx-swap-oob="true"' in answer.text and 'id="private-link"' not in answer.text


def test_since_your_last_move_tells_the_other_side_what_it_may_know(client: TestClient) -> None:
    g = new_game(client)
    gid = g["id"]
    seat(client, gid, g["Japanese"])
    for unit in SET_UP:
        page = client.get(f"/games/{gid}").text
        place = json.dumps(set_up_of(client, gid, page, unit))
        client.post(f"/games/{gid}/command", data={"type": "place", "data": place, "seq": seq_of(page)})
    page = client.get(f"/games/{gid}").text
    done = re.search(r'name="type" value="end_phase"><input type="hidden" name="data" value="([^"]*)"', page)
    client.post(f"/games/{gid}/command", data={"type": "end_phase", "data": done.group(1).replace("&#34;", '"'),
                                               "seq": seq_of(page)})
    seat(client, gid, g["Allied"])
    page = client.get(f"/games/{gid}").text
    card = page.split('id="briefing"', 1)[1].split("</details>", 1)[0]
    assert "Since your last move" in card and "set-up (25.4)" in card and f"/games/{gid}/at/" in card
    assert [n for n in SET_UP if n in card] == []  # the set-up's lines as the Allies may read them


def test_the_invitation_and_the_mails_name_the_game(client: TestClient) -> None:
    created = client.post("/api/games", json={"game": "pacific_battles", "scenario": "short", "side": "Japanese",
                                              "name": "Hyakutake", "email": "hyakutake@example.org"}).json()
    gid = created["game_id"]
    client.cookies.clear()  # the invited player's browser (the creator's is taken to its board)
    invitation = client.get(f"/join/{gid}").text
    assert "You are invited to a game of Pacific Battles Vol. 1: Guadalcanal" in invitation
    assert "First Blood" not in invitation.split("<footer")[0]
    joined = client.post(f"/api/games/{gid}/join", json={"token": created["invite_url"].split("token=")[1],
                                                          "name": "Vandegrift", "email": "vandegrift@example.org"})
    assert joined.status_code == 200
    client.cookies.clear()
    headers = {"Authorization": f"Bearer {created['token']}"}
    for _ in range(60):  # the Japanese act (set up, the markers drawn may ask them) until the Allies must
        legal = client.get(f"/api/games/{gid}/legal", headers=headers).json()
        if "Japanese" not in legal["prompt"]["sides"]:
            break
        kinds = {c["type"]: c for c in reversed(listed(legal)) if c["type"] != "undo"}
        command = kinds.get("place") or kinds.get("end_phase") or next(iter(kinds.values()))
        assert client.post(f"/api/games/{gid}/commands", headers=headers,
                           json={**command, "expected_seq": legal["seq"]}).status_code == 200
    subjects = [m["subject"] for m in client.get("/api/admin/outbox", auth=ADMIN).json()["items"]]
    assert f"Your move: Pacific Battles Vol. 1: Guadalcanal game {gid}" in subjects, subjects


def test_a_step_taken_back_is_struck_through_in_the_boards_log(client: TestClient) -> None:
    g = new_game(client)
    gid, token = g["id"], g["Japanese"]
    headers = {"Authorization": f"Bearer {token}"}
    legal = client.get(f"/api/games/{gid}/legal", headers=headers).json()
    place = next(c for c in listed(legal) if c["type"] == "place")
    assert client.post(f"/api/games/{gid}/commands", headers=headers,
                       json={**place, "expected_seq": legal["seq"]}).status_code == 200
    legal = client.get(f"/api/games/{gid}/legal", headers=headers).json()
    take_back = next(c for c in listed(legal) if c["type"] == "undo")
    assert client.post(f"/api/games/{gid}/commands", headers=headers,
                       json={**take_back, "expected_seq": legal["seq"]}).status_code == 200
    seat(client, gid, token)
    page = client.get(f"/games/{gid}").text
    struck = re.findall(r'<li value="\d+" class="retracted"><del>([^<]*)</del></li>', page)
    assert struck and place["data"]["unit"] in struck[0], struck


def test_a_select_button_clicked_before_the_script_is_ready_still_selects(client: TestClient) -> None:
    """The select buttons' forms, sent as a plain GET to the board (no script yet), select."""
    g = new_game(client)
    seat(client, g["id"], g["Japanese"])
    page = client.get(f"/games/{g['id']}", params={"seq": 0, "unit": SET_UP[0], "select": ""}).text
    assert 'selected-piece" aria-label' in page and SET_UP[0] in page.split('selected-piece" aria-label', 1)[1][:300]


def to_the_air_allocation(client: TestClient, g: dict[str, str]) -> dict[str, dict]:
    """Both sides' ``/legal`` once the game is at its first decision both make at once
    (the secret air allocation, 4.1 1c), each side having played till then."""
    gid = g["id"]
    for _ in range(200):
        legal = {s: client.get(f"/api/games/{gid}/legal", headers=bearer(g[s])).json()
                 for s in ("Japanese", "Allied")}
        if all(v["your_turn"] for v in legal.values()):
            return legal
        side = next(s for s, v in legal.items() if v["your_turn"])
        cmds = [c for c in listed(legal[side]) if c["type"] != "undo"]
        cmd = next((c for c in cmds if c["type"] in ("place", "land")), None) or \
            next((c for c in cmds if c["type"] == "end_phase"), cmds[0])
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(g[side]),
                        json={"type": cmd["type"], "data": cmd["data"], "expected_seq": legal[side]["seq"]})
        assert r.status_code == 200, r.text
    raise AssertionError("no decision made by both sides at once")


def test_a_refused_air_allocation_says_why_by_its_form_and_keeps_what_was_typed(client: TestClient) -> None:
    """On a phone the status card is far above the form: the reason is given in the form,
    whose numbers stay as typed, to be corrected rather than typed again."""
    g = new_game(client)
    gid = g["id"]
    legal = to_the_air_allocation(client, g)
    seat(client, gid, g["Allied"])
    r = client.post(f"/games/{gid}/allocate", data={"seq": legal["Allied"]["seq"], "superiority": 3, "strike": 2,
                                                    "interdiction": 3})
    form = re.search(r'<form hx-post="/games/[0-9a-f]+/allocate".*?</form>', r.text, re.S)
    assert r.status_code == 200 and form is not None, r.text[:400]
    assert re.search(r'<p class="error" role="alert">[^<]*\(26\.5|16\.2', form.group(0)), form.group(0)[:600]
    assert r.text.count('<p class="error" role="alert">') == 1  # said once, there
    for name, typed in (("superiority", 3), ("strike", 2), ("interdiction", 3), ("recon", 0)):
        assert f'name="{name}" min="0"' in form.group(0) and re.search(
            rf'name="{name}"[^>]*value="{typed}"', form.group(0)), name
    assert client.get(f"/api/games/{gid}/legal", headers=bearer(g["Allied"])).json()["your_turn"]  # nothing sealed


def test_both_sides_of_the_secret_allocation_are_told_it_is_their_move_in_the_tab(client: TestClient) -> None:
    """4.1 1c: both allocate at once, so both tabs say "(Your move)", with the phase."""
    g = new_game(client)
    gid = g["id"]
    legal = to_the_air_allocation(client, g)
    phase = legal["Allied"]["prompt"]["kind"]
    titles = {}
    for side in ("Japanese", "Allied"):
        seat(client, gid, g[side])
        page = client.get(f"/games/{gid}").text
        titles[side] = page.split("<title>")[1].split("</title>")[0]
    assert all(t.startswith("(Your move) Pacific Battles") for t in titles.values()), (titles, phase)
    assert titles["Japanese"] == titles["Allied"] and titles["Allied"].count("\u00b7") == 2  # game, turn, phase
    # the replay says who acted at each moment: both at once now, one side before, nobody "over"
    seq = legal["Allied"]["seq"]
    acting = {}
    for n in range(1, seq + 1):
        moment = client.get(f"/games/{gid}/at/{n}")
        assert moment.status_code == 200 and "the game is over" not in moment.text and " UTC:</p>" not in moment.text
        acting[n] = re.search(r'<span class="label">To act</span> <strong>([^<]*)</strong>', moment.text).group(1)
    assert acting[seq] == "Allied and Japanese" and "Japanese" in acting.values(), acting
    # the log's chapters are named as the turn track names them
    headings = re.findall(r"<h3>([^<]*)</h3>", client.get(f"/games/{gid}/log").text)
    assert any(h.startswith("August 1942 (turn 1) \u00b7 ") for h in headings), headings
    assert not any("begins" in h for h in headings), headings


def test_an_answer_sends_only_the_parts_of_the_map_the_page_lacks(client: TestClient) -> None:
    """As First Blood's: the page says which parts of the map's layers it shows (the marks,
    the areas under the counters, each band of the map's counters, a spread-out stack), the
    answer to a command sends only those that differ, and the page patched with them is
    the page a fresh look draws.  A page that says nothing (or nonsense) gets the whole."""
    from live_server import map_parts, shown_digests

    g = new_game(client)
    gid = g["id"]
    seat(client, gid, g["Japanese"])
    page = map_parts(client.get(f"/games/{gid}").text)
    assert list(page) == ["layer-marks", "layer-areas", *(f"layer-pieces-{i}" for i in range(8)), "layer-fan",
                          "pb-sides", "pb-displays"]  # (the kept cards after the map's parts, as the page sends them)
    for unit in SET_UP:
        now = client.get(f"/games/{gid}").text
        first = set_up_of(client, gid, now, unit)
        r = client.post(f"/games/{gid}/command", data={"type": "place", "data": json.dumps(first),
                                                        "seq": seq_of(now), "parts": shown_digests(page)})
        assert r.status_code == 200 and '<p class="error" role="alert">' not in r.text, r.text[:300]
        assert 'id="pb-layers"' not in r.text
        sent = map_parts(r.text)
        layers = [k for k in sent if k.startswith("layer-")]
        assert layers and len(layers) <= 3, sorted(sent)  # the band the unit went to (and the marks)
        assert all(sent[k] != page[k] for k in sent if not k.startswith("layer-"))  # a card only if it changed
        page |= sent
        assert page == map_parts(client.get(f"/games/{gid}").text)
    seq = seq_of(client.get(f"/games/{gid}").text)
    same = client.get(f"/games/{gid}/board", params={"seq": seq, "parts": shown_digests(page)}).text
    assert map_parts(same) == {} and 'id="board-state"' in same  # nothing changed: no part at all
    for parts in ("", "not-a-digest", shown_digests(page).rsplit(".", 1)[0]):
        whole = client.get(f"/games/{gid}/board", params={"seq": seq, "parts": parts}).text
        assert 'id="pb-layers" hx-swap-oob="true"' in whole and map_parts(whole) == page


def test_the_sides_card_is_drawn_once_for_what_it_shows_and_each_side_its_own() -> None:
    """The card of both sides' standing and one's own boxes (sides.html) is kept by what
    it shows: the same view gives the very same drawing, a changed one a new drawing, and
    a side's card (its reinforcement track) is never the other side's or a spectator's."""
    from types import SimpleNamespace

    from app.games.pacific_battles.board import SIDES, PBBoard
    from app.templating import TEMPLATES
    from engine.core.game import replay
    from engine.games.pacific_battles.rules import RULES

    state = replay(RULES, RULES.create("short", {}, "sides-card-test"))

    def card(board: SimpleNamespace) -> str:
        return PBBoard._sides_card(board, PBBoard._sides_shows(board))  # type: ignore[arg-type]

    cards = {}
    for side in ("Allied", "Japanese", None):
        view = RULES.view(state, side, [])
        board = SimpleNamespace(view=view, side=side)
        cards[side] = card(board)
        assert str(cards[side]) == TEMPLATES.env.get_template(SIDES).render(v={"sides": view["sides"]}, side=side)
        assert card(SimpleNamespace(view=RULES.view(state, side, []), side=side)) is cards[side]  # kept
    tracks = {side: {o["unit"] for o in RULES.view(state, side, [])["sides"][side]["track"]}
              for side in ("Allied", "Japanese")}
    assert all(tracks.values()) and "Your reinforcement track" not in cards[None]
    for side, other in (("Allied", "Japanese"), ("Japanese", "Allied")):
        assert "Your reinforcement track" in cards[side]
        track = cards[side].split("Your reinforcement track", 1)[1].split("</ul>", 1)[0]
        dues = [0 if d == "set-up" else int(d.split()[1]) for d in re.findall(r": (set-up|turn \d+)", track)]
        assert len(dues) > 3 and dues == sorted(dues) and len(set(dues)) > 1, dues  # by the turn it arrives
        assert not any(f"<li>{u}" in cards[side] for u in tracks[other] - tracks[side])  # not the other's
    view = RULES.view(state, "Allied", [])
    view["sides"]["Allied"]["vp"] += 7
    changed = card(SimpleNamespace(view=view, side="Allied"))
    assert changed is not cards["Allied"] and changed != cards["Allied"]


def test_a_long_list_of_hexes_to_aim_at_is_listed_a_long_list_of_pieces_orders_is_not() -> None:
    """A recon's 65 target hexes name no piece: they are listed (or the map's highlighted
    hexes are pointed to), never "select a piece"; 50 landings ask for a piece first."""
    from app.games.pacific_battles.board import _group
    from app.games.pacific_battles.orders import Orders
    from engine.core.choices import group
    from engine.core.events import Command
    from engine.games.pacific_battles.rules import RULES

    hexes = [f"{10 + i // 20:02d}{i % 20 + 1:02d}" for i in range(65)]
    recon = [Command("recon", {"hex": h}) for h in hexes]
    land = [Command("land", {"unit": f"a{i}", "hex": hexes[i]}) for i in range(50)]
    orders = Orders(group(recon + land))
    state = RULES.blank()
    g = _group(RULES, state, "recon", orders, "")
    assert len(g.options) == 65 and not g.hint
    g = _group(RULES, state, "land", orders, "")
    assert not g.options and g.hint == "50 choices: select a piece (above, or on the map) to list its own."
    assert [json.loads(d) for d, _ in _group(RULES, state, "land", orders, "a3").options] == [{"unit": "a3",
                                                                                               "hex": hexes[3]}]


def test_the_legend_says_what_each_mark_on_the_map_means(client: TestClient) -> None:
    """Every kind of mark the map draws over the terrain is in the legend, with its rule (a
    player asked what the dashed rings, the "?" and the red "S" were)."""
    g = new_game(client)
    seat(client, g["id"], g["Allied"])
    page = client.get(f"/games/{g['id']}").text
    legend = re.search(r'<ul id="pb-legend".*?</ul>', page, re.S).group(0)
    for mark in ("where the selected piece may go", "aims at", "an order to give", "fortified hex (21.0)",
                 "support radius (10.4)", "suppressed (8.0)", "not examined (18.1)", "ZOC ?", "(18.4)",
                 "objective hex and port (24.6, 26.8)"):
        assert mark in legend, mark
    # folded under its heading: on a phone the cards that answer a tap come right below the map
    assert re.search(r'<details class="map-legend-box"><summary[^>]*>What the marks on the map mean</summary>\s*'
                     r'<ul id="pb-legend"', page)


def test_placing_a_piece_selects_the_next_one_to_place(client: TestClient) -> None:
    """A set-up or a landing goes piece after piece: once one is placed the next is
    selected, its hexes lit (a dozen landings were a dozen trips down to the buttons)."""
    g = new_game(client)
    gid = g["id"]
    seat(client, gid, g["Japanese"])
    order = sorted(SET_UP)
    for n, unit in enumerate(order):
        page = client.get(f"/games/{gid}").text
        place = set_up_of(client, gid, page, unit)
        answer = client.post(f"/games/{gid}/command", data={"type": "place", "data": json.dumps(place),
                                                            "seq": seq_of(page), "select": unit}).text
        assert seq_of(answer) == seq_of(page) + 1
        if n + 1 < len(order):
            assert f"Selected: {order[n + 1]}" in answer
        else:
            assert "Selected: " not in answer  # the last one placed: nothing left to select


def test_the_held_markers_say_when_they_are_played_and_what_becomes_of_them(client: TestClient) -> None:
    g = new_game(client)
    seat(client, g["id"], g["Japanese"])
    card = client.get(f"/games/{g['id']}").text.split('aria-label="Your command markers"', 1)[1].split("</section>")[0]
    assert "Banzai!" in card and "to play: combat; once played: back to the cup" in card  # (it said "played: combat")
