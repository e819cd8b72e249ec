"""Pure rules engine for hex-and-counter wargames.

Nothing here imports a web framework, a database or ``random``: a game is a
fold of events over a state, and every die roll is derived from the game's
secret and the event number (see ``engine.core.dice``).
"""
