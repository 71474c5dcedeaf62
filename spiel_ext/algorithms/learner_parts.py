"""The parts a learner in an unknown environment is built from.

Each part is a small object with its own state; a learner's iteration
calls them in a fixed order and hands what one returns to the next as an
argument (never through an attribute one sets and another reads):

- :class:`EnvironmentModel`: the conjugate posterior over chance and
  rewards, and the model game the inner solver runs on (a draw or the
  mean);
- :class:`BonusPlacement` / :data:`NO_BONUS`: where the information
  bonus (:class:`~spiel_ext.algorithms.exploration.InformationBonus`)
  goes, on the solver's draw, the exploration draw or both;
- :class:`Playing` / :class:`Exploring`: the exploration policy, the
  strategies the episodes play;
- :class:`EpisodeSchedule`: the episodes of an iteration and who learns
  from them;
- :class:`TerminalBonus` / :data:`NO_TERMINAL_BONUS`: the information
  gain added to a model-free learner's reward.

The inner full-width solver is a :class:`~spiel_ext.algorithms.cfr.
CFRSolver` (or DCFR) run on the model game's view of the rules' tree.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from spiel_ext.algorithms.exploration import (AverageModel,
                                              InformationBonus,
                                              average_model_state,
                                              exploring_actions,
                                              load_average_model_state)
from spiel_ext.algorithms.posterior import ConjugatePosterior
from spiel_ext.engine import GameTree, GameView

Model = tuple[np.ndarray, np.ndarray]  # (chance_prob, utility)


class EnvironmentModel:
  """The conjugate posterior and the model game the inner solver runs on.

  Args:
    rules: the base game's tree.
    model: "draw" (a posterior draw each iteration) or "mean" (the
      posterior mean).

  Attributes:
    posterior: the :class:`~spiel_ext.algorithms.posterior.
      ConjugatePosterior`.
  """

  def __init__(self, rules: GameTree, model: str = "draw"):
    self.posterior = ConjugatePosterior(rules)
    self.model = model

  def solver_game(self, rng: np.random.Generator) -> Model:
    """The model game of this iteration's solver update.

    Args:
      rng: the learner's generator (used for a draw).

    Returns:
      (chance_prob, utility), fresh arrays.
    """
    if self.model == "draw":
      return self.posterior.sample_game(rng)
    return self.posterior.mean_game()

  def draw(self, rng: np.random.Generator) -> Model:
    """A posterior draw.

    Args:
      rng: the learner's generator.

    Returns:
      (chance_prob, utility), fresh arrays.
    """
    return self.posterior.sample_game(rng)

  def observe(self, episode: Any) -> None:
    """Counts an episode's chance outcomes and reward.

    Args:
      episode: an :class:`~spiel_ext.games.unknown_env.learner.Episode`.
    """
    self.posterior.observe(episode.histories, episode.reward)


class StatelessPart:
  """A learner's part that keeps nothing across iterations: it saves
  nothing into a learner's state and restores nothing from it."""

  def save(self, state: dict[str, Any]) -> None:
    """Adds nothing to a learner's state.

    Args:
      state: the learner's state dict.
    """
    del state

  def load(self, state: dict[str, Any]) -> None:
    """Restores nothing.

    Args:
      state: the learner's state dict.
    """
    del state


class NoBonus(StatelessPart):
  """No information bonus: the draws go to the solver and the exploration
  policy as they are."""

  def on_solver_draw(self, posterior: ConjugatePosterior,
                     utility: np.ndarray) -> tuple[np.ndarray, None]:
    """The solver's draw, unchanged.

    Args:
      posterior: the learner's posterior (unused).
      utility: the draw's [histories, 2] utilities.

    Returns:
      (``utility``, None).
    """
    del posterior
    return utility, None

  def on_exploration_draw(self, posterior: ConjugatePosterior,
                          utility: np.ndarray, gain: Any) -> np.ndarray:
    """The exploration draw (see :meth:`on_draw`).

    Args:
      posterior: the learner's posterior.
      utility: the draw's [histories, 2] utilities.
      gain: the solver draw's gain (unused here).

    Returns:
      ``utility``, as :meth:`on_draw` leaves it.
    """
    del gain
    return self.on_draw(posterior, utility)

  def on_draw(self, posterior: ConjugatePosterior,
              utility: np.ndarray) -> np.ndarray:
    """A draw with a gain of its own, here unchanged.

    Args:
      posterior: the learner's posterior (unused).
      utility: the draw's [histories, 2] utilities.

    Returns:
      ``utility``.
    """
    del posterior
    return utility

  def observe(self, episode: Any) -> None:
    """Nothing to learn from an episode.

    Args:
      episode: the episode (unused).
    """
    del episode


