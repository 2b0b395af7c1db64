"""The bundle's third-party notices, made from what the bundle really holds.

``packaging/build.py`` calls ``write_notices`` after PyInstaller has made the bundle: it walks
the bundle and attributes every top-level entry of ``_internal/`` and every shared library
anywhere in it to a component, with its version, its licence and the licence's text:

* Python packages: the distribution that installed them in the building environment
  (``importlib.metadata``: name, version, licence, and the licence files of its
  ``.dist-info``); numpy's bundled OpenBLAS, Fortran and quadmath libraries by the ``Name:`` /
  ``Files:`` / ``License:`` blocks of numpy's own licence file;
* Qt, ICU, shiboken and PySide6 (LGPL-3.0) with what the LGPL asks of a program bundling Qt;
* Python's standard library, its extension modules and ``libpython`` (PSF licence);
* PyInstaller's bootloader and run-time modules (its licence with the bootloader exception);
* every other shared library by the Debian package that owns the file PyInstaller copied
  (``dpkg -S``), with the package's ``/usr/share/doc/PKG/copyright``.

Anything it cannot attribute stops the build with its name (``UncoveredError``), so a bundle
never ships with a library its notices leave out. The notices depend on the machine that
builds (its Debian packages, the releases pip installed), so they are written into the bundle
and the tarball only, not kept in the repository.
"""

from __future__ import annotations

import hashlib
import importlib.metadata as metadata
import json
import os
import platform
import re
import subprocess
import sys
import sysconfig
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path

NOTICES = "THIRD-PARTY-NOTICES.txt"
#: Where the spec records the source of every binary it collects (bundle path -> source file).
SOURCES = "bundle-sources.json"
LICENSES = Path(__file__).resolve().parent / "licenses"
SHARED_LIBRARY = re.compile(r"\.so(\.\d+)*$")
ITEM = "  - "          # how a covered bundle path is listed in the notices

QT_STATEMENT = """\
Qt and Qt for Python (PySide6, shiboken6) are used under the GNU Lesser General Public
License version 3 (LGPL-3.0); its text and the GNU GPL version 3 it builds on follow below.
What this means for you, and how this program meets the LGPL:

* The Qt and PySide6 libraries are separate shared libraries in this folder, loaded when the
  program starts; nothing of Qt is linked statically into the program.
  Qt:       _internal/PySide6/Qt/lib/libQt6*.so.6 and the plugins in _internal/PySide6/Qt/plugins
  PySide6:  _internal/PySide6/*.abi3.so, _internal/PySide6/libpyside6.abi3.so.*
  shiboken: _internal/shiboken6/*
* You may replace them with your own build of the same Qt / PySide6 version (modified or not):
  put your files in their place under the same names and start the program as before. The
  program does not check or prevent this.
* The source code of the Qt version used is available from https://download.qt.io/archive/qt/
  (and https://code.qt.io), and that of PySide6 and shiboken6 from
  https://download.qt.io/official_releases/QtForPython/ (and https://code.qt.io/pyside/pyside-setup).
  The program's own source code is at https://github.com/struggledesktop/struggle_desktop.
* Qt itself contains third-party code under other licences, listed at
  https://doc.qt.io/qt-6/licenses-used-in-qt.html.
"""


class UncoveredError(Exception):
    """Something in the bundle that the notices cannot attribute."""


@dataclass
class Component:
    name: str
    version: str
    licence: str
    origin: str
    items: set[str] = field(default_factory=set)        # bundle paths it covers
    texts: list[tuple[str, str]] = field(default_factory=list)   # (title, text)
    statement: str = ""


def bundle_items(bundle: Path) -> list[str]:
    """What the notices must cover: every top-level entry of the bundle and of ``_internal``
    (a package, a module, a library) and every shared library anywhere (links excepted: they
    name a covered file)."""
    internal = bundle / "_internal"
    items = {str(path.relative_to(bundle)) for path in bundle.iterdir()
             if path.name not in (NOTICES, "LICENSE") and path != internal}
    items |= {str(path.relative_to(bundle)) for path in internal.iterdir()
              if not path.is_symlink()}
    items |= {str(path.relative_to(bundle)) for path in internal.rglob("*")
              if SHARED_LIBRARY.search(path.name) and path.is_file() and not path.is_symlink()}
    return sorted(items)


