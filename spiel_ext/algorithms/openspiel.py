"""OpenSpiel's own Python CFR behind spiel_ext's solver contract.

:class:`OpenSpielCFRAdapter` runs ``open_spiel.python.algorithms.cfr``'s
``CFRSolver`` (Martin Zinkevich, Michael Johanson, Michael Bowling, Carmelo
Piccione, "Regret Minimization in Games with Incomplete Information",
NeurIPS 2007, with OpenSpiel's alternating updates) or ``CFRPlusSolver``
(Oskari Tammelin, "Solving Large Imperfect Information Games Using CFR+",
2014, arXiv:1407.5042) unchanged, iterate for iterate, and adds what the
platform relies on (:mod:`spiel_ext.algorithms.protocol`): a ``config``,
``iteration_count``, ``progress()`` and ``state_dict()`` /
``load_state_dict()`` of the infostate nodes' cumulative regrets and
policies, so that a run of OpenSpiel's reference implementation
checkpoints and resumes exactly like spiel_ext's own solvers.

    from spiel_ext.algorithms.openspiel import OpenSpielCFRAdapter
    solver = OpenSpielCFRAdapter("kuhn_poker")        # OpenSpiel's CFRSolver
    plus = OpenSpielCFRAdapter("kuhn_poker", kind="cfr+")

:class:`OpenSpielCppCFRAdapter` does the same for OpenSpiel's C++
``pyspiel.CFRSolver`` / ``pyspiel.CFRPlusSolver``, a reference on the same
clock as ours. Its state is OpenSpiel's own serialization; OpenSpiel's C++
CFR+ does not continue exactly from it (see the class), so a run of it is
never checkpointed mid-run.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python import policy as openspiel_policy
from open_spiel.python.algorithms import cfr as openspiel_cfr

from spiel_ext.algorithms.base import Solver
from spiel_ext.algorithms.checks import check_choice, short_repr
from spiel_ext.algorithms.contract import Contract, SolverConfig, check_array
from spiel_ext.engine import GameTree, compile_game, load_game
from spiel_ext.policy import TabularPolicy, policy_to_array, to_tabular_policy

# OpenSpiel's Python CFR solvers, by kind.
KINDS = {"cfr": openspiel_cfr.CFRSolver, "cfr+": openspiel_cfr.CFRPlusSolver}

# OpenSpiel's C++ CFR solvers, by kind.
CPP_KINDS = {"cfr": pyspiel.CFRSolver, "cfr+": pyspiel.CFRPlusSolver}


@dataclasses.dataclass(frozen=True, eq=False)
class OpenSpielCFRConfig(SolverConfig):
  """Which of OpenSpiel's Python CFR solvers runs.

  Attributes:
    kind: "cfr" (default; ``cfr.CFRSolver``: regret matching, uniform
      average, alternating updates) or "cfr+" (``cfr.CFRPlusSolver``:
      regret matching+, linear average, alternating updates).
  """

  kind: str = "cfr"

  def __post_init__(self) -> None:
    check_choice("kind", self.kind, tuple(KINDS))
    super().__post_init__()


def _load(game: Any) -> pyspiel.Game:
  """A pyspiel game from a game, a game string or a compiled GameTree."""
  if isinstance(game, GameTree):
    game = game.game
  elif isinstance(game, str):
    game = load_game(game)
  elif not isinstance(game, pyspiel.Game):
    raise TypeError("game must be a pyspiel game, a game string or a "
                    f"GameTree; got {short_repr(game)}.")
  if game.get_type().dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
    raise ValueError(f"game {game} is not sequential; OpenSpiel's CFR needs "
                     "a sequential game (convert_to_turn_based).")
  return game


class _OpenSpielAdapter(Contract):
  """What both adapters add to the contract: the game, the wrapped solver
  and the repr. A subclass sets ``Config``, builds ``_config``, ``_game``
  and ``_solver`` and saves and loads its own parts."""

  # As a solver's: the pyspiel game (``_game``).
  game = Solver.game
  # Set by the subclass's constructor.
  _game: pyspiel.Game
  _solver: Any

  @property
  def solver(self) -> Any:
    """The wrapped OpenSpiel solver."""
    return self._solver

  def _game_string(self) -> str:
    """The pyspiel game's string."""
    return str(self._game)

  def __repr__(self) -> str:
    return (f"{type(self).__name__}(game={str(self._game)!r}, "
            f"kind={self._config.kind!r}, "
            f"iteration={self.iteration_count})")


