"""How an experiment is declared and run.

An experiment is a short declaration: which games, algorithms and metrics,
at a quick and a paper scale, plus a ``summarize`` function that turns the
results table into figures and tables. :func:`run_experiment` turns the
declaration into work units, runs them on an executor (resuming what is on
disk), merges the rows and calls ``summarize``.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import shutil
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd

from spiel_ext.executors import Job, WorkUnit, run_jobs, unit_store
from spiel_ext.experiments.metrics import check_metrics, metric_function
from spiel_ext.experiments.solvers import (ALGORITHMS, check_algorithms,
                                           game_string)
from spiel_ext.results.report import Claim, write_report
from spiel_ext.results.store import canonical_json, load_results, write_merged

SCALES = ("quick", "paper")


@dataclasses.dataclass(frozen=True)
class Scale:
  """The size of a run: iterations, seeds, games, algorithms.

  Attributes:
    iteration_caps: {algorithm: iterations} for slow reference algorithms
      that run only the first iterations.
    snapshots: (algorithm, name, metric, threshold): keep that algorithm's
      average strategy the first time ``metric`` <= ``threshold``.
  """
  iterations: int
  seeds: int
  games: tuple[str, ...]
  algorithms: tuple[str, ...]
  eval_every: int | None = None
  iteration_caps: tuple[tuple[str, int], ...] = ()
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
  iteration_caps: tuple[tuple[str, int], ...]
  first_seed: int = 0
  snapshots: tuple[tuple[str, str, str, float], ...] = ()

  def as_json(self) -> str:
    return canonical_json(dataclasses.asdict(self))


@dataclasses.dataclass(frozen=True)
class Outputs:
  """Where a run wrote its results, figures and tables."""
  results: list[Path]
  figures: list[Path]
  tables: list[Path]


@dataclasses.dataclass(frozen=True)
class Experiment:
  """A named experiment.

  Attributes:
    summarize: (results DataFrame, settings, output folder) -> (figures,
      tables) it wrote.
    claims: (results DataFrame, settings, folder) -> the paper's claims with our
      numbers and verdicts, for the reproduction report.
  """
  name: str
  description: str
  quick: Scale
  paper: Scale
  metrics: tuple[str, ...]
  summarize: Callable[[pd.DataFrame, Settings, Path], tuple[list[Path],
                                                          list[Path]]]
  cost: str = ""
  claims: Callable[[pd.DataFrame, Settings, Path], list[Claim]] | None = None


def evaluation_points(iterations: int, eval_every: int | None,
                      extra: Sequence[int] = ()) -> tuple[int, ...]:
  """Every ``eval_every`` iterations, or about 8 log-spaced points per
  decade (what log-axis figures need), always including the last and any
  ``extra`` points within range."""
  if eval_every:
    points = set(range(eval_every, iterations + 1, eval_every))
  else:
    decades = max(np.log10(iterations), 1.0)
    count = int(np.ceil(8 * decades)) + 1
    points = set(np.unique(np.round(np.logspace(0, np.log10(iterations),
                                                count)).astype(int)))
  points.add(iterations)
  points.update(extra)
  return tuple(sorted(int(p) for p in points if 1 <= p <= iterations))


def settings_for(experiment: Experiment, scale: str, *,
                 iterations: int | None = None, seeds: int | None = None,
                 games: Sequence[str] | None = None,
                 algorithms: Sequence[str] | None = None,
                 eval_every: int | None = None,
                 first_seed: int = 0) -> Settings:
  """The experiment's scale with overrides; ValueError names a bad one."""
  if scale not in SCALES:
    raise ValueError(f"scale must be one of {list(SCALES)}; got {scale!r}.")
  base = experiment.quick if scale == "quick" else experiment.paper
  for name, value in (("iterations", iterations), ("seeds", seeds),
                      ("eval_every", eval_every)):
    if value is not None and (not isinstance(value, int) or value <= 0):
      raise ValueError(f"{name} must be a positive integer; got {value!r}.")
  if not isinstance(first_seed, int) or first_seed < 0:
    raise ValueError(f"seed must be an integer >= 0; got {first_seed!r}.")
  algorithms = tuple(algorithms or base.algorithms)
  check_algorithms(algorithms)
  check_metrics(experiment.metrics)
  games = tuple(game_string(game) for game in (games or base.games))
  return Settings(experiment.name, scale, iterations or base.iterations,
                  seeds or base.seeds, games, algorithms, experiment.metrics,
                  eval_every or base.eval_every, base.iteration_caps,
                  first_seed, base.snapshots)


