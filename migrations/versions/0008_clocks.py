"""Time control: days per decision and a vacation allowance chosen at creation; whose
decision it is and since when (from the log's handovers); time granted, vacations taken.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("move_days", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("vacation_days", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("decision_side", sa.String(length=16), nullable=True))
        batch.add_column(sa.Column("decision_since", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("decision_extra", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("clock_noted", sa.String(length=16), nullable=False, server_default=""))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("vacation_left", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("vacation_until", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("vacation_until")
        batch.drop_column("vacation_left")
    with op.batch_alter_table("games") as batch:
        for name in ("clock_noted", "decision_extra", "decision_since", "decision_side", "vacation_days",
                     "move_days"):
            batch.drop_column(name)
