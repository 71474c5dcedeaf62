"""Solvers built on the engine, with OpenSpiel's solver interface.

Swap the import and nothing else::

    from spiel_ext.algorithms import cfr              # CFR, CFR+, DCFR
    from spiel_ext.algorithms import discounted_cfr   # DCFR, LCFR
    from spiel_ext.algorithms import fictitious_play  # XFP (GXFP, BUFP)

or import the classes from here: besides the four papers' solvers, the
baselines researchers compare against today (PCFR+, DCFR+, PDCFR+, MMD with
dilated entropy, external-sampling MCCFR).
Every solver's hyperparameters are its
``Config`` (``CFRSolver.Config``, ...), a frozen dataclass; constructors
take ``(game, config=None, **shortcuts)`` and every solver has the contract
of :mod:`spiel_ext.algorithms.protocol` (``state_dict()``, ``progress()``,
...). :class:`~spiel_ext.algorithms.openspiel.OpenSpielCFRAdapter` puts
OpenSpiel's own Python CFR behind the same contract. The numba kernels
compile on first use (about 20 s once; the compiled code is cached on
disk).
"""

from typing import TYPE_CHECKING

from spiel_ext._lazy import lazy_attributes

if TYPE_CHECKING:
  from spiel_ext.algorithms.cfr import (CFRConfig, CFRPlusConfig, CFRPlusSolver,
                                        CFRSolver, DCFRConfig, DCFRSolver,
                                        LCFRConfig, LCFRSolver)
  from spiel_ext.algorithms.dcfr_plus import (DCFRPlusConfig, DCFRPlusSolver,
                                              PDCFRPlusConfig, PDCFRPlusSolver)
  from spiel_ext.algorithms.external_sampling import (ExternalSamplingConfig,
                                                      ExternalSamplingSolver)
  from spiel_ext.algorithms.fictitious_play import (BUFPConfig, BUFPSolver,
                                                    FictitiousPlayConfig,
                                                    FictitiousPlaySolver,
                                                    GXFPConfig, GXFPSolver,
                                                    XFPConfig, XFPSolver)
  from spiel_ext.algorithms.mccfr import (ChanceSampledCFRConfig,
                                          ChanceSampledCFRSolver)
  from spiel_ext.algorithms.mmd import MMDConfig, MMDSolver
  from spiel_ext.algorithms.openspiel import (OpenSpielCFRAdapter,
                                              OpenSpielCFRConfig,
                                              OpenSpielCppCFRAdapter,
                                              OpenSpielCppCFRConfig)
  from spiel_ext.algorithms.pcfr_plus import PCFRPlusConfig, PCFRPlusSolver
  from spiel_ext.algorithms.pref_cfr import PrefCFRConfig, PrefCFRSolver
  from spiel_ext.algorithms.preferences import (FirstDecisions,
                                                preference_degrees,
                                                vulnerability_degrees)
  from spiel_ext.algorithms.protocol import Progress, SolverProtocol
  from spiel_ext.algorithms.regret import (RegretMinimizationConfig,
                                           RegretMinimizationSolver)

# Each name is imported from its module on first use (``from
# spiel_ext.algorithms import CFRSolver`` imports the CFR solvers only), so
# that importing one solver does not import all of them.
_NAMES_BY_MODULE = {
    "cfr": ["CFRConfig", "CFRPlusConfig", "CFRPlusSolver", "CFRSolver",
            "DCFRConfig", "DCFRSolver", "LCFRConfig", "LCFRSolver"],
    "dcfr_plus": ["DCFRPlusConfig", "DCFRPlusSolver", "PDCFRPlusConfig",
                  "PDCFRPlusSolver"],
    "external_sampling": ["ExternalSamplingConfig", "ExternalSamplingSolver"],
    "fictitious_play": ["BUFPConfig", "BUFPSolver", "FictitiousPlayConfig",
                        "FictitiousPlaySolver", "GXFPConfig", "GXFPSolver",
                        "XFPConfig", "XFPSolver"],
    "mccfr": ["ChanceSampledCFRConfig", "ChanceSampledCFRSolver"],
    "mmd": ["MMDConfig", "MMDSolver"],
    "openspiel": ["OpenSpielCFRAdapter", "OpenSpielCFRConfig",
                  "OpenSpielCppCFRAdapter", "OpenSpielCppCFRConfig"],
    "pcfr_plus": ["PCFRPlusConfig", "PCFRPlusSolver"],
    "pref_cfr": ["PrefCFRConfig", "PrefCFRSolver"],
    "preferences": ["FirstDecisions", "preference_degrees",
                    "vulnerability_degrees"],
    "protocol": ["Progress", "SolverProtocol"],
    "regret": ["RegretMinimizationConfig", "RegretMinimizationSolver"],
}
_LAZY = {name: f"{__name__}.{module}"
         for module, names in _NAMES_BY_MODULE.items() for name in names}

# The solver classes and helpers. The configs are importable from here too
# (and are each solver's ``Config``), as are the protocol's Progress and
# SolverProtocol.
__all__ = ["CFRSolver", "CFRPlusSolver", "DCFRSolver", "LCFRSolver",
           "PCFRPlusSolver", "DCFRPlusSolver", "PDCFRPlusSolver", "MMDSolver",
           "ExternalSamplingSolver",
           "ChanceSampledCFRSolver", "PrefCFRSolver",
           "XFPSolver", "GXFPSolver", "BUFPSolver", "FictitiousPlaySolver",
           "FirstDecisions", "RegretMinimizationSolver", "OpenSpielCFRAdapter",
           "OpenSpielCppCFRAdapter",
           "preference_degrees", "vulnerability_degrees"]


__getattr__, __dir__ = lazy_attributes(__name__, globals(), _LAZY)
