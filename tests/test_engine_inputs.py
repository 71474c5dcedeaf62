"""The engine's checks of what it is given, and the passes' overrides."""

import itertools
import math
import os
import subprocess
import sys
import textwrap

import numpy as np
import pyspiel
import pytest

from spiel_ext import eval as se
from spiel_ext.algorithms import CFRSolver
from spiel_ext.engine import (STRATEGY_TOLERANCE, GameModel, StrategyTypeError,
                               check_strategy, clear_compiled_trees,
                               compile_game, load_game, regret_passes)
from spiel_ext.engine.admission import SizeLimit, estimate_tree_bytes
from spiel_ext.engine.compiler import compile_tree

# --------------------------------------------------------------- a toy game
# Chance deals a card c in {0, 1} with the probabilities of the "case"
# parameter; player 0 then moves m in {0, 1} without seeing c; player 1 sees
# c (not m) and acts a in {0, 1}. Player 1 receives 1 if a == m else -1 when
# c = 0, and 1 if a == 1 else -1 when c = 1; player 0 the negative.
CHANCE_CASES = {
    "zero": [(0, 1.0), (1, 0.0)],
    "negative": [(0, -0.5), (1, 1.5)],
    "nan": [(0, math.nan), (1, 0.5)],
    "short": [(0, 0.5), (1, 0.4)],
    "infinite": [(0, math.inf), (1, 0.0)],
}

_TYPE = pyspiel.GameType(
    short_name="engine_test_chance", long_name="engine test chance",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2, min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification={"case": "zero"})


class ChanceGame(pyspiel.Game):

  def __init__(self, params=None):
    params = params or {}
    self.case = params.get("case", "zero")
    super().__init__(_TYPE, pyspiel.GameInfo(
        num_distinct_actions=2, max_chance_outcomes=2, num_players=2,
        min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
        max_game_length=3), params)

  def new_initial_state(self):
    return ChanceState(self)

  def make_py_observer(self, iig_obs_type=None, params=None):
    return ChanceObserver()


class ChanceState(pyspiel.State):

  def __init__(self, game):
    super().__init__(game)
    self.case = game.case
    self.card = None
    self.moves = []

  def current_player(self):
    if self.card is None:
      return pyspiel.PlayerId.CHANCE
    if len(self.moves) == 2:
      return pyspiel.PlayerId.TERMINAL
    return len(self.moves)

  def chance_outcomes(self):
    return list(CHANCE_CASES[self.case])

  def _legal_actions(self, player):
    return [0, 1]

  def _apply_action(self, action):
    if self.card is None:
      self.card = action
    else:
      self.moves.append(action)

  def is_terminal(self):
    return self.card is not None and len(self.moves) == 2

  def returns(self):
    if not self.is_terminal():
      return [0.0, 0.0]
    move, act = self.moves
    won = act == move if self.card == 0 else act == 1
    payoff = 1.0 if won else -1.0
    return [-payoff, payoff]

  def _action_to_string(self, player, action):
    return str(action)

  def __str__(self):
    return f"card {self.card} moves {self.moves}"


class ChanceObserver:

  def __init__(self):
    self.tensor = np.zeros(0, np.float32)
    self.dict = {}

  def set_from(self, state, player):
    pass

  def string_from(self, state, player):
    return "p0" if player == 0 else f"p1 card {state.card}"


pyspiel.register_game(_TYPE, ChanceGame)


# ------------------------------------------------------------- compile_game
@pytest.mark.parametrize("value,error", [(-5, ValueError), (0, ValueError),
                                         (1.5, TypeError), ("x", TypeError),
                                         (True, TypeError)])
def test_max_histories_must_be_a_positive_int(value, error):
  with pytest.raises(error, match="max_histories must be an int >= 1 or None"):
    compile_game("kuhn_poker", max_histories=value)


def test_max_histories_accepts_numpy_ints():
  assert compile_game("kuhn_poker",
                      max_histories=np.int64(58)).num_histories == 58


