"""The game's record as a hash chain (engine/core/record.py, docs/fair-dice.md): each event
keeps its record hash (and, on a batch's first event, the hash of the command before it),
and so does each admin's act on a game;
the game keeps its record's version, salt, length and head.  Games made before this have
version 0: no chain, they verify as before (no backfill).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-05
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("record_version", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("record_salt", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("record_seq", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("record_head", sa.String(length=64), nullable=True))
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("record_seq", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("record_hash", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("command_hash", sa.String(length=64), nullable=True))
    with op.batch_alter_table("admin_audit") as batch:
        batch.add_column(sa.Column("record_seq", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("record_hash", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("admin_audit") as batch:
        batch.drop_column("record_hash")
        batch.drop_column("record_seq")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("command_hash")
        batch.drop_column("record_hash")
        batch.drop_column("record_seq")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("record_head")
        batch.drop_column("record_seq")
        batch.drop_column("record_salt")
        batch.drop_column("record_version")
