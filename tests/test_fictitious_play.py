"""XFP, GXFP and BUFP against OpenSpiel and hand-worked cases."""

import pickle

import numpy as np
import pyspiel
import pytest
from hypothesis import given, settings, strategies as st
from open_spiel.python import policy as openspiel_policy
from open_spiel.python.algorithms import fictitious_play

from spiel_ext import eval as se
from spiel_ext.algorithms import BUFPSolver, GXFPSolver, XFPSolver
from spiel_ext.engine import compile_game

SOLVERS = {
    "xfp": lambda game, **kw: XFPSolver(game, **kw),
    "gxfp": lambda game, **kw: GXFPSolver(game, **kw),
    "bufp-ef": lambda game, **kw: BUFPSolver(game, stepsize="ef", **kw),
    "bufp-x": lambda game, **kw: BUFPSolver(game, stepsize="x", **kw),
}


@pytest.mark.parametrize("game_name", [
    "kuhn_poker", pytest.param("leduc_poker", marks=pytest.mark.slow)])
def test_xfp_matches_openspiel_iterate_for_iterate(game_name):
  game = pyspiel.load_game(game_name)
  ours, reference = XFPSolver(game), fictitious_play.XFPSolver(game)
  for _ in range(30):
    ours.iteration()
    reference.iteration()
    expected = openspiel_policy.tabular_policy_from_callable(
        game, reference.average_policy())
    np.testing.assert_allclose(ours.average_policy().action_probability_array,
                               expected.action_probability_array, atol=1e-9)


@pytest.mark.parametrize("game_name", ["kuhn_poker(players=3)",
                                       "tiny_hanabi"])
def test_xfp_matches_openspiel_beyond_two_player_zero_sum(game_name):
  """OpenSpiel's XFP runs on any number of players and any utility (here
  three players, and an identical-interest game); so does ours."""
  game = pyspiel.load_game(game_name)
  ours, reference = XFPSolver(game), fictitious_play.XFPSolver(game)
  for _ in range(8):
    ours.iteration()
    reference.iteration()
    expected = openspiel_policy.tabular_policy_from_callable(
        game, reference.average_policy())
    np.testing.assert_allclose(ours.average_policy().action_probability_array,
                               expected.action_probability_array, atol=1e-9)


@pytest.mark.parametrize("name", sorted(SOLVERS))
@pytest.mark.parametrize("game_name", ["kuhn_poker", "leduc_poker"])
def test_fictitious_play_converges(name, game_name):
  solver = SOLVERS[name](game_name)
  checkpoints = {}
  for iteration in range(1, 1001):
    solver.iteration()
    if iteration in (10, 100, 1000):
      checkpoints[iteration] = se.nash_conv(game_name, solver.average_policy())
  assert checkpoints[10] > checkpoints[100] > checkpoints[1000]
  assert checkpoints[1000] < 0.15 * checkpoints[10]


def test_integer_counting_equals_float_averaging_on_leduc():
  floating = GXFPSolver("leduc_poker")
  counting = GXFPSolver("leduc_poker", integer_counting=True)
  for _ in range(300):
    floating.iteration()
    counting.iteration()
    np.testing.assert_allclose(floating.sigma, counting.sigma, atol=1e-12)


@settings(max_examples=20, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**31), tie=st.sampled_from(["lowest", "even"]))
def test_counts_reproduce_the_float_recursion_for_the_same_decisions(seed,
                                                                     tie):
  """sigma_{T+1} = (sigma_1 + sum b) / (T+1) is (t sigma_t + b_t)/(t+1)."""
  solver = GXFPSolver("kuhn_poker", integer_counting=True, tie_break=tie,
                      initial_policy="random", seed=seed)
  recursion = solver.sigma.copy()
  tree = solver.tree
  for t in range(1, 60):
    decisions = [solver.best_decisions(p) for p in range(2)]
    solver.iteration()
    for player, profile in enumerate(decisions):
      rows = tree.player_rows[player]
      recursion[rows] = (t * recursion[rows] + profile) / (t + 1)
    np.testing.assert_allclose(solver.sigma, recursion, atol=1e-13)


def test_bufp_and_gxfp_agree_when_every_infoset_is_reached():
  """From a full-support start every infoset stays reached, so the belief
  is the others' reach and BUFP(EF) is GXFP exactly."""
  for game_name in ["kuhn_poker", "leduc_poker"]:
    bufp, gxfp = BUFPSolver(game_name), GXFPSolver(game_name)
    for _ in range(200):
      bufp.iteration()
      gxfp.iteration()
    np.testing.assert_array_equal(bufp.sigma, gxfp.sigma)


def _never_bet_start(tree):
  """Kuhn start where player 0 never bets first (passes with J, Q and K)."""
  strategy = tree.uniform_policy()
  for key in ["0", "1", "2"]:
    strategy[tree.key_to_infoset[key]] = [1.0, 0.0]
  return strategy


