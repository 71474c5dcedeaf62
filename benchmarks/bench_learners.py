"""Unknown-environment learners: time per iteration on Leduc(4) and Leduc(5).

    python benchmarks/bench_learners.py

One learner iteration = posterior update + one CFR iteration on a model
game + 2 episodes. Printed beside a plain engine CFR iteration on the same
tree (target: at most 2x plus the model update) and beside the authors'
pure-Python PSRLCFR, which cannot run here: its per-iteration time measured
on a 2-core machine like ours (0.47 s on Leduc(4), 1.75 s on Leduc(5);
target: at least 100x faster).
"""

import numpy as np
from absl import app

from spiel_ext.algorithms import CFRSolver
from spiel_ext.algorithms.learners import (NaiveCFRLearner, PSRLCFRLearner,
                                           VCFRLearner)
from spiel_ext.games.unknown_env import true_game_string
from timing import seconds_per_iteration

AUTHORS_PSRLCFR_SECONDS = {4: 0.47, 5: 1.75}


def main(argv):
  del argv
  for max_bid in (4, 5):
    game = true_game_string(f"spiel_ext_bid_leduc(max_bid={max_bid})", 0)
    learners = {name: learner(game, seed=0) for name, learner in (
        ("Naive-CFR", NaiveCFRLearner), ("PSRLCFR", PSRLCFRLearner),
        ("VCFR", VCFRLearner))}
    rules = learners["Naive-CFR"].rules
    cfr = seconds_per_iteration(CFRSolver(rules).iteration, 100)
    authors = AUTHORS_PSRLCFR_SECONDS[max_bid]
    print(f"Leduc({max_bid}), {rules.num_histories} histories, time per "
          "iteration")
    print(f"  spiel_ext CFRSolver (plain)  {cfr * 1e3:8.3f} ms")
    posterior = learners["PSRLCFR"].posterior
    rng = np.random.default_rng(0)
    draw = seconds_per_iteration(lambda: posterior.sample_game(rng), 100)
    mean = seconds_per_iteration(posterior.mean_game, 100)
    # Model work per iteration: Naive-CFR one mean game; PSRLCFR two
    # posterior draws; VCFR two draws and the bonus.
    model = {"Naive-CFR": mean, "PSRLCFR": 2 * draw, "VCFR": 2 * draw}
    print(f"  posterior draw {draw * 1e3:8.3f} ms, posterior mean "
          f"{mean * 1e3:8.3f} ms")
    for name, learner in learners.items():
      ours = seconds_per_iteration(learner.iteration, 100, warmup=10)
      rest = (ours - model[name]) / cfr
      print(f"  {name:<12} {ours * 1e3:8.3f} ms  (ours - model) / plain CFR "
            f"= {rest:5.2f}x (target <= 2x)  ratio authors' PSRLCFR "
            f"({authors:g} s) / ours = {authors / ours:6.0f}x "
            "(target >= 100x)")


if __name__ == "__main__":
  app.run(main)
