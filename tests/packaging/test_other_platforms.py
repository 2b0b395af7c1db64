"""The Windows and macOS packaging that cannot be built here (packaging/windows, packaging/macos):
what can be checked without those systems is checked.

* Both specs are Python that compiles, say they were not built by the project, and name only
  files that exist.
* The macOS app's Info.plist entries make a valid property list whose document type is the
  same saved-game type as the Linux MIME type (extension, MIME name, the program's ID).
* The icon files hold every size, and Qt reads each image at its size.
"""

from __future__ import annotations

import plistlib
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import struggle_desktop

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
sys.path.insert(0, str(PACKAGING))
import bundle_contents  # noqa: E402
import make_icons  # noqa: E402

SPECS = [PACKAGING / "windows" / "struggle-desktop.spec",
         PACKAGING / "macos" / "struggle-desktop.spec"]
MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.parent.name)
def test_the_spec_compiles_and_says_it_was_not_built(spec):
    text = spec.read_text(encoding="utf-8")
    compile(text, str(spec), "exec")
    assert "NOT BUILT BY THIS PROJECT" in text
    for name in re.findall(r'"([\w.-]+\.(?:ico|icns|py))"', text):
        assert list(PACKAGING.rglob(name)), name


def test_the_macos_document_type_is_the_save_type():
    plist = bundle_contents.macos_info_plist(struggle_desktop.__version__)
    assert plistlib.loads(plistlib.dumps(plist)) == plist
    assert plist["CFBundleShortVersionString"] == struggle_desktop.__version__
    (document,) = plist["CFBundleDocumentTypes"]
    (exported,) = plist["UTExportedTypeDeclarations"]
    assert document["LSItemContentTypes"] == [exported["UTTypeIdentifier"]]
    mime = ET.parse(PACKAGING / "linux" / f"{bundle_contents.APP_ID}.mime.xml").getroot()
    (mime_type,) = mime.findall(f"{MIME_NS}mime-type")
    tags = exported["UTTypeTagSpecification"]
    assert tags["public.mime-type"] == [mime_type.get("type")]
    assert [f"*.{ext}" for ext in tags["public.filename-extension"]] == \
        [glob.get("pattern") for glob in mime_type.findall(f"{MIME_NS}glob")]
    from struggle_desktop.ui.app import DESKTOP_ID
    assert bundle_contents.APP_ID == DESKTOP_ID


@pytest.mark.parametrize("path, sizes", [
    (make_icons.WINDOWS_ICON, make_icons.ICO_SIZES),
    (make_icons.MACOS_ICON, tuple(size for _kind, size in make_icons.ICNS_TYPES)),
], ids=["ico", "icns"])
def test_the_icon_file_holds_every_size(qapp, path, sizes):
    from PySide6.QtGui import QImageReader

    reader = QImageReader(str(path))
    assert reader.canRead(), reader.errorString()
    found = []
    for index in range(reader.imageCount()):
        assert reader.jumpToImage(index)
        image = reader.read()
        assert not image.isNull() and image.width() == image.height()
        found.append(image.width())
    assert sorted(found) == sorted(sizes)
