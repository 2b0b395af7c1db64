"""Render the program's icon to the PNG sizes a Linux desktop looks for, and to the icon files
of the Windows and macOS bundles.

The master icon is ``assets/icons/struggle-desktop.svg`` (the window uses it too). Desktops
find an application's icon by its ID in the hicolor icon theme; this script writes

    packaging/linux/icons/hicolor/<N>x<N>/apps/io.github.struggledesktop.StruggleDesktop.png

for N in 16 24 32 48 64 128 256 512, each rendered by Qt's own SVG renderer onto a transparent
image with antialiasing, and copies the SVG unchanged to

    packaging/linux/icons/hicolor/scalable/apps/io.github.struggledesktop.StruggleDesktop.svg

It also writes ``packaging/windows/struggle-desktop.ico`` (16 to 256 px) and
``packaging/macos/struggle-desktop.icns`` (16 to 1024 px), both holding PNG images, which every
Windows since Vista and every macOS since 10.7 read.

The outputs are kept in the repository: run the script again after changing the SVG

    python3 packaging/make_icons.py

tests/packaging/test_desktop_integration.py checks that every size is there, has exactly its
size and is not blank, and that the scalable copy equals the master.
"""

from __future__ import annotations

import os
import shutil
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MASTER = ROOT / "assets" / "icons" / "struggle-desktop.svg"
sys.path.insert(0, str(ROOT / "packaging"))
from bundle_contents import APP_ID  # noqa: E402

THEME = ROOT / "packaging" / "linux" / "icons" / "hicolor"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
WINDOWS_ICON = ROOT / "packaging" / "windows" / "struggle-desktop.ico"
MACOS_ICON = ROOT / "packaging" / "macos" / "struggle-desktop.icns"
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
#: The ICNS element types that hold a PNG of a given size (Apple's "icns" format).
ICNS_TYPES = ((b"icp4", 16), (b"icp5", 32), (b"icp6", 64), (b"ic07", 128), (b"ic08", 256),
              (b"ic09", 512), (b"ic10", 1024))


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


def png_bytes(image) -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    buffer.close()
    return bytes(data)


def ico_file(pngs: dict[int, bytes]) -> bytes:
    """A Windows icon holding one PNG per size: a 6-byte header, a 16-byte entry per image
    (a width or height of 0 means 256), then the images."""
    header = struct.pack("<HHH", 0, 1, len(pngs))
    offset = len(header) + 16 * len(pngs)
    entries, images = b"", b""
    for size, png in sorted(pngs.items()):
        side = 0 if size >= 256 else size
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(png), offset)
        images += png
        offset += len(png)
    return header + entries + images


def icns_file(pngs: dict[int, bytes]) -> bytes:
    """A macOS icon: ``icns`` and the total length, then per image its type, its length with
    this 8-byte element header, and the PNG (all lengths big-endian)."""
    elements = b"".join(kind + struct.pack(">I", 8 + len(pngs[size])) + pngs[size]
                        for kind, size in ICNS_TYPES)
    return b"icns" + struct.pack(">I", 8 + len(elements)) + elements


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
    pngs = {size: png_bytes(render(renderer, size))
            for size in sorted(set(ICO_SIZES) | {size for _kind, size in ICNS_TYPES})}
    for target, content in ((WINDOWS_ICON, ico_file({s: pngs[s] for s in ICO_SIZES})),
                            (MACOS_ICON, icns_file(pngs))):
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
        print(target.relative_to(ROOT))
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
