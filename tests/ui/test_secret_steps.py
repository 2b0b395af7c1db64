"""Another side's secret steps cannot be counted at the screen (BFG-HID-2, BFG-HID-3,
BFG-HID-4, NH-SIM-2; ARCHITECTURE.md section 5): where several people share a game, the
timeline ("Moment k of N"), the looking-back title, Alt+Left/Alt+Right and the log's "Go to
This Moment" move over moments every seat may see, and the Hint draws its randomness from
what the seated player may know.

Each test plays twin games that differ only in the other side's secret steps (Red moves a
fleet twice more while planning its deployment; a house declares a sacrifice or nothing) and
compares what the person seated next is shown. Before the timeline moved over such moments
and the hint was seeded from the seat's view, each of these tests failed.
"""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.engine.timeline import Timeline
from struggle_desktop.games import get_game
from struggle_desktop.ui.battles.window import BattlesWindow
from tests.ui.helpers import save_before_two_people_declare, window_maker

TWO_PEOPLE = {"blue_player": "human", "red_player": "human"}


def to_red_deployment(seed: int = 5) -> Session:
    """A two-person Civil War played by the program's player up to Red's secret deployment
    (BFG-HID-3: the plan is hidden until both have made theirs)."""
    session = Session.new(get_game("battles"), "civil-war", seed, TWO_PEOPLE)
    rng = Rng.from_seed(4, stream=99)
    while not (session.state["pending"]["kind"] == "deploy"
               and session.state["pending"]["role"] == "red"):
        role = session.state["pending"]["role"]
        session.perform(role, session.choose(role, "bot", rng))
    return session


def red_plans(session: Session, detours: int) -> list[dict]:
    """Red's deployment answers: ``detours`` extra moves of its first fleet, then the plan
    the program's player makes (which places that fleet where it ends)."""
    game = session.game
    fleet = game.legal_actions(session.state, "red")[0]["fleet"]
    answers = [{"verb": "assign", "fleet": fleet, "region": 1 + (d % 2)}
               for d in range(detours)]
    probe = Session(game, session.scenario, session.seed, dict(session.options),
                    session.state, list(session.actions), [])
    for answer in answers:
        probe.perform("red", answer)
    rng = Rng.from_seed(1, stream=99)
    while probe.state["pending"]["role"] == "red":
        answer = probe.choose("red", "bot", rng)
        answers.append(answer)
        probe.perform("red", answer)
    return answers


def twin_windows(make, detours_each=(0, 2)) -> list[BattlesWindow]:
    """Two windows of the same two-person game, Blue seated after Red's deployment, which
    took Red a few answers more in the second."""
    base = to_red_deployment()
    windows = []
    for detours in detours_each:
        win = make()
        session = Session(base.game, base.scenario, base.seed, dict(base.options),
                          base.state, list(base.actions), list(base.digests))
        for answer in red_plans(base, detours):
            session.perform("red", answer)
        win.document.install_session(session)
        for _ in range(3):
            QApplication.processEvents()
            if win.overlay.isVisible():
                win.take_seat()
        assert win.document.seat == "blue" and not win.overlay.isVisible()
        windows.append(win)
    lengths = [w.document.history_length for w in windows]
    assert lengths[1] == lengths[0] + detours_each[1] - detours_each[0]
    return windows


@pytest.fixture
def make(qtbot):
    def stop(win):
        win.program.paused = True
    maker = window_maker(qtbot, BattlesWindow, before_close=stop)
    yield next(maker)
    next(maker, None)


def seen(win: BattlesWindow) -> dict:
    """What Blue is shown of the timeline and of the moment on show."""
    bar = win.timeline_bar
    return {"title": win.windowTitle(), "where": bar.where.text(),
            "keys": [a.isEnabled() for a in (win.act_step_back, win.act_step_forward)],
            "slider": (bar.slider.minimum(), bar.slider.maximum(), bar.slider.value()),
            "board": win.document.board, "log": win.document.log_entries(0)}


def test_the_timeline_does_not_count_the_other_sides_planning(make):
    """BFG-HID-3/BFG-HID-4: Blue, seated after Red's secret deployment, sees the same timeline
    whether Red's plan took 11 answers or 13, and steps back over it in as many steps."""
    plain, detour = twin_windows(make)
    for win in (plain, detour):
        win.act_timeline_bar.trigger()          # Timeline > Show Timeline Bar
    assert seen(plain) == seen(detour)
    assert plain.timeline_bar.where.text().startswith("Moment ")
    steps = 0
    while plain.act_step_back.isEnabled() and steps < 400:
        plain.act_step_back.trigger()           # Alt+Left
        detour.act_step_back.trigger()
        steps += 1
        assert seen(plain) == seen(detour), f"after {steps} steps back"
    assert 10 < steps < 400 and plain.document.position == 0
    while plain.document.looking_back:
        plain.act_step_forward.trigger()        # Alt+Right
        detour.act_step_forward.trigger()
        assert seen(plain) == seen(detour)
    assert not detour.document.looking_back