def build_jobs(settings: Settings) -> list[Job]:
  """One job per game x algorithm x seed."""
  caps = dict(settings.iteration_caps)
  jobs = []
  for game in settings.games:
    for algorithm in settings.algorithms:
      entry = ALGORITHMS[algorithm]
      iterations = min(settings.iterations, caps.get(algorithm,
                                                     settings.iterations))
      seeds = settings.seeds if entry.seeded else 1
      for seed in range(settings.first_seed, settings.first_seed + seeds):
        unit = WorkUnit(settings.experiment, game, algorithm,
                        entry.hyperparameters, seed, iterations,
                        evaluation_points(iterations, settings.eval_every,
                                          tuple(caps.values())),
                        settings.metrics,
                        tuple((name, metric, threshold) for owner, name,
                              metric, threshold in settings.snapshots
                              if owner == algorithm))
        jobs.append(Job(unit, entry.factory,
                        {name: metric_function(name) for name in settings.metrics}))
  return jobs


def load_snapshots(settings: Settings, folder: Path, name: str,
                   game: str | None = None) -> dict[str, list[np.ndarray]]:
  """{algorithm: [strategy of each seed, in seed order]} for the snapshot
  ``name`` of every unit (of ``game`` only, if given); units that never took
  it are left out."""
  policies: dict[str, list[np.ndarray]] = {}
  for job in build_jobs(settings):
    if game is not None and job.unit.game != game:
      continue
    snapshot = unit_store(folder, job.unit).load_snapshot(name)
    if snapshot is not None:
      policies.setdefault(job.unit.algorithm, []).append(snapshot[1])
  return policies


def prepare_folder(folder: Path, settings: Settings, resume: bool) -> None:
  """Checks ``folder`` can take this run; clears it for a fresh run."""
  config = folder / "config.json"
  if resume and config.exists():
    stored = json.loads(config.read_text())
    current = json.loads(settings.as_json())
    if stored != current:
      differences = sorted(key for key in current
                           if stored.get(key) != current[key])
      raise ValueError(
          f"--resume: {folder} holds a run with different settings "
          f"({', '.join(differences)}); use another --output_dir or drop "
          "--resume to start over.")
  elif not resume and (folder / "units").exists():
    shutil.rmtree(folder / "units")
  folder.mkdir(parents=True, exist_ok=True)
  config.write_text(settings.as_json())


def run_experiment(experiment: Experiment, settings: Settings,
                   output_dir: str | Path, executor: Any, *,
                   checkpoint_every: int = 1000, resume: bool = False,
                   quiet: bool = False) -> Outputs:
  """Runs (or resumes) an experiment and writes its figures and tables."""
  folder = Path(output_dir) / experiment.name
  prepare_folder(folder, settings, resume)
  jobs = build_jobs(settings)
  logging.info("%s: %d work units, results in %s", experiment.name,
               len(jobs), folder)
  run_jobs(jobs, folder, executor, checkpoint_every, quiet)
  frame = load_results(folder)
  results = list(write_merged(folder, frame))
  figures, tables = experiment.summarize(frame, settings, folder)
  return Outputs(results, figures, tables)


def command_for(settings: Settings) -> str:
  """The command that regenerates a run with these settings."""
  return (f"python run_experiments.py --experiment={settings.experiment} "
          f"--scale={settings.scale}")


def stored_settings(folder: Path) -> Settings | None:
  """The settings of the run stored in ``folder``, if any."""
  config = folder / "config.json"
  if not config.exists():
    return None
  data = json.loads(config.read_text())
  for key in ("games", "algorithms", "metrics"):
    data[key] = tuple(data[key])
  data["iteration_caps"] = tuple(tuple(pair) for pair in data["iteration_caps"])
  data["snapshots"] = tuple(tuple(item) for item in data.get("snapshots", ()))
  return Settings(**data)


def write_reproduction_report(experiments: dict[str, Experiment],
                              output_dir: str | Path,
                              path: str | Path) -> Path:
  """The reproduction report from every experiment's results in
  ``output_dir``; the figures and markdown tables it cites are copied next
  to it (``<report>_files/``) so the report stands on its own."""
  path = Path(path)
  files = path.parent / f"{path.stem}_files"
  sections = {}
  for name, experiment in experiments.items():
    if experiment.claims is None:
      continue
    folder = Path(output_dir) / name
    settings = stored_settings(folder)
    if settings is None or not (folder / "results.parquet").exists():
      sections[name] = {"scale": "no", "claims": []}
      continue
    frame = pd.read_parquet(folder / "results.parquet")
    outputs = []
    for source in sorted(folder.glob("figures/*.png")) + sorted(
        folder.glob("tables/*.md")):
      relative = source.relative_to(Path(output_dir))
      target = files / relative
      target.parent.mkdir(parents=True, exist_ok=True)
      shutil.copyfile(source, target)
      outputs.append(str(target.relative_to(path.parent)))
    claims = [dataclasses.replace(
        claim, evidence=f"{files.name}/{claim.evidence}")
              for claim in experiment.claims(frame, settings, folder)]
    sections[name] = {"scale": settings.scale, "claims": claims,
                      "outputs": outputs}
  return write_report(path, sections, preamble=(
      "Verdicts compare each paper statement with our numbers at the scale "
      "shown; quick-scale runs use fewer iterations and seeds than the "
      "papers. Evidence links point to copies of the figures and tables "
      "next to this report."))
