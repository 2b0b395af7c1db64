"""What goes into the PyInstaller bundles, shared by the Linux, Windows and macOS specs.

The specs ask PyInstaller for the program and its imports, then keep only the Qt plugins the
program uses (``keep_entry``): PyInstaller's Qt hooks bring every plugin of the imported Qt
modules, most of which (printing backends, extra image formats, platform themes, GL
integrations) the program never loads.

>>> keep_entry("PySide6/Qt/plugins/platforms/libqxcb.so", QT_PLUGINS)
True
>>> keep_entry("PySide6/Qt/plugins/imageformats/libqtiff.so", QT_PLUGINS)
False
>>> keep_entry("PySide6/Qt/translations/qtbase_de.qm", QT_PLUGINS)
False
>>> keep_entry("struggle_desktop/_data/assets/tables/combat.yaml", QT_PLUGINS)
True
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path

#: The program's desktop identity, the same on every system (the Linux files carry it in
#: their names; ``ui/app.DESKTOP_ID`` is the window's copy).
APP_ID = "io.github.struggledesktop.StruggleDesktop"
APP_NAME = "struggle_desktop"
#: Saved games: what the Linux MIME type (packaging/linux), the macOS document type and a
#: Windows file association describe.
SAVE_EXTENSION = "sgsave"
SAVE_MIME_TYPE = "application/x-struggle-desktop-save"
SAVE_TYPE_NAME = "struggle_desktop saved game"


def macos_info_plist(version: str) -> dict:
    """The Info.plist entries of the macOS app beyond PyInstaller's own: the version, and the
    saved-game document type, exported as a type of its own (conforming to JSON), so that the
    Finder opens a double-clicked save in the program (it arrives as a FileOpen event, which
    ``ui/app.listen_for_opened_files`` handles)."""
    return {
        "CFBundleName": APP_NAME,
        "CFBundleDisplayName": APP_NAME,
        "CFBundleShortVersionString": version,
        "CFBundleVersion": version,
        "NSHighResolutionCapable": True,
        "CFBundleDocumentTypes": [{
            "CFBundleTypeName": SAVE_TYPE_NAME,
            "CFBundleTypeRole": "Editor",
            "LSHandlerRank": "Owner",
            "LSItemContentTypes": [f"{APP_ID}.save"],
        }],
        "UTExportedTypeDeclarations": [{
            "UTTypeIdentifier": f"{APP_ID}.save",
            "UTTypeDescription": SAVE_TYPE_NAME,
            "UTTypeConformsTo": ["public.json", "public.data"],
            "UTTypeTagSpecification": {
                "public.filename-extension": [SAVE_EXTENSION],
                "public.mime-type": [SAVE_MIME_TYPE],
            },
        }],
    }


#: Qt plugins by folder: the file stems the program uses (``None``: every plugin of the folder).
#: - platforms: xcb (X11), wayland, offscreen (``render`` and the tests); the Windows and macOS
#:   platform plugins for those bundles;
#: - platforminputcontexts: compose keys and input methods typed into name and filter boxes;
#: - imageformats: PNG is built into Qt; SVG for the icon, JPEG for pictures players export;
#: - iconengines: the SVG icon engine (the window icon);
#: - wayland-*: the pieces the wayland platform plugin loads.
QT_PLUGINS: dict[str, set[str] | None] = {
    "platforms": {"libqxcb", "libqoffscreen", "libqwayland", "libqwayland-generic",
                  "libqwayland-egl", "qwindows", "qoffscreen", "libqcocoa"},
    "platforms/darwin": None,
    "platforminputcontexts": None,
    "imageformats": {"libqsvg", "libqjpeg", "qsvg", "qjpeg"},
    "iconengines": {"libqsvgicon", "qsvgicon"},
    "xcbglintegrations": None,
    "wayland-decoration-client": None,
    "wayland-graphics-integration-client": None,
    "wayland-shell-integration": None,
    "styles": {"qmodernwindowsstyle", "qwindowsvistastyle", "libqmacstyle"},
}

#: Modules the program never imports that optional imports of its libraries would pull in
#: (networkx tries scipy, pandas and matplotlib; pyqtgraph's OpenGL and other Qt bindings; the
#: test tools sit in the same environment when the suite builds the bundle). numpy, QtOpenGL
#: and QtOpenGLWidgets stay: pyqtgraph imports them to draw the charts.
EXCLUDED_MODULES = [
    "tkinter", "scipy", "pandas", "matplotlib", "PIL", "IPython", "sympy", "lxml",
    "pytest", "_pytest", "hypothesis", "pytestqt", "importlinter", "grimp", "shapely",
    "setuptools", "pkg_resources", "pip", "PyInstaller", "hatchling", "pydot", "pygraphviz",
    # jsonschema would fetch remote schemas with requests; the program's schemas are local
    "requests", "urllib3", "cryptography", "OpenSSL", "certifi", "charset_normalizer",
    "PySide6.QtNetwork", "PySide6.QtDBus", "PySide6.QtQml",
    "PySide6.QtQuick", "PySide6.QtPrintSupport", "PySide6.QtTest", "PySide6.QtSql",
    "PySide6.QtXml", "PySide6.QtConcurrent",
    "OpenGL", "PyQt5", "PyQt6", "PySide2", "pyqtgraph.opengl", "pyqtgraph.examples",
    "pyqtgraph.jupyter", "cupy", "h5py", "colorcet",
    # Reached only from code the program never runs: numpy's lazily loaded test and Fortran
    # tools (numpy.testing brings unittest and doctest), the debugger, the help system's
    # topic texts (pydoc itself stays: pyqtgraph imports it through parametertree when the
    # charts load) and the interactive console's line editing (readline, which would bring
    # GPL-3 libreadline). tests/packaging/test_bundle.py runs every command of the bundle.
    "numpy.f2py", "numpy.testing", "unittest", "doctest", "pdb", "bdb", "pydoc_data",
    "readline",
    # The [cluster] extra: balance studies on a Dask cluster, from the command line of an
    # installed package; the player's bundle has no use for it (its --cluster says which
    # extra to install). Analysed, it also drew in the distribution's sitecustomize.
    "dask", "distributed",
]

_PLUGIN_PATH = re.compile(r"(?:^|/)Qt\d?/plugins/(?P<folder>.+)/(?P<name>[^/]+)$")
_TRANSLATION_PATH = re.compile(r"(?:^|/)Qt\d?/translations/")


def keep_entry(destination: str, plugins: dict[str, set[str] | None]) -> bool:
    """Whether a file PyInstaller collected (by its place in the bundle) stays in it: Qt
    plugins only when ``plugins`` lists them, Qt's own translations never (the program's
    texts are English and it shows no Qt dialog text that needs them); everything else stays."""
    destination = destination.replace("\\", "/")
    if _TRANSLATION_PATH.search(destination):
        return False
    match = _PLUGIN_PATH.search(destination)
    if match is None:
        return True
    folder = match["folder"]
    if folder not in plugins:
        return False
    wanted = plugins[folder]
    stem = match["name"].split(".")[0]
    return wanted is None or stem in wanted


def analysis_arguments(root: Path) -> dict:
    """What every spec asks PyInstaller's ``Analysis`` for: the same program on each system.
    Every module of the program goes in, since screens, dialogs and games are imported by name
    at run time; ``optimize=0`` keeps asserts and docstrings, as in the program the tests ran.
    ``noarchive`` keeps the compiled modules as files instead of one compressed archive: 9 MiB
    more, and a warm start 0.15 s faster (0.36 s against 0.51 s, benchmarks/bench_bundle_start.py)."""
    from PyInstaller.utils.hooks import collect_submodules

    return {
        "scripts": [str(root / "packaging" / "entry.py")],
        "pathex": [str(root)],
        "datas": data_folders(root),
        "hiddenimports": collect_submodules("struggle_desktop") + ["PySide6.QtSvg"],
        "excludes": EXCLUDED_MODULES,
        "noarchive": True,
        "optimize": 0,
    }


def without_unused_qt_files(analysis) -> None:
    """Drop from a finished ``Analysis`` the Qt plugins and translations ``keep_entry`` turns
    away."""
    analysis.binaries = [entry for entry in analysis.binaries if keep_entry(entry[0], QT_PLUGINS)]
    analysis.datas = [entry for entry in analysis.datas if keep_entry(entry[0], QT_PLUGINS)]


def data_folders(root: Path) -> list[tuple[str, str]]:
    """(source, destination) pairs: the package's own data files (the games' schemas), and the
    data folders where ``engine/paths.data_root`` looks in an installed package, as the wheel
    carries them (pyproject.toml's force-include)."""
    package = root / "struggle_desktop"
    own = [(str(path), str(path.parent.relative_to(root)).replace("\\", "/"))
           for path in sorted(package.rglob("*"))
           if path.is_file() and path.suffix not in {".py", ".pyc"} and "__pycache__" not in path.parts]
    target = "struggle_desktop/_data"
    return own + [
        (str(root / "assets"), f"{target}/assets"),
        (str(root / "scenarios"), f"{target}/scenarios"),
        (str(root / "docs" / "playing.md"), f"{target}/docs"),
    ] + [(str(root / "docs" / picture), f"{target}/docs/screenshots")
         for picture in guide_pictures((root / "docs" / "playing.md").read_text(encoding="utf-8"))]


def guide_pictures(guide: str) -> list[str]:
    """The screenshots the player's guide shows (the Help window reads only those; the other
    pictures of docs/screenshots are for the README and the software centres).

    >>> guide_pictures("text ![A window](screenshots/a.png) and ![B](screenshots/b.png)")
    ['screenshots/a.png', 'screenshots/b.png']
    """
    return sorted(set(re.findall(r"!\[[^\]]*\]\((screenshots/[^)\s]+)\)", guide)))



def needed_binaries(binaries: list[tuple], imports_of) -> list[tuple]:
    """The binaries of ``binaries`` (PyInstaller TOC entries: destination, source, kind) that
    something kept loads: Python's extension modules, the kept Qt plugins and Python itself, and
    every library those link to, followed to the end. Libraries that only a dropped plugin
    linked to (the GTK theme plugin alone brings GTK, cairo and GLib) go with it.

    ``imports_of(source)`` names the libraries a file links to (from PyInstaller's
    ``bindepend.get_imports``).

    >>> links = {"ext.so": {"libqt.so"}, "libqt.so": {"libicu.so"}, "libicu.so": set(),
    ...          "libgtk.so": set()}
    >>> toc = [("ext.so", "ext.so", "EXTENSION"), ("libqt.so", "libqt.so", "BINARY"),
    ...        ("libicu.so", "libicu.so", "BINARY"), ("libgtk.so", "libgtk.so", "BINARY")]
    >>> [entry[0] for entry in needed_binaries(toc, lambda source: links[source])]
    ['ext.so', 'libqt.so', 'libicu.so']
    """
    by_name: dict[str, list[tuple]] = {}
    for entry in binaries:
        by_name.setdefault(Path(entry[0]).name, []).append(entry)
    roots = [entry for entry in binaries
             if entry[2] == "EXTENSION" or _PLUGIN_PATH.search(entry[0].replace("\\", "/"))
             or Path(entry[0]).name.startswith(("libpython", "python3"))]
    kept: set[str] = set()
    waiting = [entry[1] for entry in roots]
    seen: set[str] = set()
    while waiting:
        source = waiting.pop()
        if source in seen:
            continue
        seen.add(source)
        for name in imports_of(source):
            name = Path(name).name
            for entry in by_name.get(name, []):
                kept.add(entry[0])
                waiting.append(entry[1])
    return [entry for entry in binaries if entry in roots or entry[0] in kept]


def without_dangling_links(entries: list[tuple], present: set[str]) -> list[tuple]:
    """``entries`` less the symbolic links (PyInstaller's SYMLINK entries, whose source is the
    link's target relative to its folder) to files that are not in the bundle any more.

    >>> without_dangling_links([("libQt6Network.so.6", "PySide6/Qt/lib/libQt6Network.so.6",
    ...                          "SYMLINK"), ("a.so", "/usr/lib/a.so", "BINARY")], {"a.so"})
    [('a.so', '/usr/lib/a.so', 'BINARY')]
    """
    def target(entry: tuple) -> str:
        return posixpath.normpath(posixpath.join(posixpath.dirname(entry[0]), entry[1]))

    return [entry for entry in entries if entry[2] != "SYMLINK" or target(entry) in present]


def record_sources(binaries: list[tuple], work: Path) -> None:
    """Write ``work/bundle-sources.json``: each binary's place in the bundle -> the file it
    was copied from, which packaging/notices.py traces to the package that installed it."""
    work.mkdir(parents=True, exist_ok=True)
    sources = {entry[0]: entry[1] for entry in binaries if entry[2] != "SYMLINK"}
    (work / "bundle-sources.json").write_text(json.dumps(sources, indent=1, sort_keys=True))
