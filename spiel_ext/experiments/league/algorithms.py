"""The solver league's entries: every full-width solver of the package from
the uniform start, external-sampling MCCFR, and OpenSpiel's C++ CFR+ as a
reference on the same clock.

The solvers and their papers' settings:

- CFR (Zinkevich, Johanson, Bowling, Piccione, "Regret Minimization in
  Games with Incomplete Information", NeurIPS 2007) and CFR+ (Tammelin,
  "Solving Large Imperfect Information Games Using CFR+", 2014);
- LCFR and DCFR(1.5, 0, 2) (Brown, Sandholm, "Solving Imperfect-Information
  Games via Discounted Regret Minimization", AAAI 2019);
- PCFR+ with quadratic averaging (Farina, Kroer, Sandholm, "Faster Game
  Solving via Predictive Blackwell Approachability: Connecting Regret
  Matching and Mirror Descent", AAAI 2021);
- DCFR+(1.5, 4) and PDCFR+(2.3, 5) (Xu, Li, Liu, Fu, Fu, Xing, Cheng,
  "Minimizing Weighted Counterfactual Regret with Optimistic Online
  Mirror Descent", IJCAI 2024); their public DCFR+ code discounts with
  (t-1)^alpha / ((t-1)^alpha + 1.5) where the text has + 1, so DCFR+ runs
  both ways;
- MMD with the dilated entropy, OpenSpiel's example alpha 0.05 (Sokota,
  D'Orazio, Kolter, Loizou, Lanctot, Mitliagkas, Brown, Kroer, "A
  Unified Approach to Reinforcement Learning, Quantal Response
  Equilibria, and Two-Player Zero-Sum Games", ICLR 2023), its average and
  its last iterate as two entries;
- XFP (Heinrich, Lanctot, Silver, "Fictitious Self-Play in
  Extensive-Form Games", ICML 2015), GXFP (Schulze, "A Generalized
  Extensive-Form Fictitious Play Algorithm", 2023) and BUFP(EF), BUFP(X)
  (Ju, Fang, Luo, "Beyond Nash Equilibrium: Achieving Bayesian Perfect
  Equilibrium with Belief Update Fictitious Play", DDCLS 2024);
- Pref-CFR(RM) with neutral degrees (Ju, Tellier, Sun, Fang, Luo,
  "Preference-CFR: Beyond Nash Equilibrium for Better Game Strategies",
  ICML 2025), which is CFR;
- external-sampling MCCFR (Lanctot, Waugh, Zinkevich, Bowling, "Monte
  Carlo Sampling for Regret Minimization in Extensive Games", NeurIPS
  2009), the only sampled solver, five seeds.
"""

from __future__ import annotations

import functools
from typing import Any, Callable

from spiel_ext.algorithms import (BUFPSolver, CFRPlusSolver, CFRSolver,
                                  DCFRSolver, GXFPSolver, LCFRSolver,
                                  PrefCFRSolver, XFPSolver)
from spiel_ext.algorithms.dcfr_plus import DCFRPlusSolver, PDCFRPlusSolver
from spiel_ext.algorithms.external_sampling import ExternalSamplingSolver
from spiel_ext.algorithms.mmd import MMDSolver
from spiel_ext.algorithms.openspiel import OpenSpielCppCFRAdapter
from spiel_ext.algorithms.pcfr_plus import PCFRPlusSolver
from spiel_ext.experiments.entries import (TWO_PLAYER_ZERO_SUM,
                                           AlgorithmEntry, LastIterate,
                                           register)


# The solver classes whose compiled kernels this process has loaded.
_WARM: set[type] = set()
# The game a warm-up runs on: the smallest two-player zero-sum game.
WARM_UP_GAME = "kuhn_poker"


