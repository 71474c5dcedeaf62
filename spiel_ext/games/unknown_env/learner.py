"""The learner's side of an unknown environment: the rules and episodes.

An :class:`Environment` shows the rules (the base game's tree shape,
infosets and legal actions, never c* or p) and plays episodes: given a
joint strategy over the rules' infosets it samples one trajectory, chance
outcomes included, and a +-1 reward, and counts episodes. This is the
interaction model of Qiu, Wang, Ma, Wen, Zhang, "Combining Counterfactual
Regret Minimization with Information Gain to Solve Extensive Games with
Unknown Environments", 2023, and of Zhou, Li, Zhu, "Posterior Sampling for
Multi-Agent Reinforcement Learning: Solving Extensive Games with Imperfect
Information", 2020. This module needs the engine.
"""

from __future__ import annotations

import dataclasses

import numba
import numpy as np
import pyspiel

from spiel_ext.engine import CHANCE, TERMINAL, GameTree, check_strategy
from spiel_ext.engine.passes import numpy_sum
from spiel_ext.games.common import check_integer
from spiel_ext.games.unknown_env.hidden import HiddenParameters
from spiel_ext.games.unknown_env.params import true_game_string

__all__ = ["Environment", "Episode"]


@dataclasses.dataclass
class Episode:
  """One played episode: the base-tree histories from the root to the
  terminal (so every chance outcome and action is visible) and player 0's
  sampled reward.

  Attributes:
    histories: the base-tree histories visited, the root (0) first.
    reward: player 0's reward, -1.0 or +1.0 (player 1 gets the opposite).
  """
  histories: list[int]
  reward: float

  @property
  def terminal(self) -> int:
    """The base-tree terminal history the episode ended at."""
    return self.histories[-1]


class Environment:
  """The learner's side of an unknown environment.

  Args:
    game: the base game's string (two players), e.g. ``"kuhn_poker"``.
    env_seed: the instance (an integer >= 0): which hidden parameters.
    chance: "game" (default: the hidden chance distribution is the base
      game's own) or "dirichlet" (drawn from ``env_seed``).

  Attributes:
    rules: the rules as a compiled tree: the base game's tree shape,
      infosets and legal actions, with no numbers of its own: its
      ``chance_prob`` is uniform over each chance node's outcomes (the mean
      of the Dirichlet(1, ..., 1) prior) and its ``utility`` is 0. (Its
      ``game`` is the base pyspiel game, for strings and legal actions;
      that game's ``chance_outcomes()`` are the base game's, the hidden c*
      when chance="game": learners must not read them.)
    episodes: episodes played so far.

  Raises:
    ValueError: a bad ``env_seed``, ``chance`` or base game.
  """

  def __init__(self, game: str = "kuhn_poker", env_seed: int = 0,
               chance: str = "game"):
    check_integer("Environment", "env_seed", env_seed, 0)
    hidden_game = pyspiel.load_game(true_game_string(game, env_seed, chance))
    self.rules: GameTree = _rules_only(hidden_game.base_tree)
    self.game_string = str(hidden_game)
    self.episodes = 0
    self._sample = _episode_sampler(self.rules, hidden_game.hidden)

  def play_episode(self, strategy: np.ndarray,
                   rng: np.random.Generator) -> Episode:
    """Plays one episode and returns what the learner observes.

    Args:
      strategy: the joint behaviour strategy, a [infosets, actions] array
        over ``rules``' rows, checked by
        :func:`spiel_ext.engine.check_strategy`: each row finite,
        non-negative, 0 on illegal actions and summing to 1 (within
        ``STRATEGY_TOLERANCE``, 1e-6) over the infoset's legal actions.
      rng: the random generator of the episode's chance draws and actions.

    Returns:
      The episode (its histories and player 0's reward); ``episodes`` is
      incremented only once it has been played.

    Raises:
      TypeError: ``rng`` is not a numpy.random.Generator, or ``strategy``
        is not a real-valued array (``StrategyTypeError``).
      ValueError: ``strategy`` has the wrong shape or is not a distribution
        at some infoset (the message names the first such infoset).
    """
    if not isinstance(rng, np.random.Generator):
      raise TypeError(f"rng must be a numpy.random.Generator (e.g. "
                      f"numpy.random.default_rng(seed)); got "
                      f"{type(rng).__name__}.")
    strategy = check_strategy(self.rules, strategy, "strategy")
    episode = self._sample(strategy, rng, False)
    self.episodes += 1
    return episode


  def play_vouched_episode(self, strategy: np.ndarray,
                           rng: np.random.Generator,
                           numerator: bool = False) -> Episode:
    """:meth:`play_episode` for a strategy its caller built and vouches
    for (a learner's own average, current or exploring strategy: a float64
    [infosets, actions] distribution at every infoset by construction),
    not checked again. Not for user input.

    Args:
      strategy: the joint behaviour strategy (float64, rules' rows), or
        with ``numerator`` each infoset's non-negative weights (a solver's
        cumulative policy, 0 on illegal actions).
      rng: the random generator of the episode's chance draws and actions.
      numerator: normalise each row the episode visits as a solver's
        ``average_strategy()`` normalises it (uniform where it sums to 0),
        and play that: the average's episode without the whole average.

    Returns:
      The episode, as :meth:`play_episode` returns it.
    """
    episode = self._sample(strategy, rng, numerator)
    self.episodes += 1
    return episode


