"""Every moment of a game has its own page (issue 9, item 4): the board as it stood after
the first N events, steps back and forward, bookmarks at each turn and phase; a running
game's moments for its players only, a finished game's for anyone."""

from __future__ import annotations

import re
from datetime import timedelta

from app_support import bearer, drive, listed
from fastapi.testclient import TestClient

from app.models import utcnow
from engine.core.events import Event
from engine.core.game import replay
from engine.games import get_rules


def seat_cookie(client: TestClient, game: dict[str, str], side: str) -> None:
    client.post(f"/games/{game['id']}/seat", data={"token": game[side]}, follow_redirects=False)


def test_a_moment_shows_the_board_as_it_stood_then(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    drive(client, game, lambda legal: legal["prompt"]["side"] == "IJ")  # the US set-up, then the IJ's
    log = client.get(f"/api/games/{gid}/log", params={"limit": 1000}, headers=bearer(game["US"])).json()["items"]
    placed = next(e for e in log if e["type"] == "unit_placed" and e["data"]["to"][:1].isdigit())
    n = placed["seq"] + 1  # just after the first US unit was set up
    seat_cookie(client, game, "US")
    html = client.get(f"/games/{gid}/at/{n}").text
    unit, where = placed["data"]["unit"], placed["data"]["to"]
    assert re.search(rf'data-unit="{unit}"[^>]*data-hex="{where}"|data-hex="{where}"[^>]*data-unit="{unit}"', html)
    # the engine, replaying the same events, agrees on every unit's place
    rules = get_rules("first_blood")
    state = replay(rules, [Event(e["type"], e["data"], e["side"]) for e in log[:n]])
    on_map = {u for u, x in state.units.items() if x.loc[:1].isdigit()}
    assert on_map == {unit}
    assert f"Moment {n} of" in html and 'rel="prev"' in html and 'rel="next"' in html
    assert "cmd-" not in html and "chat-form" not in html  # looked at, never played
    forward = int(re.search(rf'href="/games/{gid}/at/(\d+)" rel="next"', html).group(1))
    back = int(re.search(rf'href="/games/{gid}/at/(\d+)" rel="prev"', html).group(1))
    assert back < n < forward  # steps go to the neighbouring moments with a log line
    assert client.get(f"/games/{gid}/at/{10**6}").status_code == 404


def test_bookmarks_at_each_turn_and_phase(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    drive(client, game, lambda legal: legal["prompt"]["kind"] == "us_movement")
    seat_cookie(client, game, "IJ")
    seq = client.get(f"/api/games/{gid}").json()["seq"]
    html = client.get(f"/games/{gid}/at/{seq}").text
    assert "Turn 1: Sep I" in html
    phases = html.split("Phases of this turn", 1)[1].split("</ol>", 1)[0]
    assert "IJ reinforcements" in phases and "US movement" in phases
    # a turn's bookmark opens the moment its first phase has begun: that phase under the
    # turn's name (the turn's own event still showed the last phase of the turn before)
    turn = re.search(rf'<li><a href="/games/{gid}/at/(\d+)"[^>]*>Turn 1: Sep I</a>', html)
    first_phase = re.search(rf'<li><a href="/games/{gid}/at/(\d+)">IJ reinforcements</a>', phases)
    assert turn is not None and first_phase is not None and turn.group(1) == first_phase.group(1)
    at_turn = client.get(f"/games/{gid}/at/{turn.group(1)}").text
    assert re.search(r'id="phase-title">IJ reinforcements', at_turn)


def test_a_running_games_moments_are_for_its_players(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    assert client.get(f"/games/{gid}/at/1").status_code == 403
    first = client.get(f"/games/{gid}/at/1", headers=bearer(game["IJ"]))
    assert first.status_code == 200
    assert "The game is being set up" in first.text and "for None" not in first.text  # (it said "Waiting for None")
    html = client.get(f"/games/{gid}", headers=bearer(game["US"])).text
    assert f'href="/games/{gid}/at/' in html  # the board links to its replay


def test_anyone_may_replay_a_finished_game(client: TestClient) -> None:
    """A game won on time (the quickest way to finish one) is open to every visitor."""
    created = client.post("/api/games", json={"side": "US", "move_days": 1}).json()
    gid = created["game_id"]
    joined = client.post(f"/api/games/{gid}/join", json={"token": created["invite_url"].split("token=")[1]}).json()
    later = utcnow() + timedelta(days=2)
    client.app.state.games.now = lambda: later
    assert client.post(f"/api/games/{gid}/clock/claim", headers=bearer(joined["token"])).status_code == 200
    client.cookies.clear()
    seq = client.get(f"/api/games/{gid}").json()["seq"]
    html = client.get(f"/games/{gid}/at/{seq}").text
    assert "IJ wins." in html and "spectator" in html
    assert client.get(f"/games/{gid}/at/1").status_code == 200


def test_since_your_last_move_briefs_the_player_by_phase(client: TestClient, game: dict[str, str]) -> None:
    """Issue 9, item 3: after the opponent acted, the board lists what they did since the
    player's own last command, by turn and phase, each line a link to its moment."""
    gid = game["id"]
    drive(client, game, lambda legal: legal["prompt"]["side"] == "IJ")  # the US sets up
    seat_cookie(client, game, "IJ")
    html = client.get(f"/games/{gid}").text
    card = html.split('id="briefing"', 1)[1].split("</details>", 1)[0]
    assert "Since your last move" in card and "<h4>US setup</h4>" in card
    links = re.findall(rf'href="/games/{gid}/at/(\d+)"', card)
    assert len(links) > 20 and "Step through it on the map" in card
    client.cookies.clear()
    seat_cookie(client, game, "US")  # the US acted last: nothing to brief
    assert 'id="briefing"' not in client.get(f"/games/{gid}").text


def test_the_log_reads_as_a_story_with_headings_times_and_moments(client: TestClient,
                                                                    game: dict[str, str]) -> None:
    """Issue 9, item 4: not a raw event table with blank rows."""
    gid = game["id"]
    drive(client, game, lambda legal: legal["prompt"]["kind"] == "us_movement")
    seat_cookie(client, game, "US")
    html = client.get(f"/games/{gid}/log").text
    story = html.split('class="card log-story"', 1)[1]
    assert re.search(r"<h3>Turn 1: Sep I · (IJ|US) [a-z ]+</h3>", story)
    assert "<code>" not in story and "phase_started" not in story  # no bookkeeping rows
    assert re.search(r'<span class="muted small">\d\d \w{3} \d\d:\d\d</span>', story)
    assert re.search(rf'href="/games/{gid}/at/\d+">US 1/1 placed in', story)
    # the board, the log page and the replay number an event alike; the page's range counts every event
    total = client.get(f"/api/games/{gid}").json()["seq"]
    assert f"events 1&ndash;{total} of {total}" in html and f'href="/games/{gid}/at/{total}">replay from here' in html
    assert "&middot; events " not in client.get(f"/games/{gid}/log", params={"offset": total + 5}).text  # past the end
    logged = dict(re.findall(rf'<li value="(\d+)"[^>]*>.*?href="/games/{gid}/at/(\d+)"', story, re.S))
    assert logged and all(n == at for n, at in logged.items())
    board_html = client.get(f"/games/{gid}").text
    board = {t: n for n, t in re.findall(r'<li class="[^"]*" value="(\d+)">([^<]+)</li>', board_html)}
    on_page = {t.strip(): n for n, t in re.findall(
        rf'<li value="(\d+)"[^>]*>.*?<a href="/games/{gid}/at/\d+">([^<]+)</a>', story, re.S)}
    shared = set(board) & set(on_page)
    assert len(shared) > 5 and all(board[t] == on_page[t] for t in shared), [(t, board[t], on_page[t]) for t in shared]
    client.cookies.clear()  # a spectator of a running game reads it, without moments to open
    assert f'href="/games/{gid}/at/' not in client.get(f"/games/{gid}/log").text


def test_the_moment_after_a_move_draws_its_trail(client: TestClient, game: dict[str, str]) -> None:
    """Issue 9, item 3: "movement trails from-to" when stepping through what happened."""
    gid = game["id"]
    _, legal = drive(client, game, lambda legal: legal["prompt"]["kind"] == "ij_movement")
    move = next(c for c in listed(legal) if c["type"] == "move")
    r = client.post(f"/api/games/{gid}/commands", headers=bearer(game["IJ"]),
                    json={**move, "expected_seq": legal["seq"]})
    moved = next(e for e in r.json()["events"] if e["type"] == "unit_moved")
    html = client.get(f"/games/{gid}/at/{moved['seq'] + 1}", headers=bearer(game["IJ"])).text
    trail = re.search(r'<g class="trail" aria-label="moved ([^"]+)"><polyline points="([^"]+)"', html)
    assert trail is not None
    assert trail.group(1).split(" to ")[-1] == moved["data"]["to"]
    assert len(trail.group(2).split()) == len(trail.group(1).split(" to "))
    before = client.get(f"/games/{gid}/at/{moved['seq']}", headers=bearer(game["IJ"])).text
    assert '<g class="trail"' not in before or 'aria-label="moved ' + trail.group(1) not in before


def test_a_combat_moment_shows_the_attack_in_full(client: TestClient, game: dict[str, str]) -> None:
    """Issue 9, item 3: stepping to a combat shows its odds, every modifier with its rule,
    the die and the result in words, and marks the attacked hexes on the map."""
    gid = game["id"]

    def resolved() -> list[dict]:
        items = client.get(f"/api/games/{gid}/log", params={"limit": 1000}, headers=bearer(game["US"])).json()["items"]
        return [e for e in items if e["type"] == "combat_resolved" and e["data"]["die"] is not None]

    drive(client, game, lambda legal: bool(resolved()), limit=600)
    fight = resolved()[0]
    seat_cookie(client, game, "US")
    html = client.get(f"/games/{gid}/at/{fight['seq'] + 1}").text
    report = html.split('id="combat-report"', 1)[1].split("</section>", 1)[0]
    d = fight["data"]
    assert f"{fight['side']} attack on {', '.join(d['targets'])}" in report
    assert f"Odds <strong>{d['odds']}</strong> ({d['attack']} against {d['defence']})" in report
    for m in d["modifiers"]:
        assert f"({m['rule']})" in report
    assert f'<strong class="die">{d["die"]}</strong>' in report
    assert f'<strong id="combat-result">{d["result"]}</strong>' in report and "(§7.7)" in report
    assert re.search(rf'class="hex-state[^"]*\btarget\b[^"]*" data-hex="{d["targets"][0]}"', html)


def test_what_came_since_in_the_phase_of_ones_last_move_is_headed_so() -> None:
    """A briefing's first group has no turn or phase heading of its own when it goes on in
    the phase of the player's last move (the heading's event came before): it says so."""
    from types import SimpleNamespace

    from app.templating import TEMPLATES

    line = {"seq": 7, "text": "Allied 1 Mar moves to 1422", "at": utcnow()}
    b = SimpleNamespace(game=SimpleNamespace(id="g1"), briefing=[
        {"title": "", "lines": [line]}, {"title": "Turn 1 · combat", "lines": [{**line, "seq": 9}]}])
    card = TEMPLATES.env.from_string('{% from "partials/seat.html" import briefing_card %}{{ briefing_card(b) }}'
                                     ).render(b=b)
    assert re.findall(r"<h4>([^<]*)</h4>", card) == ["In the phase of your last move", "Turn 1 · combat"]
    assert "(2 things happened)" in card
    b.briefing = b.briefing[:1]
    one = TEMPLATES.env.from_string('{% from "partials/seat.html" import briefing_card %}{{ briefing_card(b) }}'
                                    ).render(b=b)
    assert "(1 thing happened)" in one
    assert '<details class="card briefing" id="briefing" open>' in one  # short: open
    b.briefing = [{"title": "Turn 1 · combat", "lines": [{**line, "seq": n} for n in range(9)]}]
    long = TEMPLATES.env.from_string('{% from "partials/seat.html" import briefing_card %}{{ briefing_card(b) }}'
                                     ).render(b=b)
    assert '<details class="card briefing" id="briefing">' in long and "(9 things happened)" in long  # folded


def test_the_log_page_opens_at_its_newest_events(client: TestClient, game: dict[str, str]) -> None:
    """A player opens the whole log for what happened lately: without an offset it shows its
    last page (events 1-200 came first, the newest moves behind "later"), and links back."""
    gid = game["id"]
    drive(client, game, lambda legal: client.get(f"/api/games/{gid}").json()["seq"] > 45)
    total = client.get(f"/api/games/{gid}").json()["seq"]
    newest = client.get(f"/games/{gid}/log", params={"limit": 20}).text
    first = (total - 1) // 20 * 20 + 1
    assert f"events {first}&ndash;{total} of {total}" in newest
    assert 'href="?offset=0">&laquo; the beginning</a>' in newest and "later &rarr;" not in newest
    oldest = client.get(f"/games/{gid}/log", params={"offset": 0, "limit": 20}).text
    assert f"events 1&ndash;20 of {total}" in oldest and 'href="?">the latest &raquo;</a>' in oldest
