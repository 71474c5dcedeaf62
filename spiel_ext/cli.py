"""Runs spiel_ext's named experiments and writes results, figures and tables.

The ``spiel-ext`` command (installed with the package), ``python -m
spiel_ext`` and the repository's ``run_experiments.py`` script run this
module and take the same flags:

    spiel-ext --experiment=quickstart
    spiel-ext --list
    spiel-ext --experiment=quickstart --scale=paper \\
        --workers=2 --output_dir=results --resume
    spiel-ext --experiment=quickstart --executor=ray \\
        --ray_address=auto          # an existing Ray cluster

Results go to ``<output_dir>/<experiment>/``: ``results.parquet`` and
``results.csv`` (one long-format table), ``figures/`` (PNG and PDF),
``tables/`` (markdown and LaTeX) and ``manifest.json`` (the run's units,
versions, commit, command, host and times). Rows are written as each
evaluation point is measured and solvers are checkpointed every
``--checkpoint_every`` iterations, so an interrupted run continues with
``--resume``. A folder holding results is never deleted unless you ask
(``--overwrite``), and only one runner writes to it at a time.
"""

from __future__ import annotations

import logging
import os
import sys
import time
import warnings
from pathlib import Path

from absl import app, flags
from absl import logging as absl_logging

FLAGS = flags.FLAGS


def split_labels(text: str) -> list[str]:
  """Comma-separated labels, where commas inside parentheses belong to a
  label: "CFR,CFR (simultaneous, U(0,10))" -> two labels."""
  labels, depth, start = [], 0, 0
  for index, character in enumerate(text):
    depth += {"(": 1, ")": -1}.get(character, 0)
    if character == "," and depth <= 0:
      labels.append(text[start:index])
      start = index + 1
  labels.append(text[start:])
  return [label.strip() for label in labels if label.strip()]


class LabelListParser(flags.ListParser):
  """absl's list parser, but commas inside parentheses do not split."""

  def parse(self, argument):
    if isinstance(argument, list):
      return argument
    return split_labels(argument) if argument else []


def define_flags(flag_values: flags.FlagValues) -> None:
  """Defines the runner's flags on ``flag_values``.

  Args:
    flag_values: where the flags are defined (absl's FLAGS for the command).
  """
  _define_what_runs({"flag_values": flag_values})
  _define_how_it_runs({"flag_values": flag_values})


def _define_what_runs(define: dict) -> None:
  """The flags that choose the experiments and their sizes."""
  flags.DEFINE_list("experiment", ["quickstart"],
                    "Experiment name(s), comma separated; listed below.",
                    **define)
  flags.DEFINE_bool("list", False, "List the experiments and algorithm "
                    "labels and exit.", **define)
  flags.DEFINE_enum("scale", "quick", ["quick", "paper"],
                    "quick: minutes on 2 cores; paper: the papers' sizes.",
                    **define)
  flags.DEFINE_integer("iterations", None, "Override: iterations per run "
                       "(1 to 10^9).", lower_bound=1, upper_bound=10**9,
                       **define)
  flags.DEFINE_integer("seeds", None, "Override: random starts per algorithm "
                       "(1 to 100,000).", lower_bound=1, upper_bound=100_000,
                       **define)
  flags.DEFINE_integer("eval_every", None,
                       "Override: evaluate every N iterations (default: "
                       "about 8 log-spaced points per decade; at most "
                       "100,000 points).", lower_bound=1, upper_bound=10**9,
                       **define)
  flags.DEFINE_multi_string("games", None, "Override: a game string; repeat "
                            "the flag for several games (game strings "
                            "contain commas).", **define)
  flags.DEFINE(LabelListParser(), "algorithms", None, "Override: algorithm "
               "labels, comma separated (listed below; a comma inside a "
               "label's parentheses is part of it).",
               serializer=flags.CsvListSerializer(","), **define)


