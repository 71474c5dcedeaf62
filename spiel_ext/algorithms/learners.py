"""Learners for games whose chance and rewards are unknown.

The learner sees the rules of an unknown environment
(``spiel_ext_unknown_env``: the base game's tree, infosets and legal
actions) and learns only from episodes it plays. Each iteration updates a
conjugate posterior (:class:`~spiel_ext.algorithms.posterior.
ConjugatePosterior`) with the episodes, runs one CFR (or DCFR) iteration on
a model game swapped into the one compiled tree
(:meth:`RegretMinimizationSolver.set_model`), and plays the next episodes:

- :class:`NaiveCFRLearner`: the model is the posterior mean; both episodes
  play the average strategy (Naive-CFR / Naive-DCFR of Qiu et al.).
  :class:`RandomLearner` is the same with uniformly random episodes.
- :class:`PSRLCFRLearner`: the model is a posterior draw; the episodes are
  (best response of player 0 to player 1's average, player 1's average)
  and (player 0's average, best response of player 1), both best responses
  under a second posterior draw (Zhou, Li, Zhu, "Posterior Sampling for
  Multi-Agent Reinforcement Learning: Solving Extensive Games with
  Imperfect Information", ICLR 2020).
- :class:`OutcomeSamplingLearner`: MCCFR with outcome sampling on the
  episodes themselves, no model (below).
- :class:`FSPLearner` / :class:`VFSPLearner`: fictitious self-play with
  tabular fitted-Q best responses, without / with the bonus (below).
- :class:`VCFRLearner`: PSRLCFR's loop with an information-gain bonus
  r' = r + eta * IG(z) added to both players' modelled rewards at every
  terminal z (Qiu, Wang, Ma, Wen, Zhang, "Combining Counterfactual Regret
  Minimization with Information Gain to Solve Extensive Games with Unknown
  Environments", arXiv:2110.07892, eq. 9). IG is the conjugate model's
  expected KL divergence between the posterior after and before one more
  reward at z, in closed form; the paper's lambda (recompute the KL less
  often while it is small) saves nothing here and is not needed.

Two episodes per iteration for all three. ``average_policy()`` is a
TabularPolicy of the true game (the pyspiel game the learner was built
from), so every evaluator scores it exactly there.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from spiel_ext.algorithms.checks import (check_choice, check_int,
                                         check_real, check_seed)
from spiel_ext.algorithms.cfr import CFRSolver
from spiel_ext.algorithms.discounted_cfr import DCFRSolver
from spiel_ext.algorithms.posterior import ConjugatePosterior
from spiel_ext.engine import compile_game, load_game
from spiel_ext.policy import to_tabular_policy

BASES = ("cfr", "dcfr")
_ENVIRONMENT_GAME = "spiel_ext_unknown_env"

# Bounds of the learners' numeric arguments (each checked at construction):
#
# eta (VCFR, VFSP): the bonus eta IG(z) is added to rewards of size 1; an
#   information gain is at most a few nats, so with eta <= 1e100 the
#   modelled utilities and 10^18 iterations of regrets stay below 1e120.
MAX_ETA = 1e100
# epsilon (outcome sampling): a regret increment is divided by the product
#   of the probabilities of the player's sampled actions. Each is at least
#   epsilon / |A|, so with epsilon >= 1e-6 and |A| <= 10 the increment grows
#   by at most 1e7 per own decision: finite, even summed over 10^9
#   iterations, for episodes of up to 40 own decisions (Leduc has 4). Below
#   that the only bound is 1 / sigma, which regret matching can make
#   arbitrarily small.
MIN_OUTCOME_SAMPLING_EPSILON = 1e-6
# buffer_size (FSP): the replay buffer is allocated at once, 32 bytes per
#   transition: 2**22 transitions take 128 MiB.
MAX_BUFFER_SIZE = 2**22
# batch_size (FSP): transitions replayed, one by one, after every episode.
MAX_BATCH_SIZE = 2**16
# kl_every (VCFR with information="bnn"): any iteration count; int64.
MAX_KL_EVERY = 2**63 - 1


def environment_of(game: pyspiel.Game | str):
  """The learner's :class:`Environment` of a true-game string.

  Raises:
    ValueError: ``game`` is not ``spiel_ext_unknown_env(...)``.
  """
  from spiel_ext.games.unknown_env import Environment  # pylint: disable=g-import-not-at-top
  loaded = load_game(game if isinstance(game, pyspiel.Game) else str(game))
  if loaded.get_type().short_name != _ENVIRONMENT_GAME:
    raise ValueError(f"game must be {_ENVIRONMENT_GAME}(game=...,env_seed="
                     f"...); got {loaded}.")
  parameters = loaded.get_parameters()
  base = parameters["game"]
  base_string = str(pyspiel.load_game(base["name"], {
      key: value for key, value in base.items() if key != "name"}))
  extra = {key: parameters[key] for key in ("chance",) if key in parameters}
  return Environment(base_string, int(parameters["env_seed"]), **extra)


class EpisodeLearner:
  """What every learner shares: the environment, its seeded generator, the
  episode count and the average policy on the true game.

  Args:
    game: the true game, ``spiel_ext_unknown_env(game=...,env_seed=...)``
      (a pyspiel game or its string); only its rules are used.
    seed: an int in 0..2**63 - 1 (default 0) or None: every random choice
      of the learner.

  Attributes:
    rules: the base game's tree (shape, infosets, legal actions only).
    episodes: episodes played so far.
  """

  def __init__(self, game: pyspiel.Game | str, *, seed: int | None = 0):
    seed = check_seed(seed)
    if not isinstance(game, (str, pyspiel.Game)):
      raise TypeError(f"game must be {_ENVIRONMENT_GAME}(game=...,env_seed="
                      f"...) as a string or pyspiel game; got "
                      f"{type(game).__name__}.")
    self._game = str(game)
    self._rng = np.random.default_rng(seed)
    self._iteration = 0
    self._attach_environment()

  def _attach_environment(self) -> None:
    self._environment = environment_of(self._game)
    self._true_tree = compile_game(self._game)
    self.rules = self._environment.rules
    self._true_rows = np.array([self._true_tree.key_to_infoset[key]
                                for key in self.rules.infoset_keys])

  # Pickling (checkpoints): trees and the environment are rebuilt from the
  # game string; a regret minimiser and a posterior travel as their arrays.
  _REBUILT = ("_environment", "_true_tree", "rules", "_true_rows", "_solver",
              "posterior")

  def __getstate__(self) -> dict:
    state = {key: value for key, value in self.__dict__.items()
             if key not in self._REBUILT}
    state["_episodes"] = self.episodes
    if hasattr(self, "_solver"):
      state["_solver_class"] = type(self._solver)
      state["_solver_state"] = self._solver.state_dict()
    if hasattr(self, "posterior"):
      state["_posterior_counts"] = self.posterior.counts()
    return state

  def __setstate__(self, state: dict) -> None:
    state = dict(state)
    episodes = state.pop("_episodes")
    solver_class = state.pop("_solver_class", None)
    solver_state = state.pop("_solver_state", None)
    counts = state.pop("_posterior_counts", None)
    self.__dict__.update(state)
    self._attach_environment()
    self._environment.episodes = episodes
    if solver_class is not None:
      self._solver = solver_class(self.rules)
      self._solver.load_state_dict(solver_state)
    if counts is not None:
      self.posterior = ConjugatePosterior(self.rules)
      self.posterior.load_counts(counts)

  @property
  def episodes(self) -> int:
    return self._environment.episodes

  def evaluate_and_update_policy(self) -> None:
    raise NotImplementedError

  def iteration(self) -> None:
    self.evaluate_and_update_policy()

  def average_strategy(self) -> np.ndarray:
    """[rules infosets, actions]: ``cumulative_policy`` normalised per
    infoset (uniform where nothing was accumulated yet)."""
    totals = self.cumulative_policy.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
      average = self.cumulative_policy / totals
    return np.where(totals > 0, average, self.rules.uniform_policy())

  def _own_steps(self, path, player: int) -> list[tuple[int, int]]:
    """(infoset row, action) of each of ``player``'s decisions along an
    episode's path of histories."""
    rules = self.rules
    return [(int(rules.infoset[history]), int(rules.action[child]))
            for history, child in zip(path[:-1], path[1:])
            if rules.node_player[history] == player]

  def average_policy(self):
    """The average strategy as a TabularPolicy of the true game."""
    strategy = np.zeros(self._true_tree.infoset_legal.shape)
    strategy[self._true_rows] = self.average_strategy()
    return to_tabular_policy(self._true_tree, strategy)


