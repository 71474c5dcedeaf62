"""Numba kernels of the model-based learners' exploration: the information
bonus shifted into a model game's utilities (Qiu, Wang, Ma, Wen, Zhang,
"Combining Counterfactual Regret Minimization with Information Gain to
Solve Extensive Games with Unknown Environments", 2021) and the running
sums of the average model of posterior-sampling CFR (Zhou, Li, Zhu,
"Posterior Sampling for Multi-Agent Reinforcement Learning: Solving
Extensive Games with Imperfect Information", ICLR 2020).

Each kernel does, element by element, the arithmetic the numpy
expressions it replaced did (one rounding per operation, in the same
order), so its results have their bits; it saves their temporaries and
fancy indexing. The tree traversals they need are the engine's
(:mod:`spiel_ext.engine.model_passes`).
"""

from __future__ import annotations

import numba
import numpy as np

from spiel_ext.engine.passes import numpy_sum

__all__ = ["add_to_average_model", "average_model_game", "gathered_median",
           "median", "normalised_rows", "scaled_by_mean", "shift_utility",
           "shift_utility_scaled", "utility_difference"]


@numba.njit(cache=True)
def median(values: np.ndarray) -> float:
  """``np.median`` of a float64 vector, by numba's selection (the same
  middle values, and for an even length their mean (a + b) / 2 as
  numpy's).

  Args:
    values: [n] float64 values, n >= 1, none NaN.

  Returns:
    The median.
  """
  return np.median(values)


@numba.njit(cache=True)
def gathered_median(values: np.ndarray,
                    indices: np.ndarray) -> tuple[np.ndarray, float]:
  """(``values[indices]``, its ``np.median``), in one call.

  Args:
    values: float64 values, none NaN.
    indices: [n] indices into them, n >= 1.

  Returns:
    (a new [n] array of the gathered values, their median).
  """
  gathered = values[indices]
  return gathered, np.median(gathered)


@numba.njit(cache=True)
def scaled_by_mean(values: np.ndarray, window: np.ndarray) -> np.ndarray:
  """``values / np.mean(window)`` if that mean is > 0, else ``values``.

  Args:
    values: float64 values.
    window: [m] float64 values, 1 <= m <= 128 (the mean's additions are
      numpy's, so its bits too).

  Returns:
    A new array, or ``values`` itself when the mean is not > 0.
  """
  scale = numpy_sum(window) / window.shape[0]
  return values / scale if scale > 0 else values


@numba.njit(cache=True)
def shift_utility_scaled(utility: np.ndarray, terminals: np.ndarray,
                         gain: np.ndarray, eta: float,
                         zero_sum: bool) -> None:
  """:func:`shift_utility` with bonus eta * gain[k], computed here (the
  same bits as the vector ``eta * gain``).

  Args:
    utility: [histories, 2] float64 utilities, changed in place.
    terminals: [terminals] the terminal histories.
    gain: [terminals] the gains.
    eta: the bonus weight.
    zero_sum: True for the zero-sum shift toward player 1.
  """
  for k in range(terminals.shape[0]):
    z = terminals[k]
    bonus = eta * gain[k]
    if zero_sum:
      utility[z, 1] += bonus
      utility[z, 0] -= bonus
    else:
      utility[z, 0] += bonus
      utility[z, 1] += bonus


@numba.njit(cache=True)
def shift_utility(utility: np.ndarray, terminals: np.ndarray,
                  bonus: np.ndarray, zero_sum: bool) -> None:
  """Adds bonus[k] at terminal z_k to ``utility`` [histories, 2] in place:
  to player 1's and minus to player 0's (``zero_sum``), else to both
  players'.

  Args:
    utility: [histories, 2] float64 utilities, changed in place.
    terminals: [terminals] the terminal histories.
    bonus: [terminals] the bonus at each (eta times the gain).
    zero_sum: True for the zero-sum shift toward player 1.
  """
  for k in range(terminals.shape[0]):
    z = terminals[k]
    if zero_sum:
      utility[z, 1] += bonus[k]
      utility[z, 0] -= bonus[k]
    else:
      utility[z, 0] += bonus[k]
      utility[z, 1] += bonus[k]