def test_a_log_entry_leads_to_the_same_moment_in_both_twins(make):
    """Go to This Moment on the entry that says Red has deployed lands on a moment every seat
    may see, the same in both twins, never inside Red's planning."""
    plain, detour = twin_windows(make)
    for win in (plain, detour):
        entries = win.document.log_entries(0)
        win.document.look_at(win.document.moment_of_log_entry(len(entries) - 1))
    assert plain.document.looking_back and seen(plain) == seen(detour)


def test_the_hint_draws_from_what_the_seat_knows(make, monkeypatch):
    """A hint that draws its choice at random draws the same one in both twins: its
    generator is seeded from Blue's view, not from the number of actions (which counts Red's
    secret answers)."""
    plain, detour = twin_windows(make)
    game = plain.document.game
    monkeypatch.setattr(game, "hint_policy", "random", raising=False)
    hints = [(plain.document.hint(), detour.document.hint())]
    # And on: the same answers of Blue's own, the same hint at every step.
    for _ in range(5):
        answer = hints[-1][0]
        assert plain.document.perform(answer).ok and detour.document.perform(answer).ok
        if plain.document.waiting_role != "blue":
            break
        hints.append((plain.document.hint(), detour.document.hint()))
    assert all(a == b for a, b in hints), hints
    assert len(game.legal_actions(plain.document.state, "blue")) > 1 or len(hints) > 1


def test_one_person_against_the_program_keeps_every_action():
    """Against the program, the timeline still moves action by action (one person's screen
    may count the program's steps as it always could)."""
    session = to_red_deployment()
    session.state["seats"] = {"blue": "human", "red": "bot"}
    timeline = Timeline.of(session, shared=False)
    assert timeline.shown() == list(range(len(session.actions) + 1))


def test_moments_every_seat_may_see_hide_a_houses_declaration(tmp_path):
    """NH-SIM-2: in a two-person Noble Houses fight, the timeline has as many moments whether
    the house asked declared a sacrifice before finishing or finished at once (seed 6, played
    on at random to the first sacrifice with a choice of units)."""
    base = save_before_two_people_declare(tmp_path / "fight.sgsave")
    game = base.game
    session = Session(game, base.scenario, base.seed, dict(base.options), base.state,
                      list(base.actions), [])
    rng = Rng.from_seed(1, stream=99)
    for _ in range(3000):
        pending = session.state["pending"]
        legal = game.legal_actions(session.state, pending["role"])
        if pending["kind"] == "sacrifice" and sum(a["verb"] == "sacrifice" for a in legal) >= 2:
            break
        busy = [a for a in legal if a["verb"] != "done"]
        session.perform(pending["role"], busy[rng.below(len(busy))] if busy and rng.below(3)
                        else legal[rng.below(len(legal))])
    house = session.state["pending"]["role"]
    unit = next(a for a in game.legal_actions(session.state, house) if a["verb"] == "sacrifice")
    twins = []
    for answers in ([{"verb": "done"}], [unit, {"verb": "done"}]):
        twin = Session(game, session.scenario, session.seed, dict(session.options),
                       session.state, list(session.actions), [])
        for answer in answers:
            twin.perform(house, answer)
        twins.append(twin)
    assert len(twins[1].actions) == len(twins[0].actions) + 1
    shown = [Timeline.of(t, shared=True).shown() for t in twins]
    assert len(shown[0]) == len(shown[1])
    assert shown[1][-1] == shown[0][-1] + 1      # the extra answer is inside the last moment


def test_freedoms_events_deck_offers_no_forecast_and_no_play_on(qtbot):
    """FIG-EVT: the events deck hides each side's hand from the other person, so, as in
    Battles and Noble Houses between people, the window offers neither a forecast (it would
    play on with both hands) nor playing on from the past; the Mission phase, which hides
    nothing, offers both."""
    from struggle_desktop.ui.freedom.window import FreedomWindow

    maker = window_maker(qtbot, FreedomWindow)
    make = next(maker)
    deck = make()
    assert deck.new_game("freedom", "c1", 3, {})
    assert deck.document.shared
    assert "Several people" in deck.forecast_refusal()
    assert "Several people" in deck.branch_refusal()
    mission = make()
    assert mission.new_game("freedom", "a3", 3, {})
    assert not mission.document.shared
    assert mission.forecast_refusal() is None and mission.branch_refusal() is None
    next(maker, None)
