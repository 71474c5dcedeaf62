"""The Bayesian neural network reward model (the optional ``bnn`` extra).

References: known win probabilities the network must move toward, the
exact KL between the factorised Gaussians before and after an explicit
(autograd) VIME update, the conjugate model's qualitative behaviour (the
gain of a terminal shrinks as it is observed), and, for the authors' KL on
sampled targets, their second-order formula written out on plain autograd
gradients.
"""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

import spiel_ext.games  # pylint: disable=unused-import,wrong-import-position
from spiel_ext.algorithms.bnn import (BNNRewardModel,  # pylint: disable=wrong-import-position
                                      pca_features)
from spiel_ext.engine import compile_game  # pylint: disable=wrong-import-position


@pytest.fixture(scope="module")
def tiny():
  return compile_game("spiel_ext_bid_leduc(max_bid=1)")


@pytest.fixture(scope="module")
def kuhn_rules():
  """The learner's rules tree of unknown Kuhn poker (30 terminals)."""
  from spiel_ext.algorithms.learners import environment_of  # pylint: disable=g-import-not-at-top
  from spiel_ext.games.unknown_env import true_game_string  # pylint: disable=g-import-not-at-top
  return environment_of(true_game_string("kuhn_poker", 0)).rules


def _sampled_targets(tree, rng):
  """A stand-in for one posterior draw's rewards: 2 Beta(1, 1) - 1."""
  return 2.0 * rng.beta(1.0, 1.0, size=len(tree.terminals)) - 1.0


def _record(model, tree, win_probability, episodes, rng):
  """``episodes`` outcomes at uniformly drawn terminals."""
  terminals = tree.terminals
  for _ in range(episodes):
    k = rng.integers(len(terminals))
    model.observe(terminals[k],
                  1.0 if rng.random() < win_probability[k] else -1.0)


def test_pca_features_are_a_principal_basis():
  rng = np.random.default_rng(3)
  features = pca_features(50, 6, rng)
  assert features.shape == (50, 6)
  np.testing.assert_allclose(features.T @ features, np.eye(6), atol=1e-12)
  # Orthogonal to the all-ones vector: the PCA scores of the centred
  # one-hot codes (I - 11^T / T) U are U itself.
  centred = np.eye(50) - 1.0 / 50
  np.testing.assert_allclose(centred @ features, features, atol=1e-12)
  # Rows of norm about sqrt(k / T): nearly constant inputs.
  assert np.linalg.norm(features, axis=1).mean() < 2 * math.sqrt(6 / 50)


@pytest.mark.slow
def test_learns_known_win_probabilities(tiny):
  # A larger step than the default 0.005 reaches the same fit in a quarter
  # of the steps; the assertions are those of a 2,000-step default run.
  model = BNNRewardModel(tiny, features=8, seed=0, learning_rate=0.02)
  first = model.features[:, 0]
  group = first > np.median(first)
  truth = np.where(group, 0.9, 0.1)
  before = model.mean_win_probability()[tiny.terminals]
  _record(model, tiny, truth, 4000, np.random.default_rng(1))
  model.train(500)
  after = model.mean_win_probability()[tiny.terminals]
  assert np.abs(after - truth).mean() < 0.2
  assert np.abs(after - truth).mean() < 0.5 * np.abs(before - truth).mean()
  assert after[group].mean() > 0.75 and after[~group].mean() < 0.25
  win = model.mean_win_probability()
  assert np.all(win[~tiny.is_terminal] == 0.0)


