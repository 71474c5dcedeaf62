"""An algorithm an experiment can run, as data.

An entry names the solver (a class of :mod:`spiel_ext.algorithms`, or a
module-level builder function where the papers' setting is more than a
config, such as a preference on player 1's first decisions) and its config
directly; no name is looked up at run time. ``id`` is the stable key the
results store (a run written today is found by it tomorrow); ``label`` is
what figures and tables show.

:data:`ALGORITHMS` is the one registry of entries by id: each paper's
``algorithms`` module adds its entries with :func:`register` when it is
imported, and ``import spiel_ext.experiments`` imports them all. The
platform (settings, runner) reads the registry when a run is set up and
imports no paper.
"""

from __future__ import annotations

import dataclasses
import importlib.util
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Callable

import pyspiel

from spiel_ext.algorithms.protocol import values_equal
from spiel_ext.engine import load_game

# The kinds of game an entry may require (``AlgorithmEntry.requires``).
TWO_PLAYER_ZERO_SUM = "two-player zero-sum"
REQUIREMENTS = (TWO_PLAYER_ZERO_SUM,)


@dataclasses.dataclass(frozen=True)
class AlgorithmEntry:
  """A runnable algorithm.

  Attributes:
    solver: a solver class, or a module-level function
      ``(game, seed=..., **config) -> solver`` (module-level so that worker
      processes and Ray tasks can unpickle it).
    config: the solver's config (``CFRSolver.Config(random_init=True)``),
      or the keyword options it is built with (a dict or (name, value)
      pairs). Every spelling is stored one way (:func:`stored_options`):
      the sorted (name, value) options that differ from the config's
      defaults, plus those named in ``recorded``; options given as a dict
      name themselves as recorded. The seed comes from the work unit.
      They are the work unit's hyperparameters, so they name a run:
      change one and it is a new run.
    id: the stable key stored with the results.
    label: the display name (default: ``id``).
    description: what it is, in a phrase.
    seeded: False for a deterministic solver (one seed is enough).
    extra: the optional extra whose packages it needs.
    requires: the kind of game it is defined for (one of
      :data:`REQUIREMENTS`, e.g. "two-player zero-sum"), or None for any
      game the engine compiles. A run leaves out the games it does not
      apply to (:meth:`applies_to`), and its tables say so.
    resumable: False for a solver that cannot continue exactly from its
      ``state_dict()``: its units run in one go, checkpointed only at the
      end (a unit killed mid-run starts again).
    recorded: options the stored config keeps even at their default value
      (so that the runs stored under an entry that named them keep their
      id).
  """
  solver: Callable[..., Any]
  config: Any = ()
  id: str = ""
  label: str = ""
  description: str = ""
  seeded: bool = True
  extra: str | None = None
  requires: str | None = None
  resumable: bool = True
  recorded: tuple[str, ...] = ()

  def __post_init__(self):
    if not callable(self.solver):
      raise TypeError(f"AlgorithmEntry {self.id!r}: solver must be a solver "
                      f"class or builder function; got {self.solver!r}.")
    if not isinstance(self.id, str) or not self.id.strip():
      raise ValueError(f"AlgorithmEntry of {self.solver!r}: id must be a "
                       f"non-empty string; got {self.id!r}.")
    object.__setattr__(self, "config", stored_options(
        self.solver, self.config, self.recorded))
    if not self.label:
      object.__setattr__(self, "label", self.id)
    if self.requires is not None and self.requires not in REQUIREMENTS:
      raise ValueError(f"AlgorithmEntry {self.id!r}: requires must be one of "
                       f"{list(REQUIREMENTS)} or None; got "
                       f"{self.requires!r}.")

  def applies_to(self, game: Any) -> bool:
    """Whether the entry runs on ``game`` (a game string or pyspiel game):
    False when the game is not of the kind :attr:`requires` names."""
    if self.requires is None:
      return True
    loaded = load_game(game)
    return (loaded.num_players() == 2 and
            loaded.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM)

  @property
  def hyperparameters(self) -> tuple[tuple[str, Any], ...]:
    """The config as the work unit records it."""
    return self.config

  @property
  def factory(self) -> Callable[..., Any]:
    """``(game, seed=..., **config) -> solver``."""
    return self.solver

  def build(self, game: Any, seed: int = 0) -> Any:
    """The solver for ``game`` and ``seed``."""
    return self.solver(game, seed=seed, **dict(self.config))


def _config_class(solver: Callable[..., Any]) -> type | None:
  """The config dataclass of a solver class (None for a builder)."""
  config_class = getattr(solver, "Config", None) if isinstance(
      solver, type) else None
  return config_class if dataclasses.is_dataclass(config_class) else None


def stored_options(solver: Callable[..., Any], config: Any,
                   recorded: Sequence[str] = ()
                   ) -> tuple[tuple[str, Any], ...]:
  """The one form an entry's config is stored in, whatever its spelling.

  Options given as a dict or (name, value) pairs to a solver class are
  first made its Config (which checks their names and values) and name
  themselves as recorded; a Config keeps the fields that differ from its
  defaults and those in ``recorded``. A builder function has no config
  class to compare with: its options are kept as given.

  Args:
    solver: the entry's solver class or builder function.
    config: a Config, a dict, or (name, value) pairs.
    recorded: names kept even at their default value.

  Returns:
    The sorted (name, value) options (never the seed).
  """
  config_class = _config_class(solver)
  is_config = dataclasses.is_dataclass(config) and not isinstance(config,
                                                                  type)
  if not is_config:
    given = dict(config.items() if isinstance(config, Mapping) else config)
    if config_class is None:
      return tuple(sorted((str(name), value) for name, value in
                          given.items()))
    config = config_class(**given)
    recorded = (*recorded, *given)
  items = dict(_changed_fields(config))
  items.update((name, getattr(config, name)) for name in recorded)
  return tuple(sorted(items.items()))