def test_use_cache_must_be_a_bool():
  with pytest.raises(TypeError, match="use_cache must be True or False"):
    compile_game("kuhn_poker", use_cache="no")


def test_memory_budget_is_enforced_while_building():
  game = pyspiel.load_game("leduc_poker")
  with pytest.raises(ValueError, match=r"found more than .* histories.*half "
                     r"the available memory"):
    compile_tree(game, SizeLimit(None, max_bytes=100_000))
  tree = compile_tree(game, SizeLimit(None, max_bytes=10_000_000))
  assert tree.num_histories == 9457


def test_tree_bytes_grow_with_players_infosets_and_keys():
  two = estimate_tree_bytes(1000, 2)
  assert estimate_tree_bytes(1000, 3) > two
  assert estimate_tree_bytes(1000, 2, num_infosets=10) > two
  assert estimate_tree_bytes(1000, 2, 10, key_bytes=500) == (
      estimate_tree_bytes(1000, 2, 10) + 500)


_MEASURE = textwrap.dedent('''
    import json, os, sys
    os.environ["SPIEL_EXT_CACHE_DIR"] = ""
    import pyspiel
    from spiel_ext.engine import compile_game
    from spiel_ext.engine.admission import estimate_tree_bytes
    warm = compile_game("kuhn_poker")
    warm.values(warm.uniform_policy()); warm.reach(warm.uniform_policy())
    def rss():
      with open("/proc/self/status") as status:
        for line in status:
          if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    game = pyspiel.load_game(sys.argv[1])
    before = rss()
    tree = compile_game(game)
    tree.values(tree.uniform_policy()); tree.reach(tree.uniform_policy())
    grown = rss() - before
    estimate = estimate_tree_bytes(
        tree.num_histories, tree.num_players, tree.num_infosets,
        sum(len(key) for key in tree.infoset_keys))
    print(json.dumps({"grown": grown, "estimate": estimate}))
''')


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/proc/self/status"),
                    reason="needs /proc to measure memory")
def test_memory_estimate_is_within_a_factor_two_of_tic_tac_toe():
  result = subprocess.run([sys.executable, "-c", _MEASURE, "tic_tac_toe"],
                          capture_output=True, text=True, check=True,
                          timeout=600)
  numbers = eval(result.stdout.strip().splitlines()[-1])  # pylint: disable=eval-used
  assert 0.5 < numbers["estimate"] / numbers["grown"] < 2.0


# ------------------------------------------------------------ game names
def test_unknown_game_name_is_one_line_with_suggestions():
  with pytest.raises(ValueError) as info:
    load_game("leduc_pokre")
  message = str(info.value)
  assert "\n" not in message and len(message) < 300
  assert "unknown game 'leduc_pokre'; did you mean 'leduc_poker'?" in message


def test_unknown_nested_game_name_is_caught_before_pyspiel():
  with pytest.raises(ValueError, match=r"^cannot load game: unknown game "
                     r"'matrx_rps'; did you mean 'matrix_rps'\?"):
    load_game("turn_based_simultaneous_game(game=matrx_rps())")
  assert load_game("turn_based_simultaneous_game(game=matrix_rps())")


def test_unknown_spiel_ext_name_says_to_import_spiel_ext():
  with pytest.raises(ValueError, match=r"unknown game 'spiel_ext_nosuch'.*"
                     r"import spiel_ext"):
    compile_game("spiel_ext_nosuch")


def test_bad_parameters_of_a_known_game_are_one_line():
  with pytest.raises(ValueError) as info:
    load_game("leduc_poker(foo=1)")
  message = str(info.value)
  assert "\n" not in message
  assert "Unknown parameter 'foo'" in message and "players" in message


def test_game_of_a_wrong_type_is_a_type_error():
  with pytest.raises(TypeError, match="game must be a pyspiel.Game"):
    compile_game(3)


