"""The named experiments ``run_experiments.py --experiment=NAME`` offers.

Each is a short declaration (:class:`spec.Experiment`) in its own module;
:data:`EXPERIMENTS` lists them by name.
"""

# Every paper's algorithm entries first, in the registry's order.
from spiel_ext.experiments import solvers  # pylint: disable=unused-import
from spiel_ext.experiments.bufp import BUFP_CONVERGENCE, BUFP_TABLES
from spiel_ext.experiments.gxfp import (GXFP_CONVERGENCE, GXFP_VNM_ASYMMETRIC,
                                        GXFP_VNM_RAISE)
from spiel_ext.experiments.league import SOLVER_LEAGUE
from spiel_ext.experiments.pref_cfr import (
    PREF_CFR_KUHN_ALPHA, PREF_CFR_KUHN_SETTINGS_EXPERIMENT, PREF_CFR_STYLES)
from spiel_ext.experiments.quickstart import QUICKSTART
from spiel_ext.experiments.vcfr import (VCFR_ABLATIONS, VCFR_INFORMATION,
                                        VCFR_UNKNOWN_ENV)
from spiel_ext.experiments.spec import (SCALES, Experiment, Outputs, Scale,
                                        Settings, run_experiment,
                                        run_experiments, settings_for,
                                        write_reproduction_report)

EXPERIMENTS: dict[str, Experiment] = {
    experiment.name: experiment for experiment in [QUICKSTART, BUFP_CONVERGENCE,
                                       BUFP_TABLES, PREF_CFR_KUHN_ALPHA,
                                       PREF_CFR_KUHN_SETTINGS_EXPERIMENT,
                                       GXFP_VNM_ASYMMETRIC, GXFP_VNM_RAISE,
                                       GXFP_CONVERGENCE, PREF_CFR_STYLES,
                                       VCFR_UNKNOWN_ENV, VCFR_ABLATIONS,
                                       VCFR_INFORMATION, SOLVER_LEAGUE]
}

# What --experiment=all runs: the quickstart and the papers' experiments.
REPRODUCTION: tuple[str, ...] = tuple(
    name for name in EXPERIMENTS if name != SOLVER_LEAGUE.name)

__all__ = ["EXPERIMENTS", "REPRODUCTION", "SCALES", "Experiment", "Outputs",
           "Scale", "Settings", "run_experiment", "run_experiments",
           "settings_for", "write_reproduction_report"]
