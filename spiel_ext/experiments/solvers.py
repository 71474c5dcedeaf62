"""Every algorithm the experiments can run, by id.

Each paper's experiments declare their entries next to them
(``spiel_ext.experiments.<paper>.algorithms``); the ones several papers
share are in :mod:`spiel_ext.experiments.common_algorithms`. An entry
(:class:`~spiel_ext.experiments.entries.AlgorithmEntry`) references its
solver class or builder and config directly, and its module adds it to the
one registry, :data:`~spiel_ext.experiments.entries.ALGORITHMS`. This module
imports every paper's entries, so that the registry is complete, and
re-exports the names scripts use.
"""

from __future__ import annotations

# pylint: disable=unused-import
from spiel_ext.experiments.common_algorithms import (GXFP_EPSILON,
                                                     build_openspiel_cfr)
from spiel_ext.experiments.pref_cfr.algorithms import (
    PREF_CFR_KUHN_SETTING_LIST, PREF_CFR_KUHN_SETTINGS, STYLE_ALGORITHMS,
    STYLE_DEGREE, STYLE_VULNERABILITY, STYLES, build_first_decision_pref_cfr,
    build_style_solver, is_raise, style_preference)
from spiel_ext.experiments.bufp import algorithms as _bufp
from spiel_ext.experiments.gxfp import algorithms as _gxfp
from spiel_ext.experiments.vcfr.algorithms import (LEARNER_ALGORITHMS,
                                                   REPLICATE_SEED_SHIFT,
                                                   build_replicate)
from spiel_ext.experiments.league import algorithms as _league
from spiel_ext.experiments.entries import (ALGORITHMS, AlgorithmEntry,
                                           check_algorithms)
from spiel_ext.experiments.settings import game_string

__all__ = ["ALGORITHMS", "AlgorithmEntry", "GXFP_EPSILON",
           "LEARNER_ALGORITHMS", "PREF_CFR_KUHN_SETTINGS",
           "PREF_CFR_KUHN_SETTING_LIST", "REPLICATE_SEED_SHIFT",
           "STYLES", "STYLE_ALGORITHMS", "STYLE_DEGREE",
           "STYLE_VULNERABILITY", "build_first_decision_pref_cfr",
           "build_openspiel_cfr", "build_replicate", "build_style_solver",
           "check_algorithms", "game_string", "is_raise",
           "style_preference"]
