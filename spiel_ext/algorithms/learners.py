"""Learners for games whose chance and rewards are unknown.

The learner sees the rules of an unknown environment
(``spiel_ext_unknown_env``: the base game's tree, infosets and legal
actions) and learns only from episodes it plays. Each iteration updates a
conjugate posterior (:class:`~spiel_ext.algorithms.posterior.
ConjugatePosterior`) with the episodes, runs one CFR (or DCFR) iteration on
a view of the one compiled tree with the model's numbers
(``rules.with_model(chance_prob, utility)``, run through
:meth:`RegretMinimizationSolver.set_view`), and plays the next episodes:

Qiu, Wang, Ma, Wen, Zhang, "Combining Counterfactual Regret Minimization
with Information Gain to Solve Extensive Games with Unknown Environments",
arXiv:2110.07892, and their code (github chenqiu01/VCFR, which carries
the PSRLCFR code of github DongdongBai/submit); each class names the
authors' file it follows:

- :class:`NaiveCFRLearner`: CFR (or DCFR) on a posterior draw (or the
  posterior mean), episodes with its average (or current) strategy.
  :class:`RandomLearner` is the same with uniformly random episodes.
- :class:`PSRLCFRLearner`: CFR on a posterior draw, episodes with each
  player's exploring strategy from a second draw (Zhou, Li, Zhu,
  "Posterior Sampling for Multi-Agent Reinforcement Learning: Solving
  Extensive Games with Imperfect Information", ICLR 2020), in the
  authors' two exploration types and ours.
- :class:`VCFRLearner`: the information bonus r' = r + eta KL(z) (eq. 10)
  in the paper's Algorithm 1 (on the CFR draw, episodes with the average)
  or the authors' other design (on the exploration draw); the bonus's
  options are in :mod:`spiel_ext.algorithms.exploration`.
- :class:`PosteriorFSPLearner` / :class:`PosteriorVFSPLearner`: the
  authors' FSP / VFSP, fictitious play with exact best responses on a
  posterior draw, without / with the bonus.
- :class:`FSPLearner` / :class:`VFSPLearner`: the paper's text's FSP,
  fictitious self-play with tabular fitted-Q best responses, without /
  with the bonus (below).
- :class:`OutcomeSamplingLearner`: MCCFR with outcome sampling on the
  episodes themselves, no model (below).

Where the CFR walk differs from the authors': histories whose reach is
below 1e-5 are not skipped, and the uniform first strategy is not counted
in CFR's average (one iteration in 20,000).

Two episodes per iteration for every learner. ``average_policy()`` and
``current_policy()`` are TabularPolicies of the true game (the pyspiel game
the learner was built from), so every evaluator scores them exactly there.

Every learner meets the solver contract of
:mod:`spiel_ext.algorithms.protocol`: its hyperparameters are one frozen
``Config`` per class (``NaiveCFRLearner.Config``), checked once;
``NaiveCFRLearner(game, model="mean")`` and
``NaiveCFRLearner(game, NaiveCFRLearner.Config(model="mean"))`` are the
same learner. ``progress()`` counts its iterations and the episodes it
played. ``state_dict()`` is its state as plain data -- its own arrays and
generator, the inner regret minimiser's ``state_dict()``, the posterior's
counts, the information bonus's state and the environment's episode
count -- and a learner rebuilt from the game and config that loads it
continues exactly; pickling goes through it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pyspiel

from spiel_ext.algorithms.checks import (check_bool, check_choice,
                                         check_int, check_real, check_seed)
from spiel_ext.algorithms.cfr import CFRSolver
from spiel_ext.algorithms.discounted_cfr import DCFRSolver
from spiel_ext.algorithms.exploration import (DEFAULT_ETA, EXPLORATIONS,
                                              AverageModel, BonusConfig,
                                              InformationBonus,
                                              average_model_state,
                                              check_eta, exploring_actions,
                                              load_average_model_state)
from spiel_ext.algorithms.posterior import ConjugatePosterior
from spiel_ext.algorithms.contract import Contract, SolverConfig, set_field
from spiel_ext.engine import compile_game, load_game
from spiel_ext.policy import TabularPolicy, to_tabular_policy

BASES = ("cfr", "dcfr")
_ENVIRONMENT_GAME = "spiel_ext_unknown_env"

# Bounds of the learners' numeric arguments (each checked at construction):
#
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


def environment_of(game: pyspiel.Game | str):
  """The learner's :class:`Environment` of a true-game string.

  Args:
    game: ``spiel_ext_unknown_env(game=...,env_seed=...)``, a pyspiel game
      or its string.

  Returns:
    A new :class:`~spiel_ext.games.unknown_env.learner.Environment` of
    that base game, ``env_seed`` and chance model (no episodes played).

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


