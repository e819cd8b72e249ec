"""A title (the creator's note to the opponent) for each game.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("title", sa.String(length=120), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("title")
