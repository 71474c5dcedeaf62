"""The algorithms several papers' experiments share: CFR, CFR+,
chance-sampled CFR, XFP, GXFP, BUFP and OpenSpiel's own CFR.

``random`` starts give each seed its own initial strategy: random
cumulative regrets for the CFR family, a Dirichlet(1) strategy for
fictitious play, as the papers' multi-start runs do.
"""

from __future__ import annotations

from spiel_ext.algorithms import (BUFPSolver, CFRPlusSolver, CFRSolver,
                                  ChanceSampledCFRSolver, GXFPSolver,
                                  OpenSpielCFRAdapter, XFPSolver)
from spiel_ext.experiments.entries import AlgorithmEntry, register

# Schulze's perturbed game: every action keeps probability >= this.
GXFP_EPSILON = 0.01


def build_openspiel_cfr(game: str, seed: int = 0) -> OpenSpielCFRAdapter:
  """OpenSpiel's own Python ``cfr.CFRSolver`` behind spiel_ext's solver
  contract (uniform start; ``seed`` is unused: the solver is
  deterministic)."""
  del seed
  return OpenSpielCFRAdapter(game)


_CFR = CFRSolver.Config
_XFP = XFPSolver.Config
_GXFP = GXFPSolver.Config
_BUFP = BUFPSolver.Config
_EPS_TEXT = (f"in the perturbed game (every action >= {GXFP_EPSILON:g}), "
             "random initial strategy")

COMMON_ALGORITHMS = register((
    AlgorithmEntry(CFRSolver, _CFR(random_init=True), "CFR",
                   description="vanilla CFR, random initial regrets"),
    AlgorithmEntry(CFRSolver, _CFR(), "CFR (uniform)", seeded=False,
                   description="vanilla CFR from the uniform strategy "
                   "(OpenSpiel's start)"),
    AlgorithmEntry(CFRPlusSolver, CFRPlusSolver.Config(random_init=True),
                   "CFR+", description="CFR+, random initial regrets"),
    AlgorithmEntry(ChanceSampledCFRSolver, ChanceSampledCFRSolver.Config(),
                   "CS-CFR", description="chance-sampled CFR as RLCard's CFR "
                   "agent (uniform start; the seed drives the chance draws)"),
    AlgorithmEntry(CFRSolver, _CFR(random_init=True,
                                   alternating_updates=False),
                   "CFR (simultaneous)", description="vanilla CFR with "
                   "simultaneous updates, random initial regrets"),
    AlgorithmEntry(XFPSolver, _XFP(initial_policy="random"), "XFP",
                   description="XFP, random initial strategy"),
    AlgorithmEntry(XFPSolver, _XFP(initial_policy="random",
                                   alternating_updates=True),
                   "XFP (alternating)", description="XFP with alternating "
                   "updates, random initial strategy"),
    AlgorithmEntry(XFPSolver, _XFP(initial_policy="random",
                                   min_action_prob=GXFP_EPSILON),
                   f"XFP (eps={GXFP_EPSILON:g})",
                   description=f"XFP {_EPS_TEXT}"),
    AlgorithmEntry(GXFPSolver, _GXFP(initial_policy="random"), "GXFP",
                   description="GXFP, random initial strategy"),
    AlgorithmEntry(GXFPSolver, _GXFP(initial_policy="random",
                                     alternating_updates=True),
                   "GXFP (alternating)", description="GXFP with alternating "
                   "updates, random initial strategy"),
    AlgorithmEntry(GXFPSolver, _GXFP(initial_policy="random",
                                     integer_counting=True),
                   "GXFP (integer)", description="GXFP counting best "
                   "decisions in integers, random initial strategy"),
    AlgorithmEntry(GXFPSolver, _GXFP(initial_policy="random",
                                     min_action_prob=GXFP_EPSILON),
                   f"GXFP (eps={GXFP_EPSILON:g})",
                   description=f"GXFP {_EPS_TEXT}"),
    # The stored runs name the stepsize even where it is the default.
    AlgorithmEntry(BUFPSolver, _BUFP(stepsize="ef", initial_policy="random"),
                   "BUFP(EF)", description="BUFP(EF), random initial "
                   "strategy", recorded=("stepsize",)),
    AlgorithmEntry(BUFPSolver, _BUFP(stepsize="x", initial_policy="random"),
                   "BUFP(X)", description="BUFP(X), random initial strategy",
                   recorded=("stepsize",)),
    AlgorithmEntry(build_openspiel_cfr, {}, "OpenSpiel CFR (Python)",
                   description="OpenSpiel's cfr.CFRSolver, uniform start",
                   seeded=False),
))