def test_bufp_uses_the_fallback_belief_off_path_and_gxfp_does_not():
  """Hand-worked: player 0 never bets, so player 1's infosets after a bet are
  unreached. The fallback belief puts 1/2 on each of player 0's other cards
  (uniform opponent, uniform chance). Facing a bet, J folds (call -2 < -1),
  Q calls (0 > -1), K calls (2 > -1). GXFP sees all-zero values there and
  takes the lowest action, Pass (= fold)."""
  tree = compile_game("kuhn_poker")
  start = _never_bet_start(tree)
  belief, on_path = tree.beliefs(start, 1)
  for key in ["0b", "1b", "2b"]:
    row = tree.key_to_infoset[key]
    assert not on_path[row - tree.player_rows[1].start]
    histories = np.flatnonzero(tree.infoset == row)
    np.testing.assert_allclose(belief[histories], [0.5, 0.5])
  bufp = BUFPSolver(tree, initial_policy=start)
  gxfp = GXFPSolver(tree, initial_policy=start)
  rows = tree.player_rows[1]
  bufp_choice = bufp.best_decisions(1)
  gxfp_choice = gxfp.best_decisions(1)
  for key, bufp_action in [("0b", 0), ("1b", 1), ("2b", 1)]:
    local = tree.key_to_infoset[key] - rows.start
    assert bufp_choice[local].argmax() == bufp_action
    assert gxfp_choice[local].argmax() == 0
  bufp.iteration()
  gxfp.iteration()
  assert not np.array_equal(bufp.sigma, gxfp.sigma)


def test_bufp_x_best_response_continuation_is_a_best_response_on_path():
  tree = compile_game("leduc_poker")
  solver = BUFPSolver(tree, stepsize="x")
  for _ in range(5):
    solver.iteration()
  for player in range(2):
    profile = solver.sigma.copy()
    rows = tree.player_rows[player]
    profile[rows] = solver.best_decisions(player)
    value = tree.root_values(profile)[player]
    best = se.best_response_values(tree, solver.sigma)[player]
    assert value == pytest.approx(best, abs=1e-12)


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_perturbed_play_keeps_every_action_and_converges(name):
  epsilon = 0.05
  solver = SOLVERS[name]("kuhn_poker", min_action_prob=epsilon)
  legal = solver.tree.infoset_legal
  values = []
  for iteration in range(1, 501):
    solver.iteration()
    assert solver.sigma[legal].min() >= epsilon - 1e-12
    if iteration in (10, 100, 500):
      values.append(se.nash_conv("kuhn_poker", solver.average_policy(),
                                 min_action_prob=epsilon))
  assert values[0] > values[1] > values[2]


def test_xfp_renormalisation_keeps_rows_normalised():
  solver = XFPSolver("leduc_poker", renormalize=True)
  for _ in range(50):
    solver.iteration()
  sums = solver.sigma.sum(axis=1)
  np.testing.assert_allclose(sums, 1.0, atol=1e-15)


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_alternating_updates_and_checkpoints(name):
  straight = SOLVERS[name]("kuhn_poker", alternating_updates=True,
                           initial_policy="random", seed=5)
  for _ in range(20):
    straight.iteration()
  copy = pickle.loads(pickle.dumps(straight))
  resumed = SOLVERS[name]("kuhn_poker", alternating_updates=True,
                          initial_policy="random", seed=5)
  resumed.load_state_dict(straight.state_dict())
  for _ in range(10):
    straight.iteration()
    copy.iteration()
    resumed.iteration()
  np.testing.assert_array_equal(copy.sigma, straight.sigma)
  np.testing.assert_array_equal(resumed.sigma, straight.sigma)
  assert se.nash_conv("kuhn_poker", straight.average_policy()) < 0.5


def test_random_start_is_seeded():
  first = GXFPSolver("kuhn_poker", initial_policy="random", seed=3)
  again = GXFPSolver("kuhn_poker", initial_policy="random", seed=3)
  other = GXFPSolver("kuhn_poker", initial_policy="random", seed=4)
  np.testing.assert_array_equal(first.sigma, again.sigma)
  assert not np.array_equal(first.sigma, other.sigma)


@pytest.mark.parametrize("factory,message", [
    (lambda: XFPSolver("kuhn_poker", min_action_prob=0.5),
     r"min_action_prob must be in \[0, 1/\|A\|\)"),
    (lambda: GXFPSolver("kuhn_poker", min_action_prob=-0.1),
     "min_action_prob must be in"),
    (lambda: BUFPSolver("kuhn_poker", stepsize="xx"),
     r"stepsize must be one of \['ef', 'x'\]"),
    (lambda: BUFPSolver("kuhn_poker", continuation="greedy"),
     "continuation must be one of"),
    (lambda: GXFPSolver("kuhn_poker", tie_break="random"),
     "tie_break must be one of"),
    (lambda: XFPSolver("kuhn_poker", initial_policy="zeros"),
     "initial_policy must be one of"),
    (lambda: XFPSolver("matrix_rps"), "convert_to_turn_based"),
    (lambda: GXFPSolver(
        "universal_poker(betting=limit,numPlayers=2,numRounds=3,blind=1 1,"
        "raiseSize=1 1 1,firstPlayer=1 1 1,maxRaises=1 1 1,numSuits=1,"
        "numRanks=4,numHoleCards=1,numBoardCards=0 1 1,stack=10 10)"),
     "do not have perfect recall"),
])
def test_bad_inputs(factory, message):
  with pytest.raises(ValueError, match=message):
    factory()
