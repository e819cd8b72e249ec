"""Rate-limit hits kept in the database, so that every worker and every host counts one
moving window per limit and key (app/rate_store.py).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-05
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_hits",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(length=255), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("ix_rate_hits_key_at", "rate_hits", ["key", "at"])


def downgrade() -> None:
    op.drop_index("ix_rate_hits_key_at", table_name="rate_hits")
    op.drop_table("rate_hits")
