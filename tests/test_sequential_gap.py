"""The perfect-Bayesian gap (BUFP paper's measure) by hand and against
OpenSpiel."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import best_response, expected_game_score

from conftest import random_strategy
from spiel_ext import eval as se
from spiel_ext.engine import compile_game
from spiel_ext.policy import to_tabular_policy


def test_kuhn_equilibria_by_hand():
  game = pyspiel.load_game("kuhn_poker")
  for alpha in (0.2, 1 / 3):
    gap = se.sequential_gap(game, pyspiel.kuhn_poker.get_optimal_policy(alpha))
    np.testing.assert_allclose(gap.gaps, 0.0, atol=1e-12)
  # alpha = 0: player 0 never bets first, so player 1 never faces a bet. With
  # the fallback belief (J or K equally likely), Q facing a bet should call
  # (value 0) but calls only 1/3 of the time (value -2/3): gap 2/3.
  gap = se.sequential_gap(game, pyspiel.kuhn_poker.get_optimal_policy(0.0))
  assert gap.gap_of("1b") == pytest.approx(2 / 3, abs=1e-12)
  assert gap.mean == pytest.approx(1 / 18, abs=1e-12)
  assert gap.max == pytest.approx(2 / 3, abs=1e-12)
  assert not gap.on_path[compile_game(game).key_to_infoset["1b"]]


@pytest.mark.parametrize("game_name", ["kuhn_poker", "leduc_poker"])
def test_reached_infosets_match_openspiel_best_response(game_name):
  """On reached infosets the gap is the belief-weighted difference of
  OpenSpiel's best-response values and the policy's values."""
  game = pyspiel.load_game(game_name)
  tree = compile_game(game)
  strategy = random_strategy(tree, np.random.default_rng(8))
  policy = to_tabular_policy(tree, strategy)
  gap = se.sequential_gap(game, policy)
  assert gap.on_path.all()
  rng = np.random.default_rng(0)
  for player in range(2):
    reference = best_response.BestResponsePolicy(game, player, policy)
    keys = list(reference.infosets)
    for key in rng.choice(keys, size=min(12, len(keys)), replace=False):
      entries = reference.infosets[key]
      total = sum(weight for _, weight in entries)
      expected = sum(
          weight / total * (reference.value(state) -
                            expected_game_score.policy_value(
                                state, [policy, policy])[player])
          for state, weight in entries)
      assert gap.gap_of(key) == pytest.approx(expected, abs=1e-9)