class ModelBasedLearner(EpisodeLearner):
  """Shared loop: observe, model, one regret-minimisation iteration, play.

  Args:
    game: the true game (see :class:`EpisodeLearner`).
    base: "cfr" (default) or "dcfr" (DCFR's defaults 1.5, 0, 2).
    seed: an int in 0..2**63 - 1 (default 0): posterior draws and episodes.

  Attributes:
    posterior: the conjugate model.
  """

  episodes_per_iteration = 2

  def __init__(self, game: pyspiel.Game | str, *, base: str = "cfr",
               seed: int = 0):
    check_choice("base", base, BASES)
    super().__init__(game, seed=seed)
    self.posterior = ConjugatePosterior(self.rules)
    solver_class = CFRSolver if base == "cfr" else DCFRSolver
    self._solver = solver_class(self.rules)

  def _model(self) -> tuple[np.ndarray, np.ndarray]:
    raise NotImplementedError

  def _interaction(self, average: np.ndarray) -> list[np.ndarray]:
    """The joint strategies of this iteration's episodes."""
    return [average] * self.episodes_per_iteration

  def evaluate_and_update_policy(self) -> None:
    """One iteration: a model game, one CFR iteration on it, the episodes,
    and the posterior update."""
    self._solver.set_model(*self._model())
    self._solver.evaluate_and_update_policy()
    average = self._solver.average_strategy()
    for strategy in self._interaction(average):
      episode = self._environment.play_episode(strategy, self._rng)
      self.posterior.observe(episode.histories, episode.reward)
      self._observed(episode)
    self._iteration += 1

  def _observed(self, episode) -> None:
    """What a subclass also learns from an episode (default: nothing)."""

  def average_strategy(self) -> np.ndarray:
    """[rules infosets, actions]: the regret minimiser's average."""
    return self._solver.average_strategy()


