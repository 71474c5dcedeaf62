"""Fictitious-play benchmark: our FP solvers beside OpenSpiel's Python XFP.

    python benchmarks/bench_fp.py

Prints time per iteration on leduc_poker for XFP, GXFP (float and integer
counting), BUFP(EF) and BUFP(X), the ratio to OpenSpiel's Python XFPSolver
(the only FP OpenSpiel ships; target >= 500x) and to our own CFR (target
<= 3x), all measured in this process. Then the GXFP paper's cost claim (Schulze
2023, section 5: "a similar computational cost per iteration"): CFR, XFP and
GXFP as the gxfp_convergence experiment runs them, on its game, timed one
solver at a time in this process, on each update schedule.
"""

import pyspiel
from absl import app
from open_spiel.python.algorithms import fictitious_play

from spiel_ext.algorithms import (BUFPSolver, CFRSolver, GXFPSolver,
                                  XFPSolver)
from spiel_ext.experiments import gxfp
from timing import seconds_per_iteration

# The gxfp_convergence experiment's paper-scale game (Schulze's Fig. 4).
VNM_GAME = "spiel_ext_vnm_poker(hands=57,variant=raise)"


def main(argv):
  del argv
  game = pyspiel.load_game("leduc_poker")
  reference = fictitious_play.XFPSolver(game)
  openspiel_xfp = seconds_per_iteration(reference.iteration, 3, warmup=1)
  cfr = seconds_per_iteration(CFRSolver(game).iteration, 300)
  print("fictitious play on leduc_poker, time per iteration")
  print(f"  OpenSpiel Python XFPSolver   {openspiel_xfp * 1e3:10.3f} ms")
  print(f"  spiel_ext CFRSolver          {cfr * 1e3:10.4f} ms  (reference)")
  solvers = {
      "XFPSolver": XFPSolver(game),
      "GXFPSolver": GXFPSolver(game),
      "GXFPSolver(integer)": GXFPSolver(game, integer_counting=True),
      "BUFPSolver(ef)": BUFPSolver(game, stepsize="ef"),
      "BUFPSolver(x)": BUFPSolver(game, stepsize="x"),
      "XFPSolver(eps=0.01)": XFPSolver(game, min_action_prob=0.01),
  }
  for name, solver in solvers.items():
    ours = seconds_per_iteration(solver.iteration, 300)
    print(f"  {name:<22} {ours * 1e3:10.4f} ms  ratio OpenSpiel XFP / ours = "
          f"{openspiel_xfp / ours:8.0f}x (target >= 500x)  ours / our CFR = "
          f"{ours / cfr:5.2f}x (target <= 3x)")
  print(f"GXFP paper's cost claim on {VNM_GAME}, time per iteration, one "
        "solver at a time")
  for schedule in gxfp.SCHEDULES:
    labels = [gxfp.schedule_roles(schedule)[role]
              for role in ("CFR", "XFP", "GXFP")]
    seconds = gxfp.time_alone(VNM_GAME, labels)
    for label in labels:
      print(f"  {label:<32} {seconds[label] * 1e3:10.4f} ms")
    print(f"  {schedule}: largest / smallest = "
          f"{max(seconds.values()) / min(seconds.values()):5.2f}x "
          "(the paper: similar)")


if __name__ == "__main__":
  app.run(main)
