"""Fixtures the tests share. The run-wide settings (Qt offscreen, private user folders) are in
the ``conftest.py`` at the top of the repository, which the doctests need too."""

import pytest


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """The Struggle game, its data loaded with private user folders (no real overrides)."""
    from struggle_desktop.games import get_game

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("STRUGGLE_DESKTOP_HOME", str(tmp_path_factory.mktemp("home")))
        struggle = get_game("struggle")
        struggle.data_digest()
    return struggle
