"""Strategy readouts against OpenSpiel's closed-form Kuhn family."""

import pyspiel
import pytest

from spiel_ext import eval as se


@pytest.mark.parametrize("alpha", [0.0, 0.1, 0.2, 1 / 3])
def test_kuhn_alpha_reads_openspiels_optimal_family(alpha):
  game = pyspiel.load_game("kuhn_poker")
  policy = pyspiel.kuhn_poker.get_optimal_policy(alpha)
  assert se.kuhn_alpha(game, policy) == pytest.approx(alpha, abs=1e-12)
  # The family is an equilibrium family: NashConv 0 (a sanity check that
  # the policy was read as OpenSpiel defines it).
  assert se.nash_conv(game, policy) == pytest.approx(0.0, abs=1e-12)


def test_action_probability_names_a_bad_infoset():
  with pytest.raises(ValueError, match="infoset_key"):
    se.action_probability("kuhn_poker", pyspiel.UniformRandomPolicy(
        pyspiel.load_game("kuhn_poker")), "9", "Bet")
