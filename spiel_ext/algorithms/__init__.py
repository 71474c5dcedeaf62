"""Solvers built on the engine, with OpenSpiel's solver interface.

Swap the import and nothing else::

    from spiel_ext.algorithms import cfr               # CFRSolver, CFRPlusSolver, DCFRSolver
    from spiel_ext.algorithms import discounted_cfr    # DCFRSolver, LCFRSolver
    from spiel_ext.algorithms import fictitious_play   # XFPSolver (GXFP, BUFP too)

or import the classes from here. The numba kernels compile on first use
(about 20 s once; the compiled code is cached on disk).
"""

from spiel_ext.algorithms.cfr import (CFRPlusSolver, CFRSolver, DCFRSolver,
                                      LCFRSolver)
from spiel_ext.algorithms.fictitious_play import (BUFPSolver,
                                                  FictitiousPlaySolver,
                                                  GXFPSolver, XFPSolver)
from spiel_ext.algorithms.pref_cfr import (FirstDecisions, PrefCFRSolver,
                                           preference_degrees,
                                           vulnerability_degrees)
from spiel_ext.algorithms.regret import RegretMinimizationSolver

__all__ = ["CFRSolver", "CFRPlusSolver", "DCFRSolver", "LCFRSolver",
           "PrefCFRSolver",
           "XFPSolver", "GXFPSolver", "BUFPSolver", "FictitiousPlaySolver",
           "FirstDecisions", "RegretMinimizationSolver", "preference_degrees",
           "vulnerability_degrees"]