# ------------------------------------------------------ chance distributions
@pytest.mark.parametrize("case", ["negative", "nan", "short", "infinite"])
def test_invalid_chance_distributions_are_refused(case):
  game = pyspiel.load_game("engine_test_chance", {"case": case})
  with pytest.raises(ValueError) as info:
    compile_game(game)
  message = str(info.value)
  assert f"engine_test_chance(case={case})" in message
  assert "history ''" in message  # The root chance node.
  assert "not a probability distribution" in message
  assert str(CHANCE_CASES[case][0][1]) in message


def test_probability_zero_outcomes_stay_in_the_tree():
  tree = compile_game("engine_test_chance")
  # Root, 2 cards x (player 0, 2 x (player 1, 2 terminals)) = 1 + 2 * 7.
  assert tree.num_histories == 15
  assert sorted(tree.chance_prob[tree.parent == 0]) == [0.0, 1.0]


# -------------------------------------------------------- off-path beliefs
def test_belief_below_a_probability_zero_outcome_falls_back_to_uniform():
  tree = compile_game("engine_test_chance")
  policy = tree.uniform_policy()
  policy[tree.key_to_infoset["p0"]] = [0.9, 0.1]
  belief, on_path = tree.beliefs(policy, 1)
  rows = tree.player_rows[1]
  card_0 = tree.key_to_infoset["p1 card 0"]
  card_1 = tree.key_to_infoset["p1 card 1"]
  assert on_path[card_0 - rows.start] and not on_path[card_1 - rows.start]
  for row, expected in [(card_0, [0.9, 0.1]), (card_1, [0.5, 0.5])]:
    # Histories of the infoset in pre-order: after m = 0, then m = 1. Card 1
    # has chance probability 0, so neither the policy's reach nor chance
    # times uniform opponents reaches it; uniform chance and uniform
    # opponents give 1/4 and 1/4, normalised to 1/2 and 1/2.
    histories = np.flatnonzero(tree.infoset == row)
    np.testing.assert_allclose(belief[histories], expected, atol=1e-15)


def test_belief_action_values_prefer_the_better_action_off_path():
  tree = compile_game("engine_test_chance")
  policy = tree.uniform_policy()
  belief, _ = tree.beliefs(policy, 1)
  q = tree.belief_action_values(policy, 1, belief)
  rows = tree.player_rows[1]
  # Card 1: action 1 wins 1, action 0 loses 1, whatever m was.
  np.testing.assert_allclose(
      q[tree.key_to_infoset["p1 card 1"] - rows.start], [-1.0, 1.0])
  # Card 0 with player 0 uniform: either action matches m half the time.
  np.testing.assert_allclose(
      q[tree.key_to_infoset["p1 card 0"] - rows.start], [0.0, 0.0])
  # Player 0 (one infoset, on path): Q = the values of m under the policy.
  q0 = tree.belief_action_values(policy, 0, tree.beliefs(policy, 0)[0],
                                 values=tree.values(policy))
  np.testing.assert_allclose(q0, [[0.0, 0.0]], atol=1e-15)


def test_belief_action_values_checks_the_belief():
  tree = compile_game("engine_test_chance")
  with pytest.raises(ValueError, match=r"belief must be a float array of "
                     r"shape \(15,\)"):
    tree.belief_action_values(tree.uniform_policy(), 1, np.ones(3))


def test_sequential_gap_sees_a_wrong_action_off_path():
  tree = compile_game("engine_test_chance")
  policy = tree.uniform_policy()
  policy[tree.key_to_infoset["p1 card 0"]] = [1.0, 0.0]
  policy[tree.key_to_infoset["p1 card 1"]] = [1.0, 0.0]  # Worth -1, not +1.
  gap = se.sequential_gap("engine_test_chance", policy)
  # Card 1 (off path): best +1, the policy's -1. Card 0: player 0 is
  # uniform, both actions are worth 0. Player 0: player 1 plays 0 after card
  # 0, so m = 1 wins 1 where the uniform move is worth 0.
  assert gap.gap_of("p1 card 1") == pytest.approx(2.0, abs=1e-15)
  assert gap.gap_of("p1 card 0") == pytest.approx(0.0, abs=1e-15)
  assert gap.gap_of("p0") == pytest.approx(1.0, abs=1e-15)


