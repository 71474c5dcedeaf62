"""The solvers' argument checks: a re-export of :mod:`spiel_ext.checks`.

The checks live in :mod:`spiel_ext.checks` (shared with the games, the
engine, the policies and the evaluators); this module keeps the names the
solvers import from here.
"""

from __future__ import annotations

from spiel_ext.checks import (MAX_SEED, check_bool, check_choice,
                              check_hyperparameters, check_int, check_integer,
                              check_methods, check_real, check_seed,
                              is_integer, is_real, short_repr)

__all__ = ["MAX_SEED", "check_bool", "check_choice", "check_hyperparameters",
           "check_int", "check_integer", "check_methods", "check_real",
           "check_seed", "is_integer", "is_real", "short_repr"]