def _changed_fields(config: Any) -> list[tuple[str, Any]]:
  """(name, value) of the fields of ``config`` other than its defaults'
  (the seed excepted: each work unit gives its own)."""
  defaults = type(config)()
  return [(field.name, getattr(config, field.name))
          for field in dataclasses.fields(config) if field.name != "seed" and
          not values_equal(getattr(config, field.name),
                           getattr(defaults, field.name))]


def registry(*groups: tuple[AlgorithmEntry, ...] | list[AlgorithmEntry]
             ) -> dict[str, AlgorithmEntry]:
  """{id: entry} of every entry in ``groups``.

  Raises:
    ValueError: two entries share an id.
  """
  entries: dict[str, AlgorithmEntry] = {}
  for group in groups:
    for entry in group:
      if entry.id in entries:
        raise ValueError(f"algorithm id {entry.id!r} is declared twice.")
      entries[entry.id] = entry
  return entries


# Every algorithm the experiments can run, by id (see :func:`register`).
ALGORITHMS: dict[str, AlgorithmEntry] = {}

# The modules each optional extra provides.
_EXTRA_MODULES = {"bnn": "torch"}


def register(*groups: Sequence[AlgorithmEntry]) -> tuple[AlgorithmEntry, ...]:
  """Adds the entries of ``groups`` to :data:`ALGORITHMS`.

  Args:
    groups: sequences of entries (a paper's declarations).

  Returns:
    The entries, in order, as one tuple.

  Raises:
    ValueError: an id is already registered, or repeats in ``groups``.
  """
  added = registry(*groups)
  repeated = sorted(set(added) & set(ALGORITHMS))
  if repeated:
    raise ValueError(f"algorithm id {repeated[0]!r} is declared twice.")
  ALGORITHMS.update(added)
  return tuple(added.values())


def check_algorithms(names: Iterable[str]) -> None:
  """Checks that every name is a registered id whose extras are installed
  (before any run starts).

  Args:
    names: algorithm ids.

  Raises:
    ValueError: an unknown name, listing the accepted ones.
    ImportError: naming the extra for an entry whose optional packages are
      missing.
  """
  names = list(names)
  unknown = [name for name in names if name not in ALGORITHMS]
  if unknown:
    raise ValueError(f"unknown algorithm(s) {unknown}; accepted: "
                     f"{sorted(ALGORITHMS)}.")
  missing = missing_extras(names)
  if missing:
    name, extra = next(iter(missing.items()))
    raise ImportError(
        f"algorithm {name!r} needs the optional extra {extra!r} "
        f"({_EXTRA_MODULES[extra]}): pip install -e \".[{extra}]\" (or "
        f"pip install \"spiel-ext[{extra}]\"), or leave it out with "
        "--algorithms.")


def missing_extras(names: Iterable[str]) -> dict[str, str]:
  """The registered algorithms among ``names`` whose optional extra is not
  installed.

  Args:
    names: algorithm ids (registered ones).

  Returns:
    {algorithm id: the extra it needs}, in the order of ``names``.
  """
  missing = {}
  for name in names:
    extra = ALGORITHMS[name].extra
    if extra and importlib.util.find_spec(_EXTRA_MODULES[extra]) is None:
      missing[name] = extra
  return missing


class LastIterate:
  """A solver whose ``average_policy()`` is its last iterate
  (``current_policy()``), so that the platform, which evaluates average
  policies, measures the last iterate. Everything else is the solver's.

  Args:
    solver: any solver with the contract of
      :mod:`spiel_ext.algorithms.protocol`.

  Example::

    LastIterate(MMDSolver("kuhn_poker", 0.05)).average_policy()  # its iterate
  """

  def __init__(self, solver: Any):
    self.solver = solver

  @property
  def config(self) -> Any:
    """The solver's hyperparameters."""
    return self.solver.config

  @property
  def iteration_count(self) -> int:
    """The solver's completed iterations."""
    return self.solver.iteration_count

  def progress(self) -> Any:
    """The solver's progress."""
    return self.solver.progress()

  def evaluate_and_update_policy(self) -> None:
    """One iteration of the solver."""
    self.solver.evaluate_and_update_policy()

  def iteration(self) -> None:
    """Alias of :meth:`evaluate_and_update_policy`."""
    self.solver.evaluate_and_update_policy()

  def current_policy(self) -> Any:
    """The solver's last iterate."""
    return self.solver.current_policy()

  def average_policy(self) -> Any:
    """A copy of the solver's last iterate (not its average)."""
    return self.solver.current_policy().__copy__()

  def state_dict(self) -> dict[str, Any]:
    """The solver's state."""
    return self.solver.state_dict()

  def load_state_dict(self, state: dict[str, Any]) -> None:
    """Restores the solver's state."""
    self.solver.load_state_dict(state)
