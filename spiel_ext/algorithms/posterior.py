"""The conjugate model of an unknown environment, and its information gain.

What a learner believes about the hidden parameters of an unknown
environment (``spiel_ext_unknown_env``), as in Zhou, Li, Zhu, "Posterior
Sampling for Multi-Agent Reinforcement Learning: Solving Extensive Games
with Imperfect Information", ICLR 2020, and the exact (conjugate) model
offered beside the Bayesian neural network of Qiu, Wang, Ma, Wen, Zhang,
"Combining Counterfactual Regret Minimization with Information Gain to
Solve Extensive Games with Unknown Environments", arXiv:2110.07892:

- every chance node's outcome distribution ~ Dirichlet(counts), prior all
  ones, counts += the outcomes seen;
- every terminal's win probability q(z) (player 0 receives +1 with
  probability q, else -1) ~ Beta(wins, losses), prior Beta(1, 1), which is
  the Uniform(-1, 1) law of the expected reward 2q - 1.

A model game is a pair of arrays on the rules' compiled tree, the engine's
overrides (``chance_prob`` per history, ``utility`` [histories, 2]): the
posterior mean (:meth:`ConjugatePosterior.mean_game`) or a posterior draw
(:meth:`ConjugatePosterior.sample_game`). :meth:`information_gain` is the
expected KL divergence between the posterior after one more observation at
a history and the posterior now (the mutual information of that
observation), in closed form.

A draw's random numbers come from the learner's numpy Generator, in the
order :meth:`ConjugatePosterior.sample_game` lists (stream version 2 of
the learners' state, ``EpisodeLearner.DRAW_STREAM_VERSION``): numpy's
Gamma variates (Marsaglia, Tsang, "A Simple Method for Generating Gamma
Variables", ACM TOMS, 2000; the exponentials of shape 1 by the ziggurat of
Marsaglia, Tsang, "The Ziggurat Method for Generating Random Variables",
Journal of Statistical Software, 2000), vectorized, and one uniform for
each terminal whose Beta has a parameter 1 (Beta(1, 1), the prior, is the
uniform itself). Version 1 drew Gamma variates only, from numba's Mersenne
Twister seeded by one integer of the Generator
(:mod:`~spiel_ext.algorithms.gamma_draws`), at 3 to 4 times the cost.
"""

from __future__ import annotations

from collections.abc import Sequence

import numba
import numpy as np

from spiel_ext.algorithms.contract import check_count
from spiel_ext.engine import CHANCE, GameTree


@numba.njit(cache=True)
def _posterior_draw(rng: np.random.Generator, children: np.ndarray,
                    counts: np.ndarray, terminals: np.ndarray,
                    wins: np.ndarray, losses: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray]:
  """One posterior draw from the Generator ``rng`` (numpy's variates, as
  numba runs them), in the order :meth:`ConjugatePosterior.sample_game`
  lists; returns (the chance children's weights, the terminals' q)."""
  weights = rng.standard_exponential(len(children))
  for k in range(children.shape[0]):
    if counts[children[k]] != 1.0:
      weights[k] = rng.standard_gamma(counts[children[k]])
  uniforms = rng.random(len(terminals))
  win_probability = np.empty(terminals.shape[0])
  played = np.empty(terminals.shape[0], dtype=np.int64)
  size = 0
  for k in range(terminals.shape[0]):
    won, lost = wins[terminals[k]], losses[terminals[k]]
    if lost == 1.0:  # Beta(a, 1): P(q <= x) = x^a.
      win_probability[k] = (uniforms[k] if won == 1.0 else
                            uniforms[k] ** (1.0 / won))
    elif won == 1.0:  # Beta(1, b): P(1 - q <= x) = x^b.
      win_probability[k] = 1.0 - uniforms[k] ** (1.0 / lost)
    else:
      played[size] = k
      size += 1
  drawn = np.empty(size)
  for j in range(size):
    drawn[j] = rng.standard_gamma(wins[terminals[played[j]]])
  for j in range(size):
    win_probability[played[j]] = drawn[j] / (drawn[j] + rng.standard_gamma(
        losses[terminals[played[j]]]))
  return weights, win_probability


