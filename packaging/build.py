#!/usr/bin/env python3
"""Build the self-contained program from a checkout: one command, run from anywhere.

    python3 packaging/build.py [--dist DIR] [--work DIR]

It needs the program's dependencies and PyInstaller in the Python that runs it
(``python3 -m pip install ".[test]"`` gives both). On Linux it writes:

* ``DIST/struggle-desktop/``: the bundle, a folder with the executable ``struggle-desktop``
  (every command of the program; no Python needed on the machine that runs it), the
  program's LICENSE and ``THIRD-PARTY-NOTICES.txt`` (packaging/notices.py), its shared
  libraries stripped of debug information;
* ``DIST/struggle-desktop-VERSION-linux-ARCH.tar.gz``: that bundle with the desktop files, icons,
  the save-file type and ``install.sh``/``uninstall.sh``, which install it for one user under
  ``~/.local`` (no root), with README.md, LICENSE and the notices at its top.

On Windows and macOS it runs that platform's spec (``packaging/windows``, ``packaging/macos``);
those were written from PyInstaller's documentation and have not been built by this project.
"""

from __future__ import annotations

import argparse
import importlib.util
import platform
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
sys.path[:0] = [str(ROOT), str(PACKAGING)]
from bundle_contents import APP_ID  # noqa: E402
from notices import NOTICES, SHARED_LIBRARY, UncoveredError, write_notices  # noqa: E402

from struggle_desktop import __version__  # noqa: E402

SPECS = {"Linux": PACKAGING / "linux" / "struggle-desktop.spec",
         "Windows": PACKAGING / "windows" / "struggle-desktop.spec",
         "Darwin": PACKAGING / "macos" / "struggle-desktop.spec"}


def run_pyinstaller(spec: Path, dist: Path, work: Path) -> None:
    if importlib.util.find_spec("PyInstaller") is None:
        raise SystemExit('error: PyInstaller is not installed (python3 -m pip install ".[test]")')
    subprocess.run([sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
                    "--distpath", str(dist), "--workpath", str(work), str(spec)],
                   check=True, cwd=ROOT)


def strip_debug_info(bundle: Path) -> None:
    """Remove the debug information from the bundle's shared libraries that carry some
    (libpython alone 16 MiB of it; Python's extension modules, PyYAML's). ``--strip-debug``
    keeps the symbol tables and every other section (Qt's plugin metadata, version
    information), so the libraries load and link as before. Libraries without debug sections
    are not touched: the ones wheels vendor were rewritten by patchelf (auditwheel), and strip
    rewrites those into files the loader refuses ("ELF load command ... not page-aligned").
    The executable is left whole: PyInstaller's bootloader finds its data appended to it."""
    strip, readelf = shutil.which("strip"), shutil.which("readelf")
    if strip is None or readelf is None:
        print("note: no strip/readelf (binutils); the libraries keep their debug information",
              file=sys.stderr)
        return
    libraries = [str(path) for path in (bundle / "_internal").rglob("*")
                 if SHARED_LIBRARY.search(path.name) and path.is_file() and not path.is_symlink()]
    with_debug = [library for library in libraries if ".debug_" in subprocess.run(
        [readelf, "-S", "-W", library], capture_output=True, text=True).stdout]
    if with_debug:
        subprocess.run([strip, "--strip-debug", *with_debug], check=True)


def linux_tarball(dist: Path) -> Path:
    """Pack the bundle with what ``install.sh`` puts in place, under one top folder."""
    arch = platform.machine() or "unknown"
    name = f"struggle-desktop-{__version__}-linux-{arch}"
    linux = PACKAGING / "linux"
    share = [
        (linux / f"{APP_ID}.desktop", f"share/applications/{APP_ID}.desktop"),
        (linux / f"{APP_ID}.Open.desktop", f"share/applications/{APP_ID}.Open.desktop"),
        (linux / f"{APP_ID}.metainfo.xml", f"share/metainfo/{APP_ID}.metainfo.xml"),
        (linux / f"{APP_ID}.mime.xml", f"share/mime/packages/{APP_ID}.xml"),
        (linux / "icons", "share/icons"),
    ]
    tarball = dist / f"{name}.tar.gz"

    def clean(info: tarfile.TarInfo) -> tarfile.TarInfo:
        # Owned by nobody in particular, and readable by everyone: the archive is the same
        # whoever builds it.
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        return info

    with tarfile.open(tarball, "w:gz", compresslevel=6) as archive:
        archive.add(dist / "struggle-desktop", f"{name}/struggle-desktop", filter=clean)
        # The licences at the top, where someone who unpacks the tarball looks first.
        for top in (ROOT / "LICENSE", ROOT / "README.md", dist / "struggle-desktop" / NOTICES):
            archive.add(top, f"{name}/{top.name}", filter=clean)
        for script in ("install.sh", "uninstall.sh"):
            archive.add(linux / script, f"{name}/{script}", filter=clean)
        for source, target in share:
            archive.add(source, f"{name}/{target}", filter=clean)
    return tarball


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist",
                        help="where the bundle and the tarball go (default: dist/)")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "pyinstaller",
                        help="PyInstaller's working folder (default: build/pyinstaller)")
    args = parser.parse_args(argv)
    system = platform.system()
    if system not in SPECS:
        print(f"error: no bundle is defined for {system}", file=sys.stderr)
        return 2
    dist, work = args.dist.resolve(), args.work.resolve()
    # A bundle left from an earlier build would be mixed into this one's tarball.
    shutil.rmtree(dist / "struggle-desktop", ignore_errors=True)
    run_pyinstaller(SPECS[system], dist, work)
    bundle = dist / "struggle-desktop"
    strip_debug_info(bundle)
    shutil.copyfile(ROOT / "LICENSE", bundle / "LICENSE")
    try:
        write_notices(bundle, work, ROOT)
    except UncoveredError as error:
        print(f"error: the third-party notices cannot attribute: {error}", file=sys.stderr)
        return 1
    size = sum(path.stat().st_size for path in bundle.rglob("*") if path.is_file()
               and not path.is_symlink())
    print(f"bundle: {bundle} ({size / 2**20:.1f} MiB)")
    if system == "Linux":
        tarball = linux_tarball(dist)
        print(f"tarball: {tarball} ({tarball.stat().st_size / 2**20:.1f} MiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