class NaiveCFRLearner(ModelBasedLearner):
  """CFR (or DCFR) on the posterior-mean game; plays its average."""

  def _model(self):
    return self.posterior.mean_game()


class RandomLearner(NaiveCFRLearner):
  """The Random baseline: both episodes play uniformly at random; what it
  outputs is Naive-CFR's average on the posterior those episodes build."""

  def _interaction(self, average):
    return [self.rules.uniform_policy()] * self.episodes_per_iteration


class PSRLCFRLearner(ModelBasedLearner):
  """Posterior sampling (Zhou, Li, Zhu 2020): CFR on a posterior draw,
  episodes with each player's best response under a second draw."""

  def _bonus(self) -> np.ndarray | None:
    """[terminals]: what this iteration adds to both players' modelled
    utilities (nothing for PSRLCFR)."""
    return None

  def _model(self):
    self._terminal_bonus = self._bonus()
    return self.posterior.sample_game(self._rng, self._terminal_bonus)

  def _exploration_model(self):
    return self.posterior.sample_game(self._rng, self._terminal_bonus)

  def _interaction(self, average):
    chance_prob, utility = self.rules.check_model(*self._exploration_model())
    strategies = []
    for player in (0, 1):
      _, best, _ = self.rules.best_response(
          average, player, chance_prob=chance_prob, utility=utility)
      strategy = average.copy()
      rows = self.rules.player_rows[player]
      chosen = best[rows]
      strategy[rows] = 0.0
      strategy[np.arange(rows.start, rows.stop), chosen] = 1.0
      strategies.append(strategy)
    return strategies


