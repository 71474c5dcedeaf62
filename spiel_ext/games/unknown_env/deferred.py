"""The unknown-environment names that need the engine, loaded on first use.

Importing the games (as ``import spiel_ext`` does) registers
``spiel_ext_unknown_env`` without importing the engine. The names below
need it: :mod:`.game` and the package reach them as attributes of this
module, which imports the module that holds a name the first time it is
read (a module ``__getattr__``) and keeps it. So the engine is imported
when the first unknown-environment game is created, or when one of these
names is first read.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["NAMES"]

# The names that need the engine, by the module that holds them.
NAMES = {
    "HiddenParameters": "spiel_ext.games.unknown_env.hidden",
    "base_tree_for": "spiel_ext.games.unknown_env.hidden",
    "Environment": "spiel_ext.games.unknown_env.learner",
    "Episode": "spiel_ext.games.unknown_env.learner",
    "CHANCE": "spiel_ext.engine",
    "TERMINAL": "spiel_ext.engine",
    "STRATEGY_TOLERANCE": "spiel_ext.engine",
}


def __getattr__(name: str) -> Any:
  if name not in NAMES:
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
  value = getattr(importlib.import_module(NAMES[name]), name)
  globals()[name] = value
  return value


def __dir__() -> list[str]:
  return sorted(set(globals()) | set(NAMES))
