"""A Bayesian neural network model of terminal rewards and its information
gain.

The environment model of Qiu, Wang, Ma, Wen, Zhang, "Combining
Counterfactual Regret Minimization with Information Gain to Solve Extensive
Games with Unknown Environments", arXiv:2110.07892 (VCFR): a Bayesian neural
network p(r | z; theta) of the +1 / -1 reward player 0 receives at terminal
z, whose information gain -- how far one more observation at z would move
the posterior over theta -- is the exploration bonus of VCFR. The bonus is
VIME's (Houthooft, Chen, Duan, Schulman, De Turck, Abbeel, "VIME:
Variational Information Maximizing Exploration", NeurIPS 2016): KL(q after
|| q before) for the variational posterior q, with VIME's second-order
approximation of that KL; the network is trained by Bayes-by-backprop
(Blundell, Cornebise, Kavukcuoglu, Wierstra, "Weight Uncertainty in Neural
Networks", ICML 2015).

This is the optional alternative to the exact conjugate model of
:mod:`spiel_ext.algorithms.posterior` and it needs PyTorch, installed with
``pip install -e ".[bnn]"``. Nothing in ``spiel_ext`` or
``spiel_ext.algorithms`` imports this module, so the package works without
PyTorch; constructing :class:`BNNRewardModel` without it raises an
ImportError naming the extra.

The options, inputs and initial weights are in
:mod:`spiel_ext.algorithms.bnn_setup`, the information gains' computation
in :mod:`spiel_ext.algorithms.bnn_gain` and the checkpoint's torch parts in
:mod:`spiel_ext.algorithms.bnn_state`. The model (its inputs, network,
likelihoods, training and information gain), the authors' KL
(:meth:`BNNRewardModel.sampled_target_information_gain` and
:meth:`BNNRewardModel.train_on_targets`) and what differs from the
authors' code are described in the user guide's page "The network's
information gain".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from spiel_ext.algorithms.bnn_gain import expected_update_kl, sampled_target_kl
# The options' bounds and pca_features are imported from here too.
# pylint: disable-next=unused-import
from spiel_ext.algorithms.bnn_setup import (INITS, KL_NOISES,
                                            LIKELIHOOD_SIGMA_RANGE,
                                            LIKELIHOODS, MAX_BATCH_SIZE,
                                            MAX_HIDDEN, MAX_KL_STEP_SIZE,
                                            MAX_NOISE_SAMPLES,
                                            PRIOR_SIGMA_RANGE,
                                            checked_options, checked_targets,
                                            import_torch, initial_weights,
                                            pca_features)
from spiel_ext.algorithms.bnn_state import (adam_moments, checked_parameters,
                                            load_adam_moments)
from spiel_ext.algorithms.checks import check_int
from spiel_ext.engine import GameTree


class BNNRewardModel:
  """A Bayesian neural network of the reward at terminal z, with VIME's
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
      information gain, an int in 1..2**12 (default 16); with
      ``kl_noise="fresh"``, also the fresh draws per terminal of
      :meth:`sampled_target_information_gain` (the authors': 10).
    standardize: rescale the PCA features to unit variance (default False,
      the paper's nearly constant inputs).
    likelihood: "bernoulli" (default: win or loss, the paper's) or
      "gaussian" (a real-valued reward with standard deviation
      ``likelihood_sigma``, the authors' code; needed by
      :meth:`train_on_targets` and :meth:`sampled_target_information_gain`).
    likelihood_sigma: the Gaussian likelihood's standard deviation, in
      [1e-3, 1e3] (default 5.0, the authors'); unused by "bernoulli".
    kl_noise: the weight draws of :meth:`sampled_target_information_gain`:
      "fixed" (default: the model's fixed ``noise_samples`` draws, the same
      for every terminal and call) or "fresh" (``noise_samples`` new draws
      for every terminal on every call, from a torch Generator of their own
      seeded from ``seed``, as the authors).
    init: the initial q: "ours" (default: mu ~ N(0, 0.1^2), sigma =
      prior_sigma / 2) or "authors" (mu ~ N(0, 1), sigma = prior_sigma;
      with ``prior_sigma=0.5``, their bnn.py's initialisation and prior).

  Attributes:
    features: [terminals, features] numpy array, the inputs (terminal order
      of ``tree.terminals``).
    observations: the number of outcomes recorded.
    steps: the number of training steps taken.
  """

  # The checked options (see Args), set by the constructor.
  hidden: int
  learning_rate: float
  batch_size: int
  prior_sigma: float
  seed: int
  kl_step_size: float
  noise_samples: int
  standardize: bool
  likelihood: str
  likelihood_sigma: float
  kl_noise: str
  init: str

  def __init__(self, tree: GameTree, *, hidden: int = 32, features: int = 6,
               learning_rate: float = 0.005, batch_size: int = 500,
               prior_sigma: float = 1.0, seed: int = 0,
               kl_step_size: float = 1.0, noise_samples: int = 16,
               standardize: bool = False, likelihood: str = "bernoulli",
               likelihood_sigma: float = 5.0, kl_noise: str = "fixed",
               init: str = "ours"):
    options = checked_options(
        hidden=hidden, features=features, learning_rate=learning_rate,
        batch_size=batch_size, prior_sigma=prior_sigma, seed=seed,
        kl_step_size=kl_step_size, noise_samples=noise_samples,
        standardize=standardize, likelihood=likelihood,
        likelihood_sigma=likelihood_sigma, kl_noise=kl_noise, init=init)
    num_features = options.pop("features")
    for name, value in options.items():
      setattr(self, name, value)
    terminals = np.asarray(tree.terminals, dtype=np.int64)
    if len(terminals) < 2:
      raise ValueError("the tree needs at least 2 terminals; got "
                       f"{len(terminals)}.")
    torch, _ = import_torch()
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
    self.mu, self.rho = initial_weights(shapes, self.init, self.prior_sigma,
                                        self._generator)
    self._optimizer = torch.optim.Adam(
        [*self.mu.values(), *self.rho.values()], lr=self.learning_rate)
    # The fixed draws for the predictive probability and the gain.
    self._noise = {name: torch.randn((self.noise_samples, *shape),
                                     generator=self._generator)
                   for name, shape in shapes.items()}
    # The fresh draws of the sampled-target gain (kl_noise="fresh"): a
    # stream of their own, so that training draws the same weights and
    # minibatches whichever kl_noise (seeded last: the streams above are
    # those of models built before this option).
    self._kl_generator = torch.Generator().manual_seed(
        int(rng.integers(2**63)))
    self._data_terminal = np.zeros(0, dtype=np.int64)  # positions
    self._data_win = np.zeros(0, dtype=np.float32)  # 1 / 0, or the reward
    self.observations = 0
    self.steps = 0

  # Models pickled before the likelihood option were Bernoulli ones, and
  # those pickled before kl_noise and init had fixed draws and our init
  # (they have no _kl_generator, which only "fresh" uses).
  likelihood = "bernoulli"
  likelihood_sigma = 5.0
  kl_noise = "fixed"
  init = "ours"

  def _require(self, likelihood: str, method: str) -> None:
    if self.likelihood != likelihood:
      raise ValueError(
          f"{method} needs a model built with likelihood={likelihood!r}; "
          f"this one has likelihood={self.likelihood!r}.")

  # ---------------------------------------------------------- checkpoints
  def _parameters(self) -> dict:
    """{"mu.w1": tensor, ...} in the optimiser's order of parameters."""
    return {**{f"mu.{name}": tensor for name, tensor in self.mu.items()},
            **{f"rho.{name}": tensor for name, tensor in self.rho.items()}}

  def state_dict(self) -> dict[str, Any]:
    """What training changes, as numpy arrays and numbers: q's mu and rho,
    Adam's moments and step counts, the recorded outcomes, the states of
    the minibatch Generator and of the two torch Generators, and the
    counts. The rest (the inputs, the fixed draws, the options) is rebuilt
    from the constructor's arguments, which the model that loads this
    state must share.

    Returns:
      {"seed", "parameters", "adam", "observations", "steps",
      "data_terminal", "data_win", "batch_rng", "generator",
      "kl_generator"}.
    """
    kl_generator = getattr(self, "_kl_generator", None)
    return {
        "seed": self.seed,
        "parameters": {name: tensor.detach().numpy().copy()
                       for name, tensor in self._parameters().items()},
        "adam": adam_moments(self._optimizer, list(self._parameters())),
        "observations": self.observations, "steps": self.steps,
        "data_terminal": self._data_terminal[:self.observations].copy(),
        "data_win": self._data_win[:self.observations].copy(),
        "batch_rng": self._batch_rng.bit_generator.state,
        "generator": self._generator.get_state().numpy().copy(),
        "kl_generator": (None if kl_generator is None else
                         kl_generator.get_state().numpy().copy()),
    }

  def load_state_dict(self, state: dict[str, Any]) -> None:
    """Restores a :meth:`state_dict` of a model built with the same
    arguments (in place: the optimiser keeps its parameters).

    Args:
      state: a :meth:`state_dict`.

    Raises:
      ValueError: the state is of a model with another seed or sizes.
    """
    torch, _ = import_torch()
    parameters = self._parameters()
    values, observations = checked_parameters(state, self.seed, parameters)
    with torch.no_grad():
      for name, tensor in parameters.items():
        tensor.copy_(torch.from_numpy(values[name].copy()))
    load_adam_moments(self._optimizer, list(parameters), state["adam"])
    self._data_terminal = np.array(state["data_terminal"], dtype=np.int64)
    self._data_win = np.array(state["data_win"], dtype=np.float32)
    self.observations = observations
    self.steps = int(state["steps"])
    self._batch_rng.bit_generator.state = state["batch_rng"]
    self._generator.set_state(torch.from_numpy(
        np.array(state["generator"], dtype=np.uint8)))
    if state["kl_generator"] is not None:
      self._kl_generator.set_state(torch.from_numpy(
          np.array(state["kl_generator"], dtype=np.uint8)))

  # ------------------------------------------------------------- the data
  def observe(self, terminal: int | Sequence[int] | np.ndarray,
              reward: float) -> None:
    """Records one outcome: the terminal history reached (or an episode's
    path of histories, root to terminal, as the conjugate model takes) and
    player 0's reward there (Bernoulli: > 0 a win, otherwise a loss;
    Gaussian: the reward itself).

    Args:
      terminal: a terminal history of ``tree``, or a path of histories
        ending at one.
      reward: player 0's reward, a finite number.

    Raises:
      ValueError: ``terminal`` is not a terminal history (or a path ending
        at one), or ``reward`` is not finite.
    """
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
    if self.likelihood == "gaussian":
      self._data_win[self.observations] = reward
    else:
      self._data_win[self.observations] = 1.0 if reward > 0 else 0.0
    self.observations += 1

  # -------------------------------------------------------------- network
  def _sigmas(self) -> dict:
    torch, _ = import_torch()
    return {name: torch.nn.functional.softplus(rho)
            for name, rho in self.rho.items()}

  @staticmethod
  def _logit(weights: dict, inputs: Any) -> Any:
    """The network's logit for ``inputs`` [..., features]."""
    hidden = (inputs @ weights["w1"] + weights["b1"]).relu()
    return hidden @ weights["w2"] + weights["b2"]

  def _mean_negative_log_likelihood(self, outputs: Any, targets: Any) -> Any:
    """The mean over ``outputs`` of -log p(target | output)."""
    torch, _ = import_torch()
    if self.likelihood == "gaussian":
      sigma = self.likelihood_sigma
      return (0.5 * ((targets - outputs) / sigma)**2 + math.log(sigma) +
              0.5 * math.log(2.0 * math.pi)).mean()
    return torch.nn.functional.binary_cross_entropy_with_logits(outputs,
                                                                targets)

  def _sample_weights(self, sigmas: dict) -> dict:
    """One reparameterised draw of every weight (the torch Generator)."""
    torch, _ = import_torch()
    return {name: self.mu[name] + sigmas[name] * torch.randn(
        self.mu[name].shape, generator=self._generator)
            for name in self._names}

  def _kl_to_prior(self, sigmas: dict) -> Any:
    """KL(q || N(0, prior_sigma^2)), summed over all weights."""
    torch, _ = import_torch()
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
    when nothing has been recorded (then nothing changes).

    Args:
      steps: the number of steps, an int >= 0.

    Returns:
      The last step's loss, or None.

    Raises:
      ValueError: ``steps`` is not an int >= 0.
    """
    steps = check_int("steps", steps, 0)
    if self.observations == 0 or steps == 0:
      return None
    torch, _ = import_torch()
    loss_value = None
    for _ in range(steps):
      picks = self._batch_rng.integers(self.observations,
                                       size=self.batch_size)
      loss_value = self._step(
          torch.as_tensor(self._data_terminal[picks]),
          torch.as_tensor(self._data_win[picks]), self.observations)
    return loss_value

  def _step(self, positions: Any, targets: Any, data_size: int) -> float:
    """One Adam step on the negative ELBO per datum of the minibatch
    (terminal ``positions``, ``targets``) from ``data_size`` data; returns
    that loss."""
    sigmas = self._sigmas()
    weights = self._sample_weights(sigmas)
    outputs = self._logit(weights, self._inputs[positions])
    loss = (self._mean_negative_log_likelihood(outputs, targets) +
            self._kl_to_prior(sigmas) / data_size)
    self._optimizer.zero_grad()
    loss.backward()
    self._optimizer.step()
    self.steps += 1
    return float(loss.detach())

  # ------------------------------------------- the authors' sampled targets
  def train_on_targets(self, targets: np.ndarray) -> float:
    """One pass of Bayes-by-backprop over every terminal, on real targets.

    The authors' training step (module docstring, "The authors' KL"): the
    terminals in an order shuffled by the model's numpy Generator, in
    minibatches of ``batch_size``, one Adam step each on the negative ELBO
    per terminal, the mean of -log N(targets[z]; f(z),
    likelihood_sigma^2) over the minibatch + KL(q || prior) / (number of
    terminals), under one weight draw from the model's torch Generator.
    Recorded outcomes (:meth:`observe`) are neither used nor changed.

    Args:
      targets: [terminals] real numbers, in the order of ``tree.terminals``
        (the authors': the reward of a posterior draw, in [-1, 1]).

    Returns:
      The mean loss of the pass: the minibatches' losses weighted by their
      sizes.

    Raises:
      ValueError: ``targets`` is not [terminals] finite numbers, or the
        model's likelihood is not "gaussian".
    """
    self._require("gaussian", "train_on_targets")
    values = checked_targets(targets, len(self._terminals))
    torch, _ = import_torch()
    count = len(self._terminals)
    order = self._batch_rng.permutation(count)
    targets_tensor = torch.as_tensor(values, dtype=torch.float32)
    total = 0.0
    for start in range(0, count, self.batch_size):
      positions = torch.as_tensor(order[start:start + self.batch_size])
      total += len(positions) * self._step(
          positions, targets_tensor[positions], count)
    return total / count

  def sampled_target_information_gain(self, targets: np.ndarray
                                      ) -> np.ndarray:
    """[terminals]: the authors' KL, VIME's second-order KL of an update on
    the one sample (z, targets[z]), for every terminal z.

    KL_z = lambda^2 sum_params (g_mu^2 sigma^2 + g_rho^2 sigma^2 / (2
    sigmoid(rho)^2)), lambda = ``kl_step_size`` (the authors' 0.01), with g
    the gradient with respect to (mu, rho), at the current q, of the loss
    of one sample, -log N(targets[z]; f(z), likelihood_sigma^2), averaged
    over ``noise_samples`` weights theta = mu + sigma eps (see the module
    docstring, "The authors' KL", for the source and what differs). With
    ``kl_noise="fixed"`` the eps are the model's fixed draws, the same for
    every terminal and call: the KL is then a deterministic function of q
    and the targets, with no independent noise between terminals. With
    ``kl_noise="fresh"`` (the authors') every terminal gets
    ``noise_samples`` new eps on every call, from the model's KL Generator
    (seeded from ``seed``, advanced by each call and pickled with the
    model); each terminal's KL is then a random variable whose mean over
    the draws is the mean of the fixed-draw KL over fixed draws. The
    posterior mean weights would make the gradient with respect to rho
    zero, and half of the KL with it. The gradients come from
    ``torch.func`` (vmap over terminals of the grad of the one-sample
    loss), in chunks of terminals. The KLs are raw: neither normalised nor
    clamped (the authors clamp to [0, 1000]).

    Args:
      targets: [terminals] real numbers, in the order of ``tree.terminals``
        (the authors': the reward of a posterior draw, in [-1, 1]).

    Returns:
      A fresh float64 array of the KLs, in the order of ``tree.terminals``.

    Raises:
      ValueError: ``targets`` is not [terminals] finite numbers, or the
        model's likelihood is not "gaussian".
    """
    self._require("gaussian", "sampled_target_information_gain")
    values = checked_targets(targets, len(self._terminals))
    kl_generator = self._kl_generator if self.kl_noise == "fresh" else None
    return sampled_target_kl(self._logit, self._mean_negative_log_likelihood,
                             self.mu, self.rho, self._inputs, values,
                             self._noise, self.kl_step_size, kl_generator)

  # ----------------------------------------------------------- read-outs
  def _draws(self, sigmas: dict) -> dict:
    """[noise_samples, ...] weights of the fixed draws."""
    return {name: self.mu[name] + sigmas[name] * self._noise[name]
            for name in self._names}

  def _terminal_win_probability(self) -> Any:
    """[noise_samples, terminals] P(win) under each fixed draw."""
    torch, func = import_torch()
    with torch.no_grad():
      draws = self._draws(self._sigmas())
      logits = func.vmap(self._logit, in_dims=(0, None))(
          draws, self._inputs)
      return torch.sigmoid(logits)

  def mean_win_probability(self) -> np.ndarray:
    """[histories]: the predictive P(player 0 wins) at each terminal (the
    mean over the fixed weight draws), 0 elsewhere. Bernoulli models
    only.

    Returns:
      A new [histories] array.

    Raises:
      ValueError: the model's likelihood is not "bernoulli".
    """
    self._require("bernoulli", "mean_win_probability")
    out = np.zeros(self._num_histories)
    out[self._terminals] = (
        self._terminal_win_probability().mean(0).double().numpy())
    return out

  def information_gain(self) -> np.ndarray:
    """[histories]: at each terminal z, VIME's second-order approximation of
    the expected KL(q after || q before) of one update on a hypothetical
    outcome at z (see the module docstring); 0 elsewhere. A fresh array,
    recomputed on each call. Bernoulli models only.

    Returns:
      A new [histories] array.

    Raises:
      ValueError: the model's likelihood is not "bernoulli".
    """
    self._require("bernoulli", "information_gain")
    torch, _ = import_torch()
    with torch.no_grad():
      sigmas = self._sigmas()
      gain = expected_update_kl(self._logit, self._draws(sigmas), sigmas,
                                self._noise, self._inputs, self.kl_step_size)
    out = np.zeros(self._num_histories)
    out[self._terminals] = gain.double().numpy()
    return out