@pytest.mark.slow
def test_information_gain_shape_sign_and_shrinkage(tiny):
  model = BNNRewardModel(tiny, features=8, seed=0)
  terminals = tiny.terminals
  before = model.information_gain()
  assert before.shape == (tiny.num_histories,)
  assert np.all(before[~tiny.is_terminal] == 0.0)
  assert np.all(before[terminals] > 0.0)
  rng = np.random.default_rng(0)
  seen = terminals[0]
  for _ in range(500):
    model.observe(seen, 1.0 if rng.random() < 0.7 else -1.0)
  model.train(500)
  after = model.information_gain()
  assert np.all(after >= 0.0)
  assert np.all(after[~tiny.is_terminal] == 0.0)
  ratio = after[terminals] / before[terminals]
  assert ratio[0] < 0.6
  # The observed terminal's gain shrank more than any unseen one's and is
  # now the smallest.
  assert ratio[0] < ratio[1:].min()
  assert after[seen] < after[terminals[1:]].min()


def test_information_gain_matches_exact_kl_of_the_update(tiny):
  """VIME's 0.5 lambda^2 g^T H^-1 g against the exact KL between the
  factorised Gaussians before and after the step phi + lambda H^-1 g,
  with g from autograd; for a small lambda they agree to second order."""
  step = 1e-3
  model = BNNRewardModel(tiny, features=4, seed=5, noise_samples=1,
                         kl_step_size=step)
  _record(model, tiny, np.full(len(tiny.terminals), 0.3), 300,
          np.random.default_rng(2))
  model.train(50)
  gain = model.information_gain()
  names = list(model.mu)
  for index in (0, 7, 40):
    history = tiny.terminals[index]
    expected = 0.0
    mu = {n: model.mu[n].detach().clone().requires_grad_(True)
          for n in names}
    rho = {n: model.rho[n].detach().clone().requires_grad_(True)
           for n in names}
    sigma = {n: torch.nn.functional.softplus(rho[n]) for n in names}
    weights = {n: mu[n] + sigma[n] * model._noise[n][0] for n in names}
    logit = BNNRewardModel._logit(weights, model._inputs[index])
    win = torch.sigmoid(logit)
    for outcome, weight in ((1.0, float(win.detach())),
                            (0.0, 1.0 - float(win.detach()))):
      log_likelihood = -torch.nn.functional.binary_cross_entropy_with_logits(
          logit, torch.tensor(outcome))
      grads = torch.autograd.grad(log_likelihood, [*mu.values(),
                                                   *rho.values()],
                                  retain_graph=True)
      kl = 0.0
      for n, g_mu, g_rho in zip(names, grads[:len(names)],
                                grads[len(names):]):
        s = sigma[n].detach().double()
        r = rho[n].detach().double()
        h_mu = 1.0 / s**2
        h_rho = 2.0 * torch.sigmoid(r)**2 / s**2
        new_mu = mu[n].detach().double() + step * g_mu.double() / h_mu
        new_rho = r + step * g_rho.double() / h_rho
        new_s = torch.nn.functional.softplus(new_rho)
        kl += float((torch.log(s / new_s) +
                     (new_s**2 + (new_mu - mu[n].detach().double())**2) /
                     (2 * s**2) - 0.5).sum())
      expected += weight * kl
    assert gain[history] == pytest.approx(expected, rel=2e-2)


def test_deterministic_for_a_fixed_seed(tiny):
  gains, wins = [], []
  for _ in range(2):
    model = BNNRewardModel(tiny, seed=7, batch_size=64)
    _record(model, tiny, np.full(len(tiny.terminals), 0.6), 200,
            np.random.default_rng(4))
    model.train(20)
    gains.append(model.information_gain())
    wins.append(model.mean_win_probability())
  np.testing.assert_array_equal(gains[0], gains[1])
  np.testing.assert_array_equal(wins[0], wins[1])
  other = BNNRewardModel(tiny, seed=8, batch_size=64)
  assert not np.array_equal(other.information_gain(), gains[0])