def _define_how_it_runs(define: dict) -> None:
  """The flags for where results go and how the runs are executed."""
  flags.DEFINE_string("output_dir", "results",
                      "Folder for results, figures and tables.", **define)
  flags.DEFINE_bool("resume", False,
                    "Continue the run in --output_dir: skip finished units, "
                    "resume unfinished ones from their last checkpoint.",
                    **define)
  flags.DEFINE_bool("overwrite", False,
                    "Delete the run already in --output_dir and start over "
                    "(without it, a folder holding results is refused).",
                    **define)
  flags.DEFINE_integer("checkpoint_every", 1000,
                       "Checkpoint solvers every N iterations.",
                       lower_bound=1, upper_bound=10**9, **define)
  flags.DEFINE_integer("workers", 1, "Processes (local) or CPUs for a local "
                       "Ray instance (1 to 256). Each local process runs the "
                       "engine's passes on its share of the cores (cores // "
                       "workers threads; NUMBA_NUM_THREADS caps them).",
                       lower_bound=1, upper_bound=256, **define)
  flags.DEFINE_enum("executor", "local", ["local", "ray"],
                    "local: processes on this machine; ray: Ray tasks.",
                    **define)
  flags.DEFINE_string("ray_address", None,
                      "Ray cluster to join ('auto' or host:port); default: "
                      "start a local Ray instance.", **define)
  flags.DEFINE_bool("quiet", False, "No progress report (bars on a "
                    "terminal, a line per tenth of the run otherwise) and "
                    "no info log lines; warnings, errors, the closing "
                    "summary and the quickstart's result table still show.",
                    **define)
  flags.DEFINE_string("report_path", None,
                      "Where --experiment=report writes the reproduction "
                      "report's index page (default: "
                      "<output_dir>/reproduction.md; the paper pages go in "
                      "the folder of the same name, findings.md beside it). "
                      "A section with no results in --output_dir keeps what "
                      "its page already said.", **define)
  flags.DEFINE_integer("seed", 0, "First seed: runs use seeds seed, "
                       "seed+1, ... (0 to 2^63 - 1).", lower_bound=0,
                       upper_bound=2**63 - 1, **define)


define_flags(FLAGS)


def _catalogue() -> str:
  """The experiments and algorithm labels, for --help and --list."""
  from spiel_ext.experiments import EXPERIMENTS, REPRODUCTION  # pylint: disable=g-import-not-at-top
  from spiel_ext.experiments.costs import cost_line, measured_on  # pylint: disable=g-import-not-at-top
  from spiel_ext.experiments.solvers import ALGORITHMS  # pylint: disable=g-import-not-at-top
  width = max(len(name) for name in EXPERIMENTS)
  lines = [f"Experiments (--experiment), with their cost ({measured_on()}):"]
  for name, experiment in EXPERIMENTS.items():
    lines.append(f"  {name:<{width}}  {experiment.description}")
    lines.append(f"  {'':<{width}}  cost: {cost_line(name)}")
  others = sorted(set(EXPERIMENTS) - set(REPRODUCTION))
  lines.append(f"  {'all':<{width}}  every experiment but "
               f"{', '.join(others)}, their units in one pool")
  lines.append(f"  {'':<{width}}  cost: {cost_line('all')}")
  lines.append(f"  {'report':<{width}}  writes --report_path from the "
               "results in --output_dir")
  lines += ["", "Algorithm labels (--algorithms, comma separated):"]
  labels = list(ALGORITHMS)
  line = " "
  for label in labels:
    piece = f" {label}{',' if label != labels[-1] else ''}"
    if len(line) + len(piece) > 78:
      lines.append(line)
      line = " "
    line += piece
  lines.append(line)
  return "\n".join(lines) + "\n"


# The name errors start with: the script's, or the console command's.
_program = "run_experiments.py"


def _fail(message: str) -> None:
  """Ends the run with a one-line error and exit status 1."""
  raise SystemExit(f"{_program}: error: {message}")


def _check_output_dir(path: str, flag: str = "--output_dir") -> None:
  """Ends with a one-line error unless the folder ``path`` (given by
  ``flag``) exists or can be made, and is writable."""
  folder = Path(path)
  try:
    folder.mkdir(parents=True, exist_ok=True)
  except OSError as error:
    _fail(f"{flag} {path!r} cannot be created: {error.strerror}.")
  if not os.access(folder, os.W_OK):
    _fail(f"{flag} {path!r} is not writable.")


def _check_report_folders(output_dir: str, report: str | None) -> None:
  """--experiment=report reads --output_dir and writes --report_path (and
  the files beside it): only the report's folder must be writable. Without
  --report_path the report goes inside --output_dir, which must be."""
  if report is None:
    _check_output_dir(output_dir)
    return
  folder = Path(output_dir)
  if folder.exists() and not folder.is_dir():
    _fail(f"--output_dir {output_dir!r} is not a folder.")
  if folder.is_dir() and not os.access(folder, os.R_OK | os.X_OK):
    _fail(f"--output_dir {output_dir!r} is not readable.")
  _check_output_dir(str(Path(report).parent), "--report_path's folder")


