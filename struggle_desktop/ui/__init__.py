"""The PySide6 desktop client: windows, the map scene, counters, docks and dialogs.

It talks to games only through the game-module interface and changes state only through
``engine.session.Session.perform`` (ARCHITECTURE.md sections 1 and 5).
"""