# ---------------------------------------------------------------- players
@pytest.mark.parametrize("player", [2, -1, 1.5, True, "0"])
def test_passes_refuse_a_player_outside_the_game(player):
  tree = compile_game("kuhn_poker")
  with pytest.raises(ValueError, match=r"player must be an int in 0\.\.1"):
    tree.beliefs(tree.uniform_policy(), player)
  with pytest.raises(ValueError, match=r"player must be an int in 0\.\.1"):
    tree.best_response(tree.uniform_policy(), player)


def test_children_lists_in_increasing_history_order():
  tree = compile_game("leduc_poker")
  start, members = tree.children_lists()
  assert start.shape == (tree.num_histories + 1,)
  for h in [0, 1, 2, 100, 5000, tree.num_histories - 1]:
    np.testing.assert_array_equal(members[start[h]:start[h + 1]],
                                  np.flatnonzero(tree.parent == h))
  assert tree.children_lists() is tree.children_lists()


# ----------------------------------------------------- chance and utility
def _overrides(tree, rng):
  """A different chance distribution at every chance node, and random
  general-sum payoffs at the terminals."""
  chance_prob = tree.chance_prob.copy()
  start, members = tree.children_lists()
  for h in np.flatnonzero(tree.node_player == -1):
    children = members[start[h]:start[h + 1]]
    chance_prob[children] = rng.dirichlet(np.ones(len(children)))
  utility = np.zeros_like(tree.utility)
  utility[tree.terminals] = 3.0 * rng.normal(size=(len(tree.terminals),
                                                   tree.num_players))
  return chance_prob, utility


def _reference(game, tree, strategy, chance_prob, utility):
  """Root values and counterfactual values by recursion over pyspiel
  states, chance and payoffs taken from the override arrays."""
  index = {tuple(tree.history_actions(h)): h for h in range(tree.num_histories)}
  num_players = game.num_players()
  cfv = np.zeros_like(strategy)

  def recurse(state, path, others):
    h = index[path]
    if state.is_terminal():
      return utility[h]
    if state.is_chance_node():
      total = np.zeros(num_players)
      for a, _ in state.chance_outcomes():
        p = chance_prob[index[path + (a,)]]
        total += p * recurse(state.child(a), path + (a,), others * p)
      return total
    player = state.current_player()
    row = tree.key_to_infoset[state.information_state_string(player)]
    total = np.zeros(num_players)
    for a in state.legal_actions():
      scale = np.full(num_players, strategy[row, a])
      scale[player] = 1.0
      child = recurse(state.child(a), path + (a,), others * scale)
      cfv[row, a] += others[player] * child[player]
      total += strategy[row, a] * child
    return total

  root = recurse(game.new_initial_state(), (), np.ones(num_players))
  return root, cfv


def test_chance_and_utility_overrides_match_a_recursive_reference():
  game = pyspiel.load_game("kuhn_poker")
  tree = compile_game(game)
  rng = np.random.default_rng(11)
  chance_prob, utility = _overrides(tree, rng)
  strategy = rng.dirichlet(np.ones(2), size=tree.num_infosets)
  root, cfv = _reference(game, tree, strategy, chance_prob, utility)
  model = tree.with_model(chance_prob, utility)
  np.testing.assert_allclose(model.values(strategy)[0],
                             root, atol=1e-12)
  np.testing.assert_allclose(
      model.root_values(strategy), root, atol=1e-12)
  np.testing.assert_allclose(
      model.counterfactual_values(strategy), cfv,
      atol=1e-12)
  reach = model.reach(strategy)
  assert reach[tree.terminals].prod(axis=1).sum() == pytest.approx(1.0)
  for player in range(2):
    rows = tree.player_rows[player]
    np.testing.assert_allclose(
        model.player_counterfactual_values(strategy, player).cfv, cfv[rows],
        atol=1e-12)
    # The best response by brute force over the player's 2^6 pure
    # strategies, each valued by the reference recursion.
    best = -np.inf
    for choice in itertools.product([0, 1], repeat=rows.stop - rows.start):
      profile = strategy.copy()
      profile[rows] = np.eye(2)[list(choice)]
      best = max(best, _reference(game, tree, profile, chance_prob,
                                  utility)[0][player])
    value, _, _ = model.best_response(strategy, player)
    assert value == pytest.approx(best, abs=1e-12)


