"""Games brought to the moments the accessibility test looks at, through the API: First
Blood by the planned first turn (e2e_plan, which the test server's dice play as planned),
Pacific Battles by the scripted whole turn (pb_turn, on a server rolling its dice)."""

from __future__ import annotations

from dataclasses import dataclass, field

import httpx
from e2e_plan import play
from pb_support import Truth
from pb_turn import TurnDriver, acting_side

from app.games.pacific_battles.orders import owner
from engine.core.events import Command
from engine.games.pacific_battles import sequence
from engine.games.pacific_battles.rules import RULES as PB


def length(http: httpx.Client, gid: str, token: str) -> int:
    """The game's length now (its events), as the seat of ``token`` reads it."""
    return http.get(f"/api/games/{gid}/legal", headers={"Authorization": f"Bearer {token}"}).json()["seq"]


def post(http: httpx.Client, gid: str, token: str, command: Command | dict) -> int:
    """Give a command as the seat of ``token``, at the game's length now; its new length."""
    body = {"type": command.type, "data": command.data} if isinstance(command, Command) else command
    r = http.post(f"/api/games/{gid}/commands", headers={"Authorization": f"Bearer {token}"},
                  json={**body, "expected_seq": length(http, gid, token)})
    assert r.status_code < 300, r.text
    return r.json()["seq"]


def two_players(http: httpx.Client, created: dict) -> dict[str, str]:
    """Join the game ``created`` (the creation's answer); each side's secret."""
    joined = http.post(f"/api/games/{created['game_id']}/join",
                       json={"token": created["invite_url"].split("token=")[1], "name": "Bob"})
    assert joined.status_code == 200, joined.text
    http.cookies.clear()
    return {created["side"]: created["token"], joined.json()["side"]: joined.json()["token"]}


@dataclass
class FirstBlood:
    """A First Blood game that walks the planned first turn forward, step by step."""

    http: httpx.Client
    secret: str
    gid: str = ""
    tokens: dict[str, str] = field(default_factory=dict)
    done: int = 0  # steps of the plan given

    def __post_init__(self) -> None:
        r = self.http.post("/api/games", json={"side": "US", "name": "Alice"})
        assert r.status_code == 201, r.text
        self.gid = r.json()["game_id"]
        self.tokens = two_players(self.http, r.json())

    def until(self, tag: str) -> None:
        """Give the plan's steps up to the one tagged ``tag`` (not that one)."""
        for n, p in enumerate(play(self.secret)):
            if p.step.tag == tag:
                return
            if n >= self.done:
                post(self.http, self.gid, self.tokens[p.step.side], Command(p.step.type, p.step.data))
                self.done = n + 1
        raise KeyError(tag)


@dataclass
class PacificBattles:
    """A Pacific Battles game that plays the scripted turn forward until a moment."""

    http: httpx.Client
    admin: tuple[str, str]
    gid: str = ""
    tokens: dict[str, str] = field(default_factory=dict)
    driver: TurnDriver = field(default_factory=TurnDriver)
    truth: Truth | None = None

    def __post_init__(self) -> None:
        r = self.http.post("/api/games", json={"game": "pacific_battles", "scenario": "historical",
                                               "side": "Japanese", "name": "Hyakutake"})
        assert r.status_code == 201, r.text
        self.gid = r.json()["game_id"]
        self.tokens = two_players(self.http, r.json())
        self.truth = Truth(self.http, self.gid, self.admin)

    @property
    def side(self) -> str:
        assert self.truth is not None
        side = acting_side(self.truth.state)
        assert side is not None, self.truth.state.phase
        return side

    def _next(self) -> Command:
        assert self.truth is not None
        return self.driver.next_command(self.truth.state, self.side)

    def _give(self, command: Command) -> None:
        assert self.truth is not None and self.truth.state.turn < 2, "the scripted turn is over"
        post(self.http, self.gid, self.tokens[self.side], command)
        self.truth.sync()

    def movement(self) -> str:
        """Play on to a movement step in which the side to act has a piece to move; that piece."""
        assert self.truth is not None
        while True:
            state = self.truth.state
            if sequence.step(state.phase) == "movement" and not state.pending:
                movers = [owner(c) for c in PB.legal_commands(state, self.side) if c.type == "move"]
                if movers and movers[0]:
                    return movers[0]
            self._give(self._next())

    def battle(self) -> None:
        """Play on until a battle is declared, every unit added to it, before it is closed."""
        assert self.truth is not None
        while True:
            command = self._next()
            if self.truth.state.declaring is not None and command.type in ("close", "cancel"):
                return
            self._give(command)
