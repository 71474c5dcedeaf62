"""What every learner in an unknown environment shares (the learners of
Qiu, Wang, Ma, Wen, Zhang, "Combining Counterfactual Regret Minimization
with Information Gain to Solve Extensive Games with Unknown
Environments", 2021).

:class:`EpisodeLearner` holds the environment
(:class:`~spiel_ext.games.unknown_env.learner.Environment`), its seeded
generator, the episode count and the policies on the true game; the solver
contract (config, progress, state dict, pickling) it inherits from
:class:`~spiel_ext.algorithms.contract.Contract`. :class:`ModelFreeLearner`
adds the tables of the learners without a model and :class:`BonusLearner`
the information bonus of those with one. The learners themselves are in
:mod:`spiel_ext.algorithms.learners`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
import pyspiel

from spiel_ext.algorithms.checks import check_seed
from spiel_ext.algorithms.contract import (Contract, SolverConfig,
                                           check_array, check_count,
                                           set_field)
from spiel_ext.algorithms.exploration import InformationBonus
from spiel_ext.algorithms.learner_parts import BonusPlacement, NoBonus
from spiel_ext.algorithms.model_kernels import normalised_rows
from spiel_ext.engine import GameTree, compile_game, load_game
from spiel_ext.games.unknown_env import Environment
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

# The Args section of every learner's class docstring (each constructor is
# EpisodeLearner's): ``Args:{LEARNER_ARGS}``.
LEARNER_ARGS = """
    game, config, shortcuts: as for :class:`EpisodeLearner`, with this
      class's ``Config``.
"""


def environment_of(game: pyspiel.Game | str) -> Environment:
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


def checked_array(state: dict[str, Any], name: str, like: np.ndarray,
                  owner: str) -> np.ndarray:
  """``state[name]`` as a fresh array of ``like``'s shape and dtype.

  Args:
    state: a learner's state dict.
    name: the array's key.
    like: the array it replaces.
    owner: the class name errors start with.

  Returns:
    A new array of ``like``'s dtype.

  Raises:
    ValueError: a missing array, one of another shape, not numeric, with
      non-finite entries or outside the range of what it holds (see
      :data:`spiel_ext.algorithms.contract.ARRAY_RANGES`).
  """
  return check_array(state, name, like, owner).astype(like.dtype,
                                                     copy=True)


def check_transitions(buffer: np.ndarray, legal: np.ndarray,
                      owner: str) -> None:
  """Raises ValueError unless a replay buffer's rows (infoset row, action,
  reward, following row or -1) index the learner's tables.

  Args:
    buffer: [slots, 4] transitions.
    legal: the rules' [infosets, actions] legal-action mask.
    owner: the class name the error starts with.
  """
  num_infosets, num_actions = legal.shape
  columns = (("infoset row", 0, 0, num_infosets),
             ("action", 1, 0, num_actions),
             ("following row", 3, -1, num_infosets))
  for what, column, low, high in columns:
    values = buffer[:, column]
    bad = (values < low) | (values >= high) | (values != np.round(values))
    if np.any(bad):
      slot = int(np.flatnonzero(bad)[0])
      raise ValueError(f"{owner}: checkpoint array buffer is corrupt: "
                       f"{what} {values[slot]!r} in slot {slot}, not a "
                       f"whole number in [{low}, {high}).")


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
      set_field(self, "seed", check_seed(self.seed))
      # A config that also extends BonusConfig checks its fields next.
      super().__post_init__()

  _CLASS_KEY = "learner"
  # The array attributes the learner saves and restores as they are (after
  # the episode count, before the rest of its state), each under its name
  # without a leading underscore.
  _SAVED_ARRAYS: ClassVar[tuple[str, ...]] = ()
  _rng: np.random.Generator
  # The average's numerator, [rules infosets, actions] (set by _build).
  cumulative_policy: np.ndarray
  # A learner's state is checked against its whole config, the seed
  # included (its network's state names the seed it was built with).
  _FREE_FIELDS = ()
  # The version of a learner's random stream that draws from the posterior
  # (``stream_version`` in its state): 2 since the draws come from the
  # learner's Generator itself (ConjugatePosterior.sample_game); 1 for the
  # learners that draw none, whose stream never changed.
  DRAW_STREAM_VERSION: ClassVar[int] = 2

  def __init__(self, game: pyspiel.Game | str, config: Any = None,
               **shortcuts: Any):
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

  def _stream_version(self) -> int:
    """The version of the learner's random stream: 1 unless it draws from
    a posterior (:attr:`DRAW_STREAM_VERSION`)."""
    return 1

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
    return normalised_rows(self.cumulative_policy, self.rules.infoset_legal,
                           self.rules.infoset_num_actions)

  def current_strategy(self) -> np.ndarray:
    """[rules infosets, actions]: the strategy the learner plays now (each
    class says which).

    Returns:
      A new [rules infosets, actions] array.
    """
    raise NotImplementedError

  def _own_steps(self, path: Sequence[int] | np.ndarray,
                 player: int) -> list[tuple[int, int]]:
    """(infoset row, action) of each of ``player``'s decisions along an
    episode's path of histories."""
    rules = self.rules
    return [(int(rules.infoset[history]), int(rules.action[child]))
            for history, child in zip(path[:-1], path[1:])
            if rules.node_player[history] == player]

  def _own_episode(self, player: int, behaviour: np.ndarray
                   ) -> tuple[Any, float, list[tuple[int, int]]]:
    """Plays one episode with the joint strategy ``behaviour``: (the
    episode, ``player``'s reward, ``player``'s (infoset row, action)
    decisions along it)."""
    episode = self._environment.play_vouched_episode(behaviour, self._rng)
    reward = episode.reward if player == 0 else -episode.reward
    return episode, reward, self._own_steps(episode.histories, player)

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
    """Adds the episode count and copies of ``_SAVED_ARRAYS``; a subclass
    adds its other parts (see the module docstring)."""
    state["episodes"] = self.episodes
    state["stream_version"] = self._stream_version()
    state.update({attribute.lstrip("_"): getattr(self, attribute).copy()
                  for attribute in self._SAVED_ARRAYS})

  def _load_state(self, state: dict[str, Any]) -> None:
    """Restores the episode count and ``_SAVED_ARRAYS`` (all checked before
    any is replaced); a subclass restores its other parts (those loaded
    before a misfit stay loaded: the learner should then be discarded)."""
    owner = type(self).__name__
    version = state.get("stream_version", 1)
    if version != self._stream_version():
      raise ValueError(
          f"{owner}: this checkpoint's random stream is version {version!r}"
          f", not {self._stream_version()} (its posterior draws would not "
          "continue as they began); run again without --resume.")
    episodes = check_count(state, "episodes", owner)
    loaded = [checked_array(state, attribute.lstrip("_"),
                            getattr(self, attribute), owner)
              for attribute in self._SAVED_ARRAYS]
    if "_buffer" in self._SAVED_ARRAYS:
      check_transitions(loaded[self._SAVED_ARRAYS.index("_buffer")],
                        self.rules.infoset_legal, owner)
    self._environment.episodes = episodes
    for attribute, array in zip(self._SAVED_ARRAYS, loaded):
      setattr(self, attribute, array)


