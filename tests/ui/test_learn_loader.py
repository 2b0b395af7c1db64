"""Learn to Play's guides are data read through the checked loader: every shipped guide loads,
its game and scenario exist, and a damaged or hand-edited guide gives one short DataError
line naming the file (never a traceback, never a half-read guide)."""

from __future__ import annotations

import pytest

from struggle_desktop.engine.errors import DataError
from struggle_desktop.games import get_game
from struggle_desktop.ui.learn.loader import available_guides, load_guide

GOOD = """\
id: tiny
game: struggle
title: A tiny guide
scenario: "1"
seed: 3
steps:
  - id: one
    target: {widget: map-view}
    text: Look at the map.
    rules: [SGE-SEQ-1]
    until: next
  - id: two
    target: {sector: 1}
    text: Place a fleet.
    until: {action: {verb: place, unit: AF-05, at: 1}}
    hint: On the Core.
"""


def test_every_shipped_guide_loads_for_a_real_game_and_scenario():
    guides = available_guides()
    assert "struggle" in {g.game for g in guides}
    for guide in guides:
        game = get_game(guide.game)
        assert guide.scenario in {s["id"] for s in game.scenarios()}
        assert guide.steps[-1].wanted is None       # the last step ends with Finish


def test_a_good_guide_reads_into_steps(tmp_path):
    path = tmp_path / "tiny.yaml"
    path.write_text(GOOD)
    guide = load_guide(path)
    assert [s.id for s in guide.steps] == ["one", "two"]
    assert guide.steps[0].wanted is None
    two = guide.steps[1]
    assert two.matches({"verb": "place", "unit": "AF-05", "at": 1, "extra": 0})
    assert not two.matches({"verb": "place", "unit": "AF-05", "at": 2})


def test_a_narrating_step_is_read_and_must_end_with_next(tmp_path):
    path = tmp_path / "tiny.yaml"
    path.write_text(GOOD.replace("    until: next\n", "    narrate: true\n    until: next\n"))
    assert [s.narrate for s in load_guide(path).steps] == [True, False]
    path.write_text(GOOD.replace("    hint: On the Core.",
                                 "    hint: On the Core.\n    narrate: true"))
    with pytest.raises(DataError) as caught:
        load_guide(path)
    assert "'two' narrates" in str(caught.value) and "until: next" in str(caught.value)


def test_a_step_may_have_words_for_the_window_its_action_opens(tmp_path):
    path = tmp_path / "tiny.yaml"
    path.write_text(GOOD.replace("    hint: On the Core.", "    hint: On the Core.\n"
                                 "    dialog: {widget: combat-dialog, text: The odds.}"))
    steps = load_guide(path).steps
    assert steps[0].dialog is None
    assert steps[1].dialog == {"widget": "combat-dialog", "text": "The odds."}


def test_guides_are_read_from_the_folder_given(tmp_path):
    """Learn to Play lists the guides of a folder (a test's, or the program's own)."""
    (tmp_path / "a.yaml").write_text(GOOD)
    (tmp_path / "b.yaml").write_text(GOOD.replace("id: tiny", "id: other"))
    assert [g.id for g in available_guides(tmp_path)] == ["tiny", "other"]


@pytest.mark.parametrize("change, words", [
    (("until: next", "until: maybe"), "until"),
    (("seed: 3", "seed: -1"), "seed"),
    (("{sector: 1}", "{sector: 1, widget: x}"), "target"),
    (("id: two", "id: one"), "used twice"),
    (("text: Look at the map.", "text: Look\n    colour: red"), "unexpected field"),
    (("rules: [SGE-SEQ-1]", "rules: [see page 3]"), "rules"),
    (("title: A tiny guide", "title: [a, b]"), "title"),
    (("    until: next", "    narrate: yes please\n    until: next"), "narrate"),
    (("    until: next", "    dialog: {widget: combat-dialog}\n    until: next"), "dialog"),
])
def test_a_damaged_guide_gives_one_line_naming_the_file(tmp_path, change, words):
    path = tmp_path / "bad.yaml"
    path.write_text(GOOD.replace(*change))
    with pytest.raises(DataError) as caught:
        load_guide(path)
    message = str(caught.value)
    assert "\n" not in message and str(path) in message and words in message


@pytest.mark.parametrize("text", ["[1, 2]", "a: [", "&a [*a, *a]", "x" * 3_000_000])
def test_a_file_that_is_no_guide_is_refused(tmp_path, text):
    path = tmp_path / "odd.yaml"
    path.write_text(text)
    with pytest.raises(DataError):
        load_guide(path)
