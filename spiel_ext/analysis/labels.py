"""Short, readable labels for game strings in figures and tables."""

from __future__ import annotations

import functools

import pyspiel


@functools.lru_cache(maxsize=None)
def game_label(game: str) -> str:
  """The game with only its non-default parameters:
  ``spiel_ext_leduc(ranks=5)`` for the full string of 5-rank Leduc,
  ``leduc_poker`` for ``leduc_poker()``."""
  try:
    loaded = pyspiel.load_game(game)
    name = loaded.get_type().short_name
    defaults = pyspiel.load_game(name).get_parameters()
  except pyspiel.SpielError:
    return game
  changed = {key: value for key, value in loaded.get_parameters().items()
             if defaults.get(key) != value}
  if not changed:
    return name
  inner = ",".join(f"{key}={value}" for key, value in sorted(changed.items()))
  return f"{name}({inner})"