def test_observe_takes_a_terminal_or_a_path(tiny):
  model = BNNRewardModel(tiny)
  terminal = int(tiny.terminals[3])
  path = [terminal]
  while tiny.parent[path[0]] >= 0:
    path.insert(0, int(tiny.parent[path[0]]))
  model.observe(terminal, 1.0)
  model.observe(path, -1.0)
  assert model.observations == 2
  assert model.train(3) is not None and model.steps == 3
  with pytest.raises(ValueError, match="terminal"):
    model.observe(0, 1.0)  # the root
  with pytest.raises(ValueError, match="terminal"):
    model.observe(tiny.num_histories, 1.0)
  with pytest.raises(ValueError, match="reward"):
    model.observe(terminal, float("nan"))
  assert BNNRewardModel(tiny).train(5) is None  # nothing recorded


@pytest.mark.parametrize("name, value", [
    ("hidden", 0), ("hidden", 2.5), ("features", 0), ("features", 81),
    ("learning_rate", 0.0), ("learning_rate", float("nan")),
    ("batch_size", 0), ("batch_size", True), ("prior_sigma", -1.0),
    ("seed", -1), ("seed", 1.5), ("kl_step_size", 0.0),
    ("noise_samples", 0), ("likelihood", "normal"), ("likelihood", None),
    ("likelihood_sigma", 0.0), ("likelihood_sigma", float("inf"))])
def test_bad_arguments_name_themselves(tiny, name, value):
  with pytest.raises(ValueError, match=name):
    BNNRewardModel(tiny, **{name: value})


def test_bad_steps(tiny):
  with pytest.raises(ValueError, match="steps"):
    BNNRewardModel(tiny).train(-1)


def test_missing_torch_names_the_extra(tiny, monkeypatch):
  monkeypatch.setitem(sys.modules, "torch", None)
  with pytest.raises(ImportError, match=r'pip install -e "\.\[bnn\]"'):
    BNNRewardModel(tiny)


def test_package_imports_without_this_module():
  code = ("import sys, spiel_ext, spiel_ext.algorithms, spiel_ext.games; "
          "assert 'spiel_ext.algorithms.bnn' not in sys.modules; "
          "assert 'torch' not in sys.modules")
  subprocess.run([sys.executable, "-c", code], check=True)


def test_pickles_and_resumes_identically(tiny):
  import pickle  # pylint: disable=import-outside-toplevel
  model = BNNRewardModel(tiny, batch_size=32)
  _record(model, tiny, np.full(len(tiny.terminals), 0.5), 50,
          np.random.default_rng(6))
  model.train(3)
  copy = pickle.loads(pickle.dumps(model))
  model.train(5)
  copy.train(5)
  np.testing.assert_array_equal(model.information_gain(),
                                copy.information_gain())


@pytest.mark.parametrize("likelihood", ["bernoulli", "gaussian"])
def test_a_model_given_its_state_dict_continues_exactly(kuhn_rules,
                                                       likelihood):
  """The state is numpy arrays and numbers (weights, Adam's moments, the
  generators' states, the data); a model built with the same arguments
  that loads it trains, draws and measures as the original."""
  options = dict(hidden=8, batch_size=16, likelihood=likelihood, seed=4)
  if likelihood == "gaussian":
    options.update(kl_noise="fresh", kl_step_size=0.01)
  model = BNNRewardModel(kuhn_rules, **options)
  rng = np.random.default_rng(2)
  _record(model, kuhn_rules, np.full(len(kuhn_rules.terminals), 0.5), 40,
          rng)
  model.train(3)
  if likelihood == "gaussian":
    model.train_on_targets(_sampled_targets(kuhn_rules, rng))
    model.sampled_target_information_gain(_sampled_targets(kuhn_rules, rng))
  state = model.state_dict()

  def plain(value):
    if isinstance(value, dict):
      return all(plain(item) for item in value.values())
    return value is None or isinstance(value, (int, float, str, np.ndarray))

  assert plain(state)
  copy = BNNRewardModel(kuhn_rules, **options)
  copy.load_state_dict(state)
  _record(model, kuhn_rules, np.full(len(kuhn_rules.terminals), 0.3), 5,
          np.random.default_rng(8))
  _record(copy, kuhn_rules, np.full(len(kuhn_rules.terminals), 0.3), 5,
          np.random.default_rng(8))
  assert model.train(4) == copy.train(4)
  if likelihood == "gaussian":
    targets = _sampled_targets(kuhn_rules, rng)
    np.testing.assert_array_equal(
        model.sampled_target_information_gain(targets),
        copy.sampled_target_information_gain(targets))
    assert model.train_on_targets(targets) == copy.train_on_targets(targets)
  else:
    np.testing.assert_array_equal(model.information_gain(),
                                  copy.information_gain())
  assert (copy.observations, copy.steps) == (model.observations, model.steps)
  with pytest.raises(ValueError, match="seed"):
    BNNRewardModel(kuhn_rules, **dict(options, seed=5)).load_state_dict(
        state)


