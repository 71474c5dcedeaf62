"""Unknown-environment learners: time per iteration on Leduc(4) and Leduc(5).

    python benchmarks/bench_learners.py

One learner iteration = the model (posterior mean, or posterior draws and
VCFR's information-gain update) + one CFR iteration on the model game + the
engine's check of each model + 2 episodes with their posterior updates, and
for PSRLCFR and VCFR the two exploration best responses. Printed beside a
plain engine CFR iteration on the same tree (target: at most 2x plus the
model update), with the parts measured one by one, and beside the authors'
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
from timing import median_seconds, seconds_per_iteration

AUTHORS_PSRLCFR_SECONDS = {4: 0.47, 5: 1.75}


def _parts(learner, repeats=100):
  """Median seconds of each part of an iteration, measured alone."""
  rules, posterior = learner.rules, learner.posterior
  rng = np.random.default_rng(0)
  average = learner.average_strategy()
  chance_prob, utility = posterior.sample_game(rng)
  checked = rules.check_model(chance_prob, utility)
  episodes = [learner._environment.play_episode(average, rng)  # pylint: disable=protected-access
              for _ in range(2)]

  def information_gain():
    posterior._changed.extend(e.histories for e in episodes)  # pylint: disable=protected-access
    posterior.information_gain()

  def play_and_observe():
    for _ in range(2):
      episode = learner._environment.play_episode(average, rng)  # pylint: disable=protected-access
      posterior.observe(episode.histories, episode.reward)
  times = {
      "posterior draw": median_seconds(lambda: posterior.sample_game(rng),
                                       repeats),
      "posterior mean": median_seconds(posterior.mean_game, repeats),
      "information gain update": median_seconds(information_gain, repeats),
      "model check": median_seconds(
          lambda: rules.check_model(chance_prob.copy(), utility.copy()),
          repeats),
      "best response": median_seconds(
          lambda: rules.best_response(average, 0, chance_prob=checked[0],
                                      utility=checked[1]), repeats),
      "2 episodes + posterior updates": median_seconds(play_and_observe,
                                                       repeats),
  }
  # The copies in "model check" are not part of it.
  copies = median_seconds(lambda: (chance_prob.copy(), utility.copy()),
                          repeats)
  times["model check"] = max(times["model check"] - copies, 0.0)
  return times


def main(argv):
  del argv
  for max_bid in (4, 5):
    game = true_game_string(f"spiel_ext_bid_leduc(max_bid={max_bid})", 0)
    learners = {name: learner(game, seed=0) for name, learner in (
        ("Naive-CFR", NaiveCFRLearner), ("PSRLCFR", PSRLCFRLearner),
        ("VCFR", VCFRLearner))}
    for learner in learners.values():
      for _ in range(50):  # Past the first iterations' uniform play.
        learner.iteration()
    rules = learners["Naive-CFR"].rules
    cfr = seconds_per_iteration(CFRSolver(rules).iteration, 100)
    authors = AUTHORS_PSRLCFR_SECONDS[max_bid]
    parts = _parts(learners["VCFR"])
    print(f"Leduc({max_bid}), {rules.num_histories} histories, time per "
          "iteration")
    print(f"  spiel_ext CFRSolver (plain)  {cfr * 1e3:8.3f} ms")
    print("  parts: " + ", ".join(f"{name} {seconds * 1e3:.3f} ms"
                                  for name, seconds in parts.items()))
    # Model work per iteration: Naive-CFR one mean game; PSRLCFR two
    # posterior draws; VCFR two draws and the information-gain update.
    model = {"Naive-CFR": parts["posterior mean"],
             "PSRLCFR": 2 * parts["posterior draw"],
             "VCFR": 2 * parts["posterior draw"] +
                     parts["information gain update"]}
    responses = 2 * parts["best response"]
    for name, learner in learners.items():
      ours = seconds_per_iteration(learner.iteration, 100, warmup=10)
      rest = (ours - model[name]) / cfr
      line = (f"  {name:<10} {ours * 1e3:7.3f} ms  (ours - model) / plain "
              f"CFR = {rest:5.2f}x (target <= 2x)")
      if name != "Naive-CFR":
        line += (f", without the 2 best responses "
                 f"{(ours - model[name] - responses) / cfr:5.2f}x")
      print(line + f"  ratio authors' PSRLCFR ({authors:g} s) / ours = "
            f"{authors / ours:5.0f}x (target >= 100x)")


if __name__ == "__main__":
  app.run(main)