def build_warm(game: str, seed: int = 0, *, solver: type,
               **config: Any) -> Any:
  """``solver(game, seed=seed, **config)``, after loading its compiled
  kernels in this process: the first solver of a class a process builds
  first runs two iterations on kuhn_poker, so that the one-time loading
  is not counted in the league's solver seconds (it happens before the
  timed iterations start). Used through ``functools.partial(build_warm,
  solver=...)``."""
  if solver not in _WARM:
    warm_up = solver(WARM_UP_GAME, seed=seed, **config)
    for _ in range(2):
      warm_up.evaluate_and_update_policy()
    warm_up.average_policy()
    warm_up.current_policy()
    _WARM.add(solver)
  return solver(game, seed=seed, **config)


def warm(solver: type) -> Callable[..., Any]:
  """The league's builder of ``solver`` (see :func:`build_warm`)."""
  return functools.partial(build_warm, solver=solver)


def build_mmd_last_iterate(game: str, seed: int = 0,
                           **config: Any) -> LastIterate:
  """MMD whose evaluated policy is its last iterate (see
  :class:`~spiel_ext.experiments.entries.LastIterate`), built warm."""
  return LastIterate(build_warm(game, seed, solver=MMDSolver, **config))


def build_openspiel_cpp_cfr_plus(game: str,
                                 seed: int = 0) -> OpenSpielCppCFRAdapter:
  """OpenSpiel's C++ ``pyspiel.CFRPlusSolver`` behind the solver contract
  (``seed`` is unused: the solver is deterministic)."""
  del seed
  return OpenSpielCppCFRAdapter(game, kind="cfr+")


# The ids of the league's rows (their labels are in LABELS); "(league)"
# where the plain name is another experiment's random-start entry.
CFR = "CFR (league)"
CFR_PLUS = "CFR+ (league)"
LCFR = "LCFR"
DCFR = "DCFR"
DCFR_PLUS = "DCFR+"
DCFR_PLUS_CODE = "DCFR+ (authors' code)"
PCFR_PLUS = "PCFR+"
PDCFR_PLUS = "PDCFR+"
MMD_AVERAGE = "MMD"
MMD_LAST = "MMD (last iterate)"
XFP = "XFP (league)"
GXFP = "GXFP (league)"
BUFP_EF = "BUFP(EF) (league)"
BUFP_X = "BUFP(X) (league)"
PREF_CFR = "Pref-CFR(RM) (neutral)"
ES_MCCFR = "ES-MCCFR"
CPP_CFR_PLUS = "OpenSpiel CFR+ (C++)"

# The league's rows in table order, the reference last.
LEAGUE_ORDER = (CFR, CFR_PLUS, LCFR, DCFR, DCFR_PLUS, DCFR_PLUS_CODE,
                PCFR_PLUS, PDCFR_PLUS,
                MMD_AVERAGE, MMD_LAST, XFP, GXFP, BUFP_EF, BUFP_X, PREF_CFR,
                ES_MCCFR, CPP_CFR_PLUS)

# How the league's figures and tables name each row.
LABELS = {CFR: "CFR", CFR_PLUS: "CFR+", LCFR: "LCFR", DCFR: "DCFR",
          DCFR_PLUS: "DCFR+", DCFR_PLUS_CODE: "DCFR+ (authors' code)",
          PCFR_PLUS: "PCFR+", PDCFR_PLUS: "PDCFR+",
          MMD_AVERAGE: "MMD (average)", MMD_LAST: "MMD (last iterate)",
          XFP: "XFP", GXFP: "GXFP", BUFP_EF: "BUFP(EF)", BUFP_X: "BUFP(X)",
          PREF_CFR: "Pref-CFR (neutral)", ES_MCCFR: "ES-MCCFR",
          CPP_CFR_PLUS: "OpenSpiel CFR+ (C++)"}

_UNIFORM = "from the uniform strategy"

