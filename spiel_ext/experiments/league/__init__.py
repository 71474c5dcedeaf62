"""The solver league: every solver of the package on seven games, on one
clock (``spiel-ext --experiment=solver_league``).

- :mod:`.algorithms`: the league's entries (each solver from the uniform
  start with its paper's defaults, MMD's last iterate, OpenSpiel's C++
  CFR+ as a reference) and their labels.
- :mod:`.settings`: its games, scales, the reference's iteration caps and
  its settings table.
- :mod:`.solver_league`: the declaration and its claims (Farina, Kroer,
  Sandholm, AAAI 2021; Xu et al., IJCAI 2024; Sokota et al., ICLR 2023).
"""

from spiel_ext.experiments.league.algorithms import (LABELS,
                                                     LEAGUE_ALGORITHMS,
                                                     LEAGUE_ORDER)
from spiel_ext.experiments.league.solver_league import SOLVER_LEAGUE

__all__ = ["LABELS", "LEAGUE_ALGORITHMS", "LEAGUE_ORDER", "SOLVER_LEAGUE"]
