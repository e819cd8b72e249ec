"""A seat the computer plays (app/services/computer.py): its level, or null for a person.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-05
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("computer", sa.String(length=20), nullable=True))


def downgrade() -> None:
    op.drop_column("seats", "computer")
