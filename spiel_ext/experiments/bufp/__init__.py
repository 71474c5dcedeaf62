"""The BUFP paper's experiments (Qi Ju, Zhemei Fang, Yunfeng Luo, "Beyond
Nash Equilibrium: Achieving Bayesian Perfect Equilibrium with Belief Update
Fictitious Play", DDCLS 2024, arXiv:2409.02706).

- ``bufp_convergence`` (:mod:`.convergence`): Figures 1-2, NashConv and the
  perfect-Bayesian gap against iterations on Kuhn and Leduc.
- ``bufp_tables`` (:mod:`.tables`): Tables 1-2, 5-rank Leduc head-to-head
  at the root and with player 1 forced to Call, and section 5.2's
  percentages.

Everything of the paper is in this package: the algorithm entries
(:mod:`.algorithms`), the paper's numbers (:mod:`.paper_values`), the
settings tables and variants (:mod:`.settings`), the head-to-head tables
from saved strategies (:mod:`.head_to_head`), the claims' measures
(:mod:`.measures_convergence`, :mod:`.measures_tables`), the figures and
tables (:mod:`.figures`) and the two declarations.
"""

from spiel_ext.experiments.bufp.convergence import BUFP_CONVERGENCE
from spiel_ext.experiments.bufp.tables import BUFP_TABLES

__all__ = ["BUFP_CONVERGENCE", "BUFP_TABLES"]