def test_default_arrays_are_the_games():
  game = pyspiel.load_game("kuhn_poker")
  tree = compile_game(game)
  strategy = tree.uniform_policy()
  root, _ = _reference(game, tree, strategy, tree.chance_prob, tree.utility)
  np.testing.assert_allclose(tree.root_values(strategy), root, atol=1e-15)
  np.testing.assert_allclose(
      tree.with_model(tree.chance_prob.copy(),
                      tree.utility.copy()).root_values(strategy),
      tree.root_values(strategy), atol=0)


def _bad_chance(tree, how):
  chance_prob, _ = _overrides(tree, np.random.default_rng(0))
  first_deal = np.flatnonzero(tree.parent == 0)
  if how == "nan":
    chance_prob[first_deal[0]] = np.nan
  elif how == "negative":
    chance_prob[first_deal[:2]] = [-0.2, chance_prob[first_deal[:2]].sum() + 0.2]
  elif how == "sum":
    chance_prob[first_deal] *= 0.9
  elif how == "shape":
    chance_prob = chance_prob[:-1]
  elif how == "list":
    chance_prob = chance_prob.tolist()
  return chance_prob


@pytest.mark.parametrize("how", ["nan", "negative", "sum"])
def test_chance_override_must_be_distributions(how):
  tree = compile_game("kuhn_poker")
  bad = _bad_chance(tree, how)
  for call in (lambda: tree.with_model(bad).values(tree.uniform_policy()),
               lambda: tree.with_model(chance_prob=bad),
               lambda: tree.check_model(bad)):
    with pytest.raises(ValueError, match=r"chance_prob must hold a "
                       r"probability distribution .* chance history 0"):
      call()


@pytest.mark.parametrize("how", ["shape", "list"])
def test_chance_override_must_be_an_array_of_the_trees_shape(how):
  tree = compile_game("kuhn_poker")
  with pytest.raises(ValueError, match=r"chance_prob must be a float array "
                     r"of shape \(58,\)"):
    tree.with_model(_bad_chance(tree, how))


def test_utility_override_must_be_finite_terminal_payoffs():
  tree = compile_game("kuhn_poker")
  _, utility = _overrides(tree, np.random.default_rng(0))
  infinite = utility.copy()
  infinite[tree.terminals[3], 1] = np.inf
  with pytest.raises(ValueError, match=r"utility must be finite.*history "
                     f"{tree.terminals[3]}"):
    tree.with_model(utility=infinite)
  inner = utility.copy()
  inner[0, 0] = 1.0
  with pytest.raises(ValueError, match="utility must be finite, and 0 away "
                     "from terminal histories"):
    tree.with_model(utility=inner)
  with pytest.raises(ValueError, match=r"utility must be a float array of "
                     r"shape \(58, 2\)"):
    tree.with_model(utility=utility[:, :1])


def test_a_checked_model_is_read_only_and_gives_the_same_values():
  tree = compile_game("kuhn_poker")
  chance_prob, utility = _overrides(tree, np.random.default_rng(4))
  strategy = tree.uniform_policy()
  expected = tree.with_model(chance_prob.copy(),
                             utility.copy()).values(strategy)
  checked_chance, checked_utility = tree.check_model(chance_prob, utility)
  assert checked_chance is chance_prob  # Owns its data: frozen in place.
  assert not checked_chance.flags.writeable
  with pytest.raises(ValueError, match="read-only"):
    checked_utility[tree.terminals[0], 0] = 5.0
  np.testing.assert_array_equal(
      tree.with_model(checked_chance, checked_utility).values(strategy),
      expected)
  # A view could change through its base: it is copied.
  wide = np.concatenate([utility, utility], axis=1)
  _, view_checked = tree.check_model(utility=wide[:, :2])
  assert view_checked.base is None and not view_checked.flags.writeable
  assert tree.check_model() == (None, None)


