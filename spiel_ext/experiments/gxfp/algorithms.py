"""The GXFP paper's ablations (Tim P. Schulze, "A Generalized Extensive-Form
Fictitious Play Algorithm", 2023): CFR's starts and schedules, and
alternating perturbed fictitious play."""

from __future__ import annotations

from spiel_ext.algorithms import CFRSolver, GXFPSolver, XFPSolver
from spiel_ext.experiments.common_algorithms import GXFP_EPSILON
from spiel_ext.experiments.entries import AlgorithmEntry, register

GXFP_ALGORITHMS = register((
    # The GXFP paper's CFR from random regrets worth about one iteration:
    # on vN&M poker (ante 1, bet 2, raise 2) one iteration moves each
    # infoset's largest regret by about 0.34 / N (0.006 at N = 57), so
    # U(0, 0.02) is about one iteration's worth there (U(0, 1), the "CFR"
    # label's start, is worth ~N iterations).
    AlgorithmEntry(CFRSolver, {"random_init": True, "init_scale": 0.02},
                   "CFR (light start)", description="vanilla CFR, random "
                   "initial regrets and policy U(0, 0.02) (about one "
                   "iteration of vN&M poker's regret)"),
    AlgorithmEntry(CFRSolver, {"random_init": True, "init_scale": 0.02,
                               "alternating_updates": False},
                   "CFR (simultaneous, light start)", description="vanilla "
                   "CFR with simultaneous updates, random initial regrets "
                   "and policy U(0, 0.02)"),
    AlgorithmEntry(CFRSolver, {"alternating_updates": False},
                   "CFR (simultaneous, uniform)", description="vanilla CFR "
                   "with simultaneous updates from the uniform strategy",
                   seeded=False),
    *(AlgorithmEntry(solver, {"initial_policy": "random",
                              "min_action_prob": GXFP_EPSILON,
                              "alternating_updates": True},
                     f"{name} (alternating, eps={GXFP_EPSILON:g})",
                     description=f"{name} with alternating updates in the "
                     f"perturbed game (every action >= {GXFP_EPSILON:g}), "
                     "random initial strategy")
      for name, solver in (("XFP", XFPSolver), ("GXFP", GXFPSolver))),
))
