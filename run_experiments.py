"""Runs spiel_ext's named experiments and writes results, figures and tables.

    python run_experiments.py --experiment=quickstart
    python run_experiments.py --list
    python run_experiments.py --experiment=quickstart --scale=paper \
        --workers=2 --output_dir=results --resume
    python run_experiments.py --experiment=quickstart --executor=ray \
        --ray_address=auto          # an existing Ray cluster

Results go to ``<output_dir>/<experiment>/``: ``results.parquet`` and
``results.csv`` (one long-format table), ``figures/`` (PNG and PDF) and
``tables/`` (markdown and LaTeX). Rows are written as each evaluation point
is measured and solvers are checkpointed every ``--checkpoint_every``
iterations, so an interrupted run continues with ``--resume``.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

from absl import app, flags

FLAGS = flags.FLAGS
flags.DEFINE_list("experiment", ["quickstart"],
                  "Experiment name(s), comma separated; --list shows them.")
flags.DEFINE_bool("list", False, "List the experiments and exit.")
flags.DEFINE_enum("scale", "quick", ["quick", "paper"],
                  "quick: minutes on 2 cores; paper: the papers' sizes.")
flags.DEFINE_integer("iterations", None, "Override: iterations per run.",
                     lower_bound=1)
flags.DEFINE_integer("seeds", None, "Override: random starts per algorithm.",
                     lower_bound=1)
flags.DEFINE_integer("eval_every", None,
                     "Override: evaluate every N iterations (default: about "
                     "8 log-spaced points per decade).", lower_bound=1)
flags.DEFINE_multi_string("games", None, "Override: a game string; repeat "
                          "the flag for several games (game strings contain "
                          "commas).")
flags.DEFINE_list("algorithms", None, "Override: algorithm labels.")
flags.DEFINE_string("output_dir", "results",
                    "Folder for results, figures and tables.")
flags.DEFINE_bool("resume", False,
                  "Continue the run in --output_dir: skip finished units, "
                  "resume unfinished ones from their last checkpoint.")
flags.DEFINE_integer("checkpoint_every", 1000,
                     "Checkpoint solvers every N iterations.", lower_bound=1)
flags.DEFINE_integer("workers", 1, "Processes (local) or CPUs for a local "
                     "Ray instance.", lower_bound=1)
flags.DEFINE_enum("executor", "local", ["local", "ray"],
                  "local: processes on this machine; ray: Ray tasks.")
flags.DEFINE_string("ray_address", None,
                    "Ray cluster to join ('auto' or host:port); default: "
                    "start a local Ray instance.")
flags.DEFINE_bool("quiet", False, "No progress bars.")
flags.DEFINE_string("report_path", "docs/reproduction.md",
                    "Where --experiment=report writes the reproduction "
                    "report.")
flags.DEFINE_integer("seed", 0, "First seed: runs use seeds seed, seed+1, "
                     "... (an integer >= 0).", lower_bound=0)


def _list_experiments(experiments) -> None:
  width = max(len(name) for name in experiments)
  for name, experiment in experiments.items():
    print(f"{name:<{width}}  {experiment.description}")
    if experiment.cost:
      print(f"{'':<{width}}  cost: {experiment.cost}")
  print(f"{'report':<{width}}  writes --report_path from the results in "
        "--output_dir")


def _check_output_dir(path: str) -> None:
  folder = Path(path)
  try:
    folder.mkdir(parents=True, exist_ok=True)
  except OSError as error:
    raise app.UsageError(f"--output_dir {path!r} cannot be created: "
                         f"{error.strerror}.") from None
  if not os.access(folder, os.W_OK):
    raise app.UsageError(f"--output_dir {path!r} is not writable.")


def main(argv):
  if len(argv) > 1:
    raise app.UsageError(f"unexpected arguments: {argv[1:]}")
  from spiel_ext.executors import make_executor  # pylint: disable=g-import-not-at-top
  from spiel_ext.experiments import (EXPERIMENTS, run_experiment,  # pylint: disable=g-import-not-at-top
                                     settings_for,
                                     write_reproduction_report)
  if FLAGS.list:
    _list_experiments(EXPERIMENTS)
    return
  if FLAGS.experiment == ["report"]:
    path = write_reproduction_report(EXPERIMENTS, FLAGS.output_dir,
                                     FLAGS.report_path)
    print(f"report: {path}")
    return
  unknown = [name for name in FLAGS.experiment if name not in EXPERIMENTS]
  if unknown:
    raise app.UsageError(f"--experiment: unknown {unknown}; accepted: "
                         f"{', '.join(sorted(EXPERIMENTS))}, or report.")
  _check_output_dir(FLAGS.output_dir)
  try:
    executor = make_executor(FLAGS.executor, FLAGS.workers, FLAGS.ray_address)
    for name in FLAGS.experiment:
      experiment = EXPERIMENTS[name]
      settings = settings_for(
          experiment, FLAGS.scale, iterations=FLAGS.iterations,
          seeds=FLAGS.seeds, games=FLAGS.games, algorithms=FLAGS.algorithms,
          eval_every=FLAGS.eval_every, first_seed=FLAGS.seed)
      outputs = run_experiment(experiment, settings, FLAGS.output_dir,
                               executor, checkpoint_every=FLAGS.checkpoint_every,
                               resume=FLAGS.resume, quiet=FLAGS.quiet)
      print(f"{name}: results {', '.join(map(str, outputs.results))}")
      for path in outputs.figures:
        print(f"{name}: figure  {path}")
      for path in outputs.tables:
        print(f"{name}: table   {path}")
  except ValueError as error:
    raise app.UsageError(str(error)) from None


if __name__ == "__main__":
  logging.basicConfig(level=logging.INFO, stream=sys.stderr)
  app.run(main)
