"""The options, inputs and initial weights of the network reward model.

What :class:`spiel_ext.algorithms.bnn.BNNRewardModel` is built from: the
bounds of its options and their checks, PyTorch (imported when a model is
built, so that nothing here needs it at import), the PCA inputs of the
terminals and the initial variational posterior q of the weights, a
factorised Gaussian N(mu, softplus(rho)^2) as in Bayes-by-backprop
(Blundell, Cornebise, Kavukcuoglu, Wierstra, "Weight Uncertainty in Neural
Networks", ICML 2015).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from spiel_ext.algorithms.checks import (check_bool, check_choice,
                                         check_int, check_real, check_seed)

_INSTALL_HINT = ('BNNRewardModel needs PyTorch: install the optional extra '
                 'with `pip install -e ".[bnn]"` (or `pip install '
                 '"spiel-ext[bnn]"`).')

# Upper bounds of the size arguments: each is allocated as a tensor
# (hidden x features weights, noise_samples draws of every weight, a
# batch_size minibatch per step), so a mistyped 10**9 would exhaust memory.
MAX_HIDDEN = 2**14
MAX_BATCH_SIZE = 2**20
MAX_NOISE_SAMPLES = 2**12
# prior_sigma's range: q starts at sigma = softplus(rho) = prior_sigma / 2
# (init "ours") or prior_sigma (init "authors"), with rho the inverse
# softplus of that sigma, finite and resolvable in float32 (the network's
# dtype) only for moderate sigmas.
PRIOR_SIGMA_RANGE = (1e-3, 1e3)
# likelihood_sigma's range: residuals are divided by its square in float32.
LIKELIHOOD_SIGMA_RANGE = (1e-3, 1e3)
LIKELIHOODS = ("bernoulli", "gaussian")
# The weight draws of the sampled-target gain: the model's fixed draws, or
# fresh ones for every terminal on every call (the authors').
KL_NOISES = ("fixed", "fresh")
# The initial q: ours (mu ~ N(0, 0.1^2), sigma = prior_sigma / 2) or the
# authors' (mu ~ N(0, 1), sigma = prior_sigma).
INITS = ("ours", "authors")
# kl_step_size (VIME's lambda) enters the gain squared, times float32
# values: beyond 1e6 a gain could overflow float32.
MAX_KL_STEP_SIZE = 1e6


def import_torch() -> tuple[Any, Any]:
  """PyTorch, imported when a model needs it.

  Returns:
    (torch, torch.func).

  Raises:
    ImportError: PyTorch is not installed (naming the ``bnn`` extra).
  """
  try:
    import torch  # pylint: disable=import-outside-toplevel
    from torch import func  # pylint: disable=import-outside-toplevel
  except ImportError as error:
    raise ImportError(_INSTALL_HINT) from error
  return torch, func


def _inverse_softplus(sigma: float) -> float:
  """rho with softplus(rho) = sigma > 0: log(expm1(sigma)), written so that
  it does not overflow for large sigma."""
  return sigma + math.log(-math.expm1(-sigma))


def checked_options(*, hidden: Any, features: Any, learning_rate: Any,
                    batch_size: Any, prior_sigma: Any, seed: Any,
                    kl_step_size: Any, noise_samples: Any, standardize: Any,
                    likelihood: Any, likelihood_sigma: Any, kl_noise: Any,
                    init: Any) -> dict[str, Any]:
  """The model's options, checked in this order (see
  :class:`~spiel_ext.algorithms.bnn.BNNRewardModel` for their ranges).

  Args:
    hidden: hidden ReLU units.
    features: PCA dimensions of the input.
    learning_rate: Adam's step size.
    batch_size: outcomes per training step.
    prior_sigma: the prior's standard deviation.
    seed: the model's random streams.
    kl_step_size: VIME's lambda.
    noise_samples: weight draws.
    standardize: whether the features are rescaled.
    likelihood: "bernoulli" or "gaussian".
    likelihood_sigma: the Gaussian likelihood's standard deviation.
    kl_noise: "fixed" or "fresh".
    init: "ours" or "authors".

  Returns:
    {name: checked value} in the order of the arguments ("features" the
    number of PCA dimensions).

  Raises:
    ValueError: an option out of its range, naming it.
  """
  options: dict[str, Any] = {
      "hidden": check_int("hidden", hidden, 1, MAX_HIDDEN),
      "features": check_int("features", features, 1)}
  # Adam moves every weight by up to about learning_rate per step; larger
  # steps than 1 only diverge (to NaN weights).
  options["learning_rate"] = check_real("learning_rate", learning_rate, 0.0,
                                        1.0, low_inclusive=False)
  options["batch_size"] = check_int("batch_size", batch_size, 1,
                                    MAX_BATCH_SIZE)
  options["prior_sigma"] = check_real("prior_sigma", prior_sigma,
                                      *PRIOR_SIGMA_RANGE)
  if isinstance(seed, (bool, np.bool_)) or seed is None:
    raise ValueError(f"seed must be an int in 0..2**63 - 1; got {seed!r}.")
  try:
    options["seed"] = check_seed(seed)
  except TypeError as error:
    raise ValueError(str(error)) from error
  options["kl_step_size"] = check_real("kl_step_size", kl_step_size, 0.0,
                                       MAX_KL_STEP_SIZE, low_inclusive=False)
  options["noise_samples"] = check_int("noise_samples", noise_samples, 1,
                                       MAX_NOISE_SAMPLES)
  options["standardize"] = check_bool("standardize", standardize)
  options["likelihood"] = check_choice("likelihood", likelihood, LIKELIHOODS)
  options["likelihood_sigma"] = check_real(
      "likelihood_sigma", likelihood_sigma, *LIKELIHOOD_SIGMA_RANGE)
  options["kl_noise"] = check_choice("kl_noise", kl_noise, KL_NOISES)
  options["init"] = check_choice("init", init, INITS)
  return options


def pca_features(num_terminals: int, features: int,
                 rng: np.random.Generator) -> np.ndarray:
  """[num_terminals, features]: PCA scores of the terminals' one-hot codes.

  The centred one-hot matrix has ``num_terminals - 1`` equal singular
  values, so any ``features``-dimensional subspace orthogonal to the
  all-ones vector is a principal subspace; the one returned is spanned by
  the centred columns of a Gaussian matrix drawn from ``rng`` (orthonormal
  basis from numpy's thin SVD). The scores are that basis's rows.

  Args:
    num_terminals: the number of terminals.
    features: the number of dimensions, at most ``num_terminals - 1``.
    rng: the generator of the Gaussian matrix.

  Returns:
    A new [num_terminals, features] array.

  Raises:
    ValueError: ``features`` is above ``num_terminals - 1``.
  """
  if features > num_terminals - 1:
    raise ValueError(
        f"features must be at most the number of terminals - 1 "
        f"({num_terminals - 1}); got {features}.")
  draws = rng.standard_normal((num_terminals, features))
  draws -= draws.mean(axis=0, keepdims=True)
  basis, _, _ = np.linalg.svd(draws, full_matrices=False)
  return basis


def initial_weights(shapes: dict[str, tuple], init: str, prior_sigma: float,
                    generator: Any) -> tuple[dict, dict]:
  """The initial q: mu and rho of every weight, as tensors that take
  gradients.

  Args:
    shapes: {weight name: its shape}, in the order of the draws.
    init: "ours" (mu ~ N(0, 0.1^2), sigma = prior_sigma / 2) or "authors"
      (mu ~ N(0, 1), sigma = prior_sigma).
    prior_sigma: the prior's standard deviation.
    generator: the torch Generator of the draws of mu.

  Returns:
    ({name: mu}, {name: rho}), rho the inverse softplus of sigma.
  """
  torch, _ = import_torch()
  authors = init == "authors"
  initial_rho = _inverse_softplus(
      prior_sigma if authors else 0.5 * prior_sigma)
  mu_scale = 1.0 if authors else 0.1
  mu, rho = {}, {}
  for name, shape in shapes.items():
    mu[name] = (mu_scale * torch.randn(
        shape, generator=generator)).requires_grad_(True)
    rho[name] = torch.full(shape, initial_rho).requires_grad_(True)
  return mu, rho


def checked_targets(targets: Any, count: int) -> np.ndarray:
  """Real targets, one per terminal, as the sampled-target methods take.

  Args:
    targets: [count] finite real numbers.
    count: the number of terminals.

  Returns:
    ``targets`` as a float64 [count] array.

  Raises:
    ValueError: ``targets`` is not [count] finite real numbers.
  """
  try:
    values = np.asarray(targets, dtype=np.float64)
  except (TypeError, ValueError) as error:
    raise ValueError(f"targets must be an array of {count} real numbers "
                     f"(one per terminal); got {targets!r:.80}.") from error
  if values.shape != (count,):
    raise ValueError(f"targets must have shape ({count},), one per "
                     f"terminal in the order of tree.terminals; got shape "
                     f"{values.shape}.")
  if not np.all(np.isfinite(values)):
    raise ValueError("targets must be finite; got "
                     f"{int(np.sum(~np.isfinite(values)))} non-finite.")
  return values
