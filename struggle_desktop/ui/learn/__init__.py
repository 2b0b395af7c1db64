"""Guided first games (Help > Learn to Play): guides are data (``assets/guides/*.yaml``), read
by ``loader``; ``runner`` points at one thing on screen per step and waits for the player."""
