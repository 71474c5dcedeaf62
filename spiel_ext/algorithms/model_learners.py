"""The model-based learners: a posterior model game, one full-width solver
iteration on it, and episodes (Qiu, Wang, Ma, Wen, Zhang, "Combining
Counterfactual Regret Minimization with Information Gain to Solve
Extensive Games with Unknown Environments", 2021).

Each learner is the loop of :class:`ModelBasedLearner` over its parts
(:mod:`spiel_ext.algorithms.learner_parts`): the environment model, where
the information bonus goes (if any), the exploration policy, the inner
solver (CFR or DCFR) and the episode schedule. A class only chooses its
parts. The classes are importable from :mod:`spiel_ext.algorithms.learners`
too.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from spiel_ext.algorithms.cfr import CFRSolver
from spiel_ext.algorithms.checks import check_bool, check_choice
from spiel_ext.algorithms.contract import config_property, set_field
from spiel_ext.algorithms.discounted_cfr import DCFRSolver
from spiel_ext.algorithms.exploration import EXPLORATIONS, BonusConfig
from spiel_ext.algorithms.learner_base import (BASES, LEARNER_ARGS,
                                               BonusLearner, EpisodeLearner)
from spiel_ext.algorithms.learner_parts import (NO_BONUS, EnvironmentModel,
                                                EpisodeSchedule, Exploring,
                                                NoBonus, Playing)
from spiel_ext.engine import GameView


class ModelBasedLearner(EpisodeLearner):
  __doc__ = f"""Shared loop: a model game, one regret-minimisation iteration on
  it, the episodes, and the posterior update, over the learner's parts.

  The regret minimiser is a CFRSolver (or DCFRSolver) on the rules' tree,
  given each iteration's model game: its current strategy is the
  learner's (:meth:`current_strategy`), its average the learner's output,
  and its ``state_dict()`` part of the learner's.

  Args:{LEARNER_ARGS}
  Attributes:
    posterior: the conjugate model (``environment_model.posterior``).
    environment_model: the :class:`~spiel_ext.algorithms.learner_parts.
      EnvironmentModel`.
    placement: where the information bonus goes (a
      :class:`~spiel_ext.algorithms.learner_parts.NoBonus` without one).
    explorer: the exploration policy (:class:`~spiel_ext.algorithms.
      learner_parts.Playing` or :class:`~spiel_ext.algorithms.
      learner_parts.Exploring`).
  """

  @dataclasses.dataclass(frozen=True, eq=False)
  class Config(EpisodeLearner.Config):
    """The hyperparameters of every model-based learner.

    Attributes:
      base: "cfr" (default) or "dcfr" (DCFR's defaults 1.5, 0, 2).
      alternating_updates: update the players in turn (OpenSpiel's CFR) or
        both on the same profile (False, the default: the authors' code,
        which updates both players' regrets before either strategy).
      seed: an int in 0..2**63 - 1 (default 0): posterior draws and
        episodes.
    """
    base: str = "cfr"
    alternating_updates: bool = False

    def __post_init__(self) -> None:
      set_field(self, "base", check_choice("base", self.base, BASES))
      set_field(self, "alternating_updates", check_bool(
          "alternating_updates", self.alternating_updates))
      super().__post_init__()

  episodes_per_iteration = 2
  # The model game the solver runs on: "draw" or "mean".
  model = "draw"

  def _build(self) -> None:
    super()._build()
    self.environment_model = EnvironmentModel(self.rules, self.model)
    self.posterior = self.environment_model.posterior
    solver_class = CFRSolver if self.config.base == "cfr" else DCFRSolver
    self._solver = solver_class(
        self.rules, alternating_updates=self.config.alternating_updates)
    self.placement = self._placement()
    self.explorer = self._explorer()
    self._schedule = EpisodeSchedule(self._environment)

  def _stream_version(self) -> int:
    """Posterior draws' stream version if the learner draws (a model game
    or an exploration draw), else 1."""
    draws = self.model == "draw" or self.explorer.needs_draw
    return self.DRAW_STREAM_VERSION if draws else 1

  def _placement(self) -> NoBonus:
    """The learner's bonus placement part (default: no bonus)."""
    return NO_BONUS

  def _explorer(self) -> Playing:
    """The learner's exploration policy part."""
    raise NotImplementedError

  @property
  def _average_model(self) -> Any:
    """The exploration policy's average model (None without one)."""
    return self.explorer.average_model

  def _draw(self) -> tuple[np.ndarray, np.ndarray]:
    """(chance_prob, utility) of a posterior draw (fresh arrays)."""
    return self.environment_model.draw(self._rng)

  def _episode_strategies(self, gain: Any = None) -> list[np.ndarray]:
    """The joint strategies of this iteration's episodes: the exploration
    policy's, in a second draw (with the bonus ``gain`` of the solver's
    draw placed as the design says) if the policy needs one."""
    return self.explorer.strategies(self.rules, self._solver,
                                    self._exploration_draw(gain))

  def _exploration_draw(self, gain: Any) -> GameView | None:
    """The exploration policy's second draw, if it needs one."""
    draw = None
    if self.explorer.needs_draw:
      chance_prob, utility = self._draw()
      # The posterior built the arrays: valid, so not checked again.
      draw = self.rules.with_vouched_model(
          chance_prob, self.placement.on_exploration_draw(
              self.posterior, utility, gain))
    return draw

  def evaluate_and_update_policy(self) -> None:
    """One iteration: a model game (with the bonus, if any), one solver
    iteration on it, the episodes' strategies, the episodes, and what the
    parts learn from them."""
    rules = self.rules
    chance_prob, utility = self.environment_model.solver_game(self._rng)
    self.explorer.record(rules, (chance_prob, utility))
    utility, gain = self.placement.on_solver_draw(self.posterior, utility)
    self._solver.set_view(rules.with_vouched_model(chance_prob, utility))
    self._solver.evaluate_and_update_policy()
    strategies, numerators = self.explorer.episode_strategies(
        rules, self._solver, self._exploration_draw(gain))
    self._schedule.play(
        strategies, self._rng,
        (self.environment_model.observe, self.placement.observe), numerators)
    self._iteration += 1

  def average_strategy(self) -> np.ndarray:
    """[rules infosets, actions]: the regret minimiser's average.

    Returns:
      A new [rules infosets, actions] array.
    """
    return self._solver.average_strategy()

  def current_strategy(self) -> np.ndarray:
    """[rules infosets, actions]: the regret minimiser's current strategy
    (regret matching on its cumulative regrets).

    Returns:
      A new [rules infosets, actions] array.
    """
    return self._solver.current_strategy()

  def _save_state(self, state: dict[str, Any]) -> None:
    super()._save_state(state)
    state["solver"] = self._solver.state_dict()
    state["posterior"] = self.posterior.counts()
    self.explorer.save(state)
    self.placement.save(state)

  def _load_state(self, state: dict[str, Any]) -> None:
    super()._load_state(state)
    self._solver.load_state_dict(state["solver"])
    self.posterior.load_counts(state["posterior"])
    self.explorer.load(state)
    self.placement.load(state)


MODELS = ("draw", "mean")
PLAYS = ("average", "current")


@dataclasses.dataclass(frozen=True, eq=False)
class _ModelGameConfig(ModelBasedLearner.Config):
  """The model game of :class:`NaiveCFRLearner` and :class:`RandomLearner`.

  Attributes:
    model: "draw" (default; a posterior draw each iteration, as the
      authors' ``cfrpsrl.py`` type "ordinary") or "mean" (the posterior
      mean).
  """
  model: str = "draw"

  def __post_init__(self) -> None:
    set_field(self, "model", check_choice("model", self.model, MODELS))
    super().__post_init__()


class NaiveCFRLearner(ModelBasedLearner):
  __doc__ = f"""Naive-CFR / Naive-DCFR of Qiu et al.: CFR (or DCFR) on a model
  game without any bonus, both episodes played with one of its strategies.

  Args:{LEARNER_ARGS}"""

  @dataclasses.dataclass(frozen=True, eq=False)
  class Config(_ModelGameConfig):
    """NaiveCFRLearner's hyperparameters.

    Attributes:
      model: "draw" (default; a posterior draw each iteration, as the
        authors' ``cfrpsrl.py`` type "ordinary") or "mean" (the posterior
        mean).
      play: "average" (default; the paper's text: "the average strategy
        calculated is used as exploration policy") or "current" (the
        authors' ``cfrpsrl.py`` type "ordinary" plays CFR's current
        strategy).
      base, alternating_updates, seed: as :class:`ModelBasedLearner`.
    """
    play: str = "average"

    def __post_init__(self) -> None:
      set_field(self, "play", check_choice("play", self.play, PLAYS))
      super().__post_init__()

  model = config_property("model", "The model game CFR runs on")
  play = config_property("play", "The strategy the episodes play")

  def _explorer(self) -> Playing:
    """Both episodes play ``play``."""
    return Playing(self.play, self.episodes_per_iteration)


class RandomLearner(NaiveCFRLearner):
  __doc__ = f"""The Random baseline: both episodes play uniformly at random (the
  authors' type "random"); what it outputs is Naive-CFR's average on the
  posterior those episodes build (its current strategy is the regret
  minimiser's, which its episodes do not play).

  Args:{LEARNER_ARGS}"""

  @dataclasses.dataclass(frozen=True, eq=False)
  class Config(_ModelGameConfig):
    """RandomLearner's hyperparameters.

    Attributes:
      model: as :class:`NaiveCFRLearner`.
      base, alternating_updates, seed: as :class:`ModelBasedLearner`.
    """

  play = "uniform"  # What its episodes play.


class PSRLCFRLearner(ModelBasedLearner):
  __doc__ = f"""Posterior sampling (Zhou, Li, Zhu 2020; github
  DongdongBai/submit, ``cfrpsrl.py``): CFR on a posterior draw; a second draw
  gives each player's exploring strategy against the other's average
  (:func:`~spiel_ext.algorithms.exploration.exploring_actions`), and the two
  episodes are (player 0 explores, player 1 plays) and (player 0 plays, player 1
  explores).

  Args:{LEARNER_ARGS}"""

  @dataclasses.dataclass(frozen=True, eq=False)
  class Config(ModelBasedLearner.Config):
    """PSRLCFRLearner's hyperparameters.

    Attributes:
      exploration: "default" (the authors' type "default": V_draw - V_avg,
        paired with the other's current strategy), "br_dirc" (the authors'
        type "br_dirc", ``experiment_br.py:86``'s default: a best response
        in the second draw, paired with the other's current strategy) or
        "best_response" (ours: the same best response, paired with the
        other's average, as in the paper's description).
      base, alternating_updates, seed: as :class:`ModelBasedLearner`.
    """
    exploration: str | None = "default"

    def _checked_exploration(self) -> str | None:
      return check_choice("exploration", self.exploration, EXPLORATIONS)

    def __post_init__(self) -> None:
      set_field(self, "exploration", self._checked_exploration())
      super().__post_init__()

  @property
  def exploration(self) -> str | None:
    """How the episodes explore (None: they do not)."""
    return self.config.exploration

  def _explorer(self) -> Playing:
    """The episodes explore in a second draw (:class:`Exploring`)."""
    return Exploring(self.rules, self.exploration)


DESIGNS = ("cfr_draw", "exploration_draw", "both_draws")


class VCFRLearner(BonusLearner, PSRLCFRLearner):
  __doc__ = f"""VCFR (Qiu et al.): posterior-sampling CFR with the information
  bonus r' = r + eta KL(z) (:class:`~spiel_ext.algorithms.exploration.
  InformationBonus`), in one of three designs:

  - "cfr_draw" (default): the paper's Algorithm 1 and the authors'
    ``kl_cfr.py:97`` / ``vime_discount.py:100`` (type "ordinary"): the
    bonus on the CFR draw, both episodes play the average strategy
    (``kl_cfr.py:258``); no exploration draw.
  - "exploration_draw": the authors' ``vime_cfr.py`` (type "default"):
    CFR on the clean draw (``vime_cfr.py:97`` is commented out), the bonus
    on the second draw only, which explores as PSRLCFR's "default"
    (``vime_cfr.py:235-246``).
  - "both_draws": ours before we read the authors' code: the bonus on both
    draws, exploring with ``exploration`` (default "best_response").

  Args:{LEARNER_ARGS}"""

  @dataclasses.dataclass(frozen=True, eq=False)
  class Config(PSRLCFRLearner.Config, BonusConfig):
    """VCFRLearner's hyperparameters.

    Attributes:
      design: "cfr_draw" (default), "exploration_draw" or "both_draws".
      exploration: for the designs that explore (None, the default:
        "default" for "exploration_draw", "best_response" for
        "both_draws"); must be None for "cfr_draw".
      eta, players, normalisation, information, kl_every: the bonus's
        (:class:`~spiel_ext.algorithms.exploration.BonusConfig`).
      base, alternating_updates, seed: as :class:`ModelBasedLearner`.
    """
    design: str = "cfr_draw"
    exploration: str | None = None

    def _checked_exploration(self) -> str | None:
      if self.design == "cfr_draw" and self.exploration is not None:
        raise ValueError(f"exploration must be None for design='cfr_draw' "
                         f"(both episodes play the average strategy); got "
                         f"{self.exploration!r}.")
      if self.exploration is None:
        return None
      return super()._checked_exploration()

    def __post_init__(self) -> None:
      set_field(self, "design", check_choice("design", self.design, DESIGNS))
      super().__post_init__()

  design = config_property("design", "Where the bonus goes")
  _bonus_design = design  # BonusLearner places the bonus as it says.

  @property
  def exploration(self) -> str | None:
    """How the episodes explore: the config's, or its design's default
    (None for "cfr_draw": both episodes play the average)."""
    if self.design == "cfr_draw":
      return None
    if self.config.exploration is not None:
      return self.config.exploration
    return ("default" if self.design == "exploration_draw" else
            "best_response")

  def _explorer(self) -> Playing:
    """"cfr_draw": both episodes play the average; otherwise they explore
    in a second draw."""
    if self.design == "cfr_draw":
      return Playing("average", self.episodes_per_iteration)
    return super()._explorer()
