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
