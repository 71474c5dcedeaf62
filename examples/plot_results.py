"""Read a run's results.parquet into pandas and plot NashConv curves.

A run folder (`spiel-ext --experiment=quickstart` writes
`results/quickstart/`) holds `results.parquet`: one row per (experiment,
game, algorithm, hyperparameters, seed, iteration, metric). The script
keeps the `nash_conv` rows, averages them over seeds, prints each
algorithm's final NashConv and draws one curve per algorithm and game on a
log-log plot, saved to a file (matplotlib's Agg backend, no display).

Run:
  spiel-ext --experiment=quickstart
  python examples/plot_results.py --results=results/quickstart/results.parquet
"""

from absl import app
from absl import flags
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # pylint: disable=g-import-not-at-top
import pandas as pd  # pylint: disable=g-import-not-at-top

FLAGS = flags.FLAGS

flags.DEFINE_string("results", "results/quickstart/results.parquet",
                    "Path of a results.parquet file.")
flags.DEFINE_string("output", "nash_conv.png", "Path of the figure to write.")
flags.DEFINE_string("metric", "nash_conv",
                    "Metric to plot (nash_conv or exploitability).")


def main(argv):
  del argv  # Unused.
  frame = pd.read_parquet(FLAGS.results)
  rows = frame[frame.metric == FLAGS.metric]
  if rows.empty:
    raise SystemExit(f"--metric: no {FLAGS.metric!r} rows in {FLAGS.results}; "
                     f"metrics there: {sorted(frame.metric.unique())}")
  curves = (rows.groupby(["game", "algorithm", "iteration"]).value.mean()
            .reset_index())

  figure, axes = plt.subplots(figsize=(6, 4))
  for (game, algorithm), curve in curves.groupby(["game", "algorithm"]):
    curve = curve[curve.iteration > 0]
    axes.loglog(curve.iteration, curve.value, label=f"{algorithm} ({game})")
    print(f"{algorithm} {game} final {FLAGS.metric} "
          f"{curve.value.iloc[-1]:.6g} at iteration "
          f"{int(curve.iteration.iloc[-1])}")
  axes.set_xlabel("iteration")
  axes.set_ylabel(FLAGS.metric)
  axes.legend(fontsize="small")
  figure.tight_layout()
  figure.savefig(FLAGS.output, dpi=120)
  print(f"wrote {FLAGS.output}")


if __name__ == "__main__":
  app.run(main)
