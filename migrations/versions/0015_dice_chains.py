"""Record version 2 (issue 36): the dice come from two reverse hash chains of per-period
seeds and both players' entropy (engine/core/seeds.py, docs/fair-dice.md).

* ``games.dice_tops``: the top seeds of the open and hidden chains (128 hex digits, the
  server's secret until their time comes); ``dice_period`` and ``dice_turn``: the period of
  the last decision and the turn it started in (the next decision's period follows).
* ``seats.entropy``: the player's entropy (hidden from the other side until both are in),
  ``entropy_by``: "player", or "server" for a seat that gave none before the first command.
* ``events.dice``: the key of the decision that wrote the event ([chain, period]), the
  turn it started in and the rolls made while the event was next.
* ``record_entries``: the entries of a game's record that are neither events, chat lines,
  clock acts nor admins' acts: the entropy's commitments and reveals, the seeds published,
  the record's salt once the game is over.

Games made before this keep their version (0 or 1) and verify as before.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-05
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("dice_tops", sa.String(length=128), nullable=True))
        batch.add_column(sa.Column("dice_period", sa.Integer(), nullable=False, server_default="1"))
        batch.add_column(sa.Column("dice_turn", sa.Integer(), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("entropy", sa.String(length=200), nullable=True))
        batch.add_column(sa.Column("entropy_by", sa.String(length=16), nullable=True))
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("dice", JSON, nullable=True))
    op.create_table(
        "record_entries",
        sa.Column("game_id", sa.String(length=32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("record_seq", sa.Integer(), primary_key=True),
        sa.Column("entry", JSON, nullable=False),
        sa.Column("record_hash", sa.String(length=64), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("record_entries")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("dice")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("entropy_by")
        batch.drop_column("entropy")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("dice_turn")
        batch.drop_column("dice_period")
        batch.drop_column("dice_tops")