@numba.njit(cache=True)
def _fill_model(chance_children: np.ndarray, chance_parent: np.ndarray,
                chance_weights: np.ndarray, terminals: np.ndarray,
                win_probability: np.ndarray, terminal_bonus: np.ndarray,
                chance_prob: np.ndarray, utility: np.ndarray) -> None:
  """chance_prob at each chance child: its weight over its node's total;
  utility at each terminal z: (2 q(z) - 1, 1 - 2 q(z)) plus the bonus of z
  for both players (when terminal_bonus is not empty)."""
  totals = np.zeros(chance_prob.shape[0])
  for k in range(chance_children.shape[0]):
    totals[chance_parent[k]] += chance_weights[k]
  for k in range(chance_children.shape[0]):
    chance_prob[chance_children[k]] = chance_weights[k] / totals[
        chance_parent[k]]
  bonus = terminal_bonus.shape[0] > 0
  for k in range(terminals.shape[0]):
    z = terminals[k]
    value = 2.0 * win_probability[k] - 1.0
    utility[z, 0] = value
    utility[z, 1] = -value
    if bonus:
      utility[z, 0] += terminal_bonus[k]
      utility[z, 1] += terminal_bonus[k]


@numba.njit(cache=True)
def _count_chance(path: np.ndarray, chance_child: np.ndarray,
                  chance_counts: np.ndarray) -> None:
  """chance_counts[h] += 1 at each chance child h on ``path``."""
  for h in path:
    if chance_child[h]:
      chance_counts[h] += 1.0


