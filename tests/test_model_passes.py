"""The passes and kernels the model-based learners run each iteration,
against the computations they replace, to the bit.

References: the engine's general passes (one best response per player,
each from its own forward pass; the chance column of the full reach
table), numba's own ``np.random.gamma`` from the same seed, and the
numpy expressions of the posterior's information gain and of the
exploration's bonus shift and average model.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from conftest import random_strategy
from spiel_ext.algorithms import model_kernels
from spiel_ext.algorithms.gamma_draws import gamma_draws
from spiel_ext.algorithms.learners import environment_of
from spiel_ext.algorithms.posterior import (ConjugatePosterior,
                                            beta_kl_after_one,
                                            dirichlet_kl_after_one)
from spiel_ext.engine import compile_game, passes
from spiel_ext.engine.model_passes import (chance_reach_of,
                                           forward_both_others)
from spiel_ext.engine.response_passes import (best_response,
                                              both_best_responses)
from spiel_ext.games.unknown_env import true_game_string

GAMES = ("kuhn_poker", "leduc_poker", "spiel_ext_bid_leduc(max_bid=1)")


def _views(game: str, seed: int):
  """The compiled game's view and a posterior draw's on its rules."""
  rules = environment_of(true_game_string(game, 0)).rules
  draw = rules.with_model(*ConjugatePosterior(rules).sample_game(
      np.random.default_rng(seed)))
  return [compile_game(game).view(), draw]


@pytest.mark.parametrize("game", GAMES)
def test_both_best_responses_are_the_two_best_responses(game):
  for seed, view in enumerate(_views(game, 1)):
    policy = random_strategy(view.tree, np.random.default_rng(seed))
    both = both_best_responses(view, policy)
    for player in (0, 1):
      value, best, action_values = best_response(view, policy, player)
      assert both[player][0] == value
      np.testing.assert_array_equal(both[player][1], best)
      np.testing.assert_array_equal(both[player][2], action_values)


@pytest.mark.parametrize("game", GAMES)
def test_one_forward_sweep_gives_each_players_others_reach(game):
  for seed, view in enumerate(_views(game, 2)):
    tree = view.tree
    policy = random_strategy(tree, np.random.default_rng(seed))
    others = forward_both_others(tree.parent, tree.parent_slot,
                                 tree.edge_policy_index, view.chance_prob,
                                 policy)
    for player in (0, 1):
      np.testing.assert_array_equal(others[:, player], passes.others_reach(
          tree.parent, tree.parent_slot, tree.edge_policy_index,
          view.chance_prob, policy, player))


@pytest.mark.parametrize("game", GAMES)
def test_chance_reach_is_the_reach_tables_chance_column(game):
  for view in _views(game, 3):
    tree = view.tree
    expected = view.reach(tree.uniform_policy())[:, -1]
    np.testing.assert_array_equal(chance_reach_of(view), expected)
    np.testing.assert_array_equal(
        chance_reach_of(tree, view.chance_prob), expected)


def test_both_best_responses_need_two_players():
  tree = compile_game("kuhn_poker(players=3)")
  with pytest.raises(ValueError, match="two-player"):
    both_best_responses(tree, tree.uniform_policy())


@numba.njit
def _numba_gammas(seed, shapes):
  np.random.seed(seed)
  out = np.empty(shapes.shape[0])
  for index in range(shapes.shape[0]):
    out[index] = np.random.gamma(shapes[index], 1.0)
  return out


@pytest.mark.parametrize("shapes", [
    np.ones(2000), 1.0 + np.arange(700) % 13,
    np.linspace(0.02, 0.99, 900), np.linspace(0.05, 40.0, 1500)])
def test_gamma_draws_are_numbas_gamma_draws(shapes):
  for seed in (0, 7, 2**32 - 1):
    np.testing.assert_array_equal(gamma_draws(seed, shapes),
                                  _numba_gammas(seed, shapes))


def _gain_by_numpy(posterior: ConjugatePosterior) -> np.ndarray:
  """Every gain recomputed by the posterior module's numpy functions."""
  tree = posterior.tree
  gain = np.zeros(tree.num_histories)
  alpha, beta = posterior.wins[tree.terminals], posterior.losses[
      tree.terminals]
  win = alpha / (alpha + beta)
  gain[tree.terminals] = (win * beta_kl_after_one(alpha, beta, True) +
                          (1.0 - win) * beta_kl_after_one(alpha, beta, False))
  children = np.flatnonzero((tree.parent >= 0) & (
      tree.parent_slot == tree.num_players))
  counts = posterior.chance_counts[children]
  totals = np.bincount(tree.parent[children], weights=counts,
                       minlength=tree.num_histories)[tree.parent[children]]
  gain[children] = dirichlet_kl_after_one(counts, totals)
  return gain