_set = set_field


def _restore(learner_class: type, game: str, config: Any,
             state: dict[str, Any]) -> "EpisodeLearner":
  """A learner pickled by an earlier spiel_ext, unpickled: rebuilt from its
  game and config, then given its state."""
  learner = learner_class(game, config)
  learner.load_state_dict(state)
  return learner


def _checked_array(state: dict[str, Any], name: str, like: np.ndarray,
                   owner: str) -> np.ndarray:
  """``state[name]`` as a fresh array of ``like``'s shape and dtype;
  ValueError otherwise."""
  value = np.asarray(state[name])
  if value.shape != like.shape or value.dtype.kind not in "biuf":
    raise ValueError(f"{owner} checkpoint array {name} has shape "
                     f"{value.shape} and dtype {value.dtype}, not "
                     f"{like.shape} and {like.dtype}.")
  return value.astype(like.dtype, copy=True)


class EpisodeLearner(Contract):
  """What every learner shares: the environment, its seeded generator, the
  episode count, the policies on the true game and the solver contract
  (config, progress, state dict, pickling).

  Args:
    game: the true game, ``spiel_ext_unknown_env(game=...,env_seed=...)``
      (a pyspiel game or its string); only its rules are used.
    config: the class's ``Config`` (None: its defaults).
    **shortcuts: the ``Config``'s fields as keywords, replacing
      ``config``'s (``seed=3``).

  Raises:
    TypeError: ``game`` is not a string or pyspiel game, ``config`` not
      the class's ``Config``, or a keyword names none of its fields.
    ValueError: a bad hyperparameter (naming it), or a game that is not
      an unknown environment.

  Attributes:
    config: the hyperparameters (``type(learner).Config``).
    rules: the base game's tree (shape, infosets, legal actions only).
    episodes: episodes played so far.
  """

  @dataclasses.dataclass(frozen=True, eq=False)
  class Config(SolverConfig):
    """The hyperparameters every learner has.

    Attributes:
      seed: an int in 0..2**63 - 1 (default 0) or None: every random
        choice of the learner.
    """
    seed: int | None = 0

    def __post_init__(self) -> None:
      _set(self, "seed", check_seed(self.seed))
      # A config that also extends BonusConfig checks its fields next.
      super().__post_init__()

  _CLASS_KEY = "learner"
  _FREE_FIELDS = ()  # The seed also seeds parts the state does not hold.

  def __init__(self, game: pyspiel.Game | str, config: Any = None,
               **shortcuts):
    self._config = self._resolve(config, shortcuts)
    if not isinstance(game, (str, pyspiel.Game)):
      raise TypeError(f"game must be {_ENVIRONMENT_GAME}(game=...,env_seed="
                      f"...) as a string or pyspiel game; got "
                      f"{type(game).__name__}.")
    self._game = str(game)
    self._rng = np.random.default_rng(self._config.seed)
    self._iteration = 0
    self._environment = environment_of(self._game)
    self._true_tree = compile_game(self._game)
    self.rules = self._environment.rules
    self._true_rows = np.array([self._true_tree.key_to_infoset[key]
                                for key in self.rules.infoset_keys])
    self._build()

  def _build(self) -> None:
    """A subclass's own parts, built after the environment and rules."""

  # ------------------------------------------------------------ contract
  @property
  def episodes(self) -> int:
    """The number of episodes played so far."""
    return self._environment.episodes

  def _episodes(self) -> int:
    """Episodes played (in :meth:`progress`)."""
    return self.episodes

  def _game_string(self) -> str:
    """The true game's string."""
    return self._game

  def evaluate_and_update_policy(self) -> None:
    """Runs one iteration: the learner's episodes and updates (each class
    says which)."""
    raise NotImplementedError

  def average_strategy(self) -> np.ndarray:
    """[rules infosets, actions]: ``cumulative_policy`` normalised per
    infoset (uniform where nothing was accumulated yet).

    Returns:
      A new [rules infosets, actions] array.
    """
    totals = self.cumulative_policy.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
      average = self.cumulative_policy / totals
    return np.where(totals > 0, average, self.rules.uniform_policy())

  def current_strategy(self) -> np.ndarray:
    """[rules infosets, actions]: the strategy the learner plays now (each
    class says which).

    Returns:
      A new [rules infosets, actions] array.
    """
    raise NotImplementedError

  def _own_steps(self, path, player: int) -> list[tuple[int, int]]:
    """(infoset row, action) of each of ``player``'s decisions along an
    episode's path of histories."""
    rules = self.rules
    return [(int(rules.infoset[history]), int(rules.action[child]))
            for history, child in zip(path[:-1], path[1:])
            if rules.node_player[history] == player]

  def _true_policy(self, strategy: np.ndarray) -> TabularPolicy:
    """A [rules infosets, actions] strategy as a fresh TabularPolicy of the
    true game."""
    true_strategy = np.zeros(self._true_tree.infoset_legal.shape)
    true_strategy[self._true_rows] = strategy
    return to_tabular_policy(self._true_tree, true_strategy)

  def average_policy(self) -> TabularPolicy:
    """The average strategy as a fresh TabularPolicy of the true game.

    Returns:
      A new :class:`spiel_ext.policy.TabularPolicy` of the true game.
    """
    return self._true_policy(self.average_strategy())

  def current_policy(self) -> TabularPolicy:
    """:meth:`current_strategy` as a fresh TabularPolicy of the true game
    (a new object on every call, unlike a full-width solver's).

    Returns:
      A new :class:`spiel_ext.policy.TabularPolicy` of the true game.
    """
    return self._true_policy(self.current_strategy())

  # ----------------------------------------------------------- checkpoint
  def _save_state(self, state: dict[str, Any]) -> None:
    """Adds the episode count; a subclass adds its parts (see the module
    docstring)."""
    state["episodes"] = self.episodes

  def _load_state(self, state: dict[str, Any]) -> None:
    """Restores the episode count; a subclass restores its parts (those
    loaded before a misfit stay loaded: the learner should then be
    discarded)."""
    self._environment.episodes = int(state["episodes"])


