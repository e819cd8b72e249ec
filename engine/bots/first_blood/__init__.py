"""First Blood's bots: an evaluation of positions, and the greedy and search levels on it."""