@pytest.mark.parametrize("how", ["nan", "negative", "sum"])
def test_a_bad_model_is_refused_when_it_is_set(how):
  tree = compile_game("kuhn_poker")
  solver = CFRSolver(tree)
  with pytest.raises(ValueError, match=r"chance_prob must hold a "
                     r"probability distribution .* chance history 0"):
    solver.set_model(_bad_chance(tree, how))
  with pytest.raises(ValueError, match=r"chance_prob must hold"):
    tree.check_model(_bad_chance(tree, how))


def test_a_checked_array_made_writeable_again_is_checked_again():
  tree = compile_game("kuhn_poker")
  chance_prob, _ = tree.check_model(_overrides(tree,
                                               np.random.default_rng(0))[0])
  chance_prob.flags.writeable = True
  chance_prob[np.flatnonzero(tree.parent == 0)] *= 0.5
  with pytest.raises(ValueError, match="chance_prob must hold"):
    tree.with_model(chance_prob).values(tree.uniform_policy())


# ------------------------------------------------------------ game views
def test_a_model_view_is_checked_once_and_frozen():
  tree = compile_game("kuhn_poker")
  chance_prob, utility = _overrides(tree, np.random.default_rng(5))
  strategy = tree.uniform_policy()
  expected = tree.with_model(chance_prob.copy(),
                             utility.copy()).values(strategy)
  assert chance_prob.flags.writeable  # The copies were frozen, not these.
  view = tree.with_model(chance_prob, utility)
  assert view.tree is tree and view.chance_prob is chance_prob
  assert not chance_prob.flags.writeable
  np.testing.assert_array_equal(view.values(strategy), expected)
  assert view.model == GameModel(tree, chance_prob.copy(), utility.copy())
  assert view.model != tree.model
  chance_again, utility_again = view.model
  assert chance_again is chance_prob and utility_again is view.utility
  with pytest.raises(AttributeError):
    view.model = tree.model
  with pytest.raises(AttributeError):
    view.model.utility = utility
  with pytest.raises(ValueError, match="utility must be finite"):
    tree.with_model(utility=np.full_like(utility, np.nan))


def test_the_compiled_games_view_is_kept_while_in_use():
  tree = compile_game("kuhn_poker")
  view = tree.view()
  assert tree.view() is view and tree.with_model() is view
  assert view.model is tree.model
  assert not view.chance_prob.flags.writeable
  assert tree.chance_prob.flags.writeable
  np.testing.assert_array_equal(view.chance_prob, tree.chance_prob)
  strategy = tree.uniform_policy()
  np.testing.assert_array_equal(view.values(strategy), tree.values(strategy))
  for player in range(2):
    np.testing.assert_array_equal(
        regret_passes.player_counterfactual_values(view, strategy,
                                                   player).cfv,
        tree.player_counterfactual_values(strategy, player).cfv)


def test_a_chance_sample_view_draws_as_sample_chance():
  tree = compile_game("leduc_poker")
  strategy = tree.uniform_policy()
  for seed in range(3):
    sample = tree.sample_chance(np.random.default_rng(seed))
    view = tree.with_chance_sample(
        np.random.default_rng(seed).random(tree.num_chance_nodes))
    np.testing.assert_array_equal(view.chance_prob, sample)
    assert not view.chance_prob.flags.writeable
    np.testing.assert_array_equal(
        view.root_values(strategy),
        tree.with_model(chance_prob=sample).root_values(strategy))
  with pytest.raises(ValueError, match="uniforms must be a float64 array"):
    tree.with_chance_sample(np.zeros(3))


