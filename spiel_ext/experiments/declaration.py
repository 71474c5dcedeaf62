"""How an experiment is declared: its scales, settings and outputs.

An experiment is a short declaration: which games, algorithms and metrics,
at a quick and a paper scale, its settings table and variants, its claims
as data, and a ``summarize`` function that turns the results table into
figures and tables (:mod:`spiel_ext.experiments.runner` runs it).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Callable

import pandas as pd

from spiel_ext.analysis.claims import ClaimSpec
from spiel_ext.results.report import PAPER_SETTING, Choice, Variant
from spiel_ext.results.store import canonical_json


SCALES = ("quick", "paper")


@dataclasses.dataclass(frozen=True)
class Scale:
  """The size of a run: iterations, seeds, games, algorithms.

  Attributes:
    iteration_caps: (algorithm, iterations) for slow reference algorithms
      that run only the first iterations, or (algorithm, iterations, game)
      for a cap on one game only (see :func:`settings.iteration_cap`).
    snapshots: (algorithm, name, metric, threshold): keep that algorithm's
      average strategy the first time ``metric`` <= ``threshold``.
  """
  iterations: int
  seeds: int
  games: tuple[str, ...]
  algorithms: tuple[str, ...]
  eval_every: int | None = None
  iteration_caps: tuple[tuple, ...] = ()
  snapshots: tuple[tuple[str, str, str, float], ...] = ()


@dataclasses.dataclass(frozen=True)
class Settings:
  """A scale with the user's overrides applied and validated."""
  experiment: str
  scale: str
  iterations: int
  seeds: int
  games: tuple[str, ...]
  algorithms: tuple[str, ...]
  metrics: tuple[str, ...]
  eval_every: int | None
  iteration_caps: tuple[tuple, ...]
  first_seed: int = 0
  snapshots: tuple[tuple[str, str, str, float], ...] = ()

  def as_json(self) -> str:
    return canonical_json(dataclasses.asdict(self))


@dataclasses.dataclass(frozen=True)
class Outputs:
  """Where a run wrote its results, figures and tables.

  Attributes:
    folder: the run folder.
    units: the run's work units.
    already_done: units finished before this session (resumed runs).
    evaluation_share: the share of the units' time spent measuring the
      metrics (None when no unit recorded its time).
  """
  results: list[Path]
  figures: list[Path]
  tables: list[Path]
  folder: Path | None = None
  units: int = 0
  already_done: int = 0
  evaluation_share: float | None = None


@dataclasses.dataclass(frozen=True)
class Experiment:
  """A named experiment.

  Attributes:
    summarize: (results DataFrame, settings, output folder) -> (figures,
      tables) it wrote.
    claims: the paper's claims as data (:class:`ClaimSpec`), judged on the
      run's results for the reproduction report.
    choices: every choice that can change a number, as the paper's text,
      the authors' code and our runs make it (the report's settings table).
    variants: the paper setting first, then our other choices as labelled
      ablations, each naming the algorithm labels that run it.
    pages: documentation pages written from the run with the reproduction
      report: functions (run folder, report path) -> the page written next
      to the report, or None when the run has not written what it needs
      (an existing page is then left as it is).
  """
  name: str
  description: str
  quick: Scale
  paper: Scale
  metrics: tuple[str, ...]
  summarize: Callable[[pd.DataFrame, Settings, Path], tuple[list[Path],
                                                          list[Path]]]
  claims: tuple[ClaimSpec, ...] | None = None
  choices: tuple[Choice, ...] = ()
  variants: tuple[Variant, ...] = ()
  pages: tuple[Callable[[Path, Path], Path | None], ...] = ()

  def __post_init__(self):
    if self.variants and not self.variants[0].is_paper_setting:
      raise ValueError(f"{self.name}: the first variant must be a "
                       f"{PAPER_SETTING!r}; got {self.variants[0].name!r}.")
    names = [variant.name for variant in self.variants]
    if len(set(names)) != len(names):
      raise ValueError(f"{self.name}: variant names repeat: {names}.")
    missing = sorted({algorithm for variant in self.variants
                      for algorithm in variant.algorithms}
                     - set(self.paper.algorithms))
    if missing:
      raise ValueError(f"{self.name}: variants name algorithms the paper "
                       f"scale does not run: {missing}.")

  def variants_run(self, settings: Settings) -> list[Variant]:
    """The variants whose algorithms all ran with ``settings``."""
    return [variant for variant in self.variants
            if set(variant.algorithms) <= set(settings.algorithms)]
