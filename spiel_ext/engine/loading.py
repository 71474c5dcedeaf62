"""Game strings to pyspiel games, with one-line errors.

An unknown name is caught before pyspiel sees it (pyspiel's own error lists
every registered game) and answered with the nearest registered names.
"""

from __future__ import annotations

import difflib
import re

import pyspiel

from spiel_ext.engine.layout import GameTree

# The registered names as last read; refreshed when a name is missing, since
# Python games can be registered at any time.
_known_names: frozenset[str] = frozenset()
# A game given as a parameter: "=name(".
_NESTED_NAME = re.compile(r"=\s*([A-Za-z_]\w*)\s*\(")


def _is_registered(name: str) -> bool:
  global _known_names
  if name in _known_names:
    return True
  _known_names = frozenset(pyspiel.registered_names())
  return name in _known_names


def unknown_game_message(name: str) -> str:
  """One line saying ``name`` is not a registered game, with suggestions."""
  message = f"unknown game {name!r}"
  close = difflib.get_close_matches(name, sorted(_known_names), n=1)
  if close:
    message += f"; did you mean {close[0]!r}?"
  if name.startswith("spiel_ext_"):
    ours = sorted(n for n in _known_names if n.startswith("spiel_ext_"))
    message += (" spiel_ext's games are registered by `import spiel_ext` ("
                + (", ".join(ours) if ours else "none is registered yet")
                + ").")
  else:
    message += " (pyspiel.registered_names() lists the games)."
  return message


def load_game(game: str | pyspiel.Game | GameTree) -> pyspiel.Game:
  """A pyspiel.Game from a game, a compiled tree or a game string.

  Raises:
    TypeError: ``game`` is none of these.
    ValueError: an unknown game name or bad parameters, in one line.
  """
  if isinstance(game, pyspiel.Game):
    return game
  if isinstance(game, GameTree):
    return game.game
  if not isinstance(game, str):
    raise TypeError(f"game must be a pyspiel.Game, a compiled GameTree or a "
                    f"game string such as 'leduc_poker'; got "
                    f"{type(game).__name__}.")
  names = [game.split("(", 1)[0].strip()]
  if game.count("(") > 1:  # Nested games: game=name(...).
    names += _NESTED_NAME.findall(game)
  for name in names:
    if not _is_registered(name):
      raise ValueError(f"cannot load game: {unknown_game_message(name)}")
  try:
    return pyspiel.load_game(game)
  except (pyspiel.SpielError, RuntimeError) as error:
    reason = " ".join(str(error).split())
    raise ValueError(f"cannot load game {game!r}: {reason}") from None