@numba.njit(cache=True)
def add_to_average_model(reach: np.ndarray, chance_children: np.ndarray,
                         parents: np.ndarray, chance_prob: np.ndarray,
                         utility: np.ndarray, weight_sum: np.ndarray,
                         chance_sum: np.ndarray,
                         utility_sum: np.ndarray) -> None:
  """One draw into the sums: weight += c, chance[h.a] += c(h) p(h.a) at
  the chance children, utility += c u (c the draw's chance reach).

  Args:
    reach: [histories] the draw's chance reach c.
    chance_children: [children] the histories below chance nodes.
    parents: [children] each one's chance node.
    chance_prob: [histories] the draw's chance probabilities p.
    utility: [histories, 2] the draw's utilities u.
    weight_sum: [histories] sum of c, changed in place.
    chance_sum: [histories] sum of c(h) p(h.a), changed in place.
    utility_sum: [histories, 2] sum of c u, changed in place.
  """
  for h in range(reach.shape[0]):
    weight_sum[h] += reach[h]
  for k in range(chance_children.shape[0]):
    child = chance_children[k]
    chance_sum[child] += reach[parents[k]] * chance_prob[child]
  for h in range(reach.shape[0]):
    for j in range(utility.shape[1]):
      utility_sum[h, j] += reach[h] * utility[h, j]


@numba.njit(cache=True)
def average_model_game(weight_sum: np.ndarray, chance_sum: np.ndarray,
                       utility_sum: np.ndarray, chance_children: np.ndarray,
                       parents: np.ndarray, default_chance: np.ndarray
                       ) -> tuple[np.ndarray, np.ndarray]:
  """(chance_prob, utility) of the sums: chance_sum / weight_sum at the
  chance children (``default_chance`` where the node's weight is 0),
  utility_sum / weight_sum where the weight is > 0 (0 elsewhere).

  Args:
    weight_sum, chance_sum, utility_sum: the sums
      (:func:`add_to_average_model`).
    chance_children, parents: as for :func:`add_to_average_model`.
    default_chance: [histories] the chance probabilities of a node never
      weighted.

  Returns:
    (chance_prob [histories], utility [histories, 2]), new arrays.
  """
  chance_prob = np.ones(weight_sum.shape[0])
  for k in range(chance_children.shape[0]):
    child = chance_children[k]
    weight = weight_sum[parents[k]]
    if weight > 0:
      chance_prob[child] = chance_sum[child] / weight
    else:
      chance_prob[child] = default_chance[child]
  utility = np.zeros(utility_sum.shape)
  for h in range(weight_sum.shape[0]):
    if weight_sum[h] > 0:
      for j in range(utility_sum.shape[1]):
        utility[h, j] = utility_sum[h, j] / weight_sum[h]
  return chance_prob, utility


@numba.njit(cache=True)
def utility_difference(draw_reach: np.ndarray, draw_utility: np.ndarray,
                       average_reach: np.ndarray,
                       average_utility: np.ndarray) -> np.ndarray:
  """c_draw(h) u_draw(h) - c_avg(h) u_avg(h) for every history and
  player (the exploration target of posterior-sampling CFR's
  "default").

  Args:
    draw_reach: [histories] the draw's chance reach c_draw.
    draw_utility: [histories, players] its utilities u_draw.
    average_reach: [histories] the average model's chance reach c_avg.
    average_utility: [histories, players] its utilities u_avg.

  Returns:
    A new [histories, players] array.
  """
  target = np.empty(draw_utility.shape)
  for h in range(draw_utility.shape[0]):
    for j in range(draw_utility.shape[1]):
      target[h, j] = (draw_reach[h] * draw_utility[h, j] -
                      average_reach[h] * average_utility[h, j])
  return target


@numba.njit(cache=True)
def normalised_rows(numerator: np.ndarray, legal: np.ndarray,
                    num_actions: np.ndarray) -> np.ndarray:
  """A learner's average strategy: each row of ``numerator`` over its sum
  (numpy's ``numerator.sum(axis=1)``, in numpy's order of additions), and
  the uniform strategy ``legal / num_actions`` on the rows whose sum is not
  above 0.

  Args:
    numerator: [infosets, actions] float64 cumulative policy.
    legal: [infosets, actions] bool legal-action mask.
    num_actions: [infosets] the number of legal actions.

  Returns:
    A new [infosets, actions] array.
  """
  rows, columns = numerator.shape
  average = np.empty((rows, columns))
  for row in range(rows):
    total = numpy_sum(numerator[row])
    if total > 0:
      for column in range(columns):
        average[row, column] = numerator[row, column] / total
    else:
      for column in range(columns):
        average[row, column] = (1.0 if legal[row, column] else 0.0) / (
            num_actions[row])
  return average
