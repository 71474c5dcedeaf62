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

from spiel_ext.algorithms.checks import MAX_SEED, check_int
from spiel_ext.executors import Job, WorkUnit, run_jobs, unit_store
from spiel_ext.executors.units import measure
from spiel_ext.files import TEMPORARY_SUFFIX, atomic_write
from spiel_ext.experiments.metrics import check_metrics, metric_function
from spiel_ext.experiments.solvers import (ALGORITHMS, check_algorithms,
                                           game_string)
from spiel_ext.results.lock import RunLock
from spiel_ext.results.manifest import (MANIFEST, describe_session,
                                        read_manifest,
                                        session_record, utc_now,
                                        write_manifest)
from spiel_ext.results.report import (PAPER_SETTING, Choice, Claim, Variant,
                                      settings_table, write_report)
from spiel_ext.results.store import canonical_json, load_results, write_merged

SCALES = ("quick", "paper")
# Bounds on what a run may ask for. 10^9 iterations of the fastest solver
# on the smallest game take days; more is a typo, not an experiment.
MAX_ITERATIONS = 10**9
MAX_UNITS = 100_000
MAX_EVALUATION_POINTS = 100_000


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
  """Where a run wrote its results, figures and tables.

  Attributes:
    folder: the run folder.
    units: the run's work units.
    already_done: units finished before this session (resumed runs).
  """
  results: list[Path]
  figures: list[Path]
  tables: list[Path]
  folder: Path | None = None
  units: int = 0
  already_done: int = 0


