"""A Bayesian neural network model of terminal rewards, and its information gain.

The environment model of Qiu, Wang, Ma, Wen, Zhang, "Combining
Counterfactual Regret Minimization with Information Gain to Solve Extensive
Games with Unknown Environments", arXiv:2110.07892 (VCFR): a Bayesian neural
network p(r | z; theta) of the +1 / -1 reward player 0 receives at terminal
z, whose information gain -- how far one more observation at z would move
the posterior over theta -- is the exploration bonus of VCFR. The bonus is
VIME's (Houthooft, Chen, Duan, Schulman, De Turck, Abbeel, "VIME:
Variational Information Maximizing Exploration", NeurIPS 2016): KL(q after
|| q before) for the variational posterior q, with VIME's second-order
approximation of that KL.

This is the optional alternative to the exact conjugate model of
:mod:`spiel_ext.algorithms.posterior` and it needs PyTorch, installed with
``pip install -e ".[bnn]"``. Nothing in ``spiel_ext`` or
``spiel_ext.algorithms`` imports this module, so the package works without
PyTorch; constructing :class:`BNNRewardModel` without it raises an
ImportError naming the extra.

The model
---------
- Input: a ``features``-dimensional PCA of the one-hot encoding of the
  terminals, as in the paper. The centred one-hot matrix (I - 11^T / T for
  T terminals) has T - 1 equal singular values, so every k-dimensional
  subspace orthogonal to the all-ones vector is a principal subspace and
  the choice among them is arbitrary (LAPACK's is as well, and a full SVD
  of the T x T matrix takes over a minute for Leduc(4)'s 5,643 terminals).
  We take the principal subspace spanned by the centred columns of a seeded
  Gaussian T x k matrix (numpy's thin SVD of that T x k matrix gives its
  orthonormal basis U); the PCA scores of the terminals are then the rows of
  U. Those rows have norm about sqrt(k / T) (0.03 for k = 6 on Leduc(4)):
  the inputs are nearly constant, which the authors' code has too, so the
  network mostly learns one shared win probability and separates terminals
  only slowly. ``standardize=True`` (not the paper's) rescales each feature
  to unit variance (the rows times sqrt(T)), a richer input at no cost.
- Network: one hidden layer of ``hidden`` ReLUs; the output is the logit of
  P(player 0 wins at z). Every weight and bias has a factorised Gaussian
  posterior q = N(mu, sigma^2) with sigma = softplus(rho), and the prior
  N(0, prior_sigma^2). q starts at mu ~ N(0, 0.1^2), sigma = prior_sigma
  / 2: starting at the prior's sigma learns very slowly at lr 0.005, and
  starting much narrower than the prior makes the gain grow as data
  arrives (the KL term first widens q).
- Training: Bayes-by-backprop (Blundell, Cornebise, Kavukcuoglu, Wierstra,
  "Weight Uncertainty in Neural Networks", ICML 2015). Each step draws a
  minibatch of ``batch_size`` recorded outcomes (with replacement, indices
  from a numpy Generator seeded with ``seed``) and minimises the negative
  ELBO per datum, -mean Bernoulli log-likelihood under one reparameterised
  weight sample + KL(q || prior) / (number of outcomes recorded), with Adam
  (``learning_rate``). The weight noise comes from a torch Generator seeded
  with ``seed`` (torch's global generator is left alone).
- Information gain (:meth:`BNNRewardModel.information_gain`): for each
  terminal z, the expected KL(q' || q) where q' is q after one update on a
  hypothetical outcome y at z, y ~ Bernoulli(predictive P(win at z)). As in
  VIME, the update is one step of size lambda (``kl_step_size``, default 1:
  the full Newton step) preconditioned by the diagonal Hessian H of
  KL(q' || q) at q' = q, and KL ~ 0.5 lambda^2 g^T H^-1 g with g the
  gradient of the log-likelihood of (z, y) with respect to (mu, rho). For
  the factorised Gaussian, H_mu = 1 / sigma^2 and H_rho = 2 sigmoid(rho)^2 /
  sigma^2 (VIME's eq. 16-17). With theta = mu + sigma eps and f the logit,
  g_mu = (y - s(f)) df/dtheta and g_rho = g_mu eps sigmoid(rho), so
  g^T H^-1 g = (y - s(f))^2 sum_theta (df/dtheta)^2 sigma^2 (1 + eps^2 / 2).
  The per-terminal gradients df/dtheta come from ``torch.func`` (vmap of
  grad) in one vectorised pass over all terminals, for each of a fixed set
  of ``noise_samples`` weight draws eps, drawn once at construction (so the
  gain is a deterministic function of q); the estimate is averaged over
  them. The expectation over y is p (1 - s)^2 + (1 - p) s^2 times the
  quadratic form, with p the predictive P(win) (the mean of s over the same
  draws).

What differs from the authors' code
-----------------------------------
The defaults follow the paper's text (hidden layer 32, Adam lr 0.005, batch
500); the authors' shipped code uses hidden 64, lr 0.01, batch 1000 (and
eta 0.01 for the bonus weight, which belongs to the learner, not to this
model): pass ``hidden=64, learning_rate=0.01, batch_size=1000`` for those.
Their network is trained on posterior-sampled rewards and their per-terminal
KL is computed by retraining a copy of the network for every terminal
(minutes per iteration on Leduc(4)); here the network is trained on the
outcomes actually observed and the KL uses VIME's closed-form second-order
approximation, vectorised over terminals (well under a second on Leduc(4)).
Everything is seeded, so runs are reproducible.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from spiel_ext.algorithms.checks import (check_bool, check_int, check_real,
                                         check_seed)
from spiel_ext.engine import GameTree

_INSTALL_HINT = ('BNNRewardModel needs PyTorch: install the optional extra '
                 'with `pip install -e ".[bnn]"` (or `pip install '
                 '"spiel-ext[bnn]"`).')


def _import_torch():
  """torch and torch.func, or an ImportError naming the ``bnn`` extra."""
  try:
    import torch  # pylint: disable=import-outside-toplevel
    from torch import func  # pylint: disable=import-outside-toplevel
  except ImportError as error:
    raise ImportError(_INSTALL_HINT) from error
  return torch, func


# Upper bounds of the size arguments: each is allocated as a tensor
# (hidden x features weights, noise_samples draws of every weight, a
# batch_size minibatch per step), so a mistyped 10**9 would exhaust memory.
MAX_HIDDEN = 2**14
MAX_BATCH_SIZE = 2**20
MAX_NOISE_SAMPLES = 2**12
# prior_sigma's range: q starts at sigma = softplus(rho) = prior_sigma / 2
# with rho = log(expm1(prior_sigma / 2)), finite and resolvable in float32
# (the network's dtype) only for moderate sigmas.
PRIOR_SIGMA_RANGE = (1e-3, 1e3)
# kl_step_size (VIME's lambda) enters the gain squared, times float32
# values: beyond 1e6 a gain could overflow float32.
MAX_KL_STEP_SIZE = 1e6


def pca_features(num_terminals: int, features: int,
                 rng: np.random.Generator) -> np.ndarray:
  """[num_terminals, features]: PCA scores of the terminals' one-hot codes.

  The centred one-hot matrix has ``num_terminals - 1`` equal singular
  values, so any ``features``-dimensional subspace orthogonal to the
  all-ones vector is a principal subspace; the one returned is spanned by
  the centred columns of a Gaussian matrix drawn from ``rng`` (orthonormal
  basis from numpy's thin SVD). The scores are that basis's rows.
  """
  if features > num_terminals - 1:
    raise ValueError(
        f"features must be at most the number of terminals - 1 "
        f"({num_terminals - 1}); got {features}.")
  draws = rng.standard_normal((num_terminals, features))
  draws -= draws.mean(axis=0, keepdims=True)
  basis, _, _ = np.linalg.svd(draws, full_matrices=False)
  return basis


class BNNRewardModel:
  """A Bayesian neural network of P(player 0 wins at z), with VIME's
  information gain (see the module docstring).

  Args:
    tree: the rules (the base game's compiled tree); only its terminals are
      modelled.
    hidden: hidden ReLU units, an int in 1..2**14 (default 32, the paper's).
    features: PCA dimensions of the input, an int >= 1 and below the number
      of terminals (default 6, the paper's).
    learning_rate: Adam's step size, in (0, 1] (default 0.005).
    batch_size: outcomes per training step, an int in 1..2**20 (default
      500).
    prior_sigma: the prior's standard deviation, in [1e-3, 1e3] (default
      1).
    seed: an int in 0..2**63 - 1 (default 0): the PCA basis, the initial
      weights, the minibatches and every weight draw.
    kl_step_size: VIME's lambda, in (0, 1e6] (default 1.0).
    noise_samples: weight draws for the predictive probability and the
      information gain, an int in 1..2**12 (default 16).
    standardize: rescale the PCA features to unit variance (default False,
      the paper's nearly constant inputs).

  Attributes:
    features: [terminals, features] numpy array, the inputs (terminal order
      of ``tree.terminals``).
    observations: the number of outcomes recorded.
    steps: the number of training steps taken.
  """

  def __init__(self, tree: GameTree, *, hidden: int = 32, features: int = 6,
               learning_rate: float = 0.005, batch_size: int = 500,
               prior_sigma: float = 1.0, seed: int = 0,
               kl_step_size: float = 1.0, noise_samples: int = 16,
               standardize: bool = False):
    self.hidden = check_int("hidden", hidden, 1, MAX_HIDDEN)
    num_features = check_int("features", features, 1)
    # Adam moves every weight by up to about learning_rate per step; larger
    # steps than 1 only diverge (to NaN weights).
    self.learning_rate = check_real("learning_rate", learning_rate, 0.0, 1.0,
                                    low_inclusive=False)
    self.batch_size = check_int("batch_size", batch_size, 1, MAX_BATCH_SIZE)
    self.prior_sigma = check_real("prior_sigma", prior_sigma,
                                  *PRIOR_SIGMA_RANGE)
    if isinstance(seed, (bool, np.bool_)) or seed is None:
      raise ValueError(f"seed must be an int in 0..2**63 - 1; got {seed!r}.")
    try:
      self.seed = check_seed(seed)
    except TypeError as error:
      raise ValueError(str(error)) from error
    self.kl_step_size = check_real("kl_step_size", kl_step_size, 0.0,
                                   MAX_KL_STEP_SIZE, low_inclusive=False)
    self.noise_samples = check_int("noise_samples", noise_samples, 1,
                                   MAX_NOISE_SAMPLES)
    self.standardize = check_bool("standardize", standardize)
    terminals = np.asarray(tree.terminals, dtype=np.int64)
    if len(terminals) < 2:
      raise ValueError("the tree needs at least 2 terminals; got "
                       f"{len(terminals)}.")
    torch, _ = _import_torch()
    self._num_histories = tree.num_histories  # Not the tree: it pickles.
    self._terminals = terminals
    self._position = np.full(tree.num_histories, -1, dtype=np.int64)
    self._position[terminals] = np.arange(len(terminals))

    rng = np.random.default_rng(self.seed)
    self.features = pca_features(len(terminals), num_features, rng)
    if self.standardize:
      self.features = self.features * math.sqrt(len(terminals))
    self._batch_rng = np.random.default_rng(rng.integers(2**63))
    self._generator = torch.Generator().manual_seed(
        int(rng.integers(2**63)))
    self._inputs = torch.as_tensor(self.features, dtype=torch.float32)

    shapes = {"w1": (num_features, self.hidden), "b1": (self.hidden,),
              "w2": (self.hidden,), "b2": ()}
    self._names = list(shapes)
    initial_rho = math.log(math.expm1(0.5 * self.prior_sigma))
    self.mu, self.rho = {}, {}
    for name, shape in shapes.items():
      self.mu[name] = (0.1 * torch.randn(shape, generator=self._generator)
                       ).requires_grad_(True)
      self.rho[name] = torch.full(shape, initial_rho).requires_grad_(True)
    self._optimizer = torch.optim.Adam(
        [*self.mu.values(), *self.rho.values()], lr=self.learning_rate)
    # The fixed draws for the predictive probability and the gain.
    self._noise = {name: torch.randn((self.noise_samples, *shape),
                                     generator=self._generator)
                   for name, shape in shapes.items()}
    self._data_terminal = np.zeros(0, dtype=np.int64)  # positions
    self._data_win = np.zeros(0, dtype=np.float32)
    self.observations = 0
    self.steps = 0

  # ------------------------------------------------------------- the data
  def observe(self, terminal, reward: float) -> None:
    """Records one outcome: the terminal history reached (or an episode's
    path of histories, root to terminal, as the conjugate model takes) and
    player 0's reward there (> 0 a win, otherwise a loss)."""
    path = np.atleast_1d(np.asarray(terminal, dtype=np.int64))
    if path.ndim != 1 or len(path) == 0:
      raise ValueError(f"terminal must be a history or a path of histories; "
                       f"got {terminal!r}.")
    history = int(path[-1])
    if (not 0 <= history < self._num_histories or
        self._position[history] < 0):
      raise ValueError(f"terminal must be a terminal history; history "
                       f"{history} is not one.")
    if not np.isfinite(reward):
      raise ValueError(f"reward must be a finite number; got {reward!r}.")
    if self.observations == len(self._data_terminal):
      size = max(1024, 2 * self.observations)
      self._data_terminal = np.resize(self._data_terminal, size)
      self._data_win = np.resize(self._data_win, size)
    self._data_terminal[self.observations] = self._position[history]
    self._data_win[self.observations] = 1.0 if reward > 0 else 0.0
    self.observations += 1

  # -------------------------------------------------------------- network
  def _sigmas(self) -> dict:
    torch, _ = _import_torch()
    return {name: torch.nn.functional.softplus(rho)
            for name, rho in self.rho.items()}

  @staticmethod
  def _logit(weights: dict, inputs):
    """The network's logit for ``inputs`` [..., features]."""
    hidden = (inputs @ weights["w1"] + weights["b1"]).relu()
    return hidden @ weights["w2"] + weights["b2"]

  def _kl_to_prior(self, sigmas: dict):
    """KL(q || N(0, prior_sigma^2)), summed over all weights."""
    torch, _ = _import_torch()
    total = torch.zeros(())
    variance = self.prior_sigma**2
    for name in self._names:
      mu, sigma = self.mu[name], sigmas[name]
      total = total + (math.log(self.prior_sigma) - torch.log(sigma) +
                       (sigma**2 + mu**2) / (2 * variance) - 0.5).sum()
    return total

  def train(self, steps: int = 1) -> float | None:
    """``steps`` Bayes-by-backprop minibatch steps on the recorded outcomes;
    returns the last step's loss (the negative ELBO per outcome), or None
    when nothing has been recorded (then nothing changes)."""
    steps = check_int("steps", steps, 0)
    if self.observations == 0 or steps == 0:
      return None
    torch, _ = _import_torch()
    loss_value = None
    for _ in range(steps):
      picks = self._batch_rng.integers(self.observations,
                                       size=self.batch_size)
      positions = torch.as_tensor(self._data_terminal[picks])
      wins = torch.as_tensor(self._data_win[picks])
      sigmas = self._sigmas()
      weights = {name: self.mu[name] + sigmas[name] * torch.randn(
          self.mu[name].shape, generator=self._generator)
                 for name in self._names}
      logits = self._logit(weights, self._inputs[positions])
      log_likelihood = -torch.nn.functional.binary_cross_entropy_with_logits(
          logits, wins)
      loss = -log_likelihood + self._kl_to_prior(sigmas) / self.observations
      self._optimizer.zero_grad()
      loss.backward()
      self._optimizer.step()
      loss_value = float(loss.detach())
      self.steps += 1
    return loss_value

  # ----------------------------------------------------------- read-outs
  def _draws(self, sigmas: dict) -> dict:
    """[noise_samples, ...] weights of the fixed draws."""
    return {name: self.mu[name] + sigmas[name] * self._noise[name]
            for name in self._names}

  def _terminal_win_probability(self):
    """[noise_samples, terminals] P(win) under each fixed draw."""
    torch, func = _import_torch()
    with torch.no_grad():
      draws = self._draws(self._sigmas())
      logits = func.vmap(self._logit, in_dims=(0, None))(
          draws, self._inputs)
      return torch.sigmoid(logits)

  def mean_win_probability(self) -> np.ndarray:
    """[histories]: the predictive P(player 0 wins) at each terminal (the
    mean over the fixed weight draws), 0 elsewhere."""
    out = np.zeros(self._num_histories)
    out[self._terminals] = (
        self._terminal_win_probability().mean(0).double().numpy())
    return out

  def information_gain(self) -> np.ndarray:
    """[histories]: at each terminal z, VIME's second-order approximation of
    the expected KL(q after || q before) of one update on a hypothetical
    outcome at z (see the module docstring); 0 elsewhere. A fresh array,
    recomputed on each call."""
    torch, func = _import_torch()
    with torch.no_grad():
      sigmas = self._sigmas()
      draws = self._draws(sigmas)
      # [noise_samples, terminals] logits and per-terminal d logit / d w.
      per_terminal = func.vmap(func.grad(self._logit), in_dims=(None, 0))
      per_draw = func.vmap(per_terminal, in_dims=(0, None))
      gradients = per_draw(draws, self._inputs)
      logits = func.vmap(self._logit, in_dims=(0, None))(draws, self._inputs)
      wins = torch.sigmoid(logits)
      predictive = wins.mean(0, keepdim=True)
      quadratic = torch.zeros_like(wins)
      for name in self._names:
        # sigma^2 (1 + eps^2 / 2): H^-1 over the mu and rho coordinates.
        scale = sigmas[name]**2 * (1.0 + 0.5 * self._noise[name]**2)
        squared = gradients[name]**2  # [draws, terminals, *shape]
        scale = scale.unsqueeze(1)  # [draws, 1, *shape]
        quadratic += (squared * scale).reshape(
            *quadratic.shape, -1).sum(-1)
      expected_residual = (predictive * (1.0 - wins)**2 +
                           (1.0 - predictive) * wins**2)
      gain = 0.5 * self.kl_step_size**2 * (expected_residual *
                                           quadratic).mean(0)
    out = np.zeros(self._num_histories)
    out[self._terminals] = gain.double().numpy()
    return out
