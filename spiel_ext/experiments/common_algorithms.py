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
_BUFP = BUFPSolver.Config
_RANDOM_START = ", random initial strategy"
# The forms of fictitious play the papers run, each from a random
# strategy: (id suffix, config options, description after the name).
_PLAIN = ("", {}, _RANDOM_START)
_ALTERNATING = (" (alternating)", {"alternating_updates": True},
                " with alternating updates" + _RANDOM_START)
_INTEGER = (" (integer)", {"integer_counting": True},
            " counting best decisions in integers" + _RANDOM_START)
_PERTURBED = (f" (eps={GXFP_EPSILON:g})", {"min_action_prob": GXFP_EPSILON},
              f" in the perturbed game (every action >= {GXFP_EPSILON:g})"
              + _RANDOM_START)


def _fictitious_play(solver: type, name: str,
                     forms: tuple[tuple[str, dict, str], ...]
                     ) -> tuple[AlgorithmEntry, ...]:
  """The entries of ``solver`` (named ``name``) in each of ``forms``."""
  return tuple(
      AlgorithmEntry(solver, solver.Config(initial_policy="random", **options),
                     name + suffix, description=name + text)
      for suffix, options, text in forms)


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
    *_fictitious_play(XFPSolver, "XFP", (_PLAIN, _ALTERNATING, _PERTURBED)),
    *_fictitious_play(GXFPSolver, "GXFP",
                      (_PLAIN, _ALTERNATING, _INTEGER, _PERTURBED)),
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
