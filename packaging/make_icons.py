"""Render the program's icon to the PNG sizes a Linux desktop looks for.

The master icon is ``assets/icons/struggle-desktop.svg`` (the window uses it too). Desktops
find an application's icon by its ID in the hicolor icon theme; this script writes

    packaging/linux/icons/hicolor/<N>x<N>/apps/io.github.struggledesktop.StruggleDesktop.png

for N in 16 24 32 48 64 128 256 512, each rendered by Qt's own SVG renderer onto a transparent
image with antialiasing, and copies the SVG unchanged to

    packaging/linux/icons/hicolor/scalable/apps/io.github.struggledesktop.StruggleDesktop.svg

The outputs are kept in the repository: run the script again after changing the SVG

    python3 packaging/make_icons.py

tests/packaging/test_desktop_integration.py checks that every size is there, has exactly its
size and is not blank, and that the scalable copy equals the master.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MASTER = ROOT / "assets" / "icons" / "struggle-desktop.svg"
APP_ID = "io.github.struggledesktop.StruggleDesktop"
THEME = ROOT / "packaging" / "linux" / "icons" / "hicolor"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def png_path(size: int) -> Path:
    """Where the icon of ``size`` x ``size`` pixels goes."""
    return THEME / f"{size}x{size}" / "apps" / f"{APP_ID}.png"


def svg_path() -> Path:
    """Where the scalable copy of the master icon goes."""
    return THEME / "scalable" / "apps" / f"{APP_ID}.svg"


def render(renderer, size: int):
    """The icon as a transparent ``size`` x ``size`` QImage, antialiased."""
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QImage, QPainter

    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter, QRectF(0, 0, size, size))
    painter.end()
    # PNG stores straight (not premultiplied) alpha.
    return image.convertToFormat(QImage.Format.Format_ARGB32)


def main() -> int:
    # No window is shown: Qt's offscreen platform is enough to paint, with or without a display.
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtSvg import QSvgRenderer

    # Painting needs a QGuiApplication; the name keeps it alive until the end.
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(MASTER))
    if not renderer.isValid():
        print(f"{MASTER}: Qt cannot read this SVG", file=sys.stderr)
        return 1
    for size in SIZES:
        target = png_path(size)
        target.parent.mkdir(parents=True, exist_ok=True)
        if not render(renderer, size).save(str(target), "PNG"):
            print(f"{target}: could not write", file=sys.stderr)
            return 1
        print(target.relative_to(ROOT))
    target = svg_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(MASTER, target)
    print(target.relative_to(ROOT))
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
