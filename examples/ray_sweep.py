"""A sweep of solvers and games on Ray, one task per (solver, game).

Each task builds a game, runs a spiel_ext solver for some iterations and
returns its NashConv; the driver prints a table as the tasks finish.
Without `--address` Ray starts a local cluster on this machine with
`--workers` CPUs; `--address=auto` joins the cluster this machine belongs
to and `--address=host:port` names one. Install the extra first:
`pip install -e ".[ray]"`. (The experiments themselves run on Ray with
`spiel-ext --experiment=... --executor=ray --ray_address=auto`.)

Run:
  python examples/ray_sweep.py
  python examples/ray_sweep.py --address=auto --iterations=5000 \
      --games=kuhn_poker,leduc_poker --solvers=CFR,CFR+,DCFR
"""

from absl import app
from absl import flags
import ray

FLAGS = flags.FLAGS

flags.DEFINE_string("address", None,
                    "Ray cluster to join (auto or host:port); a local one "
                    "if unset.")
flags.DEFINE_integer("workers", 2, "CPUs of the local cluster.")
flags.DEFINE_list("games", ["kuhn_poker", "leduc_poker"], "Games to solve.")
flags.DEFINE_list("solvers", ["CFR", "CFR+", "DCFR"], "Solvers to run.")
flags.DEFINE_integer("iterations", 200, "Iterations of each solver.")

SOLVERS = ("CFR", "CFR+", "DCFR")


@ray.remote
def solve(solver_name: str, game_name: str, iterations: int) -> dict:
  """Runs one solver on one game; returns its final NashConv."""
  import pyspiel  # pylint: disable=g-import-not-at-top
  from spiel_ext import exploitability  # pylint: disable=g-import-not-at-top
  from spiel_ext.algorithms import cfr, discounted_cfr  # pylint: disable=g-import-not-at-top

  game = pyspiel.load_game(game_name)
  solver = {"CFR": cfr.CFRSolver, "CFR+": cfr.CFRPlusSolver,
            "DCFR": discounted_cfr.DCFRSolver}[solver_name](game)
  for _ in range(iterations):
    solver.evaluate_and_update_policy()
  return {"solver": solver_name, "game": game_name, "iterations": iterations,
          "nash_conv": exploitability.nash_conv(game,
                                                solver.average_policy())}


def main(argv):
  del argv  # Unused.
  unknown = sorted(set(FLAGS.solvers) - set(SOLVERS))
  if unknown:
    raise SystemExit(f"--solvers: unknown {unknown}; accepted: {SOLVERS}")
  if FLAGS.address:
    ray.init(address=FLAGS.address, log_to_driver=False)
  else:
    ray.init(num_cpus=FLAGS.workers, include_dashboard=False,
             log_to_driver=False)
  pending = [solve.remote(solver, game, FLAGS.iterations)
             for game in FLAGS.games for solver in FLAGS.solvers]
  print(f"{'game':<14} {'solver':<6} {'iterations':>10} {'nash_conv':>12}")
  while pending:
    done, pending = ray.wait(pending)
    row = ray.get(done[0])
    print(f"{row['game']:<14} {row['solver']:<6} {row['iterations']:>10} "
          f"{row['nash_conv']:>12.6g}", flush=True)
  ray.shutdown()


if __name__ == "__main__":
  app.run(main)
