"""CFR, CFR+ and DCFR as drop-in replacements for OpenSpiel's solvers.

- CFRSolver: Zinkevich et al. 2007, with alternating updates as OpenSpiel's
  ``cfr.CFRSolver`` (regret matching, uniform average weights).
- CFRPlusSolver: Tammelin 2014 (regret matching+, linear averaging,
  alternating updates), as OpenSpiel's ``cfr.CFRPlusSolver``.
- DCFRSolver: Brown & Sandholm 2019, "Solving Imperfect-Information Games via
  Discounted Regret Minimization", section 3 (alpha = 1.5, beta = 0,
  gamma = 2), as OpenSpiel's ``discounted_cfr.DCFRSolver``.

Each is a choice of rules for :class:`RegretMinimizationSolver`.
"""

from __future__ import annotations

from spiel_ext.algorithms.regret import (DiscountedRegrets, PlainRegrets,
                                         PlusRegrets, PowerAveraging,
                                         RegretMatching,
                                         RegretMinimizationSolver,
                                         check_dcfr_parameters)


class CFRSolver(RegretMinimizationSolver):
  """Vanilla CFR; matches ``open_spiel.python.algorithms.cfr.CFRSolver``."""

  def __init__(self, game, *, alternating_updates: bool = True,
               random_init: bool = False, seed: int | None = 0):
    super().__init__(game, regret_rule=PlainRegrets(),
                     averaging=PowerAveraging(0.0),
                     strategy_rule=RegretMatching(),
                     alternating_updates=alternating_updates,
                     random_init=random_init, seed=seed)


class CFRPlusSolver(RegretMinimizationSolver):
  """CFR+; matches ``open_spiel.python.algorithms.cfr.CFRPlusSolver``."""

  def __init__(self, game, *, alternating_updates: bool = True,
               random_init: bool = False, seed: int | None = 0):
    super().__init__(game, regret_rule=PlusRegrets(),
                     averaging=PowerAveraging(1.0),
                     strategy_rule=RegretMatching(),
                     alternating_updates=alternating_updates,
                     random_init=random_init, seed=seed)


class DCFRSolver(RegretMinimizationSolver):
  """Discounted CFR; matches ``discounted_cfr.DCFRSolver``."""

  def __init__(self, game, *, alpha: float = 1.5, beta: float = 0.0,
               gamma: float = 2.0, alternating_updates: bool = True,
               random_init: bool = False, seed: int | None = 0):
    alpha, beta, gamma = check_dcfr_parameters(alpha, beta, gamma)
    super().__init__(game, regret_rule=DiscountedRegrets(alpha, beta),
                     averaging=PowerAveraging(gamma),
                     strategy_rule=RegretMatching(),
                     alternating_updates=alternating_updates,
                     random_init=random_init, seed=seed, alpha=alpha,
                     beta=beta, gamma=gamma)