def listed_items(notices: str) -> set[str]:
    """The bundle paths a notices text lists as covered."""
    return {line[len(ITEM):] for line in notices.splitlines() if line.startswith(ITEM)}


# --- Python distributions --------------------------------------------------------------------

def distribution_tops() -> dict[str, metadata.Distribution]:
    """Top-level file names (as the bundle has them: ``mod.py`` as ``mod.pyc``) -> the
    distribution that installed them."""
    tops: dict[str, metadata.Distribution] = {}
    for dist in metadata.distributions():
        if (dist.metadata["Name"] or "").lower().replace("_", "-") == "struggle-desktop":
            continue
        for file in dist.files or []:
            top = file.parts[0] if file.parts else ""
            if not top or top == "..":
                continue
            tops.setdefault(top, dist)
            if top.endswith(".py"):
                tops.setdefault(top[:-3] + ".pyc", dist)
    return tops


def distribution_licence(dist: metadata.Distribution) -> str:
    meta = dist.metadata
    if meta.get("License-Expression"):
        return meta["License-Expression"]
    if meta.get("License") and "\n" not in meta["License"].strip() and len(meta["License"]) < 80:
        return meta["License"].strip()
    kinds = [c.split("::")[-1].strip() for c in meta.get_all("Classifier") or []
             if c.startswith("License ::")]
    return ", ".join(kinds) or "as stated in its licence text below"


def distribution_texts(dist: metadata.Distribution) -> list[tuple[str, str]]:
    texts = []
    for file in dist.files or []:
        if ".dist-info" not in str(file):
            continue
        if "/licenses/" in str(file) or re.match(r"(LICEN[CS]E|COPYING|NOTICE|AUTHORS)",
                                                  file.name, re.I):
            texts.append((f"{dist.metadata['Name']}: {file.name}", file.read_text(encoding="utf-8")))
    return texts


def bundled_blocks(text: str) -> list[tuple[str, str, str]]:
    """The (name, files glob, licence) blocks a wheel's licence file gives for the libraries it
    vendors (numpy's and scipy's style).

    >>> bundled_blocks("Name: OpenBLAS\\nFiles: numpy.libs/libscipy_openblas*.so\\n"
    ...                "Description: x\\nLicense: BSD-3-Clause\\n")
    [('OpenBLAS', 'numpy.libs/libscipy_openblas*.so', 'BSD-3-Clause')]
    """
    found = []
    for block in re.split(r"\n\s*\n|\n----", text):
        fields = dict(re.findall(r"^(Name|Files|License): *(.+)$", block, re.M))
        if {"Name", "Files", "License"} <= set(fields):
            found.append((fields["Name"].strip(), fields["Files"].strip(),
                          fields["License"].strip()))
    return found


# --- system libraries ------------------------------------------------------------------------

def merged_usr_variants(path: str) -> list[str]:
    """A file's names with and without /usr (Debian's merged /usr: dpkg knows one of them)."""
    real = os.path.realpath(path)
    names = []
    for name in (path, real):
        names.append(name)
        if name.startswith("/usr/lib/"):
            names.append(name[len("/usr"):])
        elif name.startswith("/lib"):
            names.append("/usr" + name)
    return list(dict.fromkeys(names))


def debian_owners(paths: list[str]) -> dict[str, str]:
    """source path -> the Debian package that installed it (those dpkg knows)."""
    candidates = {name: path for path in paths for name in merged_usr_variants(path)}
    if not candidates or not _has("dpkg"):
        return {}
    done = subprocess.run(["dpkg", "-S", *candidates], capture_output=True, text=True)
    owners = {}
    for line in done.stdout.splitlines():
        package, _, name = line.partition(": ")
        if name in candidates and "," not in package:
            owners.setdefault(candidates[name], package.split(":")[0])
    return owners


def debian_licence(copyright_text: str) -> str:
    """The licences a machine-readable Debian copyright file names for the program's files
    (the packaging's own ``debian/*`` paragraph left out)."""
    names = []
    for paragraph in re.split(r"\n\s*\n", copyright_text):
        files = re.search(r"^Files:\s*(.+)$", paragraph, re.M)
        licence = re.search(r"^License:\s*(.+)$", paragraph, re.M)
        if files and licence and not files[1].strip().startswith("debian/"):
            names.append(licence[1].strip())
    return ", ".join(dict.fromkeys(names)) or "as stated in its copyright file below"


def _has(command: str) -> bool:
    from shutil import which
    return which(command) is not None