NO_BONUS = NoBonus()


class BonusPlacement(NoBonus):
  """Where VCFR's information bonus goes (Qiu et al.'s designs).

  Args:
    bonus: the :class:`~spiel_ext.algorithms.exploration.InformationBonus`.
    design: "cfr_draw" (on the solver's draw), "exploration_draw" (on the
      exploration draw, with a gain of its own) or "both_draws" (on both,
      the exploration draw shifted by the solver draw's gain). A learner
      with one draw puts the bonus on it with :meth:`on_draw`.
  """

  def __init__(self, bonus: InformationBonus, design: str):
    self.bonus = bonus
    self.design = design

  def on_solver_draw(self, posterior: ConjugatePosterior,
                     utility: np.ndarray) -> tuple[np.ndarray, Any]:
    """The solver's draw with the bonus (one gain per iteration).

    Args:
      posterior: the learner's posterior.
      utility: the draw's [histories, 2] utilities (changed in place).

    Returns:
      (``utility``, the gain or None where none was computed).
    """
    if self.design == "exploration_draw":
      return utility, None
    gain = self.bonus.gain(posterior, utility)
    return self.bonus.shift(utility, gain), gain

  def on_exploration_draw(self, posterior: ConjugatePosterior,
                          utility: np.ndarray, gain: Any) -> np.ndarray:
    """The exploration draw with the bonus.

    Args:
      posterior: the learner's posterior.
      utility: the draw's [histories, 2] utilities (changed in place).
      gain: what :meth:`on_solver_draw` returned with the solver's draw.

    Returns:
      ``utility``.
    """
    if self.design == "both_draws":
      return self.bonus.shift(utility, gain)
    return self.on_draw(posterior, utility)

  def on_draw(self, posterior: ConjugatePosterior,
              utility: np.ndarray) -> np.ndarray:
    """A draw with this call's gain shifted in.

    Args:
      posterior: the learner's posterior.
      utility: the draw's [histories, 2] utilities (changed in place).

    Returns:
      ``utility``.
    """
    return self.bonus.apply(posterior, utility)

  def observe(self, episode: Any) -> None:
    """The bonus's network learns from an episode (information="bnn").

    Args:
      episode: the episode.
    """
    self.bonus.observe(episode)

  def save(self, state: dict[str, Any]) -> None:
    """Adds the bonus's state, ``"bonus"``.

    Args:
      state: the learner's state dict.
    """
    state["bonus"] = self.bonus.state_dict()

  def load(self, state: dict[str, Any]) -> None:
    """Restores the bonus's state.

    Args:
      state: the learner's state dict.
    """
    self.bonus.load_state_dict(state["bonus"])


class Playing(StatelessPart):
  """Episodes that play one strategy: the solver's average or current
  strategy, or uniformly random.

  Args:
    play: "average", "current" or "uniform".
    episodes: episodes per iteration.
  """

  needs_draw = False
  average_model: AverageModel | None = None

  def __init__(self, play: str, episodes: int = 2):
    self.play = play
    self.episodes = episodes

  def record(self, rules: GameTree, model: Model) -> None:
    """Nothing to record of the solver's model game.

    Args:
      rules: the base game's tree (unused).
      model: the model game (unused).
    """
    del rules, model

  def episode_strategies(self, rules: GameTree, solver: Any,
                         draw: GameView | None
                         ) -> tuple[list[np.ndarray], bool]:
    """What the episodes play: :meth:`strategies` (False), or for the
    average the solver's cumulative policy (True), whose rows the
    episodes normalise where they pass (the same episodes, without the
    whole average).

    Args:
      rules: the base game's tree.
      solver: the inner solver.
      draw: the exploration draw.

    Returns:
      (one [infosets, actions] array per episode, whether they are
      numerators).
    """
    if self.play == "average" and hasattr(solver, "cumulative_policy"):
      return [solver.cumulative_policy] * self.episodes, True
    return self.strategies(rules, solver, draw), False

  def strategies(self, rules: GameTree, solver: Any,
                 draw: GameView | None) -> list[np.ndarray]:
    """The episodes' joint strategies.

    Args:
      rules: the base game's tree.
      solver: the inner solver.
      draw: the exploration draw (unused).

    Returns:
      One [infosets, actions] strategy per episode.
    """
    del draw
    if self.play == "uniform":
      strategy = rules.uniform_policy()
    elif self.play == "average":
      strategy = solver.average_strategy()
    else:
      strategy = solver.current_strategy()
    return [strategy] * self.episodes