def test_a_solver_takes_only_views_of_its_own_tree():
  tree = compile_game("kuhn_poker")
  solver = CFRSolver(tree)
  solver.set_view(tree.with_model(utility=2.0 * tree.utility))
  with pytest.raises(ValueError, match="view must be a GameView of this"):
    solver.set_view(compile_game("leduc_poker").view())
  with pytest.raises(ValueError, match="view must be a GameView of this"):
    solver.set_view(tree)


def test_one_strategy_check_in_the_engine():
  tree = compile_game("kuhn_poker")
  uniform = tree.uniform_policy()
  assert check_strategy(tree, uniform) is uniform
  with pytest.raises(ValueError, match="policy is not a strategy: at infoset"):
    check_strategy(tree, uniform * 0.5)
  with pytest.raises(StrategyTypeError,
                     match="strategy must be an array of real numbers"):
    check_strategy(tree, uniform.astype(object), "strategy")
  assert issubclass(StrategyTypeError, TypeError)
  assert issubclass(StrategyTypeError, ValueError)
  check_strategy(tree, uniform + STRATEGY_TOLERANCE / 4)
  with pytest.raises(ValueError, match="must be a float array of shape"):
    tree.check_policy(uniform[:3])


def test_clear_compiled_trees_then_compile_again():
  first = compile_game("kuhn_poker")
  clear_compiled_trees()
  again = compile_game("kuhn_poker")
  assert again is not first
  np.testing.assert_array_equal(again.parent, first.parent)


@pytest.mark.parametrize("name,call", [
    ("policy", lambda tree: tree.values(np.ones((3, 2)))),
    ("policy", lambda tree: tree.reach([[0.5, 0.5]] * 12)),
    ("policy", lambda tree: tree.best_response(np.ones((12, 3)), 0)),
    ("policy", lambda tree: tree.beliefs(np.full((12, 2), "a"), 0)),
    ("reach", lambda tree: tree.root_values(reach=np.ones((58, 2)))),
    ("reach", lambda tree: tree.infoset_reach(np.ones(58))),
    ("values", lambda tree: tree.counterfactual_values(
        tree.uniform_policy(), values=np.ones((57, 2)))),
    ("terminal_others", lambda tree: tree.best_response(
        tree.uniform_policy(), 0, terminal_others=np.ones(58))),
    ("belief", lambda tree: tree.sequential_best_values(
        tree.uniform_policy(), 0, np.ones(30))),
    ("infoset_weight", lambda tree: tree.weighted_best_response(
        tree.uniform_policy(), 0, infoset_weight=np.ones(12))),
])
def test_arrays_of_a_wrong_shape_are_refused_before_the_kernels(name, call):
  # The numba kernels do not check bounds: a short array would be read past
  # its end, so the shapes are checked first.
  with pytest.raises(ValueError, match=f"{name} must be a float array of "
                     "shape"):
    call(compile_game("kuhn_poker"))


def test_bufp_decides_well_behind_a_probability_zero_outcome():
  """BUFP(EF) picks the winning action at the infoset only a probability-0
  deal reaches (action 1 wins whatever player 0 did), where the old
  all-zero belief made it pick the lowest action; the sequential gap of a
  policy that loses there is 2 (hand-worked: +1 vs -1 under any belief)."""
  from spiel_ext.algorithms import BUFPSolver  # pylint: disable=g-import-not-at-top
  from spiel_ext.eval import sequential_gap  # pylint: disable=g-import-not-at-top
  tree = compile_game("engine_test_chance")
  solver = BUFPSolver(tree, stepsize="ef")
  row = tree.key_to_infoset["p1 card 1"]
  decisions = solver.best_decisions(1)
  np.testing.assert_array_equal(
      decisions[row - tree.player_rows[1].start], [0.0, 1.0])
  losing = tree.uniform_policy()
  losing[row] = [1.0, 0.0]
  assert sequential_gap(tree, losing).gap_of("p1 card 1") == pytest.approx(2.0)
