"""Use cases of the server; routes stay thin and call these."""
