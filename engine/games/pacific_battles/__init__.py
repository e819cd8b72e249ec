"""Pacific Battles Vol. 1: Guadalcanal (issue 11), being built in increments.

Not yet a registered game: so far its tables (``tables.py``: the rulebook's printed
values where it gives them, reconstructions where it does not, each saying which).
"""
