"""Strategies of the eps-perturbed game, in which every legal action keeps a
probability of at least eps (``min_action_prob``).

Implements the perturbed strategy space of Tim P. Schulze, "A Generalized
Extensive-Form Fictitious Play Algorithm", 2023 (eq. 24):
b_eps = eps + (1 - |A| eps) b on the legal actions. :func:`mix_in` maps a
strategy into that space, :func:`remove_perturbation` reads a perturbed
strategy back as the choice it stands for, and
:func:`check_min_action_prob` checks eps against the game.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spiel_ext.checks import check_real, short_repr
from spiel_ext.engine import GameTree

__all__ = ["check_min_action_prob", "mix_in", "remove_perturbation"]


def check_min_action_prob(tree: GameTree, value: Any) -> float:
  """``value`` as a float in [0, 1/|A|), |A| the largest number of legal
  actions at an infoset; ValueError naming ``min_action_prob`` otherwise.

  Args:
    tree: the compiled game.
    value: the ``min_action_prob`` to check.

  Returns:
    ``value`` as a float.

  Raises:
    ValueError: ``value`` is not a finite number in [0, 1/|A|).
  """
  if type(value) in (float, int) and value == 0:  # The common case, fast.
    return 0.0
  largest = (1.0 / float(tree.infoset_num_actions.max())
             if tree.num_infosets else 1.0)
  try:
    return check_real("min_action_prob", value, 0.0, largest,
                      high_inclusive=False)
  except ValueError:
    raise ValueError(
        f"min_action_prob must be in [0, 1/|A|) = [0, {largest:g}) for "
        f"{tree.game_string}; got {short_repr(value)}.") from None


def mix_in(profile: np.ndarray, legal: np.ndarray,
           min_action_prob: float) -> np.ndarray:
  """b_eps = eps + (1 - |A| eps) b on legal actions: a strategy of the
  eps-perturbed game (Schulze 2023, eq. 24).

  Args:
    profile: [rows, actions] strategy rows.
    legal: [rows, actions] legal-action mask of the same rows.
    min_action_prob: eps in [0, 1/|A|) (not checked here; see
      :func:`check_min_action_prob`).

  Returns:
    The perturbed rows, a new array; ``profile`` itself when eps is 0.
  """
  if min_action_prob == 0.0:
    return profile
  num_actions = legal.sum(axis=1, keepdims=True)
  return legal * min_action_prob + (1.0 - num_actions * min_action_prob) * (
      profile)


def remove_perturbation(strategy: np.ndarray, legal: np.ndarray,
                        min_action_prob: float) -> np.ndarray:
  """The inverse of :func:`mix_in`: b = (b_eps - eps) / (1 - |A| eps),
  clipped at 0 and renormalised (a strategy outside the perturbed space
  has entries below eps). Reads a perturbed strategy as the pure or mixed
  choice it stands for.

  Args:
    strategy: [rows, actions] strategy rows of the perturbed game.
    legal: [rows, actions] legal-action mask of the same rows.
    min_action_prob: eps in [0, 1/|A|) (not checked here; see
      :func:`check_min_action_prob`).

  Returns:
    The unperturbed rows, a new array (uniform over the legal actions where
    every entry is at most eps); ``strategy`` itself when eps is 0.
  """
  if min_action_prob == 0.0:
    return strategy
  num_actions = legal.sum(axis=1, keepdims=True)
  raw = np.clip((strategy - min_action_prob) /
                (1.0 - num_actions * min_action_prob), 0.0, None) * legal
  total = raw.sum(axis=1, keepdims=True)
  return np.where(total > 0, raw / np.where(total > 0, total, 1.0),
                  legal / np.maximum(num_actions, 1))
