"""The program's licence: a LICENSE file at the top of the repository that says what
pyproject.toml declares (MIT), and that travels with every way the program is handed out: the
wheel (in its ``.dist-info/licenses``, named by the metadata's ``License-File``) and the source
archive. The bundle and its tarball carry it too; tests/packaging/test_bundle.py checks those.
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LICENSE = ROOT / "LICENSE"


def test_the_licence_is_the_mit_licence_pyproject_declares():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] in ({"text": "MIT"}, "MIT")
    text = LICENSE.read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Copyright (c) 2026 the struggle_desktop authors" in text
    assert "Permission is hereby granted, free of charge" in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS"' in text


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    pytest.importorskip("hatchling", reason="hatchling builds the wheel (the test extra)")
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "hatchling", "build", "-d", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def test_the_wheel_carries_the_licence(built):
    (wheel,) = built.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (metadata,) = [name for name in names if name.endswith(".dist-info/METADATA")]
        fields = Parser().parsestr(archive.read(metadata).decode("utf-8"))
        assert fields.get_all("License-File") == ["LICENSE"]
        dist_info = metadata.rsplit("/", 1)[0]
        assert archive.read(f"{dist_info}/licenses/LICENSE") == LICENSE.read_bytes()


def test_the_source_archive_carries_the_licence(built):
    (sdist,) = built.glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        top = archive.getnames()[0].split("/")[0]
        assert archive.extractfile(f"{top}/LICENSE").read() == LICENSE.read_bytes()
