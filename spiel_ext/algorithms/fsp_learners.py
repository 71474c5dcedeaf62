"""Fictitious-play learners in an unknown environment (the FSP baselines
of Qiu, Wang, Ma, Wen, Zhang, "Combining Counterfactual Regret
Minimization with Information Gain to Solve Extensive Games with Unknown
Environments", 2021), with and without the information bonus.

:class:`PosteriorFSPLearner` / :class:`PosteriorVFSPLearner` best-respond
exactly in a posterior draw; :class:`FSPLearner` / :class:`VFSPLearner`
learn tabular fitted-Q best responses from the episodes. Each is built
from parts (:mod:`spiel_ext.algorithms.learner_parts`); the classes are
importable from :mod:`spiel_ext.algorithms.learners` too.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numba
import numpy as np

from spiel_ext.algorithms.checks import check_int, check_real
from spiel_ext.algorithms.contract import (check_count, config_property,
                                          set_field)
from spiel_ext.algorithms.exploration import (DEFAULT_ETA, BonusConfig,
                                              check_eta)
from spiel_ext.algorithms.learner_base import (LEARNER_ARGS, MAX_BATCH_SIZE,
                                               MAX_BUFFER_SIZE, BonusLearner,
                                               EpisodeLearner,
                                               ModelFreeLearner, checked_array)
from spiel_ext.algorithms.learner_parts import (NO_BONUS, NO_TERMINAL_BONUS,
                                                EnvironmentModel,
                                                EpisodeSchedule, NoBonus,
                                                NoTerminalBonus,
                                                TerminalBonus)
from spiel_ext.algorithms.posterior import ConjugatePosterior
from spiel_ext.engine import GameView
from spiel_ext.engine.response_passes import both_best_responses

class PosteriorFSPLearner(EpisodeLearner):
  __doc__ = f"""Fictitious play with exact best responses on a posterior draw:
  the authors' FSP (github DongdongBai/submit, ``ficplay.py``; their logged FSP
  curve, ``results/leduc_3_4_10_ficplay_default.npz``, is this one).

  Each iteration draws one game from the conjugate posterior; each player
  best-responds there to the other's average; both episodes play that
  best-response profile; the average adds each best response weighted by
  its own reach (extensive-form fictitious play with step 1/t; the
  uniform start counts as one iteration, as theirs).

  Its current strategy is its average, as in fictitious play's full-width
  form (:class:`~spiel_ext.algorithms.fictitious_play.XFPSolver` and
  OpenSpiel's): the best responses are its steps, not a strategy it keeps.

  ``Config`` has the ``seed`` only (see :class:`EpisodeLearner`).

  Args:{LEARNER_ARGS}
  Attributes:
    posterior: the conjugate model (``environment_model.posterior``).
    cumulative_policy: [infosets, actions], the average's numerator.
    environment_model: the :class:`~spiel_ext.algorithms.learner_parts.
      EnvironmentModel`.
    placement: the information bonus on the draw (a
      :class:`~spiel_ext.algorithms.learner_parts.NoBonus` without one).
  """

  @dataclasses.dataclass(frozen=True, eq=False)
  class Config(EpisodeLearner.Config):
    """PosteriorFSPLearner's hyperparameters.

    Attributes:
      seed: an int in 0..2**63 - 1 (default 0) or None.
    """

  def _build(self) -> None:
    super()._build()
    self.environment_model = EnvironmentModel(self.rules)
    self.posterior = self.environment_model.posterior
    self.cumulative_policy = self.rules.uniform_policy().copy()
    self.placement = self._placement()
    self._schedule = EpisodeSchedule(self._environment)

  def _placement(self) -> NoBonus:
    """The learner's bonus part (default: no bonus)."""
    return NO_BONUS

  def _stream_version(self) -> int:
    """A posterior draw every iteration: the draws' stream version."""
    return self.DRAW_STREAM_VERSION

  def current_strategy(self) -> np.ndarray:
    """[rules infosets, actions]: the average strategy (see the class
    docstring).

    Returns:
      A new [rules infosets, actions] array.
    """
    return self.average_strategy()

  def _save_state(self, state: dict[str, Any]) -> None:
    super()._save_state(state)
    state["posterior"] = self.posterior.counts()
    state["cumulative_policy"] = self.cumulative_policy.copy()
    self.placement.save(state)

  def _load_state(self, state: dict[str, Any]) -> None:
    super()._load_state(state)
    cumulative = checked_array(state, "cumulative_policy",
                               self.cumulative_policy, type(self).__name__)
    self.posterior.load_counts(state["posterior"])
    self.cumulative_policy = cumulative
    self.placement.load(state)

  def best_response_profile(self, chance_prob: np.ndarray,
                            utility: np.ndarray) -> np.ndarray:
    """[infosets, actions]: each player's pure best response, in the model
    game (chance_prob, utility), to the other's average.

    Args:
      chance_prob: the model game's [histories] chance probabilities.
      utility: the model game's [histories, 2] utilities.

    Returns:
      A new [rules infosets, actions] pure strategy profile.

    Raises:
      ValueError: ``chance_prob`` or ``utility`` is not a model of the
        rules' tree (see ``GameTree.with_model``).
    """
    return self._profile(self.rules.with_model(chance_prob, utility))

  def _profile(self, model: GameView) -> np.ndarray:
    """:meth:`best_response_profile` in a model game's view."""
    average = self.average_strategy()
    profile = np.zeros_like(average)
    for player, (_, best, _) in zip((0, 1),
                                    both_best_responses(model, average)):
      rows = self.rules.player_rows[player]
      profile[np.arange(rows.start, rows.stop), best[rows]] = 1.0
    return profile

  def evaluate_and_update_policy(self) -> None:
    """One iteration: a posterior draw, the best-response profile in it,
    two episodes with that profile, and the average's update."""
    chance_prob, utility = self.environment_model.draw(self._rng)
    # The posterior built the arrays: valid, so not checked again.
    profile = self._profile(self.rules.with_vouched_model(
        chance_prob, self.placement.on_draw(self.posterior, utility)))
    self._schedule.play(
        [profile] * 2, self._rng,
        (self.environment_model.observe, self.placement.observe))
    self.cumulative_policy += self.rules.own_reach(profile)[:, None] * profile
    self._iteration += 1




class PosteriorVFSPLearner(BonusLearner, PosteriorFSPLearner):
  __doc__ = f"""The authors' VFSP (``vimeficplay.py:150``):
  :class:`PosteriorFSPLearner` with the information bonus on its posterior
  draw (:class:`~spiel_ext.algorithms.learner_base.BonusLearner`).

  Args:{LEARNER_ARGS}"""

  @dataclasses.dataclass(frozen=True, eq=False)
  class Config(PosteriorFSPLearner.Config, BonusConfig):
    """PosteriorVFSPLearner's hyperparameters.

    Attributes:
      eta, players, normalisation, information, kl_every: the bonus's
        (:class:`~spiel_ext.algorithms.exploration.BonusConfig`).
      seed: an int in 0..2**63 - 1 (default 0).
    """

  _bonus_design = "exploration_draw"  # On the one (posterior) draw.


class FSPLearner(ModelFreeLearner):
  __doc__ = f"""Fictitious self-play with tabular fitted-Q best responses
  (Heinrich, Lanctot, Silver, "Fictitious Self-Play in Extensive-Form Games",
  ICML 2015), the FSP baseline of Qiu et al.

  Each iteration plays one episode per player i: i plays epsilon-greedy
  on its Q table, the opponent its average policy. i's transitions (its
  infoset, action, reward, next own infoset) enter a replay buffer, and a
  minibatch of them updates Q by Q(I, a) += lr (target - Q(I, a)), target
  = the reward at the episode's end or max_b Q(I', b) at i's next
  decision. The average policy counts, at every infoset i visits, the
  greedy action (the supervised average of the best responses, weighted
  by how often i reaches the infoset).

  Its current strategy is its average, as in fictitious play's full-width
  form (:class:`~spiel_ext.algorithms.fictitious_play.XFPSolver` and
  OpenSpiel's): the epsilon-greedy Q policies are its steps.

  Args:{LEARNER_ARGS}"""

  @dataclasses.dataclass(frozen=True, eq=False)
  class Config(ModelFreeLearner.Config):
    """FSPLearner's hyperparameters.

    Attributes:
      epsilon: exploration of the best response, in [0, 1] (default 0.1).
      learning_rate: in (0, 1] (default 0.1).
      buffer_size: transitions kept, an int in 1..2**22 (default 2**14).
      batch_size: transitions replayed per episode, an int in 1..2**16
        (default 64).
      seed: an int in 0..2**63 - 1 (default 0).
    """
    epsilon: float = 0.1
    learning_rate: float = 0.1
    buffer_size: int = 2**14
    batch_size: int = 64

    def __post_init__(self) -> None:
      set_field(self, "epsilon", check_real("epsilon", self.epsilon, 0.0, 1.0))
      set_field(self, "learning_rate", check_real(
          "learning_rate", self.learning_rate, 0.0, 1.0,
          low_inclusive=False))
      set_field(self, "buffer_size", check_int("buffer_size", self.buffer_size,
                                          1, MAX_BUFFER_SIZE))
      set_field(self, "batch_size", check_int("batch_size", self.batch_size, 1,
                                         MAX_BATCH_SIZE))
      super().__post_init__()

  epsilon = config_property("epsilon", "The best response's exploration")
  learning_rate = config_property("learning_rate", "The Q update's step")
  _SAVED_ARRAYS = ("q_values", "cumulative_policy", "_buffer")

  def _build(self) -> None:
    super()._build()
    self.q_values = np.zeros(self._legal.shape)
    # Replay buffer: (row, action, reward, next row or -1) per transition.
    self._buffer = np.zeros((self.config.buffer_size, 4))
    self._stored = 0
    self._batch_size = self.config.batch_size
    self.terminal_bonus = self._terminal_bonus()

  # As PosteriorFSPLearner's: the average strategy.
  current_strategy = PosteriorFSPLearner.current_strategy

  def _save_state(self, state: dict[str, Any]) -> None:
    super()._save_state(state)
    state["stored"] = self._stored

  def _load_state(self, state: dict[str, Any]) -> None:
    stored = check_count(state, "stored", type(self).__name__)
    super()._load_state(state)
    self._stored = stored

  def _greedy(self, rows: slice) -> np.ndarray:
    """[rows] the greedy action of Q at ``rows`` (lowest id among ties)."""
    return np.argmax(np.where(self._legal[rows], self.q_values[rows],
                              -np.inf), axis=1)

  def _terminal_bonus(self) -> NoTerminalBonus:
    """The learner's reward bonus part (default: none)."""
    return NO_TERMINAL_BONUS

  def evaluate_and_update_policy(self) -> None:
    """One iteration: one episode per player, its transitions stored and a
    minibatch replayed into Q (see the class docstring)."""
    rules = self.rules
    average = self.average_strategy()
    for player in (0, 1):
      rows = rules.player_rows[player]
      greedy = self._greedy(rows)  # At the player's rows only.
      behaviour = average.copy()
      explore = self.epsilon * self._uniform[rows]
      behaviour[rows] = explore
      behaviour[np.arange(rows.start, rows.stop), greedy] += (
          1.0 - self.epsilon)
      episode, reward, steps = self._own_episode(player, behaviour)
      reward += self.terminal_bonus.reward_bonus(episode)
      for index, (row, action) in enumerate(steps):
        last = index == len(steps) - 1
        self._store(row, action, reward if last else 0.0,
                    -1 if last else steps[index + 1][0])
        self.cumulative_policy[row, greedy[row - rows.start]] += 1.0
      self._replay()
    self._iteration += 1

  def _store(self, row: int, action: int, reward: float,
             following: int) -> None:
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
    next_rows = np.maximum(following, 0)  # Only the rows it needs.
    best_next = np.max(np.where(self._legal[next_rows],
                                self.q_values[next_rows], -np.inf), axis=1)
    target = np.where(following < 0, batch[:, 2], best_next)
    _q_updates(self.q_values, rows, actions, target, self.learning_rate)


@numba.njit(cache=True)
def _q_updates(q_values: np.ndarray, rows: np.ndarray, actions: np.ndarray,
               target: np.ndarray, learning_rate: float) -> None:
  """Q[row, action] += learning_rate * (target - Q[row, action]) for each
  replayed transition in turn (the targets computed before any update)."""
  for k in range(rows.shape[0]):
    q_values[rows[k], actions[k]] += learning_rate * (
        target[k] - q_values[rows[k], actions[k]])


class VFSPLearner(FSPLearner):
  __doc__ = f"""FSP with the information-gain bonus eta * IG(z) of the conjugate
  model added to the reward of every episode ending at z (Qiu et al.'s VFSP);
  the model only measures information, FSP itself stays model-free.

  Args:{LEARNER_ARGS}"""

  @dataclasses.dataclass(frozen=True, eq=False)
  class Config(FSPLearner.Config):
    """VFSPLearner's hyperparameters.

    Attributes:
      eta: the bonus weight, in [0, 1e100] (default 0.005).
      epsilon, learning_rate, buffer_size, batch_size, seed: as
        :class:`FSPLearner`.
    """
    eta: float = DEFAULT_ETA

    def __post_init__(self) -> None:
      set_field(self, "eta", check_eta(self.eta))
      super().__post_init__()

  eta = config_property("eta", "The bonus weight")
  terminal_bonus: TerminalBonus

  @property
  def posterior(self) -> ConjugatePosterior:
    """The conjugate model that measures the information
    (``terminal_bonus.posterior``)."""
    return self.terminal_bonus.posterior

  def _terminal_bonus(self) -> TerminalBonus:
    """eta times the information each episode's reward brings."""
    return TerminalBonus(self.rules, self.eta)

  def _save_state(self, state: dict[str, Any]) -> None:
    super()._save_state(state)
    state["posterior"] = self.posterior.counts()

  def _load_state(self, state: dict[str, Any]) -> None:
    super()._load_state(state)
    self.posterior.load_counts(state["posterior"])