# --- the whole -------------------------------------------------------------------------------

def python_licence_text() -> str:
    for candidate in (Path(sysconfig.get_paths()["stdlib"]) / "LICENSE.txt",
                      Path(sys.base_prefix) / "lib" / f"python{sys.version_info[0]}."
                      f"{sys.version_info[1]}" / "LICENSE.txt"):
        if candidate.is_file():
            return candidate.read_text(encoding="utf-8")
    for package in (f"libpython{sys.version_info[0]}.{sys.version_info[1]}",
                    f"libpython{sys.version_info[0]}.{sys.version_info[1]}-minimal"):
        copyright_file = Path("/usr/share/doc") / package / "copyright"
        if copyright_file.is_file():
            return copyright_file.read_text(encoding="utf-8")
    raise UncoveredError("Python's licence text (LICENSE.txt of the standard library)")


def collect(bundle: Path, sources: dict[str, str], root: Path) -> list[Component]:
    """Every component of ``bundle``, each with the bundle paths it covers; raises
    UncoveredError naming what it cannot attribute."""
    items = bundle_items(bundle)
    tops = distribution_tops()
    components: dict[str, Component] = {}

    def component(key: str, **fields) -> Component:
        if key not in components:
            components[key] = Component(**fields)
        return components[key]

    program = component("program", name="Struggle Desktop (this program)",
                        version=_program_version(root), licence="MIT",
                        origin="this project; its data includes the DejaVu fonts",
                        texts=[("Struggle Desktop: LICENSE", (root / "LICENSE").read_text()),
                               ("DejaVu fonts", (root / "assets" / "fonts" /
                                                 "DejaVu-LICENSE.txt").read_text())])
    python = component("python", name="Python", version=platform.python_version(),
                       licence="PSF-2.0", origin="the Python that built the bundle: its "
                       "standard library, extension modules and libpython",
                       texts=[("Python: LICENSE", python_licence_text())])
    installer = component("pyinstaller", name="PyInstaller bootloader and run-time modules",
                          version=metadata.version("pyinstaller"),
                          licence="GPL-2.0-or-later WITH Bootloader-exception; Apache-2.0 "
                                  "(run-time hooks and modules)",
                          origin="PyInstaller, which made this bundle",
                          texts=distribution_texts(metadata.distribution("pyinstaller")))
    qt_version = metadata.version("PySide6-Essentials")
    lgpl = [("GNU LGPL version 3", (LICENSES / "LGPL-3.0.txt").read_text()),
            ("GNU GPL version 3", (LICENSES / "GPL-3.0.txt").read_text())]

    system_libraries = [item for item in items if item.count("/") == 1
                        and SHARED_LIBRARY.search(item) and not _python_library(item)]
    owners = debian_owners([sources[item.split("/", 1)[1]] for item in system_libraries
                            if item.split("/", 1)[1] in sources])
    uncovered = []
    for item in items:
        inside = item.split("/", 1)[1] if item.startswith("_internal/") else None
        name = Path(item).name
        if inside is None:
            target = installer if name == "struggle-desktop" else None
        elif _python_library(item) or inside.startswith("_sysconfigdata") or inside.split("/")[0] == f"python{sys.version_info[0]}." \
                f"{sys.version_info[1]}" or inside.split(".")[0] in sys.stdlib_module_names \
                and inside.split("/")[0] not in tops:
            target = python
        elif inside.split("/")[0] == "struggle_desktop":
            target = program
        elif inside.startswith(("_pyi_rth_utils", "pyi_")):
            target = installer
        elif name.startswith("libQt6") or "/Qt/plugins/" in inside:
            target = component("qt", name="Qt", version=qt_version, licence="LGPL-3.0-only",
                               origin="the Qt libraries of the PySide6-Essentials wheel",
                               texts=lgpl, statement=QT_STATEMENT)
        elif name.startswith("libicu"):
            target = component("icu", name="ICU", version=name.rsplit(".so.", 1)[-1],
                               licence="Unicode-3.0", origin="the PySide6-Essentials wheel "
                               "(Qt's ICU build)", texts=[
                                   ("ICU", (LICENSES / "ICU-Unicode-3.0.txt").read_text()),
                                   ("ICU: third-party notices",
                                    (LICENSES / "ICU-third-party.txt").read_text())])
        elif inside.split("/")[0] in tops:
            dist = tops[inside.split("/")[0]]
            target = _vendored(dist, inside, component) or component(
                f"dist:{dist.metadata['Name']}", name=dist.metadata["Name"],
                version=dist.version, licence=distribution_licence(dist),
                origin="Python package (PyPI)", texts=distribution_texts(dist))
            if dist.metadata["Name"].lower().replace("_", "-") in ("pyside6-essentials",
                                                                   "shiboken6") \
                    and not target.texts:
                target.texts = lgpl
        elif inside in system_libraries or item in system_libraries:
            source = sources.get(inside)
            package = owners.get(source) if source else None
            target = None
            if package:
                copyright_file = Path("/usr/share/doc") / package / "copyright"
                text = copyright_file.read_text(encoding="utf-8", errors="replace") \
                    if copyright_file.is_file() else ""
                if text:
                    target = component(f"deb:{package}", name=package,
                                       version=_debian_version(package),
                                       licence=debian_licence(text),
                                       origin=f"Debian package {package} (copied from {Path(source).parent})",
                                       texts=[(f"{package}: /usr/share/doc/{package}/copyright", text)])
        else:
            target = None
        if target is None:
            uncovered.append(item)
        else:
            target.items.add(item)
    if uncovered:
        raise UncoveredError(", ".join(uncovered))
    return [c for c in components.values() if c.items]