def _summary(name: str, outputs, seconds: float, experiments: int) -> None:
  pooled = (f" (one pool with {experiments - 1} other experiments)"
            if experiments > 1 else "")
  share = ("" if outputs.evaluation_share is None else
           f"; {outputs.evaluation_share:.0%} of the units' time evaluating")
  print(f"{name}: {outputs.units} work units in {seconds:,.1f} s{pooled} "
        f"({outputs.already_done} finished before this run{share}); files "
        f"in {outputs.folder}")
  print(f"{name}: results {', '.join(map(str, outputs.results))}")
  for path in outputs.figures:
    print(f"{name}: figure  {path}")
  for path in outputs.tables:
    print(f"{name}: table   {path}")


def _quickstart_table(folder: Path) -> str:
  from spiel_ext.experiments.quickstart import result_table  # pylint: disable=g-import-not-at-top
  return result_table(folder)


# The experiments whose result (not only its files) the command prints.
_RESULT_TABLES = {"quickstart": _quickstart_table}


def plan(flag_values=FLAGS) -> list:
  """[(experiment name, settings)] the flags ask for, every value checked
  before anything runs; ends with a one-line error otherwise.

  Args:
    flag_values: the parsed flags.

  Returns:
    The experiments to run with their checked settings (empty for
    --experiment=report).
  """
  from spiel_ext.experiments import EXPERIMENTS, REPRODUCTION, settings_for  # pylint: disable=g-import-not-at-top
  names = flag_values.experiment
  _check_experiment_names(names, flag_values.output_dir, EXPERIMENTS)
  expanded = []
  if "all" in names:  # In its place, leaving out what is also named.
    at = names.index("all")
    rest = names[:at] + names[at + 1:]
    expanded = [name for name in REPRODUCTION if name not in rest]
    names = names[:at] + expanded + names[at + 1:]
  if names == ["report"]:
    _check_report_path(flag_values.report_path, flag_values.output_dir)
    return []
  unknown = [name for name in names if name not in EXPERIMENTS]
  if unknown:
    _fail(f"--experiment: unknown {unknown}; accepted: "
          f"{', '.join(sorted(EXPERIMENTS))}, all, or report.")
  if flag_values.resume and flag_values.overwrite:
    _fail("--resume and --overwrite contradict each other: choose one.")
  try:
    return [(name, settings_for(
        EXPERIMENTS[name], flag_values.scale,
        iterations=flag_values.iterations, seeds=flag_values.seeds,
        games=flag_values.games,
        algorithms=(_installed_algorithms(EXPERIMENTS[name], flag_values.scale)
                    if name in expanded and flag_values.algorithms is None
                    else flag_values.algorithms),
        eval_every=flag_values.eval_every, first_seed=flag_values.seed))
            for name in names]
  except (ValueError, ImportError) as error:
    _fail(_flag_names(str(error)))


def _installed_algorithms(experiment, scale: str) -> list[str] | None:
  """For an experiment of --experiment=all: None (all its algorithms) when
  every one's optional extra is installed, else the others, with a warning
  naming those left out and the extra they need."""
  from spiel_ext.experiments.entries import missing_extras  # pylint: disable=g-import-not-at-top
  algorithms = list(getattr(experiment, scale).algorithms)
  missing = missing_extras(algorithms)
  if not missing:
    return None
  extras = sorted(set(missing.values()))
  logging.warning("%s: leaving out %s (needs the optional extra %s: pip "
                  "install -e \".[%s]\")", experiment.name,
                  ", ".join(missing), " and ".join(extras), ",".join(extras))
  return [name for name in algorithms if name not in missing]


def _check_experiment_names(names: list[str], output_dir: str,
                            experiments) -> None:
  """Ends with a one-line error on an empty, repeated or mixed-with-report
  --experiment list, or an empty --output_dir."""
  if not names or not all(name.strip() for name in names):
    _fail("--experiment is empty; give a name: "
          f"{', '.join(experiments)}, or report.")
  if not output_dir.strip():
    _fail("--output_dir is empty; give a folder (default: results).")
  if "report" in names and names != ["report"]:
    _fail("--experiment=report runs alone: write the report after the "
          "experiments, in a second command.")
  repeated = sorted({name for name in names if names.count(name) > 1})
  if repeated:
    _fail(f"--experiment: {', '.join(repeated)} given more than once.")


def _check_report_path(report: str | None, output_dir: str) -> None:
  """Ends with a one-line error if --report_path is not a file name."""
  if report is not None and (not report.strip() or Path(report).is_dir()
                             or report.endswith(os.sep)):
    _fail(f"--report_path {report!r} is not a file name; give one such as "
          f"{os.path.join(output_dir, 'reproduction.md')}.")


def main(argv: list[str]) -> None:
  """absl's main: runs the parsed flags (positional arguments are refused)."""
  if len(argv) > 1:
    _fail(f"unexpected arguments: {argv[1:]}")
  if FLAGS.quiet:
    quiet_logging()
  run(FLAGS)


