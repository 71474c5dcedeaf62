"""The engine: pyspiel games compiled once into flat arrays, plus shared passes.

    from spiel_ext.engine import compile_game
    tree = compile_game("leduc_poker")        # or a pyspiel.Game
    values = tree.values(tree.uniform_policy())

Trees are memoised per game string in this process and cached on disk (see
:mod:`spiel_ext.engine.cache`).
"""

from __future__ import annotations

import pyspiel

from spiel_ext.engine import cache
from spiel_ext.engine.tree import (CHANCE, TERMINAL, GameTree, check_game_type,
                                   default_max_histories,
                                   estimate_num_histories, too_large_error,
                                   walk_game)

__all__ = ["CHANCE", "TERMINAL", "GameTree", "compile_game", "load_game",
           "estimate_num_histories", "clear_compiled_trees"]

_MEMO: dict[str, GameTree] = {}
_MEMO_LIMIT = 8


def load_game(game: str | pyspiel.Game) -> pyspiel.Game:
  """A pyspiel.Game from a game or a game string, with a clear error."""
  if isinstance(game, pyspiel.Game):
    return game
  if isinstance(game, GameTree):
    return game.game
  if not isinstance(game, str):
    raise ValueError(f"game must be a pyspiel.Game or a game string such as "
                     f"'leduc_poker'; got {type(game).__name__}.")
  if game.startswith("spiel_ext_"):
    import spiel_ext.games  # pylint: disable=g-import-not-at-top,unused-import
  try:
    return pyspiel.load_game(game)
  except (pyspiel.SpielError, RuntimeError) as error:
    raise ValueError(f"cannot load game {game!r}: {error}. Registered games: "
                     "pyspiel.registered_names().") from error


def compile_game(game: str | pyspiel.Game | GameTree, *,
                 use_cache: bool = True,
                 max_histories: int | None = None) -> GameTree:
  """Compiles ``game`` into a GameTree (memoised, and cached on disk).

  Args:
    game: a pyspiel.Game, a game string, or an already compiled GameTree.
    use_cache: read and write the on-disk cache.
    max_histories: refuse games with more histories than this (default: what
      fits in half the available memory). The size is estimated by random
      walks before anything is built, and counted while building.

  Raises:
    ValueError: unknown game, a game type the engine cannot handle
      (simultaneous moves, sampled chance, imperfect recall) or a game too
      large for ``max_histories``.
  """
  if isinstance(game, GameTree):
    return game
  game = load_game(game)
  game_string = str(game)
  tree = _MEMO.get(game_string)
  if tree is not None:
    return tree
  check_game_type(game)
  cached = cache.load(game_string) if use_cache else None
  if cached is not None:
    arrays, keys = cached
    tree = GameTree(game, arrays, keys)
  else:
    limit = default_max_histories() if max_histories is None else max_histories
    estimate = estimate_num_histories(game)
    if estimate > limit:
      raise too_large_error(game, estimate, limit, "an estimated")
    tree = walk_game(game, limit)
    if use_cache:
      cache.save(game_string, tree.arrays(), tree.infoset_keys)
  if len(_MEMO) >= _MEMO_LIMIT:
    _MEMO.pop(next(iter(_MEMO)))
  _MEMO[game_string] = tree
  return tree



def clear_compiled_trees() -> None:
  """Forgets the trees memoised in this process (the disk cache stays)."""
  _MEMO.clear()