@dataclasses.dataclass(frozen=True)
class Experiment:
  """A named experiment.

  Attributes:
    summarize: (results DataFrame, settings, output folder) -> (figures,
      tables) it wrote.
    claims: (results DataFrame, settings, folder) -> the paper's claims with our
      numbers and verdicts, for the reproduction report.
    choices: every choice that can change a number, as the paper's text,
      the authors' code and our runs make it (the report's settings table).
    variants: the paper setting first, then our other choices as labelled
      ablations, each naming the algorithm labels that run it.
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
  choices: tuple[Choice, ...] = ()
  variants: tuple[Variant, ...] = ()

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
  for name, value, high in (("iterations", iterations, MAX_ITERATIONS),
                            ("seeds", seeds, MAX_UNITS),
                            ("eval_every", eval_every, MAX_ITERATIONS)):
    if value is not None:
      check_int(name, value, 1, high)
  check_int("seed", first_seed, 0, MAX_SEED)
  seed_count = seeds or base.seeds
  if first_seed + seed_count - 1 > MAX_SEED:
    raise ValueError(
        f"seed: the runs use seeds {first_seed} to "
        f"{first_seed + seed_count - 1}, past the largest seed {MAX_SEED}; "
        f"the first seed must be at most {MAX_SEED - seed_count + 1} for "
        f"{seed_count} seeds.")
  run_iterations = iterations or base.iterations
  interval = eval_every or base.eval_every
  if interval and run_iterations // interval > MAX_EVALUATION_POINTS:
    raise ValueError(
        f"eval_every: {run_iterations:,} iterations evaluated every "
        f"{interval:,} give {run_iterations // interval:,} evaluation "
        f"points; at most {MAX_EVALUATION_POINTS:,} are allowed (eval_every "
        f">= {-(-run_iterations // MAX_EVALUATION_POINTS):,}).")
  for name, value in (("algorithms", algorithms), ("games", games)):
    if value is not None and (isinstance(value, str) or not value or
                              not all(isinstance(item, str) and item.strip()
                                      for item in value)):
      raise ValueError(f"{name}: give at least one name, each non-empty; "
                       f"got {list(value) if not isinstance(value, str) else value!r}"
                       " (leave it out for the experiment's own).")
  algorithms = tuple(algorithms or base.algorithms)
  try:
    check_algorithms(algorithms)
  except ValueError as error:
    raise ValueError(f"algorithms: {error}") from None
  check_metrics(experiment.metrics)
  try:
    games = tuple(game_string(game) for game in (games or base.games))
  except ValueError as error:
    raise ValueError(f"games: {error}") from None
  for name, values in (("algorithms", algorithms), ("games", games)):
    repeated = sorted({value for value in values if values.count(value) > 1})
    if repeated:
      raise ValueError(f"{name}: {', '.join(map(repr, repeated))} given "
                       "more than once; each would be the same work unit.")
  units = len(games) * len(algorithms) * seed_count
  if units > MAX_UNITS:
    raise ValueError(f"seeds: {len(games)} games x {len(algorithms)} "
                     f"algorithms x {seed_count} seeds = {units:,} work "
                     f"units; at most {MAX_UNITS:,} are allowed.")
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


# What a run writes into its folder; --overwrite deletes exactly these.
RUN_FILES = ("units", "results.parquet", "results.csv", "config.json",
             MANIFEST, "figures", "tables")


def remove_temporaries(folder: Path) -> None:
  """Deletes the temporary files a killed writer left in the run folder
  (safe under the folder's lock: no other writer can be mid-write)."""
  for path in folder.rglob(f".*{TEMPORARY_SUFFIX}"):
    try:
      path.unlink()
    except OSError:
      pass


def holds_results(folder: Path) -> bool:
  """True when ``folder`` holds (part of) a run."""
  units = folder / "units"
  return (any(units.iterdir()) if units.is_dir() else False) or any(
      (folder / name).exists()
      for name in ("results.parquet", "results.csv", MANIFEST))


def read_json(path: Path) -> Any:
  """The JSON in ``path``; ValueError naming the path if it is damaged."""
  try:
    return json.loads(path.read_text())
  except OSError as error:
    raise ValueError(f"cannot read {path}: {error.strerror}") from None
  except ValueError as error:
    raise ValueError(f"{path} is damaged ({error})") from None


def _settings_record(data: Any, source: Path) -> dict[str, Any]:
  """``data`` if it is a settings record; ValueError naming ``source``."""
  fields = {field.name for field in dataclasses.fields(Settings)}
  if not isinstance(data, dict) or not {"experiment", "iterations", "games",
                                        "algorithms"} <= set(data) or (
                                            set(data) - fields):
    raise ValueError(f"{source} is damaged (not a record of a run's "
                     "settings)")
  return data


def _stored_settings_json(folder: Path) -> dict[str, Any] | None:
  """The settings of the run in ``folder``: config.json, or the manifest's
  copy when config.json is missing or damaged; None if neither exists."""
  config = folder / "config.json"
  try:
    if config.exists():
      return _settings_record(read_json(config), config)
    problem = None
  except ValueError as error:
    problem = error
  try:
    manifest = read_manifest(folder)
  except ValueError:
    manifest = None
  if manifest is None or "settings" not in manifest:
    if problem is None:
      return None
    raise ValueError(f"{problem}; the run's settings are unknown: use "
                     "--overwrite to start it again or another "
                     "--output_dir")
  settings = _settings_record(manifest["settings"], folder / MANIFEST)
  logging.warning("%s; using the settings recorded in %s.",
                  problem or f"{config} is missing", folder / MANIFEST)
  return settings


def prepare_folder(folder: Path, settings: Settings, resume: bool,
                   overwrite: bool = False) -> None:
  """Checks ``folder`` can take this run and records its settings.

  Never deletes results unless ``overwrite``: a folder holding a run is
  resumed (``resume``, same settings only) or refused.
  """
  if resume and overwrite:
    raise ValueError("--resume and --overwrite contradict each other: "
                     "choose one.")
  remove_temporaries(folder)
  if overwrite and holds_results(folder):
    for name in RUN_FILES:
      path = folder / name
      if path.is_dir():
        shutil.rmtree(path)
      elif path.exists():
        path.unlink()
    logging.warning("--overwrite: deleted the previous run in %s.", folder)
  elif resume:
    stored = _stored_settings_json(folder)
    if stored is None and holds_results(folder):
      raise ValueError(
          f"--resume: {folder} holds results but no record of their "
          "settings; use --overwrite to start again or another --output_dir.")
    current = json.loads(settings.as_json())
    if stored is not None and stored != current:
      differences = sorted(key for key in current
                           if stored.get(key) != current[key])
      raise ValueError(
          f"--resume: {folder} holds a run with different settings "
          f"({', '.join(differences)}); use another --output_dir, or "
          "--overwrite to delete it and start over.")
  elif holds_results(folder):
    raise ValueError(
        f"{folder} already holds results of an earlier run; add --resume to "
        "continue it (finished units are kept), --overwrite to delete it and "
        "start over, or choose another --output_dir.")
  atomic_write(folder / "config.json", settings.as_json())


def start_session(folder: Path, settings: Settings, jobs: Sequence[Job],
                  resume: bool) -> dict[str, Any]:
  """Writes the manifest with this run's units and a new session."""
  manifest = None
  if resume:
    try:
      manifest = read_manifest(folder)
    except ValueError as error:
      logging.warning("%s; writing a new one.", error)
  sessions = list(manifest.get("sessions", [])) if manifest else []
  sessions.append(session_record(resumed=resume))
  manifest = {"experiment": settings.experiment,
              "settings": json.loads(settings.as_json()),
              "units": [job.unit.unit_id for job in jobs],
              "sessions": sessions}
  write_manifest(folder, manifest)
  return manifest


def preflight(jobs: Sequence[Job]) -> None:
  """Builds each (game, algorithm) once and measures its metrics on the
  starting policy, so that a value only a solver can refuse (a game too
  large to compile, an algorithm that needs another kind of game, a metric
  the game lacks) is refused before the run folder is touched.

  Raises:
    ValueError: naming the algorithm, the game and what was wrong.
  """
  seen = set()
  for job in jobs:
    unit = job.unit
    key = (unit.game, unit.algorithm, unit.hyperparameters)
    if key in seen:
      continue
    seen.add(key)
    try:
      solver = job.make_solver(unit.game, seed=unit.seed,
                               **dict(unit.hyperparameters))
      measure(unit, job.metrics, solver.average_policy())
    except (ValueError, TypeError, ImportError, MemoryError) as error:
      raise ValueError(f"{unit.algorithm} on {unit.game}: {error}") from None


def run_experiment(experiment: Experiment, settings: Settings,
                   output_dir: str | Path, executor: Any, *,
                   checkpoint_every: int = 1000, resume: bool = False,
                   overwrite: bool = False, quiet: bool = False,
                   check_first: bool = True) -> Outputs:
  """Runs (or resumes) an experiment and writes its figures and tables.

  The run folder is locked for the whole run (:class:`RunLock`); its
  manifest lists the run's units and records this session. With
  ``check_first`` (a caller that ran :func:`preflight` itself passes False)
  each (game, algorithm) is built once before the folder is touched.

  Raises:
    FolderLocked: another process is writing to the folder.
    ValueError: a value a solver refuses (see :func:`preflight`), or the
      folder holds another run (see :func:`prepare_folder`).
    OutputError: a file could not be written (names the path).
  """
  folder = Path(output_dir) / experiment.name
  jobs = build_jobs(settings)
  if check_first:
    preflight(jobs)
  with RunLock(folder):
    prepare_folder(folder, settings, resume, overwrite)
    manifest = start_session(folder, settings, jobs, resume)
    already_done = sum(unit_store(folder, job.unit).is_done()
                       for job in jobs)
    logging.info("%s: %d work units (%d finished before), results in %s",
                 experiment.name, len(jobs), already_done, folder)
    run_jobs(jobs, folder, executor, checkpoint_every, quiet,
             label=experiment.name)
    manifest["sessions"][-1]["finished_utc"] = utc_now()
    write_manifest(folder, manifest)
    frame = load_results(folder)
    results = list(write_merged(folder, frame))
    figures, tables = experiment.summarize(frame, settings, folder)
  return Outputs(results, figures, tables, folder, len(jobs), already_done)


def command_for(settings: Settings) -> str:
  """The command that regenerates a run with these settings."""
  return (f"python run_experiments.py --experiment={settings.experiment} "
          f"--scale={settings.scale}")


def stored_settings(folder: Path) -> Settings | None:
  """The settings of the run stored in ``folder``, if any; ValueError
  naming the file if it is damaged."""
  data = _stored_settings_json(folder)
  if data is None:
    return None
  data = dict(data)
  try:
    for key in ("games", "algorithms", "metrics"):
      data[key] = tuple(data[key])
    data["iteration_caps"] = tuple(tuple(pair)
                                   for pair in data["iteration_caps"])
    data["snapshots"] = tuple(tuple(item)
                              for item in data.get("snapshots", ()))
    return Settings(**data)
  except (KeyError, TypeError, ValueError) as error:
    raise ValueError(f"{folder / 'config.json'} is damaged ({error!r})"
                     ) from None


def report_section(name: str, experiment: Experiment, folder: Path,
                   report: Path) -> dict[str, Any]:
  """One experiment's section of the report from its run in ``folder``;
  the figures and markdown tables it cites are copied next to the report
  (``<report>_files/<experiment>/``)."""
  try:
    settings = stored_settings(folder)
    manifest = read_manifest(folder)
  except ValueError as error:
    return {"scale": "no", "claims": [], "problem": str(error)}
  if settings is None or not (folder / "results.parquet").exists():
    return {"scale": "no", "claims": []}
  try:
    frame = pd.read_parquet(folder / "results.parquet")
    claims = experiment.claims(frame, settings, folder)
  except Exception as error:  # pylint: disable=broad-except
    # One experiment's unreadable or partial results (say, a run with
    # some algorithms left out) must not stop the report.
    return {"scale": "no", "claims": [], "problem": (
        f"its claims could not be read from {folder}: "
        f"{type(error).__name__}: {error}")}
  files = report.parent / f"{report.stem}_files"
  outputs = []
  for source in sorted(folder.glob("figures/*.png")) + sorted(
      folder.glob("tables/*.md")):
    target = atomic_write(files / name / source.relative_to(folder),
                          source.read_bytes())
    outputs.append(str(target.relative_to(report.parent)))
  claims = [dataclasses.replace(claim, evidence=f"{files.name}/{claim.evidence}")
            for claim in claims]
  sessions = (manifest or {}).get("sessions") or frame.attrs.get(
      "provenance", [])
  return {"scale": settings.scale, "claims": claims, "outputs": outputs,
          "sessions": [describe_session(session) for session in sessions],
          "settings": settings_table(experiment.choices, experiment.variants)}


def write_reproduction_report(experiments: dict[str, Experiment],
                              output_dir: str | Path,
                              path: str | Path | None = None) -> Path:
  """The reproduction report from every experiment's results in
  ``output_dir``, written to ``path`` (default
  ``<output_dir>/reproduction.md``). A section whose experiment has no
  results in ``output_dir`` keeps what the report at ``path`` said, if that
  had results."""
  path = Path(output_dir) / "reproduction.md" if path is None else Path(path)
  sections = {name: report_section(name, experiment, Path(output_dir) / name,
                                   path)
              for name, experiment in experiments.items()
              if experiment.claims is not None}
  return write_report(path, sections, preamble=(
      "Verdicts compare each paper statement with our numbers at the scale "
      "shown; quick-scale runs use fewer iterations and seeds than the "
      "papers. Each verdict names the setting it was judged on: the paper "
      "setting (what the paper's text and the authors' code did; where the "
      "paper is silent or the two disagree, each reading runs as its own "
      "paper setting) or one of our ablations, whose row says how far it "
      "moves the result. An experiment's settings table lists every choice "
      "that can change a number. Evidence links point to copies of the "
      "figures and tables next to this report. Under each heading, the runs "
      "the results come from: versions, commit, host, times and command."))
