"""The short version of the random-legal-action fuzzer (the long one is tools/fuzz.py).

Every scenario, optional rules all off and all on, a few seeds each: no exception, no dead end,
no runaway game, invariants after every action, and illegal actions refused without effect.
"""

import pytest

from struggle_desktop.engine.fuzz import fuzz_game
from struggle_desktop.games.struggle import GAME

SEEDS = range(3)


@pytest.mark.parametrize("options", [{}, {"all": "on"}], ids=["rules-off", "rules-on"])
@pytest.mark.parametrize("scenario", ["1", "2", "3", "4", "5", "6", "7"])
def test_random_play_keeps_every_invariant(scenario, options):
    """SGE-SEQ-1, SGE-SEQ-19, SGE-REC-6, SGE-RES-3, SGE-RES-10, SGE-CI-1:
    whole games of random legal play end cleanly with every counter conserved."""
    for seed in SEEDS:
        result = fuzz_game(GAME, scenario, seed, options, check_every=1)
        assert result.ok, "\n".join(result.problems[:5])
        assert result.outcome is not None
