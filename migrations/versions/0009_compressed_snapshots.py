"""Snapshots as compressed JSON bytes, not a JSON column: PostgreSQL parsed and stored
some 80 KB of jsonb for every snapshot, four times the cost of the rest of a command.
The table is a disposable cache, so its rows are dropped, not converted.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-04
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def _snapshots(state: sa.types.TypeEngine) -> None:
    op.create_table(
        "snapshots",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("state", state, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id"),
    )


def upgrade() -> None:
    op.drop_table("snapshots")
    _snapshots(sa.LargeBinary())


def downgrade() -> None:
    op.drop_table("snapshots")
    _snapshots(sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"))