INFORMATION_MODELS = ("conjugate", "bnn")


class VCFRLearner(PSRLCFRLearner):
  """PSRLCFR with the information-gain bonus eta * IG(z) on both players'
  modelled rewards (the modelled game is then not zero-sum).

  Args:
    eta: the bonus weight, in [0, 1e100] (default 0.005, the
      paper's; its scale depends on the model).
    information: where IG comes from: "conjugate" (default; the exact
      expected KL of the Beta posteriors, updated every iteration) or "bnn"
      (the paper's Bayesian neural network, :mod:`spiel_ext.algorithms.bnn`,
      needs the ``bnn`` extra: trained one minibatch step per iteration on
      the observed outcomes, its VIME information gain recomputed every
      ``kl_every`` iterations).
    kl_every: an int in 1..2**63 - 1 (default 10), for information="bnn".
  """

  def __init__(self, game, *, eta: float = 0.005,
               information: str = "conjugate", kl_every: int = 10,
               base: str = "cfr", seed: int = 0):
    self.eta = check_real("eta", eta, 0.0, MAX_ETA)
    self.information = check_choice("information", information,
                                    INFORMATION_MODELS)
    self.kl_every = check_int("kl_every", kl_every, 1, MAX_KL_EVERY)
    super().__init__(game, base=base, seed=seed)
    self._gain = None
    if information == "bnn":
      from spiel_ext.algorithms.bnn import BNNRewardModel  # pylint: disable=g-import-not-at-top
      self.reward_model = BNNRewardModel(self.rules, seed=seed)

  def _observed(self, episode) -> None:
    if self.information == "bnn":
      self.reward_model.observe(episode.histories, episode.reward)

  def _information_gain(self) -> np.ndarray:
    if self.information == "conjugate":
      return self.posterior.information_gain()
    self.reward_model.train(1)
    if self._gain is None or self._iteration % self.kl_every == 0:
      self._gain = self.reward_model.information_gain()
    return self._gain

  def _bonus(self) -> np.ndarray:
    return self.eta * self._information_gain()[self.rules.terminals]