@pytest.mark.slow
def test_vcfr_with_the_bnn_information_model_learns_and_resumes():
  """VCFR(information="bnn") runs, counts its episodes, improves on unknown
  Kuhn, and a pickled learner continues exactly."""
  import pickle  # pylint: disable=g-import-not-at-top
  from spiel_ext import eval as se  # pylint: disable=g-import-not-at-top
  from spiel_ext.algorithms.learners import VCFRLearner  # pylint: disable=g-import-not-at-top
  from spiel_ext.games.unknown_env import true_game_string  # pylint: disable=g-import-not-at-top
  game = true_game_string("kuhn_poker", 2)
  learner = VCFRLearner(game, information="bnn", eta=0.05, kl_every=5,
                        seed=1)
  start = se.nash_conv(game, learner.average_policy())
  for _ in range(150):
    learner.evaluate_and_update_policy()
  assert learner.episodes == 300
  assert se.nash_conv(game, learner.average_policy()) < start
  restored = pickle.loads(pickle.dumps(learner))
  for _ in range(10):
    learner.evaluate_and_update_policy()
    restored.evaluate_and_update_policy()
  np.testing.assert_array_equal(restored.average_strategy(),
                                learner.average_strategy())
  with pytest.raises(ValueError, match="information"):
    VCFRLearner(game, information="neural")


# ------------------------------------------------ the authors' KL and training
def test_sampled_target_information_gain_matches_autograd(kuhn_rules):
  """Against the authors' formula on plain autograd gradients of the
  one-sample loss, in float64: step^2 sum (g_mu^2 / H_mu + g_rho^2 /
  H_rho) with H_mu = 1 / sigma^2 and H_rho = 2 e^{2 rho} / (1 + e^rho)^2 /
  log(1 + e^rho)^2, as their code writes it."""
  step, noise_sigma = 0.01, 0.7
  model = BNNRewardModel(kuhn_rules, features=4, hidden=8, seed=3,
                         noise_samples=3, likelihood="gaussian",
                         likelihood_sigma=noise_sigma, kl_step_size=step,
                         learning_rate=0.02)
  rng = np.random.default_rng(1)
  for _ in range(20):  # Away from the initial, uniform sigmas.
    model.train_on_targets(_sampled_targets(kuhn_rules, rng))
  targets = _sampled_targets(kuhn_rules, rng)
  gain = model.sampled_target_information_gain(targets)
  assert gain.shape == (len(kuhn_rules.terminals),)
  assert gain.dtype == np.float64
  assert np.all(gain > 0.0)
  names = list(model.mu)
  for index in (0, 11, 29):
    mu = {n: model.mu[n].detach().double().clone().requires_grad_(True)
          for n in names}
    rho = {n: model.rho[n].detach().double().clone().requires_grad_(True)
           for n in names}
    sigma = {n: torch.log(1.0 + torch.exp(rho[n])) for n in names}
    inputs = model._inputs[index].double()
    log_density = 0.0
    for draw in range(3):
      w = {n: mu[n] + sigma[n] * model._noise[n][draw].double()
           for n in names}
      output = torch.relu(inputs @ w["w1"] + w["b1"]) @ w["w2"] + w["b2"]
      log_density = log_density + (
          -math.log(noise_sigma) - 0.5 * math.log(2.0 * math.pi) -
          (targets[index] - output)**2 / (2.0 * noise_sigma**2))
    loss = -log_density / 3
    loss.backward()
    expected = 0.0
    for n in names:
      r = rho[n].detach()
      inverse_h_mu = torch.log(1.0 + torch.exp(r))**2
      h_rho = (2.0 * torch.exp(2.0 * r) / (1.0 + torch.exp(r))**2 /
               torch.log(1.0 + torch.exp(r))**2)
      expected += float((step**2 * mu[n].grad**2 * inverse_h_mu).sum() +
                        (step**2 * rho[n].grad**2 / h_rho).sum())
    assert gain[index] == pytest.approx(expected, rel=1e-4)