def quiet_logging() -> None:
  """--quiet: no info lines from absl's or Python's logging; warnings and
  errors still show."""
  absl_logging.set_verbosity(absl_logging.WARNING)
  logging.getLogger().setLevel(logging.WARNING)


def run(flag_values) -> None:
  """Runs what the parsed ``flag_values`` ask for."""
  from spiel_ext.executors import make_executor  # pylint: disable=g-import-not-at-top
  from spiel_ext.experiments import (EXPERIMENTS, run_experiments,  # pylint: disable=g-import-not-at-top
                                     write_reproduction_report)
  from spiel_ext.experiments.spec import build_jobs, preflight  # pylint: disable=g-import-not-at-top
  from spiel_ext.files import OutputError  # pylint: disable=g-import-not-at-top
  from spiel_ext.results.lock import FolderLocked  # pylint: disable=g-import-not-at-top
  if flag_values.list:
    print(_catalogue(), end="")
    return
  plans = plan(flag_values)
  output_dir = flag_values.output_dir
  try:
    # What only a solver can refuse is refused before anything is written.
    for _, settings in plans:
      preflight(build_jobs(settings))
    if not plans:
      _check_report_folders(output_dir, flag_values.report_path)
      path = write_reproduction_report(EXPERIMENTS, output_dir,
                                       flag_values.report_path)
      print(f"report: {path}")
      return
    executor = make_executor(flag_values.executor, flag_values.workers,
                             flag_values.ray_address)
    if hasattr(executor, "check"):  # A cluster that does not answer: stop
      executor.check()              # before the output folder is made.
    _check_output_dir(output_dir)
    start = time.perf_counter()
    all_outputs = run_experiments(
        [(EXPERIMENTS[name], settings) for name, settings in plans],
        output_dir, executor, checkpoint_every=flag_values.checkpoint_every,
        resume=flag_values.resume, overwrite=flag_values.overwrite,
        quiet=flag_values.quiet, check_first=False)
    seconds = time.perf_counter() - start
    for (name, _), outputs in zip(plans, all_outputs):
      _summary(name, outputs, seconds, len(plans))
      if name in _RESULT_TABLES:
        print(_RESULT_TABLES[name](outputs.folder), end="")
  except (ValueError, ImportError, FolderLocked, OutputError) as error:
    _fail(_flag_names(str(error)))
  except OSError as error:  # Any other file error: say which file.
    _fail(f"{error.filename or output_dir}: {error.strerror or error}")


def _flag_names(message: str) -> str:
  """Library messages name arguments (``seeds``); say the flag (``--seeds``)."""
  for name in ("iterations", "seeds", "seed", "eval_every", "algorithms",
               "games", "scale", "executor"):
    if message.startswith(f"{name} ") or message.startswith(f"{name}:"):
      return f"--{message}"
  return message


def _one_line_warning(message, category, *unused) -> str:
  del unused
  return f"{category.__name__}: {message}\n"


# The tool's own help; absl's flags stay under --helpfull.
_HELP_FLAGS = {"--help", "-h", "--helpshort", "-?"}


def tool_help(program: str = "spiel-ext") -> str:
  """``--help``: what the command does, its own flags with their help and
  the experiments it runs (absl's flags are under ``--helpfull``).

  Args:
    program: the command's name, for the usage line.

  Returns:
    The help text.
  """
  module = FLAGS.find_module_defining_flag("experiment")
  flags_help = "\n".join(line for line in FLAGS.module_help(module).split("\n")
                         if line.strip() and line != f"{module}:")
  return (f"usage: {program} [flags]\n\n{__doc__}\nflags:\n{flags_help}\n"
          f"  (absl's own flags, logging included: --helpfull)\n\n"
          f"{_catalogue()}")


def entry_point(program: str = "spiel-ext") -> None:
  """Parses the command line and runs it: the ``spiel-ext`` command.

  Args:
    program: the name errors and ``--help`` start with.
  """
  global _program
  _program = program
  main_module = sys.modules["__main__"]
  # absl formats the docstring with %: a literal % is written %%.
  main_module.__doc__ = ((__doc__ or "") + "\n" +
                         _catalogue().replace("%", "%%"))
  if _HELP_FLAGS & set(sys.argv[1:]):
    print(tool_help(program), end="")
    raise SystemExit(0)
  warnings.formatwarning = _one_line_warning
  logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                      format="%(levelname)s: %(message)s")
  app.run(main, argv=[program, *sys.argv[1:]])


if __name__ == "__main__":
  entry_point("python -m spiel_ext.cli")