class OutcomeSamplingLearner(EpisodeLearner):
  """Outcome-sampling MCCFR on real episodes (Lanctot, Waugh, Zinkevich,
  Bowling, "Monte Carlo Sampling for Regret Minimization in Extensive
  Games", NeurIPS 2009), the MCCFR-OS baseline of Qiu et al.

  Each iteration plays one episode per player i: i samples from
  eps-uniform-mixed sigma, the opponent plays sigma, chance is the
  environment's own (so its unknown probabilities cancel in the
  importance weights). Along the path, with W = i's sampled reward,
  q_i the probability of i's sampled actions under the mixed sigma and
  pi_i(h a -> z) the tail of i's reach under sigma: regret(I, a) += W
  pi_i(h a -> z) / q_i(z) (1 - sigma(I, a)) and regret(I, b) -= W
  pi_i(h a -> z) / q_i(z) sigma(I, a) for the other actions b; the average
  adds pi_i(h) / q_i(h) sigma(I) (stochastically weighted averaging).

  Args:
    game: the true game (see :class:`EpisodeLearner`).
    epsilon: exploration in [1e-6, 1] (default 0.1; see
      MIN_OUTCOME_SAMPLING_EPSILON for the bound).
    seed: an int in 0..2**63 - 1 (default 0).
  """

  def __init__(self, game: pyspiel.Game | str, *, epsilon: float = 0.1,
               seed: int = 0):
    self.epsilon = check_real("epsilon", epsilon,
                              MIN_OUTCOME_SAMPLING_EPSILON, 1.0)
    super().__init__(game, seed=seed)
    rules = self.rules
    self._legal = rules.infoset_legal
    self.cumulative_regret = np.zeros(self._legal.shape)
    self.cumulative_policy = np.zeros(self._legal.shape)
    self._uniform = rules.uniform_policy()
    self._sigma = self._uniform.copy()

  def _regret_matching(self, row: int) -> None:
    positive = np.maximum(self.cumulative_regret[row], 0.0) * self._legal[row]
    total = positive.sum()
    self._sigma[row] = positive / total if total > 0 else self._uniform[row]

  def evaluate_and_update_policy(self) -> None:
    rules = self.rules
    for player in (0, 1):
      rows = rules.player_rows[player]
      behaviour = self._sigma.copy()
      behaviour[rows] = (self.epsilon * self._uniform[rows] +
                         (1.0 - self.epsilon) * self._sigma[rows])
      episode = self._environment.play_episode(behaviour, self._rng)
      reward = episode.reward if player == 0 else -episode.reward
      path = episode.histories
      steps = self._own_steps(path, player)
      own = [self._sigma[row, action] for row, action in steps]
      sampled = [behaviour[row, action] for row, action in steps]
      tail = 1.0  # pi_i(h a -> z) under sigma, from the end backwards.
      head_sigma = np.cumprod([1.0] + own[:-1])
      head_sampled = np.cumprod([1.0] + sampled[:-1])
      sample_probability = float(np.prod(sampled)) if steps else 1.0
      for index in range(len(steps) - 1, -1, -1):
        row, action = steps[index]
        weight = reward * tail / sample_probability
        sigma_row = self._sigma[row].copy()
        regret = -weight * sigma_row[action] * self._legal[row]
        regret[action] = weight * (1.0 - sigma_row[action])
        self.cumulative_regret[row] += regret
        self.cumulative_policy[row] += (head_sigma[index] /
                                        head_sampled[index]) * sigma_row
        tail *= own[index]
        self._regret_matching(row)
    self._iteration += 1


