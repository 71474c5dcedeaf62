"""Discounted and Linear CFR under OpenSpiel's module name.

    from spiel_ext.algorithms import discounted_cfr
    # was: from open_spiel.python.algorithms import discounted_cfr
    solver = discounted_cfr.DCFRSolver(game, alpha=3 / 2, beta=0, gamma=2)

Noam Brown, Tuomas Sandholm, "Solving Imperfect-Information Games via
Discounted Regret Minimization", AAAI 2019, arXiv:1809.04040. The solvers
are defined in :mod:`spiel_ext.algorithms.cfr`.
"""

from spiel_ext.algorithms.cfr import DCFRSolver, LCFRSolver

__all__ = ["DCFRSolver", "LCFRSolver"]