@numba.njit(cache=True)
def _touched(paths: np.ndarray, is_terminal: np.ndarray,
             chance_child: np.ndarray, parent: np.ndarray,
             chance_parent: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
  """The terminals on ``paths`` and every chance child whose node has a
  child on them, each in ascending order (what the episodes changed)."""
  num_histories = is_terminal.shape[0]
  terminal_seen = np.zeros(num_histories, dtype=np.bool_)
  node_seen = np.zeros(num_histories, dtype=np.bool_)
  for h in paths:
    if is_terminal[h]:
      terminal_seen[h] = True
    if chance_child[h]:
      node_seen[parent[h]] = True
  terminals = np.flatnonzero(terminal_seen)
  children = np.empty(chance_parent.shape[0], dtype=np.int64)
  count = 0
  for k in range(chance_parent.shape[0]):
    if node_seen[chance_parent[k]]:
      children[count] = k
      count += 1
  return terminals, children[:count]


@numba.njit(cache=True)
def _digamma_shift(x: float, arguments: np.ndarray, partial: np.ndarray,
                   slot: int) -> None:
  """Step one of :func:`digamma` for one value: the recurrence up to x >= 6
  (its sum into partial[slot], the shifted x into arguments[slot])."""
  result = 0.0
  while x < 6.0:
    result -= 1.0 / x
    x += 1.0
  arguments[slot] = x
  partial[slot] = result


@numba.njit(cache=True)
def _digamma_finish(arguments: np.ndarray, logs: np.ndarray,
                    partial: np.ndarray, slot: int) -> float:
  """Step two of :func:`digamma`: the asymptotic series at the shifted x
  (its log computed by numpy, as :func:`digamma` computes it)."""
  inverse = 1.0 / arguments[slot]
  inverse2 = inverse * inverse
  series = inverse2 * (1 / 12 - inverse2 * (1 / 120 - inverse2 * (
      1 / 252 - inverse2 * (1 / 240 - inverse2 / 132))))
  return partial[slot] + logs[slot] - 0.5 * inverse - series


@numba.njit(cache=True)
def _gain_arguments(alpha: np.ndarray, beta: np.ndarray, counts: np.ndarray,
                    totals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
  """The arguments of every log the gains take (5 per terminal, 3 per
  chance child; see :func:`_gains`), and the recurrences' sums."""
  size = 5 * alpha.shape[0] + 3 * counts.shape[0]
  arguments = np.empty(size)
  partial = np.zeros(size)
  for k in range(alpha.shape[0]):
    total = alpha[k] + beta[k]
    arguments[5 * k] = total / alpha[k]
    arguments[5 * k + 1] = total / beta[k]
    _digamma_shift(alpha[k] + 1.0, arguments, partial, 5 * k + 2)
    _digamma_shift(beta[k] + 1.0, arguments, partial, 5 * k + 3)
    _digamma_shift(total + 1.0, arguments, partial, 5 * k + 4)
  start = 5 * alpha.shape[0]
  for j in range(counts.shape[0]):
    slot = start + 3 * j
    arguments[slot] = totals[j] / counts[j]
    _digamma_shift(counts[j] + 1.0, arguments, partial, slot + 1)
    _digamma_shift(totals[j] + 1.0, arguments, partial, slot + 2)
  return arguments, partial


@numba.njit(cache=True)
def _gains(alpha: np.ndarray, beta: np.ndarray, num_children: int,
           arguments: np.ndarray, logs: np.ndarray,
           partial: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
  """The terminals' expected Beta KL and the chance children's Dirichlet
  KL, with the arithmetic of :func:`beta_kl_after_one` and
  :func:`dirichlet_kl_after_one`."""
  terminal_gain = np.empty(alpha.shape[0])
  for k in range(alpha.shape[0]):
    win = alpha[k] / (alpha[k] + beta[k])
    total_digamma = _digamma_finish(arguments, logs, partial, 5 * k + 4)
    kl_win = (logs[5 * k] + _digamma_finish(arguments, logs, partial,
                                            5 * k + 2)) - total_digamma
    kl_loss = (logs[5 * k + 1] + _digamma_finish(arguments, logs, partial,
                                                 5 * k + 3)) - total_digamma
    terminal_gain[k] = win * kl_win + (1.0 - win) * kl_loss
  child_gain = np.empty(num_children)
  start = 5 * alpha.shape[0]
  for j in range(num_children):
    slot = start + 3 * j
    child_gain[j] = (logs[slot] + _digamma_finish(
        arguments, logs, partial, slot + 1)) - _digamma_finish(
            arguments, logs, partial, slot + 2)
  return terminal_gain, child_gain


@numba.njit(cache=True)
def _node_totals(parents: np.ndarray, counts: np.ndarray,
                 num_histories: int) -> np.ndarray:
  """Each count's node total (the counts summed per parent, in order)."""
  sums = np.zeros(num_histories)
  for k in range(parents.shape[0]):
    sums[parents[k]] += counts[k]
  totals = np.empty(parents.shape[0])
  for k in range(parents.shape[0]):
    totals[k] = sums[parents[k]]
  return totals


def digamma(x: np.ndarray) -> np.ndarray:
  """psi(x) for x > 0 (recurrence up to x >= 6, then the asymptotic series;
  absolute error below 1e-10).

  Args:
    x: values > 0 (an array or a number).

  Returns:
    psi(x), a new float64 array of x's shape.
  """
  x = np.asarray(x, dtype=np.float64).copy()
  result = np.zeros_like(x)
  small = x < 6.0
  while small.any():
    result[small] -= 1.0 / x[small]
    x[small] += 1.0
    small = x < 6.0
  inverse = 1.0 / x
  inverse2 = inverse * inverse
  series = inverse2 * (1 / 12 - inverse2 * (1 / 120 - inverse2 * (
      1 / 252 - inverse2 * (1 / 240 - inverse2 / 132))))
  return result + np.log(x) - 0.5 * inverse - series


def beta_kl_after_one(alpha: np.ndarray, beta: np.ndarray,
                      win: bool) -> np.ndarray:
  """KL(Beta(alpha + w, beta + 1 - w) || Beta(alpha, beta)), w = ``win``.

  For one more success: log((alpha + beta) / alpha) + psi(alpha + 1)
  - psi(alpha + beta + 1) (the Beta functions' ratio is alpha / (alpha +
  beta)); a failure swaps alpha and beta.

  Args:
    alpha: the Beta's first parameters (> 0), an array.
    beta: its second parameters (> 0), of the same shape.
    win: True for one more success, False for one more failure.

  Returns:
    The KL divergences, an array of that shape.
  """
  own, other = (alpha, beta) if win else (beta, alpha)
  total = own + other
  return np.log(total / own) + digamma(own + 1.0) - digamma(total + 1.0)


def dirichlet_kl_after_one(counts: np.ndarray, totals: np.ndarray
                           ) -> np.ndarray:
  """KL(Dir(c + e_k) || Dir(c)) for each outcome k of its node: the same
  form as the Beta case with alpha = c_k and alpha + beta = the node's
  total count.

  Args:
    counts: c_k of each outcome (> 0), an array.
    totals: the total count of each outcome's node, of the same shape.

  Returns:
    The KL divergences, an array of that shape.
  """
  return (np.log(totals / counts) + digamma(counts + 1.0) -
          digamma(totals + 1.0))


class ConjugatePosterior:
  """Dirichlet posteriors at chance nodes, Beta posteriors at terminals.

  Args:
    tree: the rules (the base game's compiled tree).
    prior: the prior count of every chance outcome and of each terminal's
      win and loss (1: Dirichlet(1, ..., 1) and Beta(1, 1)).

  Attributes:
    chance_counts: [histories], for each child of a chance node the prior
      plus the times its outcome was seen (0 elsewhere).
    wins, losses: [histories], at terminals the prior plus the +1 / -1
      rewards seen (0 elsewhere).

  Raises:
    ValueError: ``prior`` is not a finite number > 0.
  """

  def __init__(self, tree: GameTree, prior: float = 1.0):
    if not np.isfinite(prior) or prior <= 0:
      raise ValueError(f"prior must be a finite number > 0; got {prior!r}.")
    self.tree = tree
    parent = tree.parent
    self._chance_child = np.zeros(tree.num_histories, dtype=bool)
    has_parent = parent >= 0
    self._chance_child[has_parent] = (
        tree.node_player[parent[has_parent]] == CHANCE)
    self._chance_children = np.flatnonzero(self._chance_child)
    self._chance_parent = parent[self._chance_children]
    self.chance_counts = np.where(self._chance_child, prior, 0.0)
    self.wins = np.where(tree.is_terminal, prior, 0.0)
    self.losses = self.wins.copy()
    self.observations = 0
    self._gain: np.ndarray | None = None
    self._changed: list[np.ndarray] = []

  def observe(self, histories: Sequence[int] | np.ndarray,
              reward: float) -> None:
    """Counts one episode: its path of histories (root to terminal) and
    player 0's reward (+1 or -1) at the terminal.

    Args:
      histories: the episode's histories of ``tree``, root first, ending at
        a terminal.
      reward: player 0's reward: > 0 counts a win, anything else a loss.

    Raises:
      ValueError: the last history is not a terminal.
    """
    path = np.asarray(histories, dtype=np.int64)
    _count_chance(path, self._chance_child, self.chance_counts)
    terminal = int(path[-1])
    if not self.tree.is_terminal[terminal]:
      raise ValueError(f"an episode ends at a terminal history; history "
                       f"{terminal} is not one.")
    if reward > 0:
      self.wins[terminal] += 1.0
    else:
      self.losses[terminal] += 1.0
    self.observations += 1
    self._changed.append(path)

  def counts(self) -> dict[str, np.ndarray | int]:
    """The posterior's state as plain data (copies), for checkpoints.

    Returns:
      {"chance_counts", "wins", "losses": [histories] arrays,
      "observations": the number of episodes observed}.
    """
    return {"chance_counts": self.chance_counts.copy(),
            "wins": self.wins.copy(), "losses": self.losses.copy(),
            "observations": self.observations}

  def load_counts(self, counts: dict[str, np.ndarray | int]) -> None:
    """Restores :meth:`counts` (the information gain is recomputed, equal
    to the one updated in place); nothing changes if they do not fit.

    Args:
      counts: a :meth:`counts` dict.

    Raises:
      ValueError: an array of another shape, or with negative or
        non-finite counts; observations not a whole number >= 0.
    """
    arrays = {name: np.array(counts[name], dtype=np.float64)
              for name in ("chance_counts", "wins", "losses")}
    for name, value in arrays.items():
      if value.shape != (self.tree.num_histories,):
        raise ValueError(f"{name} must have shape "
                         f"({self.tree.num_histories},); got {value.shape}.")
      if not (np.isfinite(value).all() and (value >= 0).all()):
        raise ValueError(f"corrupt posterior: {name} must hold finite counts "
                         ">= 0.")
    observations = check_count(counts, "observations", "ConjugatePosterior")
    for name, value in arrays.items():
      setattr(self, name, value)
    self.observations = observations
    self._gain, self._changed = None, []

  # ---------------------------------------------------------- model games
  def _game(self, chance_weights: np.ndarray, win_probability: np.ndarray,
            terminal_bonus: np.ndarray | None
            ) -> tuple[np.ndarray, np.ndarray]:
    """chance_weights [chance children], win_probability [terminals]."""
    terminals = self.tree.terminals
    if terminal_bonus is None:
      terminal_bonus = np.zeros(0)
    elif np.shape(terminal_bonus) != terminals.shape:
      raise ValueError(f"terminal_bonus must have shape {terminals.shape} "
                       f"(one value per terminal); got "
                       f"{np.shape(terminal_bonus)}.")
    chance_prob = np.ones(self.tree.num_histories)
    utility = np.zeros((self.tree.num_histories, 2))
    _fill_model(self._chance_children, self._chance_parent, chance_weights,
                terminals, win_probability,
                np.asarray(terminal_bonus, dtype=np.float64), chance_prob,
                utility)
    return chance_prob, utility

  def mean_game(self, terminal_bonus: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """(chance_prob, utility) of the posterior mean; ``terminal_bonus``
    [terminals], if given, is added to both players' utility at each
    terminal (in ``tree.terminals`` order).

    Args:
      terminal_bonus: [terminals] values added to both players' utility at
        each terminal (``tree.terminals`` order), or None.

    Returns:
      (chance_prob [histories], utility [histories, 2]): new arrays for
      ``tree.with_model``.

    Raises:
      ValueError: ``terminal_bonus`` has not one value per terminal.
    """
    terminals = self.tree.terminals
    wins = self.wins[terminals]
    return self._game(self.chance_counts[self._chance_children],
                      wins / (wins + self.losses[terminals]), terminal_bonus)

  def sample_game(self, rng: np.random.Generator,
                  terminal_bonus: np.ndarray | None = None
                  ) -> tuple[np.ndarray, np.ndarray]:
    """(chance_prob, utility) of one posterior draw from ``rng``, whose
    calls are, in this order (the draw's stream):

    1. ``rng.standard_exponential(C)``: a Gamma(1) weight for each of the
       C chance children (in history order), then
       ``rng.standard_gamma(count)`` replacing the weight of each one
       whose count is not 1, in order; each node's weights normalised are
       its Dirichlet draw;
    2. ``rng.random(T)``: a uniform U for each of the T terminals
       (``tree.terminals`` order); q ~ Beta(a, b) is U^(1/a) if b = 1 (U
       itself under the Beta(1, 1) prior) and 1 - U^(1/b) if a = 1;
    3. for the other terminals (a, b != 1), X = ``rng.standard_gamma(a)``
       at each in order, then Y = ``rng.standard_gamma(b)`` at each: q =
       X / (X + Y).

    Exact draws from the posterior, each variate numpy's (ziggurat
    exponentials, Marsaglia-Tsang Gamma), one uniform per terminal still
    at its prior. ``terminal_bonus`` as in :meth:`mean_game`.

    Args:
      rng: the generator the draws come from.
      terminal_bonus: as for :meth:`mean_game`.

    Returns:
      (chance_prob, utility), as :meth:`mean_game` returns them.

    Raises:
      ValueError: as :meth:`mean_game`.
    """
    weights, win_probability = _posterior_draw(
        rng, self._chance_children, self.chance_counts, self.tree.terminals,
        self.wins, self.losses)
    return self._game(weights, win_probability, terminal_bonus)

  # ---------------------------------------------------- information gain
  def information_gain(self) -> np.ndarray:
    """[histories]: the expected KL(posterior after || posterior before) of
    observing the reward at each terminal (weighted over the predictive
    win probability) and, at each chance child, of seeing its outcome once
    more at its node; 0 elsewhere. Updated where episodes changed counts
    since the last call (read-only: do not modify).

    Returns:
      The [histories] array of gains, kept by the posterior.
    """
    tree = self.tree
    if self._gain is None:
      self._gain = np.zeros(tree.num_histories)
      self._update_gain(tree.terminals, self._chance_children)
    elif self._changed:
      terminals, children = _touched(
          np.concatenate(self._changed), tree.is_terminal,
          self._chance_child, tree.parent, self._chance_parent)
      self._update_gain(terminals, self._chance_children[children])
    self._changed = []
    return self._gain

  def _update_gain(self, terminals: np.ndarray, children: np.ndarray) -> None:
    """Recomputes the gain at ``terminals`` and the chance ``children``
    (all children of each of their nodes): the kernels' arithmetic is
    :func:`beta_kl_after_one`'s and :func:`dirichlet_kl_after_one`'s, the
    logs numpy's (one call)."""
    assert self._gain is not None  # Allocated by information_gain first.
    parents = self.tree.parent[children]
    counts = self.chance_counts[children]
    alpha, beta = self.wins[terminals], self.losses[terminals]
    arguments, partial = _gain_arguments(
        alpha, beta, counts,
        _node_totals(parents, counts, self.tree.num_histories))
    terminal_gain, child_gain = _gains(alpha, beta, len(children), arguments,
                                       np.log(arguments), partial)
    self._gain[terminals] = terminal_gain
    self._gain[children] = child_gain