class FSPLearner(EpisodeLearner):
  """Fictitious self-play with tabular fitted-Q best responses (Heinrich,
  Lanctot, Silver, "Fictitious Self-Play in Extensive-Form Games", ICML
  2015), the FSP baseline of Qiu et al.

  Each iteration plays one episode per player i: i plays epsilon-greedy
  on its Q table, the opponent its average policy. i's transitions (its
  infoset, action, reward, next own infoset) enter a replay buffer, and a
  minibatch of them updates Q by Q(I, a) += lr (target - Q(I, a)), target
  = the reward at the episode's end or max_b Q(I', b) at i's next
  decision. The average policy counts, at every infoset i visits, the
  greedy action (the supervised average of the best responses, weighted
  by how often i reaches the infoset).

  Args:
    game: the true game (see :class:`EpisodeLearner`).
    epsilon: exploration of the best response, in [0, 1] (default 0.1).
    learning_rate: in (0, 1] (default 0.1).
    buffer_size: transitions kept, an int in 1..2**22 (default 2**14).
    batch_size: transitions replayed per episode, an int in 1..2**16
      (default 64).
    seed: an int in 0..2**63 - 1 (default 0).
  """

  def __init__(self, game: pyspiel.Game | str, *, epsilon: float = 0.1,
               learning_rate: float = 0.1, buffer_size: int = 2**14,
               batch_size: int = 64, seed: int = 0):
    self.epsilon = check_real("epsilon", epsilon, 0.0, 1.0)
    self.learning_rate = check_real("learning_rate", learning_rate, 0.0, 1.0,
                                    low_inclusive=False)
    buffer_size = check_int("buffer_size", buffer_size, 1, MAX_BUFFER_SIZE)
    batch_size = check_int("batch_size", batch_size, 1, MAX_BATCH_SIZE)
    super().__init__(game, seed=seed)
    rules = self.rules
    self._legal = rules.infoset_legal
    self._uniform = rules.uniform_policy()
    self.q_values = np.zeros(self._legal.shape)
    self.cumulative_policy = np.zeros(self._legal.shape)
    # Replay buffer: (row, action, reward, next row or -1) per transition.
    self._buffer = np.zeros((buffer_size, 4))
    self._stored = 0
    self._batch_size = batch_size

  def _greedy(self) -> np.ndarray:
    """[infosets] the greedy action of Q (lowest id among ties)."""
    return np.argmax(np.where(self._legal, self.q_values, -np.inf), axis=1)

  def _bonus(self, terminal: int) -> float:
    del terminal
    return 0.0

  def _observe(self, episode) -> None:
    del episode

  def evaluate_and_update_policy(self) -> None:
    rules = self.rules
    average = self.average_strategy()
    for player in (0, 1):
      rows = rules.player_rows[player]
      greedy = self._greedy()
      behaviour = average.copy()
      explore = self.epsilon * self._uniform[rows]
      behaviour[rows] = explore
      behaviour[np.arange(rows.start, rows.stop), greedy[rows]] += (
          1.0 - self.epsilon)
      episode = self._environment.play_episode(behaviour, self._rng)
      self._observe(episode)
      path = episode.histories
      reward = (episode.reward if player == 0 else -episode.reward) + (
          self._bonus(path[-1]))
      steps = self._own_steps(path, player)
      for index, (row, action) in enumerate(steps):
        last = index == len(steps) - 1
        self._store(row, action, reward if last else 0.0,
                    -1 if last else steps[index + 1][0])
        self.cumulative_policy[row, greedy[row]] += 1.0
      self._replay()
    self._iteration += 1

  def _store(self, row: int, action: int, reward: float, following: int):
    slot = self._stored % len(self._buffer)
    self._buffer[slot] = (row, action, reward, following)
    self._stored += 1

  def _replay(self) -> None:
    size = min(self._stored, len(self._buffer))
    if not size:
      return
    batch = self._buffer[self._rng.integers(size, size=self._batch_size)]
    rows, actions = batch[:, 0].astype(int), batch[:, 1].astype(int)
    following = batch[:, 3].astype(int)
    best_next = np.max(np.where(self._legal, self.q_values, -np.inf)[
        np.maximum(following, 0)], axis=1)
    target = np.where(following < 0, batch[:, 2], best_next)
    for row, action, value in zip(rows, actions, target):
      self.q_values[row, action] += self.learning_rate * (
          value - self.q_values[row, action])


class VFSPLearner(FSPLearner):
  """FSP with the information-gain bonus eta * IG(z) of the conjugate model
  added to the reward of every episode ending at z (Qiu et al.'s VFSP);
  the model only measures information, FSP itself stays model-free.

  Args:
    eta: the bonus weight, in [0, 1e100] (default 0.005).
    Other arguments as :class:`FSPLearner`.
  """

  def __init__(self, game: pyspiel.Game | str, *, eta: float = 0.005,
               **kwargs):
    self.eta = check_real("eta", eta, 0.0, MAX_ETA)
    super().__init__(game, **kwargs)
    self.posterior = ConjugatePosterior(self.rules)

  def _bonus(self, terminal: int) -> float:
    del terminal  # The episode just observed (see _observe).
    return self.eta * self._last_gain

  def _observe(self, episode) -> None:
    # The bonus is the information the episode's reward brought: the gain
    # at its terminal before this observation was counted.
    self._last_gain = float(
        self.posterior.information_gain()[episode.terminal])
    self.posterior.observe(episode.histories, episode.reward)