class ModelBasedLearner(EpisodeLearner):
  """Shared loop: a model game, one regret-minimisation iteration on it,
  the episodes, and the posterior update.

  The regret minimiser is a CFRSolver (or DCFRSolver) on the rules' tree,
  given each iteration's model game: its current strategy is the
  learner's (:meth:`current_strategy`), its average the learner's output,
  and its ``state_dict()`` part of the learner's.

  Args:
    game, config, shortcuts: as for :class:`EpisodeLearner`, with this
      class's ``Config``.

  Attributes:
    posterior: the conjugate model.
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
      _set(self, "base", check_choice("base", self.base, BASES))
      _set(self, "alternating_updates", check_bool(
          "alternating_updates", self.alternating_updates))
      super().__post_init__()

  episodes_per_iteration = 2

  def _build(self) -> None:
    super()._build()
    self.posterior = ConjugatePosterior(self.rules)
    solver_class = CFRSolver if self.config.base == "cfr" else DCFRSolver
    self._solver = solver_class(
        self.rules, alternating_updates=self.config.alternating_updates)

  def _draw(self) -> tuple[np.ndarray, np.ndarray]:
    """(chance_prob, utility) of a posterior draw (fresh arrays)."""
    return self.posterior.sample_game(self._rng)

  def _cfr_model(self) -> tuple[np.ndarray, np.ndarray]:
    """The game of this iteration's CFR update."""
    raise NotImplementedError

  def _episode_strategies(self) -> list[np.ndarray]:
    """The joint strategies of this iteration's episodes."""
    raise NotImplementedError

  def evaluate_and_update_policy(self) -> None:
    """One iteration: a model game, one CFR iteration on it, the episodes,
    and the posterior update."""
    self._solver.set_view(self.rules.with_model(*self._cfr_model()))
    self._solver.evaluate_and_update_policy()
    for strategy in self._episode_strategies():
      episode = self._environment.play_episode(strategy, self._rng)
      self.posterior.observe(episode.histories, episode.reward)
      self._observed(episode)
    self._iteration += 1

  def _observed(self, episode) -> None:
    """What a subclass also learns from an episode (default: nothing)."""

  def _played(self, play: str) -> list[np.ndarray]:
    strategy = (self._solver.average_strategy() if play == "average" else
                self._solver.current_strategy())
    return [strategy] * self.episodes_per_iteration

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

  def _load_state(self, state: dict[str, Any]) -> None:
    super()._load_state(state)
    self._solver.load_state_dict(state["solver"])
    self.posterior.load_counts(state["posterior"])


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
    _set(self, "model", check_choice("model", self.model, MODELS))
    super().__post_init__()