class OpenSpielCFRAdapter(_OpenSpielAdapter):
  """OpenSpiel's Python ``CFRSolver`` / ``CFRPlusSolver`` with the solver
  contract.

  Each iteration is OpenSpiel's own ``evaluate_and_update_policy()``.
  ``current_policy()`` is OpenSpiel's current policy (one object, updated
  in place); ``average_policy()`` a fresh copy of OpenSpiel's average
  (OpenSpiel itself returns one object it updates on each call).

  Args:
    game: a pyspiel game, a game string or a compiled GameTree (its game);
      sequential.
    config: an :class:`OpenSpielCFRConfig` (default: its defaults).
    shortcuts: its fields as keywords (``kind="cfr+"``).

  Raises:
    TypeError: ``config`` of another class, a keyword naming no field, or a
      game of another type.
    ValueError: an unknown kind, an unknown game or a game that is not
      sequential.

  Example::

    solver = OpenSpielCFRAdapter("kuhn_poker")
    for _ in range(10):
      solver.evaluate_and_update_policy()
    state = solver.state_dict()   # plain data; resumes exactly
  """

  Config = OpenSpielCFRConfig

  def __init__(self, game: pyspiel.Game | str | GameTree,
               config: OpenSpielCFRConfig | None = None, **shortcuts: Any):
    self._config = self._resolve(config, shortcuts)
    self._game = _load(game)
    self._solver = KINDS[self._config.kind](self._game)
    # pylint: disable=protected-access
    self._nodes = self._solver._info_state_nodes
    self._lookup = self._solver._current_policy.state_lookup
    # pylint: enable=protected-access
    # The infostates in the rows of OpenSpiel's tabular policy.
    self._keys = sorted(self._nodes, key=self._lookup.__getitem__)

  # ------------------------------------------------------------- contract
  @property
  def _iteration(self) -> int:
    """Completed iterations: OpenSpiel's count."""
    return self._solver._iteration  # pylint: disable=protected-access

  @_iteration.setter
  def _iteration(self, iteration: int) -> None:
    self._solver._iteration = iteration  # pylint: disable=protected-access

  def evaluate_and_update_policy(self) -> None:
    """One iteration of OpenSpiel's solver."""
    self._solver.evaluate_and_update_policy()

  def current_policy(self) -> openspiel_policy.TabularPolicy:
    """OpenSpiel's current policy: one object, updated in place.

    Returns:
      The wrapped solver's ``current_policy()``, an OpenSpiel
      ``policy.TabularPolicy``.
    """
    return self._solver.current_policy()

  def average_policy(self) -> openspiel_policy.TabularPolicy:
    """The average policy, as a fresh TabularPolicy.

    Returns:
      A copy of the wrapped solver's ``average_policy()``, an OpenSpiel
      ``policy.TabularPolicy``.
    """
    return self._solver.average_policy().__copy__()

  # ----------------------------------------------------------- checkpoint
  def _dense(self, attribute: str) -> tuple[np.ndarray, np.ndarray]:
    """A node dict attribute as [infosets, actions] values and a mask of
    the actions the dict holds (OpenSpiel's dicts fill in as the
    iterations touch them)."""
    shape = (len(self._keys), self._game.num_distinct_actions())
    values = np.zeros(shape)
    present = np.zeros(shape, dtype=bool)
    for row, key in enumerate(self._keys):
      for action, value in getattr(self._nodes[key], attribute).items():
        values[row, action] = value
        present[row, action] = True
    return values, present

  def _save_state(self, state: dict[str, Any]) -> None:
    """Adds the infostate keys, each node's cumulative regrets and policies
    ([infosets, actions], with masks of the entries OpenSpiel's dicts
    hold, in legal-action order) and the current policy: {"infostates",
    "cumulative_regret", "cumulative_regret_present", "cumulative_policy",
    "cumulative_policy_present", "current_policy"}."""
    regret, regret_present = self._dense("cumulative_regret")
    policy, policy_present = self._dense("cumulative_policy")
    rows = [self._lookup[key] for key in self._keys]
    state.update(
        infostates=list(self._keys), cumulative_regret=regret,
        cumulative_regret_present=regret_present, cumulative_policy=policy,
        cumulative_policy_present=policy_present,
        current_policy=self._solver.current_policy()
        .action_probability_array[rows].copy())

  def _load_state(self, state: dict[str, Any]) -> None:
    """Restores the nodes' tables and the current policy; ValueError for
    other infostates or arrays that do not fit."""
    if list(state.get("infostates", ())) != self._keys:
      raise ValueError(f"{type(self).__name__}: the checkpoint's infostates "
                       f"are not {self._game}'s.")
    like = np.zeros((len(self._keys), self._game.num_distinct_actions()))
    arrays = {name: check_array(state, name, like) for name in (
        "cumulative_regret", "cumulative_regret_present",
        "cumulative_policy", "cumulative_policy_present", "current_policy")}
    for row, key in enumerate(self._keys):
      node = self._nodes[key]
      for attribute in ("cumulative_regret", "cumulative_policy"):
        table = getattr(node, attribute)
        table.clear()
        present = arrays[f"{attribute}_present"][row]
        # In legal-action order, the order OpenSpiel's updates insert them
        # (its sums run in that order).
        for action in node.legal_actions:
          if present[action]:
            table[action] = float(arrays[attribute][row, action])
    current = self._solver.current_policy().action_probability_array
    current[[self._lookup[key] for key in self._keys]] = (
        arrays["current_policy"])


