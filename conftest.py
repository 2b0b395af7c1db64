"""Settings for the whole test run, the tests and the doctests of ``struggle_desktop``
alike: Qt runs offscreen, and user folders point into a temporary place."""

import os

# Must be set before any QApplication exists; without a display pytest would abort.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _private_user_folders(tmp_path_factory, monkeypatch):
    """Keep tests and doctests away from the real user's config, overrides, autosaves and
    cache."""
    home = tmp_path_factory.mktemp("user-home")
    monkeypatch.setenv("STRUGGLE_DESKTOP_HOME", str(home))
    yield