def test_sampled_targets_are_reproducible_for_a_fixed_seed(kuhn_rules):
  runs = []
  for seed in (4, 4, 5):
    model = BNNRewardModel(kuhn_rules, seed=seed, batch_size=8,
                           likelihood="gaussian", kl_step_size=0.01)
    rng = np.random.default_rng(0)
    results = []
    for _ in range(3):
      targets = _sampled_targets(kuhn_rules, rng)
      results.append(model.sampled_target_information_gain(targets))
      results.append(np.array([model.train_on_targets(targets)]))
    runs.append(np.concatenate(results))
  np.testing.assert_array_equal(runs[0], runs[1])
  assert not np.array_equal(runs[0], runs[2])


@pytest.mark.slow
def test_train_on_targets_fits_constant_targets(kuhn_rules):
  model = BNNRewardModel(kuhn_rules, seed=0, batch_size=8,
                         learning_rate=0.01, likelihood="gaussian",
                         likelihood_sigma=0.5)
  targets = np.full(len(kuhn_rules.terminals), 0.6)
  first = model.train_on_targets(targets)
  assert model.steps == 4  # ceil(30 / 8) minibatches per pass.
  losses = [model.train_on_targets(targets) for _ in range(150)]
  assert np.mean(losses[-10:]) < first - 0.1
  with torch.no_grad():
    draws = model._draws(model._sigmas())
    outputs = torch.stack([BNNRewardModel._logit(
        {n: w[k] for n, w in draws.items()}, model._inputs)
                           for k in range(model.noise_samples)])
  assert abs(float(outputs.mean()) - 0.6) < 0.2
  # The targets are the pass's data only: nothing was recorded.
  assert model.observations == 0


def test_bad_targets_name_themselves(kuhn_rules):
  model = BNNRewardModel(kuhn_rules, likelihood="gaussian")
  count = len(kuhn_rules.terminals)
  for method in (model.sampled_target_information_gain,
                 model.train_on_targets):
    for bad in (np.zeros(count - 1), np.zeros((count, 1)), np.zeros(0),
                np.full(count, np.nan), ["a"] * count):
      with pytest.raises(ValueError, match="targets"):
        method(bad)
  assert model.steps == 0


def test_likelihoods_keep_to_their_methods(kuhn_rules):
  bernoulli = BNNRewardModel(kuhn_rules)
  targets = np.zeros(len(kuhn_rules.terminals))
  for method in (bernoulli.sampled_target_information_gain,
                 bernoulli.train_on_targets):
    with pytest.raises(ValueError, match="likelihood='gaussian'"):
      method(targets)
  gaussian = BNNRewardModel(kuhn_rules, likelihood="gaussian")
  with pytest.raises(ValueError, match="likelihood='bernoulli'"):
    gaussian.information_gain()
  with pytest.raises(ValueError, match="likelihood='bernoulli'"):
    gaussian.mean_win_probability()
  # Recorded rewards are Gaussian data for a Gaussian model.
  gaussian.observe(kuhn_rules.terminals[2], -0.25)
  assert gaussian._data_win[0] == -0.25
  assert gaussian.train(2) is not None and gaussian.steps == 2


