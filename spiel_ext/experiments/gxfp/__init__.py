"""The GXFP paper's experiments on von Neumann-Morgenstern poker (Tim P.
Schulze, "A Generalized Extensive-Form Fictitious Play Algorithm", 2023,
arXiv:2310.09658).

- ``gxfp_vnm_asymmetric`` (:mod:`.vnm_asymmetric`): Figure 1, the
  asymmetric game's strategies and action values vs hand, perturbed and
  not, against the continuous thresholds.
- ``gxfp_vnm_raise`` (:mod:`.vnm_raise`): Figures 2-3, the raise variant's
  strategies vs hand, unperturbed GXFP and perturbed XFP vs GXFP.
- ``gxfp_convergence`` (:mod:`.convergence`): Figures 4-5, value and
  NashConv vs iterations for CFR, XFP and GXFP, and the paper's side
  remarks (alternating updates, cost per iteration, integer counting).

Each figure runs all its algorithms on one update schedule, once per
schedule (:data:`.paper_values.SCHEDULES`, :func:`.paper_values.
schedule_roles`); :func:`.timing.time_alone` times solvers one at a time.

Everything of the paper is in this package: the algorithm entries
(:mod:`.algorithms`), what the experiments share (:mod:`.paper_values`,
:mod:`.shared`), the settings tables and sizes (:mod:`.settings`), the
measures behind each figure's claims (:mod:`.measures_asymmetric`,
:mod:`.measures_raise`, :mod:`.measures_convergence`), the figures and
tables (:mod:`.figures`) and the three declarations, built by
:mod:`.declare`.
"""

from spiel_ext.experiments.gxfp.convergence import GXFP_CONVERGENCE
from spiel_ext.experiments.gxfp.paper_values import SCHEDULES, schedule_roles
from spiel_ext.experiments.gxfp.timing import time_alone
from spiel_ext.experiments.gxfp.vnm_asymmetric import GXFP_VNM_ASYMMETRIC
from spiel_ext.experiments.gxfp.vnm_raise import GXFP_VNM_RAISE

__all__ = ["GXFP_CONVERGENCE", "GXFP_VNM_ASYMMETRIC", "GXFP_VNM_RAISE",
           "SCHEDULES", "schedule_roles", "time_alone"]
