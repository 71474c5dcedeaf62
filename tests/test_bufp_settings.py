"""The BUFP paper's settings: BUFP(X) is XFP from full-support starts and
differs after the authors' first step of size 1; RLCard-style chance
sampling (one deal per traversal, the average only where the deal goes)."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import exploitability

from conftest import slow_cases
from spiel_ext.algorithms import (BUFPSolver, ChanceSampledCFRSolver,
                                  XFPSolver)
from spiel_ext.engine import compile_game


@pytest.mark.parametrize("game_name", slow_cases(["kuhn_poker", "leduc_poker"],
                                                 "leduc_poker"))
def test_bufp_x_is_xfp_from_a_random_full_support_start(game_name):
  game = pyspiel.load_game(game_name)
  bufp = BUFPSolver(game, stepsize="x", initial_policy="random", seed=4)
  xfp = XFPSolver(game, initial_policy="random", seed=4)
  for _ in range(15):
    bufp.iteration()
    xfp.iteration()
    np.testing.assert_array_equal(bufp.average_strategy(),
                                  xfp.average_strategy())
  # NashConv by OpenSpiel's own evaluator.
  assert exploitability.nash_conv(game, bufp.average_policy()) == (
      exploitability.nash_conv(game, xfp.average_policy()))


@pytest.mark.parametrize("game_name", slow_cases(["kuhn_poker", "leduc_poker"],
                                                 "leduc_poker"))
def test_first_step_one_makes_bufp_x_and_xfp_differ(game_name):
  game = pyspiel.load_game(game_name)
  options = dict(initial_policy="random", seed=4, first_step_one=True,
                 tie_break="even")
  bufp = BUFPSolver(game, stepsize="x", **options)
  xfp = XFPSolver(game, **options)
  differences = []
  for _ in range(10):
    bufp.iteration()
    xfp.iteration()
    differences.append(exploitability.nash_conv(game, bufp.average_policy())
                       - exploitability.nash_conv(game, xfp.average_policy()))
  assert max(abs(d) for d in differences) > 1e-3


def test_first_step_even_split_ties_at_unreached_infosets():
  """After a pure first step, XFP with even ties plays uniformly at the
  infosets the opponent's first decision never reaches (all actions are
  worth 0 there); with OpenSpiel's tie rule it plays one action."""
  tree = compile_game("kuhn_poker")
  even = XFPSolver("kuhn_poker", first_step_one=True, tie_break="even")
  lowest = XFPSolver("kuhn_poker", first_step_one=True)
  for solver in (even, lowest):
    solver.iteration()
    solver.iteration()
  # sigma_3 = (b_1 + b_2) / 2 with b even splits over at most 2 actions.
  differs = np.abs(even.average_strategy() - lowest.average_strategy())
  assert differs.max() > 0
  assert np.all(np.isin(np.round(even.average_strategy() * 4, 9),
                        [0, 1, 2, 3, 4]))
  del tree


def test_one_public_card_per_traversal_in_leduc():
  """RLCard shuffles one deck per traversal: every round-2 chance node of
  the drawn deal gets the same public card."""
  tree = compile_game("leduc_poker")
  solver = ChanceSampledCFRSolver(tree, seed=2)
  start, members = tree.children_lists()
  for _ in range(20):
    # The drawn game's view: its chance probabilities are the draw.
    sample = solver._sample().chance_prob  # pylint: disable=protected-access
    reached = np.empty(tree.num_histories)
    reached[0] = 1.0
    for h in range(1, tree.num_histories):
      reached[h] = reached[tree.parent[h]] * sample[h]
    cards = set()
    for node in np.flatnonzero((tree.node_player == -1) & (reached > 0)):
      children = members[start[node]:start[node + 1]]
      if len(tree.history_actions(int(node))) < 2:
        continue  # The private deals.
      drawn = [c for c in children if sample[c] == 1.0]
      assert len(drawn) == 1
      cards.add(int(tree.action[drawn[0]]))
    assert len(cards) == 1


def test_average_accumulates_only_where_the_deal_goes():
  """Kuhn after one iteration from the uniform start: RLCard adds
  t x own reach x sigma = 1 x 1 x 1/2 at each action of the first
  infosets of the dealt cards only (one per player)."""
  solver = ChanceSampledCFRSolver("kuhn_poker", seed=0)
  solver.iteration()
  tree = solver.tree
  totals = solver.cumulative_policy.sum(axis=1)
  first = [row for row in range(tree.num_infosets)
           if len(tree.infoset_keys[row]) == 1]
  touched = [row for row in first if totals[row] > 0]
  assert len(touched) == 1
  np.testing.assert_allclose(solver.cumulative_policy[touched[0]],
                             [0.5, 0.5])
  full = ChanceSampledCFRSolver("kuhn_poker", seed=0, sampled_averaging=False)
  full.iteration()
  assert (full.cumulative_policy.sum(axis=1) > 0).all()