# ------------------------------------------- fresh KL noise, the authors' init
def _small_gaussian(rules, **kwargs):
  """A small Gaussian model of unknown Kuhn for the sampled-target KL."""
  options = dict(features=4, hidden=8, seed=3, noise_samples=4,
                 likelihood="gaussian", likelihood_sigma=0.7,
                 kl_step_size=0.01, learning_rate=0.02)
  options.update(kwargs)
  return BNNRewardModel(rules, **options)


def test_fresh_kl_noise_is_seeded_and_new_on_every_call(kuhn_rules):
  """Same seed, same KLs; another seed, others; consecutive calls at the
  same q and targets differ at every terminal; and training is the same
  whichever kl_noise (the fresh draws have a stream of their own)."""
  runs = []
  for seed in (4, 4, 5):
    model = _small_gaussian(kuhn_rules, seed=seed, kl_noise="fresh")
    targets = _sampled_targets(kuhn_rules, np.random.default_rng(0))
    runs.append([model.sampled_target_information_gain(targets)
                 for _ in range(2)])
  np.testing.assert_array_equal(runs[0], runs[1])
  assert not np.array_equal(runs[0][0], runs[2][0])
  first, second = runs[0]
  assert np.all(first != second) and np.all(first > 0.0)

  fresh = _small_gaussian(kuhn_rules, kl_noise="fresh")
  fixed = _small_gaussian(kuhn_rules, kl_noise="fixed")
  rng = np.random.default_rng(2)
  for _ in range(3):
    targets = _sampled_targets(kuhn_rules, rng)
    for model in (fresh, fixed):
      model.sampled_target_information_gain(targets)
      model.train_on_targets(targets)
  for name in fresh.mu:
    assert torch.equal(fresh.mu[name], fixed.mu[name])
    assert torch.equal(fresh.rho[name], fixed.rho[name])


@pytest.mark.slow
def test_fresh_kl_averages_to_the_fixed_draw_expectation(kuhn_rules):
  """Each terminal's fresh KL is the fixed-draw KL under a new set of
  ``noise_samples`` draws, so its mean over calls is the fixed-draw KL's
  mean over draw sets, here estimated with 1,000 fixed sets (swapped into
  the model) against 1,000 fresh calls at the same q and targets.

  Tolerance: the difference of the two means of 1,000 independent draws
  has standard error se = sqrt(var_fresh / 1000 + var_fixed / 1000) (about
  5% of the mean here: per-terminal KLs have a CV of 1 to 3). Each of the
  30 terminals' differences, and that of their sum, must be within 4.5 se:
  for a normal mean a miss has probability 7e-6 each, 2e-4 for all 31
  (Bonferroni), and 1,000 draws make the means close to normal despite
  the KLs' skew. The check has power: 5% se is far below the gap to a
  wrong draw count (one draw instead of four gives 2 to 4 times the mean).
  Everything is seeded, so the outcome is fixed.
  """
  calls = 1000
  fresh = _small_gaussian(kuhn_rules, kl_noise="fresh")
  fixed = _small_gaussian(kuhn_rules, kl_noise="fixed")
  rng = np.random.default_rng(1)
  for _ in range(20):  # Away from the initial q (identical in both).
    targets = _sampled_targets(kuhn_rules, rng)
    fresh.train_on_targets(targets)
    fixed.train_on_targets(targets)
  targets = _sampled_targets(kuhn_rules, rng)
  fresh_kls = np.array([fresh.sampled_target_information_gain(targets)
                        for _ in range(calls)])
  generator = torch.Generator().manual_seed(11)
  fixed_kls = []
  for _ in range(calls):
    fixed._noise = {name: torch.randn(draws.shape, generator=generator)
                    for name, draws in fixed._noise.items()}
    fixed_kls.append(fixed.sampled_target_information_gain(targets))
  fixed_kls = np.array(fixed_kls)
  for a, b in ((fresh_kls, fixed_kls),
               (fresh_kls.sum(1, keepdims=True),
                fixed_kls.sum(1, keepdims=True))):
    se = np.sqrt(a.var(0, ddof=1) / calls + b.var(0, ddof=1) / calls)
    assert np.all(se < 0.1 * b.mean(0))
    assert np.all(np.abs(a.mean(0) - b.mean(0)) < 4.5 * se)


