"""Paper-scale cross-checks (run with `python -m pytest -m slow`)."""

import pyspiel
import pytest

from spiel_ext import eval as se
from spiel_ext.engine import compile_game

HOLDEM = ("universal_poker(betting=limit,numPlayers=2,blind=1 1,stack=50 50,"
          "numHoleCards=1,numRounds=3,firstPlayer=1 1 1,numSuits=2,numRanks=4,"
          "numBoardCards=0 1 1,raiseSize=2 4 4,maxRaises=2 2 2)")


@pytest.mark.slow
def test_holdem_nash_conv_matches_openspiel_cpp():
  game = pyspiel.load_game(HOLDEM)
  tree = compile_game(game)
  assert tree.num_histories == 656049
  reference = pyspiel.nash_conv(game, pyspiel.UniformRandomPolicy(game))
  assert se.nash_conv(tree, tree.uniform_policy()) == pytest.approx(
      reference, abs=1e-9)


@pytest.mark.slow
def test_three_player_leduc_compiles():
  tree = compile_game("leduc_poker(players=3)")
  assert tree.num_histories == 1831601
  assert tree.perfect_recall
  values = tree.root_values(tree.uniform_policy())
  assert values.sum() == pytest.approx(0.0, abs=1e-9)


@pytest.mark.slow
def test_three_player_spiel_ext_leduc_equals_openspiel():
  import spiel_ext.games  # pylint: disable=g-import-not-at-top,unused-import
  ours = compile_game("spiel_ext_leduc(players=3,ranks=4)")
  reference = compile_game("leduc_poker(players=3)")
  assert ours.num_histories == reference.num_histories == 1831601
  assert ours.num_infosets == reference.num_infosets
  import numpy as np  # pylint: disable=g-import-not-at-top
  np.testing.assert_allclose(ours.root_values(ours.uniform_policy()),
                             reference.root_values(reference.uniform_policy()),
                             atol=1e-12)


@pytest.mark.slow
def test_vnm_raise_lp_with_200_hands():
  from open_spiel.python.algorithms import sequence_form_lp  # pylint: disable=g-import-not-at-top
  import spiel_ext.games  # pylint: disable=g-import-not-at-top,unused-import
  value = sequence_form_lp.solve_zero_sum_game(
      pyspiel.load_game("spiel_ext_vnm_poker(hands=200)"))[0]
  assert abs(value + 88 / 1083) < 0.002
