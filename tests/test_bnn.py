"""The Bayesian neural network reward model (the optional ``bnn`` extra).

References: known win probabilities the network must move toward, the
exact KL between the factorised Gaussians before and after an explicit
(autograd) VIME update, and the conjugate model's qualitative behaviour
(the gain of a terminal shrinks as it is observed).
"""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import spiel_ext.games  # pylint: disable=unused-import,wrong-import-position
from spiel_ext.algorithms.bnn import (BNNRewardModel,  # pylint: disable=wrong-import-position
                                      pca_features)
from spiel_ext.engine import compile_game  # pylint: disable=wrong-import-position


@pytest.fixture(scope="module")
def tiny():
  return compile_game("spiel_ext_bid_leduc(max_bid=1)")


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
    ("noise_samples", 0)])
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