def test_fresh_kl_noise_pickles_and_continues_exactly(kuhn_rules):
  import pickle  # pylint: disable=g-import-not-at-top
  model = _small_gaussian(kuhn_rules, kl_noise="fresh")
  rng = np.random.default_rng(5)
  targets = _sampled_targets(kuhn_rules, rng)
  model.sampled_target_information_gain(targets)
  model.train_on_targets(targets)
  copy = pickle.loads(pickle.dumps(model))
  assert copy.kl_noise == "fresh"
  for _ in range(3):
    targets = _sampled_targets(kuhn_rules, rng)
    np.testing.assert_array_equal(
        model.sampled_target_information_gain(targets),
        copy.sampled_target_information_gain(targets))
    assert model.train_on_targets(targets) == copy.train_on_targets(targets)


def test_models_pickled_before_kl_noise_keep_fixed_draws(kuhn_rules):
  """A model pickled without kl_noise, init and the KL Generator (as
  before those options) loads as a fixed-draw model with our init."""
  import pickle  # pylint: disable=g-import-not-at-top
  model = _small_gaussian(kuhn_rules)
  targets = _sampled_targets(kuhn_rules, np.random.default_rng(0))
  expected = model.sampled_target_information_gain(targets)
  for name in ("kl_noise", "init", "_kl_generator"):
    del model.__dict__[name]
  old = pickle.loads(pickle.dumps(model))
  assert (old.kl_noise, old.init) == ("fixed", "ours")
  np.testing.assert_array_equal(old.sampled_target_information_gain(targets),
                                expected)


def test_authors_init(kuhn_rules):
  """init="authors": mu ~ N(0, 1) (ten times our N(0, 0.1^2) draws from
  the same stream), sigma = prior_sigma (ours: prior_sigma / 2), and the
  rest of the model's draws unchanged."""
  ours = BNNRewardModel(kuhn_rules, hidden=64, prior_sigma=0.5)
  authors = BNNRewardModel(kuhn_rules, hidden=64, prior_sigma=0.5,
                           init="authors")
  mus = torch.cat([authors.mu[n].detach().reshape(-1) for n in authors.mu])
  assert len(mus) == 6 * 64 + 64 + 64 + 1
  assert 0.9 < float(mus.std()) < 1.1
  for name in ours.mu:
    torch.testing.assert_close(authors.mu[name], 10.0 * ours.mu[name])
    torch.testing.assert_close(authors._sigmas()[name],
                               torch.full_like(ours.rho[name], 0.5))
    torch.testing.assert_close(ours._sigmas()[name],
                               torch.full_like(ours.rho[name], 0.25))
    assert torch.equal(authors._noise[name], ours._noise[name])
  np.testing.assert_array_equal(authors.features, ours.features)
  # The widest prior still gives a finite initial rho.
  wide = BNNRewardModel(kuhn_rules, prior_sigma=1e3, init="authors")
  assert float(wide._sigmas()["b2"].detach()) == pytest.approx(1e3)


def test_bad_kl_noise_and_init_name_themselves(kuhn_rules):
  for bad in ("Fresh", "local", "", None, 1):
    with pytest.raises(ValueError, match="kl_noise"):
      BNNRewardModel(kuhn_rules, likelihood="gaussian", kl_noise=bad)
  for bad in ("theirs", None, 0):
    with pytest.raises(ValueError, match="init"):
      BNNRewardModel(kuhn_rules, init=bad)