class Exploring(Playing):
  """Posterior-sampling exploration (Zhou, Li, Zhu, "Posterior Sampling
  for Multi-Agent Reinforcement Learning: Solving Extensive Games with
  Imperfect Information", ICLR 2020): each player's
  exploring strategy in a second draw against the other's average
  (:func:`~spiel_ext.algorithms.exploration.exploring_actions`); the
  episodes are (player 0 explores, player 1 plays) and the reverse.

  Args:
    rules: the base game's tree.
    exploration: "default" (keeps the average of the solver's draws),
      "br_dirc" or "best_response" (see
      :class:`~spiel_ext.algorithms.learners.PSRLCFRLearner`).
  """

  needs_draw = True

  def __init__(self, rules: GameTree, exploration: str | None):
    super().__init__("explore")
    self.exploration = exploration
    self.average_model: AverageModel | None = (
        AverageModel(rules) if exploration == "default" else None)

  def record(self, rules: GameTree, model: Model) -> None:
    """Adds the solver's model game to the average model ("default").

    Args:
      rules: the base game's tree.
      model: (chance_prob, utility) of the solver's draw, before any
        bonus.
    """
    if self.average_model is not None:
      self.average_model.add(rules, *model)

  def strategies(self, rules: GameTree, solver: Any,
                 draw: GameView | None) -> list[np.ndarray]:
    """The two episodes' strategies: each player's exploring strategy,
    paired with the other's current strategy (or average, for
    "best_response").

    Args:
      rules: the base game's tree.
      solver: the inner solver.
      draw: the exploration draw.

    Returns:
      [player 0 explores, player 1 explores] joint strategies.
    """
    assert draw is not None  # needs_draw: the learner passes its draw.
    average = solver.average_strategy()
    exploring = exploring_actions(
        rules, self.exploration, average, draw,
        self.average_model.game() if self.average_model else None)
    if self.exploration == "best_response":
      return exploring
    current = solver.current_strategy()
    strategies = []
    for player, strategy in zip((0, 1), exploring):
      rows = rules.player_rows[player]
      paired = current.copy()
      paired[rows] = strategy[rows]
      strategies.append(paired)
    return strategies

  def save(self, state: dict[str, Any]) -> None:
    """Adds the average model ("default"), ``"average_model"``.

    Args:
      state: the learner's state dict.
    """
    if self.average_model is not None:
      state["average_model"] = average_model_state(self.average_model)

  def load(self, state: dict[str, Any]) -> None:
    """Restores the average model ("default").

    Args:
      state: the learner's state dict.
    """
    if self.average_model is not None:
      load_average_model_state(self.average_model, state["average_model"])


class EpisodeSchedule:
  """The episodes of an iteration, each observed by the learner's parts
  in turn.

  Args:
    environment: the learner's
      :class:`~spiel_ext.games.unknown_env.learner.Environment`.
  """

  def __init__(self, environment: Any):
    self.environment = environment

  def play(self, strategies: Sequence[np.ndarray], rng: np.random.Generator,
           observers: Sequence[Callable[[Any], None]],
           numerators: bool = False) -> None:
    """Plays one episode per strategy; each observer sees each episode.

    Args:
      strategies: [infosets, actions] joint strategies, one per episode
        (the learner's own: not checked again).
      rng: the learner's generator.
      observers: called with each episode, in order.
      numerators: the strategies are numerators, normalised where the
        episodes pass (see ``Environment.play_vouched_episode``).
    """
    for strategy in strategies:
      episode = self.environment.play_vouched_episode(strategy, rng,
                                                      numerators)
      for observe in observers:
        observe(episode)


class NoTerminalBonus:
  """A model-free learner's reward as it is."""

  def reward_bonus(self, episode: Any) -> float:
    """No bonus.

    Args:
      episode: the episode (unused).

    Returns:
      0.0.
    """
    del episode
    return 0.0


NO_TERMINAL_BONUS = NoTerminalBonus()


class TerminalBonus(NoTerminalBonus):
  """eta times the information an episode's reward brings: the conjugate
  posterior's gain at the episode's terminal before the episode is
  counted (Qiu et al.'s VFSP).

  Args:
    rules: the base game's tree.
    eta: the bonus weight.

  Attributes:
    posterior: the conjugate model, which only measures information.
  """

  def __init__(self, rules: GameTree, eta: float):
    self.posterior = ConjugatePosterior(rules)
    self.eta = eta

  def reward_bonus(self, episode: Any) -> float:
    """The episode's bonus; then the episode is counted.

    Args:
      episode: an :class:`~spiel_ext.games.unknown_env.learner.Episode`.

    Returns:
      eta times the gain at the episode's terminal.
    """
    gain = float(self.posterior.information_gain()[episode.terminal])
    self.posterior.observe(episode.histories, episode.reward)
    return self.eta * gain
