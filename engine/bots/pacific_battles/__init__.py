"""Pacific Battles bots: level greedy (greedy.py), from its side's view alone."""