def _rules_only(tree: GameTree) -> GameTree:
  """A copy of ``tree`` without its numbers: chance uniform over each chance
  node's outcomes, utilities 0 (the arrays of ``tree`` are not touched)."""
  arrays = tree.arrays()
  num_children = np.bincount(tree.parent[1:], minlength=tree.num_histories)
  chance_prob = np.ones(tree.num_histories)
  below_chance = np.flatnonzero(tree.parent_slot == tree.num_players)
  chance_prob[below_chance] = 1.0 / num_children[tree.parent[below_chance]]
  arrays["chance_prob"] = chance_prob
  arrays["utility"] = np.zeros_like(tree.utility)
  return GameTree(tree.game, arrays, tree.infoset_keys)


def _episode_sampler(tree: GameTree, hidden: HiddenParameters):
  """A closure that samples episodes; c* and p live only in its cells."""
  start, members = tree.children_lists()
  chance_prob = hidden.chance_prob.copy()
  loss_prob = hidden.loss_prob.copy()
  node_player, infoset = tree.node_player, tree.infoset
  action = tree.action.astype(np.int64)
  start, members = start.astype(np.int64), members.astype(np.int64)

  uniform = tree.uniform_policy()

  def sample(strategy: np.ndarray, rng: np.random.Generator,
             numerator: bool) -> Episode:
    # The generator's own uniform draw through its C interface (what
    # rng.random() returns, from the same state), which numba calls
    # without the cost of taking the Generator object itself.
    interface = rng.bit_generator.ctypes
    path, length, reward = _sample_episode(
        interface.next_double, interface.state_address, strategy,
        numerator, uniform, node_player, infoset, action, start, members,
        chance_prob, loss_prob)
    return Episode(path[:length].tolist(), reward)

  return sample


@numba.njit(cache=True)
def _sample_episode(next_double, state, strategy, numerator, uniform,
                    node_player, infoset, action, start, members,
                    chance_prob, loss_prob):
  """One episode as the numpy loop it replaces draws it, with U =
  ``next_double(state)`` (``rng.random()``): at each history the options'
  probabilities p (chance's, or the strategy's), the next history where U
  falls in cdf = cumsum(p / p.sum()) / cdf[-1]
  (``searchsorted(side="right")``, what ``rng.choice`` draws), then the
  reward -1 if U < ``loss_prob[terminal]`` else +1. With ``numerator``
  a visited row is first normalised as a solver's average (its numpy sum,
  ``uniform``'s row where that is 0). Returns (a path buffer, its length,
  the reward)."""
  path = np.empty(64, dtype=np.int64)
  path[0] = 0
  length = 1
  h = 0
  while node_player[h] != TERMINAL:
    first, stop = start[h], start[h + 1]
    probs = np.empty(stop - first)
    row = infoset[h]
    total = 1.0
    if numerator and node_player[h] != CHANCE:
      total = numpy_sum(strategy[row])
    for k in range(first, stop):
      if node_player[h] == CHANCE:
        probs[k - first] = chance_prob[members[k]]
      elif total == 0.0:
        probs[k - first] = uniform[row, action[members[k]]]
      elif numerator:
        probs[k - first] = strategy[row, action[members[k]]] / total
      else:
        probs[k - first] = strategy[row, action[members[k]]]
    cdf = np.cumsum(probs / numpy_sum(probs))
    cdf /= cdf[-1]
    drawn = next_double(state)
    chosen = 0
    while chosen < cdf.shape[0] - 1 and cdf[chosen] <= drawn:
      chosen += 1
    h = members[first + chosen]
    if length == path.shape[0]:
      path = np.concatenate((path, np.empty(length, dtype=np.int64)))
    path[length] = h
    length += 1
  reward = -1.0 if next_double(state) < loss_prob[h] else 1.0
  return path, length, reward
