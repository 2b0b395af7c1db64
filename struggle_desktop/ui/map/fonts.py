"""The bundled fonts, and the Qt application they need: the one thing the map's scene and
its offscreen rendering both use, kept apart so that neither imports the other for it."""

from __future__ import annotations

from PySide6.QtGui import QFontDatabase, QGuiApplication

from struggle_desktop.engine.paths import assets_dir

FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
_fonts_loaded = False
_app = None           # a QApplication made here for offscreen use (kept alive)


def ensure_app():
    """The running Qt application, or a new one for offscreen use (the render command)."""
    global _app
    app = QGuiApplication.instance()
    if app is None:
        from PySide6.QtWidgets import QApplication
        _app = app = QApplication([])
    return app


def ensure_fonts() -> None:
    """Register the bundled DejaVu Sans once (a Qt application must exist)."""
    global _fonts_loaded
    if _fonts_loaded:
        return
    ensure_app()
    fonts = assets_dir() / "fonts"
    for name in FONT_FILES:
        if (fonts / name).is_file():
            QFontDatabase.addApplicationFont(str(fonts / name))
    _fonts_loaded = True


__all__ = ["ensure_app", "ensure_fonts"]
