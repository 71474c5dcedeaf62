"""CFR on Kuhn poker: OpenSpiel's own CFR example with spiel_ext's imports.

OpenSpiel ships this loop as `open_spiel/python/examples/cfr_example.py`.
Only the two imports differ: `cfr` and `exploitability` come from
spiel_ext, with OpenSpiel's names and signatures, so the printed numbers
are OpenSpiel's (the solvers match iterate for iterate).

Run:
  python examples/cfr_example.py
  python examples/cfr_example.py --game=leduc_poker --iterations=1000
"""

from absl import app
from absl import flags
import pyspiel

from spiel_ext import exploitability  # was: open_spiel.python.algorithms
from spiel_ext.algorithms import cfr  # was: open_spiel.python.algorithms

FLAGS = flags.FLAGS

flags.DEFINE_integer("iterations", 100, "Number of CFR iterations.")
flags.DEFINE_string("game", "kuhn_poker", "Name of the game.")
flags.DEFINE_integer("players", 2, "Number of players.")
flags.DEFINE_integer("print_freq", 10,
                     "Print the exploitability every this many iterations.")


def main(argv):
  del argv  # Unused.
  game = pyspiel.load_game(FLAGS.game, {"players": FLAGS.players})
  solver = cfr.CFRSolver(game)
  for iteration in range(FLAGS.iterations):
    solver.evaluate_and_update_policy()
    if iteration % FLAGS.print_freq == 0:
      value = exploitability.exploitability(game, solver.average_policy())
      print(f"Iteration {iteration} exploitability {value}")


if __name__ == "__main__":
  app.run(main)
