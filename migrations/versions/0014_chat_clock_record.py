"""Chat lines and players' acts on the clock join the game's record (issue 36): each row
keeps its place in the record and its entry's hash, as events and admins' acts do.  Rows
written before this have none (they were never in a chain).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-05
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for table in ("chat_messages", "clock_acts"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("record_seq", sa.Integer(), nullable=True))
            batch.add_column(sa.Column("record_hash", sa.String(length=64), nullable=True))


def downgrade() -> None:
    for table in ("clock_acts", "chat_messages"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("record_hash")
            batch.drop_column("record_seq")