class NaiveCFRLearner(ModelBasedLearner):
  """Naive-CFR / Naive-DCFR of Qiu et al.: CFR (or DCFR) on a model game
  without any bonus, both episodes played with one of its strategies.

  Args:
    game, config, shortcuts: as for :class:`EpisodeLearner`, with this
      class's ``Config``.
  """

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
      _set(self, "play", check_choice("play", self.play, PLAYS))
      super().__post_init__()

  model = property(lambda self: self.config.model,
                   doc="The model game CFR runs on (``config.model``).")
  play = property(lambda self: self.config.play,
                  doc="The strategy the episodes play (``config.play``).")

  def _cfr_model(self):
    return self._draw() if self.model == "draw" else (
        self.posterior.mean_game())

  def _episode_strategies(self):
    return self._played(self.play)


class RandomLearner(NaiveCFRLearner):
  """The Random baseline: both episodes play uniformly at random (the
  authors' type "random"); what it outputs is Naive-CFR's average on the
  posterior those episodes build (its current strategy is the regret
  minimiser's, which its episodes do not play).

  Args:
    game, config, shortcuts: as for :class:`EpisodeLearner`, with this
      class's ``Config``.
  """

  @dataclasses.dataclass(frozen=True, eq=False)
  class Config(_ModelGameConfig):
    """RandomLearner's hyperparameters.

    Attributes:
      model: as :class:`NaiveCFRLearner`.
      base, alternating_updates, seed: as :class:`ModelBasedLearner`.
    """

  play = "uniform"  # What its episodes play.

  def _episode_strategies(self):
    return [self.rules.uniform_policy()] * self.episodes_per_iteration


class PSRLCFRLearner(ModelBasedLearner):
  """Posterior sampling (Zhou, Li, Zhu 2020; github DongdongBai/submit,
  ``cfrpsrl.py``): CFR on a posterior draw; a second draw gives each
  player's exploring strategy against the other's average
  (:func:`~spiel_ext.algorithms.exploration.exploring_actions`), and the
  two episodes are (player 0 explores, player 1 plays) and (player 0
  plays, player 1 explores).

  Args:
    game, config, shortcuts: as for :class:`EpisodeLearner`, with this
      class's ``Config``.
  """

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
      _set(self, "exploration", self._checked_exploration())
      super().__post_init__()

  @property
  def exploration(self) -> str | None:
    """How the episodes explore (None: they do not)."""
    return self.config.exploration

  def _build(self) -> None:
    super()._build()
    self._average_model = (AverageModel(self.rules)
                           if self.exploration == "default" else None)

  def _save_state(self, state: dict[str, Any]) -> None:
    super()._save_state(state)
    if self._average_model is not None:
      state["average_model"] = average_model_state(self._average_model)

  def _load_state(self, state: dict[str, Any]) -> None:
    super()._load_state(state)
    if self._average_model is not None:
      load_average_model_state(self._average_model, state["average_model"])

  def _cfr_model(self):
    chance_prob, utility = self._draw()
    if self._average_model is not None:
      self._average_model.add(self.rules, chance_prob, utility)
    return chance_prob, self._shape_cfr_draw(utility)

  def _shape_cfr_draw(self, utility: np.ndarray) -> np.ndarray:
    return utility

  def _shape_exploration_draw(self, utility: np.ndarray) -> np.ndarray:
    return utility

  def _episode_strategies(self):
    chance_prob, utility = self._draw()
    draw = self.rules.with_model(chance_prob,
                                 self._shape_exploration_draw(utility))
    average = self._solver.average_strategy()
    exploring = exploring_actions(
        self.rules, self.exploration, average, draw,
        self._average_model.game() if self._average_model else None)
    if self.exploration == "best_response":
      return exploring
    current = self._solver.current_strategy()
    strategies = []
    for player, strategy in zip((0, 1), exploring):
      rows = self.rules.player_rows[player]
      paired = current.copy()
      paired[rows] = strategy[rows]
      strategies.append(paired)
    return strategies


