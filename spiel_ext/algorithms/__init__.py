"""Solvers built on the engine, with OpenSpiel's solver interface.

Swap the import and nothing else::

    from spiel_ext.algorithms import cfr              # CFR, CFR+, DCFR
    from spiel_ext.algorithms import discounted_cfr   # DCFR, LCFR
    from spiel_ext.algorithms import fictitious_play  # XFP (GXFP, BUFP)

or import the classes from here. The numba kernels compile on first use
(about 20 s once; the compiled code is cached on disk).
"""

from spiel_ext.algorithms.cfr import (CFRPlusSolver, CFRSolver, DCFRSolver,
                                      LCFRSolver)
from spiel_ext.algorithms.fictitious_play import (BUFPSolver,
                                                  FictitiousPlaySolver,
                                                  GXFPSolver, XFPSolver)
from spiel_ext.algorithms.mccfr import ChanceSampledCFRSolver
from spiel_ext.algorithms.pref_cfr import (FirstDecisions, PrefCFRSolver,
                                           preference_degrees,
                                           vulnerability_degrees)
from spiel_ext.algorithms.regret import RegretMinimizationSolver

__all__ = ["CFRSolver", "CFRPlusSolver", "DCFRSolver", "LCFRSolver",
           "ChanceSampledCFRSolver", "PrefCFRSolver",
           "XFPSolver", "GXFPSolver", "BUFPSolver", "FictitiousPlaySolver",
           "FirstDecisions", "RegretMinimizationSolver", "preference_degrees",
           "vulnerability_degrees"]
