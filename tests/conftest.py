"""Test-wide settings: Qt runs offscreen, and user folders point into a temporary place."""

import os

# Must be set before any QApplication exists; without a display pytest would abort.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _private_user_folders(tmp_path_factory, monkeypatch):
    """Keep tests away from the real user's config, overrides and autosaves."""
    home = tmp_path_factory.mktemp("user-home")
    monkeypatch.setenv("STRUGGLE_DESKTOP_HOME", str(home))
    yield


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """The Struggle game, its data loaded with private user folders (no real overrides)."""
    from struggle_desktop.games import get_game

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("STRUGGLE_DESKTOP_HOME", str(tmp_path_factory.mktemp("home")))
        struggle = get_game("struggle")
        struggle.data_digest()
    return struggle