DESIGNS = ("cfr_draw", "exploration_draw", "both_draws")


class _WithInformationBonus:
  """What a learner with the information bonus adds to its base: the
  :class:`InformationBonus` built from its config (a ``BonusConfig``), and
  its state in the learner's ``state_dict``."""

  def _build(self) -> None:
    super()._build()  # pylint: disable=no-member
    self.bonus = InformationBonus(self.rules, self.config,
                                  seed=self.config.seed)

  def _save_state(self, state: dict[str, Any]) -> None:
    super()._save_state(state)  # pylint: disable=no-member
    state["bonus"] = self.bonus.state_dict()

  def _load_state(self, state: dict[str, Any]) -> None:
    super()._load_state(state)  # pylint: disable=no-member
    self.bonus.load_state_dict(state["bonus"])


class VCFRLearner(_WithInformationBonus, PSRLCFRLearner):
  """VCFR (Qiu et al.): posterior-sampling CFR with the information bonus
  r' = r + eta KL(z) (:class:`~spiel_ext.algorithms.exploration.
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

  Args:
    game, config, shortcuts: as for :class:`EpisodeLearner`, with this
      class's ``Config``.
  """

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
      _set(self, "design", check_choice("design", self.design, DESIGNS))
      super().__post_init__()

  design = property(lambda self: self.config.design,
                    doc="Where the bonus goes (``config.design``).")

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

  def _observed(self, episode) -> None:
    self.bonus.observe(episode)

  def _shape_cfr_draw(self, utility):
    if self.design == "exploration_draw":
      return utility
    # One gain per iteration: "both_draws" shifts its second draw by it too.
    self._gain = self.bonus.gain(self.posterior, utility)
    return self.bonus.shift(utility, self._gain)

  def _shape_exploration_draw(self, utility):
    if self.design == "both_draws":
      return self.bonus.shift(utility, self._gain)
    return self.bonus.apply(self.posterior, utility)

  def _episode_strategies(self):
    if self.design == "cfr_draw":
      return self._played("average")
    return super()._episode_strategies()


class PosteriorFSPLearner(EpisodeLearner):
  """Fictitious play with exact best responses on a posterior draw: the
  authors' FSP (github DongdongBai/submit, ``ficplay.py``; their logged
  FSP curve, ``results/leduc_3_4_10_ficplay_default.npz``, is this one).

  Each iteration draws one game from the conjugate posterior; each player
  best-responds there to the other's average; both episodes play that
  best-response profile; the average adds each best response weighted by
  its own reach (extensive-form fictitious play with step 1/t; the
  uniform start counts as one iteration, as theirs).

  Its current strategy is its average, as in fictitious play's full-width
  form (:class:`~spiel_ext.algorithms.fictitious_play.XFPSolver` and
  OpenSpiel's): the best responses are its steps, not a strategy it keeps.

  ``Config`` has the ``seed`` only (see :class:`EpisodeLearner`).

  Args:
    game, config, shortcuts: as for :class:`EpisodeLearner`, with this
      class's ``Config``.

  Attributes:
    posterior: the conjugate model.
    cumulative_policy: [infosets, actions], the average's numerator.
  """

  @dataclasses.dataclass(frozen=True, eq=False)
  class Config(EpisodeLearner.Config):
    """PosteriorFSPLearner's hyperparameters.

    Attributes:
      seed: an int in 0..2**63 - 1 (default 0) or None.
    """

  def _build(self) -> None:
    super()._build()
    self.posterior = ConjugatePosterior(self.rules)
    self.cumulative_policy = self.rules.uniform_policy().copy()

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

  def _load_state(self, state: dict[str, Any]) -> None:
    super()._load_state(state)
    cumulative = _checked_array(state, "cumulative_policy",
                                self.cumulative_policy, type(self).__name__)
    self.posterior.load_counts(state["posterior"])
    self.cumulative_policy = cumulative

  def _shape(self, utility: np.ndarray) -> np.ndarray:
    return utility

  def _observed(self, episode) -> None:
    """What a subclass also learns from an episode (default: nothing)."""

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
    model = self.rules.with_model(chance_prob, utility)
    average = self.average_strategy()
    profile = np.zeros_like(average)
    for player in (0, 1):
      _, best, _ = model.best_response(average, player)
      rows = self.rules.player_rows[player]
      profile[np.arange(rows.start, rows.stop), best[rows]] = 1.0
    return profile

  def evaluate_and_update_policy(self) -> None:
    """One iteration: a posterior draw, the best-response profile in it,
    two episodes with that profile, and the average's update."""
    chance_prob, utility = self.posterior.sample_game(self._rng)
    profile = self.best_response_profile(chance_prob, self._shape(utility))
    for _ in range(2):
      episode = self._environment.play_episode(profile, self._rng)
      self.posterior.observe(episode.histories, episode.reward)
      self._observed(episode)
    own, _ = self.rules.infoset_reach(self.rules.reach(profile))
    self.cumulative_policy += own[:, None] * profile
    self._iteration += 1