def _python_library(item: str) -> bool:
    return Path(item).name.startswith("libpython")


def _vendored(dist, inside: str, component) -> Component | None:
    """The library a wheel vendors (numpy.libs/...), by the blocks of its licence file."""
    for title, text in distribution_texts(dist):
        for name, pattern, licence in bundled_blocks(text):
            if fnmatch(inside, pattern) or fnmatch(inside, pattern + ".*") \
                    or fnmatch(inside, pattern.replace(".so", "*.so*")):
                return component(f"vendored:{name}", name=name, version="as bundled by "
                                 f"{dist.metadata['Name']} {dist.version}", licence=licence,
                                 origin=f"bundled in the {dist.metadata['Name']} wheel; its text "
                                        f"is in {title}", texts=[(title, text)])
    return None


def _debian_version(package: str) -> str:
    done = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True,
                          text=True)
    return done.stdout.strip() or "?"


def _program_version(root: Path) -> str:
    match = re.search(r'__version__\s*=\s*"([^"]+)"',
                      (root / "struggle_desktop" / "__init__.py").read_text())
    return match[1] if match else "?"


def render(components: list[Component]) -> str:
    texts: dict[str, tuple[str, str]] = {}
    lines = ["Third-party notices of Struggle Desktop (the self-contained Linux program)", "",
             "This folder holds the program and everything it needs to run: the components "
             "below, each",
             "with the files of this folder it covers, its licence and where it comes from. "
             "The licence",
             "texts follow at the end. This file is generated when the bundle is built "
             "(packaging/notices.py).", ""]
    order = sorted(components, key=lambda c: (c.name != "Struggle Desktop (this program)",
                                               c.name.lower()))
    for number, part in enumerate(order, 1):
        refs = []
        for title, text in part.texts:
            key = hashlib.sha256(text.encode()).hexdigest()
            if key not in texts:
                texts[key] = (f"T{len(texts) + 1}", title, text)
            refs.append(texts[key][0])
        lines += [f"== {number}. {part.name} {part.version}",
                  f"Licence: {part.licence}",
                  f"From: {part.origin}",
                  f"Licence texts: {', '.join(refs) if refs else 'none shipped'}"]
        if part.statement:
            lines += ["", part.statement.rstrip()]
        lines += ["Files in this folder:"] + [ITEM + item for item in sorted(part.items)] + [""]
    lines += ["", "== Licence texts", ""]
    for ref, title, text in texts.values():
        lines += [f"--- [{ref}] {title}", "", text.rstrip(), ""]
    return "\n".join(lines) + "\n"


def write_notices(bundle: Path, work: Path, root: Path) -> Path:
    """Write NOTICES into ``bundle`` from what it holds (``work`` has the spec's source list)."""
    # PyInstaller's work folder has a folder per spec; the spec writes the list in its own.
    sources_file = next(work.rglob(SOURCES), None)
    sources = json.loads(sources_file.read_text()) if sources_file else {}
    text = render(collect(bundle, sources, root))
    target = bundle / NOTICES
    target.write_text(text, encoding="utf-8")
    return target
