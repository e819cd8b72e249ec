"""Game-independent machinery: hexes, dice, events, commands, errors, tables."""
