"""Drawing shared by every game's map: NATO counters, numbers and text in SVG (pure
functions; no database, no I/O).  Each game's own map is drawn by its board, in
``app/games/<game>/``."""
