"""The information gain of the network reward model, VIME's second-order KL.

The exploration bonus of VIME (Houthooft, Chen, Duan, Schulman, De Turck,
Abbeel, "VIME: Variational Information Maximizing Exploration", NeurIPS
2016): KL(q after || q before) of one update of the variational posterior
q = N(mu, softplus(rho)^2) on one more observation, approximated to second
order with the diagonal inverse Hessian of the KL. Two forms, both computed
for :class:`spiel_ext.algorithms.bnn.BNNRewardModel` (see its methods for
the definitions):

- :func:`expected_update_kl`, ours, for the Bernoulli model: the expected
  KL of an update on a hypothetical win or loss at each terminal;
- :func:`sampled_target_kl`, the authors' (Qiu, Wang, Ma, Wen, Zhang,
  "Combining Counterfactual Regret Minimization with Information Gain to
  Solve Extensive Games with Unknown Environments", arXiv:2110.07892), for
  the Gaussian model: the KL of an update on the one sample (z, target).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from spiel_ext.algorithms.bnn_setup import import_torch

# Terminals per vectorised pass of the sampled-target gain.
_KL_CHUNK = 1024


def _inverse_hessian(rho: dict, names: list[str]) -> dict:
  """{name: (H^-1 over mu, H^-1 over rho)} of the KL at q."""
  torch, _ = import_torch()
  softplus = torch.nn.functional.softplus
  inverse_h = {}
  for name in names:
    sigma = softplus(rho[name])
    inverse_h[name] = (sigma**2,
                       0.5 * (sigma / torch.sigmoid(rho[name]))**2)
  return inverse_h


def _sample_loss_gradients(logit: Callable, loss: Callable,
                           names: list[str], fresh: bool) -> Callable:
  """(mu, rho, inputs, targets, noise) -> (grad mu, grad rho) of each
  terminal's one-sample loss, vectorised over the terminals (and over
  their own draws ``noise`` when ``fresh``)."""
  torch, func = import_torch()
  softplus = torch.nn.functional.softplus
  logit = func.vmap(logit, in_dims=(0, None))  # over the draws

  def sample_loss(mu: dict, rho: dict, inputs: Any, target: Any,
                  noise: dict) -> Any:
    """The one-sample loss of (inputs, target), averaged over the draws
    ``noise`` ([noise_samples, ...] eps of every weight)."""
    weights = {name: mu[name] + softplus(rho[name]) * noise[name]
               for name in names}
    return loss(logit(weights, inputs), target)

  return func.vmap(func.grad(sample_loss, argnums=(0, 1)),
                   in_dims=(None, None, 0, 0, 0 if fresh else None))


def sampled_target_kl(logit: Callable, loss: Callable, mu: dict, rho: dict,
                      inputs: Any, targets: np.ndarray, noise: dict,
                      kl_step_size: float,
                      kl_generator: Any = None) -> np.ndarray:
  """The authors' KL of an update on the one sample (z, targets[z]), for
  every terminal z (see ``BNNRewardModel.sampled_target_information_gain``
  in :mod:`spiel_ext.algorithms.bnn`).

  Args:
    logit: the network, (weights, inputs [..., features]) -> outputs.
    loss: (outputs, targets) -> the mean negative log-likelihood.
    mu: {name: mu} of q, in the order of the weights.
    rho: {name: rho} of q.
    inputs: [terminals, features] tensor, the network's inputs.
    targets: [terminals] checked real numbers.
    noise: {name: [noise_samples, ...] fixed eps}.
    kl_step_size: VIME's lambda.
    kl_generator: None for the fixed draws ``noise``; else the torch
      Generator of fresh draws for every terminal (advanced).

  Returns:
    A fresh float64 [terminals] array of the KLs.
  """
  torch, _ = import_torch()
  names = list(mu)
  fresh = kl_generator is not None
  per_terminal = _sample_loss_gradients(logit, loss, names, fresh)
  count = len(targets)
  with torch.no_grad():
    mu = {name: mu[name].detach() for name in names}
    rho = {name: rho[name].detach() for name in names}
    inverse_h = _inverse_hessian(rho, names)
    targets_tensor = torch.as_tensor(targets, dtype=torch.float32)
    kl = torch.zeros(count)
    # In chunks of terminals: the gradients of the first layer's weights
    # (and fresh draws of them) are [terminals, noise_samples, features,
    # hidden] before the sum over draws (140 MB for Leduc(4)'s 5,643
    # terminals at the authors' sizes); chunks bound that memory and run
    # faster.
    for start in range(0, count, _KL_CHUNK):
      stop = min(start + _KL_CHUNK, count)
      if fresh:
        draws = {name: torch.randn((stop - start, *noise[name].shape),
                                   generator=kl_generator)
                 for name in names}
      else:
        draws = noise
      grad_mu, grad_rho = per_terminal(
          mu, rho, inputs[start:stop], targets_tensor[start:stop], draws)
      for name in names:
        inverse_h_mu, inverse_h_rho = inverse_h[name]
        kl[start:stop] += (grad_mu[name]**2 * inverse_h_mu +
                           grad_rho[name]**2 * inverse_h_rho).reshape(
                               stop - start, -1).sum(-1)
    kl *= kl_step_size**2
  return kl.double().numpy()


def expected_update_kl(logit: Callable, draws: dict, sigmas: dict,
                       noise: dict, inputs: Any, kl_step_size: float) -> Any:
  """VIME's second-order expected KL of one update on a hypothetical win
  or loss at each terminal, for the Bernoulli model (see
  ``BNNRewardModel.information_gain`` in :mod:`spiel_ext.algorithms.bnn`).

  Args:
    logit: the network, (weights, inputs [..., features]) -> logits.
    draws: {name: [noise_samples, ...] weights}, mu + sigma eps.
    sigmas: {name: sigma} of q, in the order of the weights.
    noise: {name: [noise_samples, ...] eps} of ``draws``.
    inputs: [terminals, features] tensor, the network's inputs.
    kl_step_size: VIME's lambda.

  Returns:
    A [terminals] tensor of the gains.
  """
  torch, func = import_torch()
  with torch.no_grad():
    # [noise_samples, terminals] logits and per-terminal d logit / d w.
    per_terminal = func.vmap(func.grad(logit), in_dims=(None, 0))
    per_draw = func.vmap(per_terminal, in_dims=(0, None))
    gradients = per_draw(draws, inputs)
    logits = func.vmap(logit, in_dims=(0, None))(draws, inputs)
    wins = torch.sigmoid(logits)
    predictive = wins.mean(0, keepdim=True)
    quadratic = torch.zeros_like(wins)
    for name in sigmas:
      # sigma^2 (1 + eps^2 / 2): H^-1 over the mu and rho coordinates.
      scale = sigmas[name]**2 * (1.0 + 0.5 * noise[name]**2)
      squared = gradients[name]**2  # [draws, terminals, *shape]
      scale = scale.unsqueeze(1)  # [draws, 1, *shape]
      quadratic += (squared * scale).reshape(
          *quadratic.shape, -1).sum(-1)
    expected_residual = (predictive * (1.0 - wins)**2 +
                         (1.0 - predictive) * wins**2)
    return 0.5 * kl_step_size**2 * (expected_residual * quadratic).mean(0)
