"""An algorithm an experiment can run, as data.

An entry names the solver (a class of :mod:`spiel_ext.algorithms`, or a
module-level builder function where the papers' setting is more than a
config, such as a preference on player 1's first decisions) and its config
directly; no name is looked up at run time. ``id`` is the stable key the
results store (a run written today is found by it tomorrow); ``label`` is
what figures and tables show.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Callable

from spiel_ext.algorithms.protocol import values_equal


@dataclasses.dataclass(frozen=True)
class AlgorithmEntry:
  """A runnable algorithm.

  Attributes:
    solver: a solver class, or a module-level function
      ``(game, seed=..., **config) -> solver`` (module-level so that worker
      processes and Ray tasks can unpickle it).
    config: the solver's config (``CFRSolver.Config(random_init=True)``),
      or the keyword options it is built with (a dict or (name, value)
      pairs). It is stored as the sorted options that differ from the
      config's defaults (for a Config; the seed comes from the work unit)
      or as given (for options). They are the work unit's hyperparameters,
      so they name a run: change one and it is a new run.
    id: the stable key stored with the results.
    label: the display name (default: ``id``).
    description: what it is, in a phrase.
    seeded: False for a deterministic solver (one seed is enough).
    extra: the optional extra whose packages it needs.
  """
  solver: Callable[..., Any]
  config: Any = ()
  id: str = ""
  label: str = ""
  description: str = ""
  seeded: bool = True
  extra: str | None = None

  def __post_init__(self):
    if not callable(self.solver):
      raise TypeError(f"AlgorithmEntry {self.id!r}: solver must be a solver "
                      f"class or builder function; got {self.solver!r}.")
    if not isinstance(self.id, str) or not self.id.strip():
      raise ValueError(f"AlgorithmEntry of {self.solver!r}: id must be a "
                       f"non-empty string; got {self.id!r}.")
    if dataclasses.is_dataclass(self.config) and not isinstance(
        self.config, type):
      items = _changed_fields(self.config)
    elif isinstance(self.config, Mapping):
      items = self.config.items()
    else:
      items = self.config
    object.__setattr__(self, "config", tuple(sorted(
        (str(name), value) for name, value in items)))
    if not self.label:
      object.__setattr__(self, "label", self.id)

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