def test_the_incremental_gain_is_the_whole_gain_recomputed():
  environment = environment_of(true_game_string(
      "spiel_ext_bid_leduc(max_bid=1)", 0))
  posterior = ConjugatePosterior(environment.rules)
  rng = np.random.default_rng(0)
  uniform = environment.rules.uniform_policy()
  posterior.information_gain()
  for step in range(60):
    for _ in range(step % 3 + 1):
      episode = environment.play_episode(uniform, rng)
      posterior.observe(episode.histories, episode.reward)
    np.testing.assert_array_equal(posterior.information_gain(),
                                  _gain_by_numpy(posterior))


@pytest.mark.parametrize("zero_sum", [True, False])
def test_the_bonus_shift_is_the_numpy_shift(zero_sum):
  rng = np.random.default_rng(1)
  terminals = np.array([1, 4, 5, 9])
  utility = rng.normal(size=(10, 2))
  bonus = 0.01 * rng.random(4)
  expected = utility.copy()
  if zero_sum:
    expected[terminals, 1] += bonus
    expected[terminals, 0] -= bonus
  else:
    expected[terminals] += bonus[:, None]
  model_kernels.shift_utility(utility, terminals, bonus, zero_sum)
  np.testing.assert_array_equal(utility, expected)


def test_the_average_model_kernels_are_the_numpy_sums():
  rng = np.random.default_rng(2)
  size = 12
  children, parents = np.array([2, 3, 4, 7, 8]), np.array([1, 1, 1, 6, 6])
  reach, chance_prob = rng.random(size), rng.random(size)
  utility = rng.normal(size=(size, 2))
  sums = [rng.random(size), rng.random(size), rng.random((size, 2))]
  expected = [total.copy() for total in sums]
  expected[0] += reach
  expected[1][children] += reach[parents] * chance_prob[children]
  expected[2] += reach[:, None] * utility
  model_kernels.add_to_average_model(reach, children, parents, chance_prob,
                                     utility, *sums)
  for got, want in zip(sums, expected):
    np.testing.assert_array_equal(got, want)
  sums[0][6] = 0.0
  default = rng.random(size)
  chance, average = model_kernels.average_model_game(
      *sums, children, parents, default)
  weight = sums[0][parents]
  want_chance = np.ones(size)
  want_chance[children] = np.where(
      weight > 0, sums[1][children] / np.where(weight > 0, weight, 1),
      default[children])
  np.testing.assert_array_equal(chance, want_chance)
  np.testing.assert_array_equal(average[sums[0] > 0],
                                sums[2][sums[0] > 0] /
                                sums[0][sums[0] > 0, None])
  assert not average[sums[0] <= 0].any()
  other_reach, other_utility = rng.random(size), rng.normal(size=(size, 2))
  np.testing.assert_array_equal(
      model_kernels.utility_difference(reach, utility, other_reach,
                                       other_utility),
      reach[:, None] * utility - other_reach[:, None] * other_utility)


@pytest.mark.parametrize("game", GAMES)
def test_a_vouched_for_model_is_the_checked_model(game):
  rules = environment_of(true_game_string(game, 0)).rules
  posterior = ConjugatePosterior(rules)
  chance_prob, utility = posterior.sample_game(np.random.default_rng(3))
  checked = rules.with_model(chance_prob.copy(), utility.copy())
  vouched = rules.with_vouched_model(chance_prob, utility)
  assert vouched.model == checked.model
  assert vouched.model.chance_prob is chance_prob  # Handed over, no copy.
  assert not utility.flags.writeable
  for only in ({"chance_prob": chance_prob.copy()},
               {"utility": utility.copy()}):
    assert rules.with_vouched_model(**only).model == rules.with_model(
        **only).model
  assert rules.with_vouched_model() is rules.view()
  policy = random_strategy(rules, np.random.default_rng(0))
  np.testing.assert_array_equal(vouched.values(policy),
                                checked.values(policy))


