"""HTTP routes: thin translations between HTTP and the game service."""