@dataclasses.dataclass(frozen=True, eq=False)
class OpenSpielCppCFRConfig(SolverConfig):
  """Which of OpenSpiel's C++ CFR solvers runs.

  Attributes:
    kind: "cfr" (default; ``pyspiel.CFRSolver``) or "cfr+"
      (``pyspiel.CFRPlusSolver``: regret matching+, linear average).
  """

  kind: str = "cfr"

  def __post_init__(self) -> None:
    check_choice("kind", self.kind, tuple(CPP_KINDS))
    super().__post_init__()


def _serialized_iteration(text: str) -> int:
  """The iteration count in OpenSpiel's serialization of a CFR solver (the
  line after ``[SolverSpecificState]``).

  Raises:
    ValueError: the text holds no such count.
  """
  lines = text.splitlines()
  try:
    return int(lines[lines.index("[SolverSpecificState]") + 1])
  except (ValueError, IndexError):
    raise ValueError("the checkpoint's serialized solver has no iteration "
                     "count.") from None


class OpenSpielCppCFRAdapter(_OpenSpielAdapter):
  """OpenSpiel's C++ ``pyspiel.CFRSolver`` / ``pyspiel.CFRPlusSolver`` with
  the solver contract.

  Each iteration is OpenSpiel's own C++ ``evaluate_and_update_policy()``;
  ``average_policy()`` is its ``tabular_average_policy()`` as a fresh
  TabularPolicy in the compiled tree's layout (the conversion is the
  caller's time, not the solver's). ``current_policy()`` reads OpenSpiel's
  current policy state by state (slow on large games).

  Checkpoints are limited. ``state_dict()`` holds OpenSpiel's own
  serialization of the solver (exact: hexadecimal floats), and
  ``load_state_dict()`` restores it, so a finished run's final state reads
  back exactly. But OpenSpiel 2.0.2's restored ``CFRPlusSolver`` does not
  go on as CFR+ (on kuhn_poker, 5 iterations, a save and restore, and 3
  more give NashConv 0.116 where the uninterrupted solver has 0.056), so
  a run of it must not be continued from a checkpoint: its experiment
  entries say ``resumable=False``, and the platform runs such a unit in
  one go (a unit killed mid-run starts again).

  Args:
    game, config, shortcuts: as for :class:`OpenSpielCFRAdapter`, with an
      :class:`OpenSpielCppCFRConfig`.

  Raises:
    TypeError, ValueError: as for :class:`OpenSpielCFRAdapter`.

  Example::

    solver = OpenSpielCppCFRAdapter("kuhn_poker", kind="cfr+")
    for _ in range(100):
      solver.evaluate_and_update_policy()
    spiel_ext.eval.nash_conv("kuhn_poker", solver.average_policy())
  """

  Config = OpenSpielCppCFRConfig

  def __init__(self, game: pyspiel.Game | str | GameTree,
               config: OpenSpielCppCFRConfig | None = None,
               **shortcuts: Any):
    self._config = self._resolve(config, shortcuts)
    self._game = _load(game)
    self._tree = compile_game(self._game)
    self._solver = CPP_KINDS[self._config.kind](self._game)
    self._iteration = 0

  # ------------------------------------------------------------- contract
  def evaluate_and_update_policy(self) -> None:
    """One iteration of OpenSpiel's C++ solver."""
    self._solver.evaluate_and_update_policy()
    self._iteration += 1

  def average_policy(self) -> TabularPolicy:
    """The average policy, as a fresh TabularPolicy.

    Returns:
      A new :class:`spiel_ext.policy.TabularPolicy` in the compiled tree's
      layout.
    """
    table = self._solver.tabular_average_policy().policy_table()
    return to_tabular_policy(self._tree, policy_to_array(self._tree, table),
                             copy=False)

  def current_policy(self) -> TabularPolicy:
    """The current policy, as a fresh TabularPolicy (read state by state).

    Returns:
      A new :class:`spiel_ext.policy.TabularPolicy` in the compiled tree's
      layout.
    """
    return to_tabular_policy(
        self._tree, policy_to_array(self._tree,
                                    self._solver.current_policy()),
        copy=False)

  # ----------------------------------------------------------- checkpoint
  def _save_state(self, state: dict[str, Any]) -> None:
    """Adds OpenSpiel's serialization of the solver (text),
    ``"serialized"``."""
    state["serialized"] = self._solver.__getstate__()

  def _load_state(self, state: dict[str, Any]) -> None:
    """Restores OpenSpiel's serialization (exactly; but see the class
    docstring: OpenSpiel's restored CFR+ does not continue as CFR+);
    ValueError for a serialization OpenSpiel refuses or whose iteration
    count disagrees."""
    name = type(self).__name__
    text = state.get("serialized")
    if not isinstance(text, str):
      raise ValueError(f"{name}: the checkpoint holds no serialized solver.")
    iteration = _serialized_iteration(text)
    if iteration != state.get("iteration"):
      raise ValueError(f"{name}: the checkpoint says iteration "
                       f"{state.get('iteration')}, its solver {iteration}.")
    solver_class = CPP_KINDS[self._config.kind]
    solver = solver_class.__new__(solver_class)
    try:
      solver.__setstate__(text)
    except pyspiel.SpielError as error:
      first = str(error).strip().splitlines()[0] if str(error) else ""
      raise ValueError(f"{name}: OpenSpiel cannot read the checkpoint's "
                       f"solver ({first}).") from None
    self._solver = solver
    self._iteration = iteration
