"""Solvers built on the engine, with OpenSpiel's solver interface.

    from spiel_ext.algorithms import CFRSolver      # instead of cfr.CFRSolver
"""

from spiel_ext.algorithms.cfr import CFRPlusSolver, CFRSolver, DCFRSolver
from spiel_ext.algorithms.fictitious_play import (BUFPSolver,
                                                  FictitiousPlaySolver,
                                                  GXFPSolver, XFPSolver)
from spiel_ext.algorithms.pref_cfr import (FirstDecisions, PrefCFRSolver,
                                           preference_degrees,
                                           vulnerability_degrees)
from spiel_ext.algorithms.regret import RegretMinimizationSolver

__all__ = ["CFRSolver", "CFRPlusSolver", "DCFRSolver", "PrefCFRSolver",
           "XFPSolver", "GXFPSolver", "BUFPSolver", "FictitiousPlaySolver",
           "FirstDecisions", "RegretMinimizationSolver", "preference_degrees",
           "vulnerability_degrees"]
