"""VCFR on a Kuhn poker whose chance and rewards are unknown.

`true_game_string("kuhn_poker", env_seed=...)` names a Kuhn poker whose
card deal and payoffs are hidden: the learner sees only the rules and the
episodes it plays. VCFR (Qiu et al., "Exploring Unknown Environments:
Variational Counterfactual Regret Minimization", 2023) keeps a posterior
over the hidden numbers, runs CFR on a draw from it with an information
bonus, and plays two episodes an iteration. The script prints the episodes
used and the NashConv of the learner's average policy in the true game,
beside Naive-CFR (the same without the bonus).

Run:
  python examples/vcfr_unknown_kuhn.py
  python examples/vcfr_unknown_kuhn.py --iterations=2000 --env_seed=7
"""

from absl import app
from absl import flags

from spiel_ext import eval as se
from spiel_ext.algorithms.learners import NaiveCFRLearner, VCFRLearner
from spiel_ext.games.unknown_env import true_game_string

FLAGS = flags.FLAGS

flags.DEFINE_integer("iterations", 500, "Learner iterations (2 episodes each).")
flags.DEFINE_integer("env_seed", 3, "Seed of the hidden environment.")
flags.DEFINE_integer("seed", 0, "Seed of the learners.")
flags.DEFINE_integer("print_freq", 100, "Print every this many iterations.")


def main(argv):
  del argv  # Unused.
  game = true_game_string("kuhn_poker", env_seed=FLAGS.env_seed)
  print(f"game {game}")
  learners = {"VCFR": VCFRLearner(game, seed=FLAGS.seed),
              "Naive-CFR": NaiveCFRLearner(game, seed=FLAGS.seed)}
  for iteration in range(1, FLAGS.iterations + 1):
    for name, learner in learners.items():
      learner.evaluate_and_update_policy()
      if iteration % FLAGS.print_freq == 0 or iteration == FLAGS.iterations:
        nash_conv = se.nash_conv(game, learner.average_policy())
        print(f"{name} iteration {iteration} episodes {learner.episodes} "
              f"nash_conv {nash_conv:.6f}")


if __name__ == "__main__":
  app.run(main)