LEAGUE_ALGORITHMS = register((
    AlgorithmEntry(warm(CFRSolver), CFRSolver.Config(), CFR, seeded=False,
                   description=f"vanilla CFR {_UNIFORM}"),
    AlgorithmEntry(warm(CFRPlusSolver), CFRPlusSolver.Config(), CFR_PLUS,
                   seeded=False, description=f"CFR+ {_UNIFORM}"),
    AlgorithmEntry(warm(LCFRSolver), LCFRSolver.Config(), LCFR,
                   seeded=False, description=f"Linear CFR {_UNIFORM}"),
    AlgorithmEntry(warm(DCFRSolver), DCFRSolver.Config(), DCFR,
                   seeded=False, description=f"DCFR(alpha 1.5, beta 0, "
                   f"gamma 2) {_UNIFORM}"),
    AlgorithmEntry(warm(DCFRPlusSolver), DCFRPlusSolver.Config(), DCFR_PLUS,
                   seeded=False,
                   description=f"DCFR+(alpha 1.5, gamma 4) {_UNIFORM}"),
    AlgorithmEntry(warm(DCFRPlusSolver),
                   DCFRPlusSolver.Config(discount_offset=1.5), DCFR_PLUS_CODE,
                   seeded=False, description="DCFR+(alpha 1.5, gamma 4) with "
                   "the authors' code's discount (t-1)^1.5 / ((t-1)^1.5 + "
                   f"1.5) {_UNIFORM}"),
    AlgorithmEntry(warm(PCFRPlusSolver), PCFRPlusSolver.Config(), PCFR_PLUS,
                   seeded=False, description=f"PCFR+, quadratic averaging, "
                   f"{_UNIFORM}"),
    AlgorithmEntry(warm(PDCFRPlusSolver), PDCFRPlusSolver.Config(),
                   PDCFR_PLUS, seeded=False,
                   description=f"PDCFR+(alpha 2.3, gamma 5) {_UNIFORM}"),
    AlgorithmEntry(warm(MMDSolver), MMDSolver.Config(), MMD_AVERAGE,
                   seeded=False, requires=TWO_PLAYER_ZERO_SUM,
                   description="MMD with the dilated entropy (alpha 0.05, "
                   "OpenSpiel's stepsize), its average"),
    AlgorithmEntry(build_mmd_last_iterate, {}, MMD_LAST, seeded=False,
                   requires=TWO_PLAYER_ZERO_SUM,
                   description="MMD with the dilated entropy (alpha 0.05, "
                   "OpenSpiel's stepsize), its last iterate"),
    AlgorithmEntry(warm(XFPSolver), XFPSolver.Config(), XFP, seeded=False,
                   description=f"XFP {_UNIFORM}"),
    AlgorithmEntry(warm(GXFPSolver), GXFPSolver.Config(), GXFP,
                   seeded=False, description=f"GXFP {_UNIFORM}"),
    AlgorithmEntry(warm(BUFPSolver), {"stepsize": "ef"}, BUFP_EF,
                   seeded=False, description=f"BUFP(EF) {_UNIFORM}"),
    AlgorithmEntry(warm(BUFPSolver), {"stepsize": "x"}, BUFP_X,
                   seeded=False, description=f"BUFP(X) {_UNIFORM}"),
    AlgorithmEntry(warm(PrefCFRSolver), PrefCFRSolver.Config(variant="rm"),
                   PREF_CFR, seeded=False, description="Pref-CFR(RM) with "
                   "every degree neutral (no preference: CFR)"),
    AlgorithmEntry(warm(ExternalSamplingSolver),
                   ExternalSamplingSolver.Config(), ES_MCCFR,
                   description="external-sampling MCCFR, simple averaging "
                   "(OpenSpiel's default)"),
    AlgorithmEntry(build_openspiel_cpp_cfr_plus, {}, CPP_CFR_PLUS,
                   seeded=False, resumable=False,
                   description="OpenSpiel's C++ pyspiel.CFRPlusSolver, "
                   "uniform start (each unit runs in one go: OpenSpiel's "
                   "restored CFR+ does not continue as CFR+)"),
))
