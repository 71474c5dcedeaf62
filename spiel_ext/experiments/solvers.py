"""Every algorithm the experiments can run, by id.

Each paper's experiments declare their entries next to them
(``spiel_ext.experiments.<paper>.algorithms``); the ones several papers
share are in :mod:`spiel_ext.experiments.common_algorithms`. An entry
(:class:`~spiel_ext.experiments.entries.AlgorithmEntry`) references its
solver class or builder and config directly; this module only collects them
and checks what a run asks for.
"""

from __future__ import annotations

import importlib.util

from spiel_ext.experiments.bufp.algorithms import BUFP_ALGORITHMS
from spiel_ext.experiments.common_algorithms import (COMMON_ALGORITHMS,
                                                     GXFP_EPSILON,
                                                     build_openspiel_cfr)
from spiel_ext.experiments.entries import AlgorithmEntry, registry
from spiel_ext.experiments.gxfp.algorithms import GXFP_ALGORITHMS
from spiel_ext.experiments.league.algorithms import LEAGUE_ALGORITHMS
from spiel_ext.experiments.pref_cfr.algorithms import (
    PREF_CFR_ALGORITHMS, PREF_CFR_KUHN_SETTING_LIST, PREF_CFR_KUHN_SETTINGS,
    STYLE_ALGORITHMS, STYLE_DEGREE, STYLE_VULNERABILITY, STYLES,
    build_first_decision_pref_cfr, build_style_solver, is_raise,
    style_preference)
from spiel_ext.experiments.vcfr.algorithms import (LEARNER_ALGORITHMS,
                                                   REPLICATE_SEED_SHIFT,
                                                   build_replicate)

ALGORITHMS: dict[str, AlgorithmEntry] = registry(
    COMMON_ALGORITHMS, PREF_CFR_ALGORITHMS, BUFP_ALGORITHMS, GXFP_ALGORITHMS,
    tuple(LEARNER_ALGORITHMS.values()), LEAGUE_ALGORITHMS)

_EXTRA_MODULES = {"bnn": "torch"}


def check_algorithms(names) -> None:
  """ValueError for an unknown name; ImportError naming the extra for one
  whose optional packages are missing (before any run starts)."""
  unknown = [name for name in names if name not in ALGORITHMS]
  if unknown:
    raise ValueError(f"unknown algorithm(s) {unknown}; accepted: "
                     f"{sorted(ALGORITHMS)}.")
  for name in names:
    extra = ALGORITHMS[name].extra
    if extra and importlib.util.find_spec(_EXTRA_MODULES[extra]) is None:
      raise ImportError(
          f"algorithm {name!r} needs the optional extra {extra!r} "
          f"({_EXTRA_MODULES[extra]}): pip install -e \".[{extra}]\" (or "
          f"pip install \"spiel-ext[{extra}]\"), or leave it out with "
          "--algorithms.")


def game_string(game: str) -> str:
  """The canonical game string (``leduc_poker()``); our games are
  registered by ``import spiel_ext``.

  Raises:
    ValueError: an unknown game or bad parameters, in one line (never
      pyspiel's list of every registered game).
  """
  from spiel_ext.engine import load_game  # pylint: disable=g-import-not-at-top
  return str(load_game(game))


__all__ = ["ALGORITHMS", "AlgorithmEntry", "GXFP_EPSILON",
           "LEARNER_ALGORITHMS", "PREF_CFR_KUHN_SETTINGS",
           "PREF_CFR_KUHN_SETTING_LIST", "REPLICATE_SEED_SHIFT",
           "STYLES", "STYLE_ALGORITHMS", "STYLE_DEGREE",
           "STYLE_VULNERABILITY", "build_first_decision_pref_cfr",
           "build_openspiel_cfr", "build_replicate", "build_style_solver",
           "check_algorithms", "game_string", "is_raise",
           "style_preference"]