def test_a_view_of_another_array_is_checked_after_all():
  rules = environment_of(true_game_string("kuhn_poker", 0)).rules
  bad = np.full((2, rules.num_histories), 2.0)[0]  # A view: checked.
  with pytest.raises(ValueError, match="chance_prob"):
    rules.with_vouched_model(chance_prob=bad)


def test_posterior_draws_have_the_conjugate_moments():
  """Many draws of one posterior: each terminal's q has its Beta(a, b)
  mean and variance, each chance child's probability its Dirichlet
  marginal's, within 5 standard errors (fixed generator)."""
  rules = environment_of(true_game_string("kuhn_poker", 0)).rules
  posterior = ConjugatePosterior(rules)
  terminals = rules.terminals
  # Every case of the draw: Beta(1, 1), (a, 1), (1, b) and (a, b), and
  # chance counts of 1 and above.
  posterior.wins[terminals] = 1.0 + np.arange(len(terminals)) % 4
  posterior.losses[terminals] = 1.0 + (np.arange(len(terminals)) // 4) % 3
  children = np.flatnonzero(posterior.chance_counts)
  posterior.chance_counts[children] = 1.0 + np.arange(len(children)) % 3
  rng = np.random.default_rng(11)
  draws = 20000
  q = np.empty((draws, len(terminals)))
  chance = np.empty((draws, len(children)))
  for k in range(draws):
    chance_prob, utility = posterior.sample_game(rng)
    q[k] = (utility[terminals, 0] + 1.0) / 2.0
    chance[k] = chance_prob[children]
  a, b = posterior.wins[terminals], posterior.losses[terminals]
  mean, variance = a / (a + b), a * b / ((a + b) ** 2 * (a + b + 1.0))
  counts = posterior.chance_counts[children]
  totals = np.bincount(rules.parent[children], weights=counts,
                       minlength=rules.num_histories)[rules.parent[children]]
  chance_mean = counts / totals
  chance_variance = chance_mean * (1 - chance_mean) / (totals + 1.0)
  for sample, mu, var in ((q, mean, variance),
                          (chance, chance_mean, chance_variance)):
    assert np.all(np.abs(sample.mean(axis=0) - mu) <
                  5 * np.sqrt(var / draws))
    # The sample variance's standard error is below 2 var / sqrt(n) for
    # these laws (kurtosis below 5).
    assert np.all(np.abs(sample.var(axis=0) - var) <
                  5 * 2 * var / np.sqrt(draws))


def test_the_bonus_normalisation_kernels_are_numpys():
  rng = np.random.default_rng(8)
  for size in range(1, 11):  # Every window length up to MEDIAN_WINDOW.
    window = rng.random(size) ** 4
    values = rng.random(50)
    np.testing.assert_array_equal(
        model_kernels.scaled_by_mean(values, window),
        values / float(np.mean(window)))
  values, indices = rng.random(300), rng.permutation(300)[:101]
  gathered, middle = model_kernels.gathered_median(values, indices)
  np.testing.assert_array_equal(gathered, values[indices])
  assert middle == np.median(values[indices])
  utility, gain = rng.random((300, 2)), rng.random(101)
  for zero_sum in (True, False):
    ours, theirs = utility.copy(), utility.copy()
    model_kernels.shift_utility_scaled(ours, indices, gain, 0.3, zero_sum)
    model_kernels.shift_utility(theirs, indices, 0.3 * gain, zero_sum)
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("num_actions", [2, 3, 4, 9])
def test_the_average_strategy_kernel_is_the_numpy_normalisation(num_actions):
  """Rows over their numpy sums (8 accumulators past 8 actions), uniform
  where nothing accumulated: the bits of the numpy expression."""
  rng = np.random.default_rng(num_actions)
  legal = rng.random((3000, num_actions)) < 0.8
  legal[:, 0] = True
  counts = legal.sum(axis=1).astype(np.int32)
  numerator = np.where(legal, rng.random(legal.shape) * rng.choice(
      [1e-9, 1.0, 1e9], size=legal.shape), 0.0)
  numerator[rng.random(3000) < 0.1] = 0.0
  totals = numerator.sum(axis=1, keepdims=True)
  with np.errstate(invalid="ignore", divide="ignore"):
    expected = np.where(totals > 0, numerator / totals,
                        legal / counts[:, None])
  np.testing.assert_array_equal(
      model_kernels.normalised_rows(numerator, legal, counts), expected)
