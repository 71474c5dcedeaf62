"""Runs spiel_ext's named experiments.

    python run_experiments.py --experiment=quickstart

``quickstart`` compiles leduc_poker, evaluates a few policies with our engine
and with OpenSpiel's own evaluators side by side, and prints both. Paper
experiments are added to spiel_ext.experiments as their algorithms land.
"""

from absl import app, flags

from spiel_ext import experiments

FLAGS = flags.FLAGS
flags.DEFINE_string("experiment", "quickstart",
                    "Which experiment to run; one of: "
                    + ", ".join(experiments.EXPERIMENTS))
flags.DEFINE_string("output_dir", "results",
                    "Folder for results, figures and tables.")
flags.DEFINE_integer("seed", 0, "Seed for every random choice (an integer >= 0).",
                     lower_bound=0)


def main(argv):
  if len(argv) > 1:
    raise app.UsageError(f"Unexpected arguments: {argv[1:]}")
  if FLAGS.experiment not in experiments.EXPERIMENTS:
    raise app.UsageError(
        f"--experiment must be one of {sorted(experiments.EXPERIMENTS)}; got "
        f"{FLAGS.experiment!r}.")
  experiments.EXPERIMENTS[FLAGS.experiment](output_dir=FLAGS.output_dir,
                                            seed=FLAGS.seed)


if __name__ == "__main__":
  app.run(main)
