"""The game server: FastAPI routes over an append-only event log judged by ``engine``."""
