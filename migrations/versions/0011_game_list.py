"""The admin's list of games: where each game stands (turn, phase, whose decision, the
winner) and when its running decision's time is up, kept in the games table with every
append and clock change, so that the list reads columns instead of replaying games; and
the indexes its order and filters use.  Existing games get their columns by one replay
each, here, once.  And the players' acts on the clock (vacations, time granted), for the
admins' history of a game.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-05
"""

import json
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

INDEXES = {"ix_games_updated_at": ["updated_at"], "ix_games_status_updated_at": ["status", "updated_at"],
           "ix_games_game_scenario": ["game", "scenario"], "ix_games_to_move": ["to_move"],
           "ix_games_deadline_ts": ["deadline_ts"]}


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("deadline_ts", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("turn_no", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("turn_name", sa.String(length=60), nullable=False, server_default=""))
        batch.add_column(sa.Column("phase", sa.String(length=80), nullable=False, server_default=""))
        batch.add_column(sa.Column("to_move", sa.String(length=40), nullable=False, server_default=""))
        batch.add_column(sa.Column("winner", sa.String(length=16), nullable=True))
    for name, columns in INDEXES.items():
        op.create_index(name, "games", columns)
    op.create_table(
        "clock_acts",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("side", sa.String(length=16), nullable=False),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("days", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_clock_acts_game_id_id", "clock_acts", ["game_id", "id"])
    _fill_in()


def _fill_in() -> None:
    """Each existing game's columns, from one replay of its log."""
    from engine.core.events import Event
    from engine.games import GAMES

    conn = op.get_bind()
    games = conn.execute(sa.text("SELECT id, game, status, move_days, decision_side, decision_since, "
                                 "decision_extra FROM games")).all()
    for g in games:
        rules = GAMES.get(g.game)
        if rules is None:
            continue
        state = rules.blank()
        for kind, payload, side in conn.execute(sa.text("SELECT type, payload, side FROM events WHERE game_id = :id "
                                                        "ORDER BY seq"), {"id": g.id}):
            rules.apply(state, Event(kind, payload if isinstance(payload, dict) else json.loads(payload), side))
        head, prompt = rules.headline(state), rules.prompt(state)
        deadline = None
        if g.move_days is not None and g.status == "active" and g.decision_side and g.decision_since is not None:
            since = g.decision_since if isinstance(g.decision_since, datetime) else \
                datetime.fromisoformat(str(g.decision_since))
            since = since if since.tzinfo else since.replace(tzinfo=UTC)
            deadline = int(since.timestamp()) + g.move_days * 86_400 + g.decision_extra
        conn.execute(sa.text("UPDATE games SET turn_no = :turn_no, turn_name = :turn_name, phase = :phase, "
                             "to_move = :to_move, winner = :winner, deadline_ts = :deadline WHERE id = :id"),
                     {"id": g.id, "turn_no": head.turn, "turn_name": head.turn_name[:60], "phase": head.phase[:80],
                      "to_move": ",".join(prompt.acting)[:40], "deadline": deadline,
                      "winner": (state.result or {}).get("winner")})


def downgrade() -> None:
    op.drop_index("ix_clock_acts_game_id_id", "clock_acts")
    op.drop_table("clock_acts")
    for name in INDEXES:
        op.drop_index(name, "games")
    with op.batch_alter_table("games") as batch:
        for name in ("winner", "to_move", "phase", "turn_name", "turn_no", "deadline_ts"):
            batch.drop_column(name)