class ModelFreeLearner(EpisodeLearner):
  __doc__ = f"""What the model-free learners (fitted-Q FSP and outcome
  sampling) share: tables over the rules' infosets, learnt from the
  episodes alone, with the legal actions' mask, the uniform strategy and
  the average's numerator, ``cumulative_policy`` (a subclass adds its
  tables and lists the arrays it saves in ``_SAVED_ARRAYS``).

  Args:{LEARNER_ARGS}"""

  def _build(self) -> None:
    super()._build()
    self._legal = self.rules.infoset_legal
    self._uniform = self.rules.uniform_policy()
    self.cumulative_policy = np.zeros(self._legal.shape)


class BonusLearner:
  """What the learners with the information bonus add (a mixin before
  their :class:`EpisodeLearner` base): the bonus, built from the config
  (a :class:`~spiel_ext.algorithms.exploration.BonusConfig`), placed
  where ``_bonus_design`` says (see
  :class:`~spiel_ext.algorithms.learner_parts.BonusPlacement`).
  """

  # Where the bonus goes (a BonusPlacement design): each subclass says.
  _bonus_design: str
  # What the EpisodeLearner base provides.
  placement: NoBonus
  rules: GameTree
  config: Any

  @property
  def bonus(self) -> InformationBonus:
    """The information bonus (``placement.bonus``)."""
    placement = self.placement
    assert isinstance(placement, BonusPlacement)  # Built by _placement.
    return placement.bonus

  def _placement(self) -> BonusPlacement:
    """The bonus, built from the config, where ``_bonus_design`` puts it."""
    return BonusPlacement(InformationBonus(self.rules, self.config,
                                           seed=self.config.seed),
                          self._bonus_design)
