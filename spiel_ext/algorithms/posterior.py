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
"""

from __future__ import annotations

import numba
import numpy as np

from spiel_ext.engine import CHANCE, GameTree


@numba.njit(cache=True)
def _gamma_draws(seed: int, shapes: np.ndarray) -> np.ndarray:
  """Gamma(shape, 1) draws from numba's generator seeded with ``seed``
  (several times faster than numpy's Generator on many small shapes)."""
  np.random.seed(seed)
  out = np.empty(len(shapes))
  for index in range(len(shapes)):
    out[index] = np.random.gamma(shapes[index], 1.0)
  return out


@numba.njit(cache=True)
def _fill_model(chance_children, chance_parent, chance_weights, terminals,
                win_probability, terminal_bonus, chance_prob, utility):
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

  def observe(self, histories, reward: float) -> None:
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
    seen = path[self._chance_child[path]]
    np.add.at(self.chance_counts, seen, 1.0)
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
      ValueError: an array of another shape.
    """
    arrays = {name: np.array(counts[name], dtype=np.float64)
              for name in ("chance_counts", "wins", "losses")}
    for name, value in arrays.items():
      if value.shape != (self.tree.num_histories,):
        raise ValueError(f"{name} must have shape "
                         f"({self.tree.num_histories},); got {value.shape}.")
    for name, value in arrays.items():
      setattr(self, name, value)
    self.observations = int(counts["observations"])
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
    """(chance_prob, utility) of one posterior draw: Dirichlet draws as
    normalised Gamma draws, Beta(a, b) as X / (X + Y) with X ~ Gamma(a),
    Y ~ Gamma(b); the draws' seed comes from ``rng``. ``terminal_bonus`` as
    in :meth:`mean_game`.

    Args:
      rng: the generator the draws' seed is taken from.
      terminal_bonus: as for :meth:`mean_game`.

    Returns:
      (chance_prob, utility), as :meth:`mean_game` returns them.

    Raises:
      ValueError: as :meth:`mean_game`.
    """
    children, terminals = self._chance_children, self.tree.terminals
    shapes = np.concatenate([self.chance_counts[children],
                             self.wins[terminals], self.losses[terminals]])
    gammas = _gamma_draws(int(rng.integers(2**32)), shapes)
    wins = gammas[len(children):len(children) + len(terminals)]
    losses = gammas[len(children) + len(terminals):]
    return self._game(gammas[:len(children)], wins / (wins + losses),
                      terminal_bonus)

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
    if self._gain is None:
      self._gain = np.zeros(self.tree.num_histories)
      self._update_gain(self.tree.terminals, self._chance_children)
    elif self._changed:
      touched = np.unique(np.concatenate(self._changed))
      terminals = touched[self.tree.is_terminal[touched]]
      parents = np.unique(self.tree.parent[touched[self._chance_child[
          touched]]])
      children = self._chance_children[np.isin(self._chance_parent, parents)]
      self._update_gain(terminals, children)
    self._changed = []
    return self._gain

  def _update_gain(self, terminals: np.ndarray, children: np.ndarray) -> None:
    alpha, beta = self.wins[terminals], self.losses[terminals]
    win = alpha / (alpha + beta)
    self._gain[terminals] = (
        win * beta_kl_after_one(alpha, beta, True) +
        (1.0 - win) * beta_kl_after_one(alpha, beta, False))
    if len(children):
      counts = self.chance_counts[children]
      totals = np.bincount(self.tree.parent[children], weights=counts,
                           minlength=self.tree.num_histories)[
                               self.tree.parent[children]]
      self._gain[children] = dirichlet_kl_after_one(counts, totals)