class PosteriorVFSPLearner(_WithInformationBonus, PosteriorFSPLearner):
  """The authors' VFSP (``vimeficplay.py:150``): :class:`PosteriorFSPLearner`
  with the information bonus on its posterior draw.

  Args:
    game, config, shortcuts: as for :class:`EpisodeLearner`, with this
      class's ``Config``.
  """

  @dataclasses.dataclass(frozen=True, eq=False)
  class Config(PosteriorFSPLearner.Config, BonusConfig):
    """PosteriorVFSPLearner's hyperparameters.

    Attributes:
      eta, players, normalisation, information, kl_every: the bonus's
        (:class:`~spiel_ext.algorithms.exploration.BonusConfig`).
      seed: an int in 0..2**63 - 1 (default 0).
    """

  def _shape(self, utility):
    return self.bonus.apply(self.posterior, utility)

  def _observed(self, episode) -> None:
    self.bonus.observe(episode)


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

  Its current strategy is sigma, regret matching on its cumulative
  regrets (the episodes mix it with the uniform strategy at the
  updating player's infosets).

  Args:
    game, config, shortcuts: as for :class:`EpisodeLearner`, with this
      class's ``Config``.
  """

  @dataclasses.dataclass(frozen=True, eq=False)
  class Config(EpisodeLearner.Config):
    """OutcomeSamplingLearner's hyperparameters.

    Attributes:
      epsilon: exploration in [1e-6, 1] (default 0.1; see
        MIN_OUTCOME_SAMPLING_EPSILON for the bound).
      seed: an int in 0..2**63 - 1 (default 0).
    """
    epsilon: float = 0.1

    def __post_init__(self) -> None:
      _set(self, "epsilon", check_real("epsilon", self.epsilon,
                                       MIN_OUTCOME_SAMPLING_EPSILON, 1.0))
      super().__post_init__()

  epsilon = property(lambda self: self.config.epsilon,
                     doc="The exploration of the updating player "
                     "(``config.epsilon``).")

  def _build(self) -> None:
    super()._build()
    rules = self.rules
    self._legal = rules.infoset_legal
    self.cumulative_regret = np.zeros(self._legal.shape)
    self.cumulative_policy = np.zeros(self._legal.shape)
    self._uniform = rules.uniform_policy()
    self._sigma = self._uniform.copy()

  def current_strategy(self) -> np.ndarray:
    """[rules infosets, actions]: sigma (a copy).

    Returns:
      A new [rules infosets, actions] array.
    """
    return self._sigma.copy()

  def _save_state(self, state: dict[str, Any]) -> None:
    super()._save_state(state)
    state.update(cumulative_regret=self.cumulative_regret.copy(),
                 cumulative_policy=self.cumulative_policy.copy(),
                 sigma=self._sigma.copy())

  def _load_state(self, state: dict[str, Any]) -> None:
    super()._load_state(state)
    owner = type(self).__name__
    loaded = {name: _checked_array(state, name, like, owner) for name, like
              in (("cumulative_regret", self.cumulative_regret),
                  ("cumulative_policy", self.cumulative_policy),
                  ("sigma", self._sigma))}
    self.cumulative_regret = loaded["cumulative_regret"]
    self.cumulative_policy = loaded["cumulative_policy"]
    self._sigma = loaded["sigma"]

  def _regret_matching(self, row: int) -> None:
    positive = np.maximum(self.cumulative_regret[row], 0.0) * self._legal[row]
    total = positive.sum()
    self._sigma[row] = positive / total if total > 0 else self._uniform[row]

  def evaluate_and_update_policy(self) -> None:
    """One iteration: one episode per player, and that player's regret and
    average updates along its path (see the class docstring)."""
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

  Its current strategy is its average, as in fictitious play's full-width
  form (:class:`~spiel_ext.algorithms.fictitious_play.XFPSolver` and
  OpenSpiel's): the epsilon-greedy Q policies are its steps.

  Args:
    game, config, shortcuts: as for :class:`EpisodeLearner`, with this
      class's ``Config``.
  """

  @dataclasses.dataclass(frozen=True, eq=False)
  class Config(EpisodeLearner.Config):
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
      _set(self, "epsilon", check_real("epsilon", self.epsilon, 0.0, 1.0))
      _set(self, "learning_rate", check_real(
          "learning_rate", self.learning_rate, 0.0, 1.0,
          low_inclusive=False))
      _set(self, "buffer_size", check_int("buffer_size", self.buffer_size,
                                          1, MAX_BUFFER_SIZE))
      _set(self, "batch_size", check_int("batch_size", self.batch_size, 1,
                                         MAX_BATCH_SIZE))
      super().__post_init__()

  epsilon = property(lambda self: self.config.epsilon,
                     doc="The best response's exploration "
                     "(``config.epsilon``).")
  learning_rate = property(lambda self: self.config.learning_rate,
                           doc="The Q update's step "
                           "(``config.learning_rate``).")

  def _build(self) -> None:
    super()._build()
    rules = self.rules
    self._legal = rules.infoset_legal
    self._uniform = rules.uniform_policy()
    self.q_values = np.zeros(self._legal.shape)
    self.cumulative_policy = np.zeros(self._legal.shape)
    # Replay buffer: (row, action, reward, next row or -1) per transition.
    self._buffer = np.zeros((self.config.buffer_size, 4))
    self._stored = 0
    self._batch_size = self.config.batch_size

  def current_strategy(self) -> np.ndarray:
    """[rules infosets, actions]: the average strategy (see the class
    docstring).

    Returns:
      A new [rules infosets, actions] array.
    """
    return self.average_strategy()

  def _save_state(self, state: dict[str, Any]) -> None:
    super()._save_state(state)
    state.update(q_values=self.q_values.copy(),
                 cumulative_policy=self.cumulative_policy.copy(),
                 buffer=self._buffer.copy(), stored=self._stored)

  def _load_state(self, state: dict[str, Any]) -> None:
    super()._load_state(state)
    owner = type(self).__name__
    loaded = {name: _checked_array(state, name, like, owner) for name, like
              in (("q_values", self.q_values),
                  ("cumulative_policy", self.cumulative_policy),
                  ("buffer", self._buffer))}
    self.q_values = loaded["q_values"]
    self.cumulative_policy = loaded["cumulative_policy"]
    self._buffer = loaded["buffer"]
    self._stored = int(state["stored"])

  def _greedy(self) -> np.ndarray:
    """[infosets] the greedy action of Q (lowest id among ties)."""
    return np.argmax(np.where(self._legal, self.q_values, -np.inf), axis=1)

  def _bonus(self, terminal: int) -> float:
    del terminal
    return 0.0

  def _observe(self, episode) -> None:
    del episode

  def evaluate_and_update_policy(self) -> None:
    """One iteration: one episode per player, its transitions stored and a
    minibatch replayed into Q (see the class docstring)."""
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
    game, config, shortcuts: as for :class:`EpisodeLearner`, with this
      class's ``Config``.
  """

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
      _set(self, "eta", check_eta(self.eta))
      super().__post_init__()

  eta = property(lambda self: self.config.eta,
                 doc="The bonus weight (``config.eta``).")

  def _build(self) -> None:
    super()._build()
    self.posterior = ConjugatePosterior(self.rules)

  def _save_state(self, state: dict[str, Any]) -> None:
    super()._save_state(state)
    state["posterior"] = self.posterior.counts()

  def _load_state(self, state: dict[str, Any]) -> None:
    super()._load_state(state)
    self.posterior.load_counts(state["posterior"])

  def _bonus(self, terminal: int) -> float:
    del terminal  # The episode just observed (see _observe).
    return self.eta * self._last_gain

  def _observe(self, episode) -> None:
    # The bonus is the information the episode's reward brought: the gain
    # at its terminal before this observation was counted.
    self._last_gain = float(
        self.posterior.information_gain()[episode.terminal])
    self.posterior.observe(episode.histories, episode.reward)
