"""packaging/notices.py on a made-up bundle: what it cannot attribute stops the build with its
name, and what it can is listed under its component (the real bundle's notices are checked by
tests/packaging/test_bundle.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging"))
import notices  # noqa: E402


def made_up_bundle(folder: Path, *entries: str) -> Path:
    bundle = folder / "struggle-desktop"
    (bundle / "_internal").mkdir(parents=True)
    (bundle / "struggle-desktop").write_bytes(b"\x7fELF")
    for entry in entries:
        path = bundle / "_internal" / entry
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x")
    return bundle


def test_a_library_of_unknown_origin_stops_the_notices(tmp_path):
    bundle = made_up_bundle(tmp_path, "json/__init__.pyc", "libmystery.so.1")
    with pytest.raises(notices.UncoveredError, match="_internal/libmystery.so.1"):
        notices.collect(bundle, {"libmystery.so.1": str(tmp_path / "nowhere/libmystery.so.1")},
                        ROOT)


def test_known_parts_are_listed_with_their_licences(tmp_path):
    bundle = made_up_bundle(tmp_path, "json/__init__.pyc", "yaml/__init__.pyc",
                            "struggle_desktop/__init__.pyc", "PySide6/Qt/lib/libQt6Core.so.6")
    text = notices.render(notices.collect(bundle, {}, ROOT))
    assert notices.listed_items(text) == set(notices.bundle_items(bundle))
    qt = text.split("== ")[[part.startswith(tuple("0123456789")) and " Qt " in part
                            for part in text.split("== ")].index(True)]
    assert "Licence: LGPL-3.0-only" in qt and "_internal/PySide6/Qt/lib/libQt6Core.so.6" in qt
    assert "Licence: PSF-2.0" in text and "Licence: MIT" in text
