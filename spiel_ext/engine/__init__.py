"""The engine: pyspiel games compiled once into flat arrays, plus shared passes.

    from spiel_ext.engine import compile_game
    tree = compile_game("leduc_poker")        # or a pyspiel.Game
    values = tree.values(tree.uniform_policy())

Modules: :mod:`.layout` (the GameTree and its passes), :mod:`.compiler`
(pyspiel game to arrays), :mod:`.admission` (what can be compiled and how
large), :mod:`.loading` (game strings), :mod:`.cache` and
:mod:`.fingerprint` (the disk cache), and the numba kernels in
:mod:`.passes`, :mod:`.best_response` and :mod:`.beliefs`. The kernels are
compiled by numba on first use (about 20 s once; the compiled code is cached
on disk).
"""

from __future__ import annotations

import numpy as np
import pyspiel

from spiel_ext.engine import cache
from spiel_ext.engine.admission import (SizeLimit, check_game_type,
                                        check_max_histories,
                                        estimate_num_histories)
from spiel_ext.engine.compiler import compile_tree
from spiel_ext.engine.fingerprint import game_fingerprint
from spiel_ext.engine.layout import CHANCE, TERMINAL, GameTree, PlayerPass
from spiel_ext.engine.loading import load_game

__all__ = ["CHANCE", "TERMINAL", "GameTree", "PlayerPass", "compile_game",
           "load_game", "estimate_num_histories", "clear_compiled_trees"]

# Trees compiled in this process by game string. A tree is used only for a
# game of the class it was compiled from: a Python game class that is
# redefined (a reloaded module) gets a new tree.
_MEMO: dict[str, GameTree] = {}
_MEMO_LIMIT = 8


def compile_game(game: str | pyspiel.Game | GameTree, *,
                 use_cache: bool = True,
                 max_histories: int | None = None) -> GameTree:
  """Compiles ``game`` into a GameTree (memoised, and cached on disk).

  A tree is kept in memory for the process (the last 8 games) and on disk
  (see :mod:`spiel_ext.engine.cache`) under a key that changes whenever the
  game could have: its string, spiel_ext's, OpenSpiel's and numpy's
  versions, and for a game written in Python the source of its classes. A
  Python game whose source cannot be found is kept in memory only.

  Args:
    game: a pyspiel.Game, a game string, or an already compiled GameTree.
    use_cache: True to reuse the tree kept in memory or on disk. False
      rebuilds the tree from the game and stores the fresh tree in memory
      and (unless the disk cache is turned off) on disk, replacing any
      stale one.
    max_histories: refuse games with more histories than this; None: refuse
      games whose tree would not fit in half the available memory. Checked
      before building (from random walks), while building, and against a
      tree that is already in memory or on disk.

  Raises:
    TypeError: ``game``, ``use_cache`` or ``max_histories`` of a wrong type.
    ValueError: unknown game, a game type the engine cannot handle
      (simultaneous moves, sampled chance, imperfect recall), a chance node
      whose probabilities are not a distribution, a game too large for
      ``max_histories``, or ``max_histories`` < 1.
  """
  if use_cache is not True and use_cache is not False and not isinstance(
      use_cache, np.bool_):
    raise TypeError(f"use_cache must be True or False; got {use_cache!r}.")
  if max_histories is not None:
    max_histories = check_max_histories(max_histories)
  if isinstance(game, GameTree):
    tree = game
  else:
    game = load_game(game)
    game_string = str(game)
    tree = _MEMO.get(game_string) if use_cache else None
    if tree is None or type(tree.game) is not type(game):
      tree = _build(game, bool(use_cache), max_histories)
      _MEMO.pop(game_string, None)
      if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.pop(next(iter(_MEMO)))
      _MEMO[game_string] = tree
  if max_histories is not None and tree.num_histories > max_histories:
    SizeLimit(max_histories, 0).check_tree(tree.game, tree.num_histories)
  return tree


def _build(game: pyspiel.Game, use_cache: bool,
           max_histories: int | None) -> GameTree:
  """The tree from the disk cache, else compiled (and then stored)."""
  check_game_type(game)
  game_string = str(game)
  limit = SizeLimit.for_request(max_histories)
  fingerprint = game_fingerprint(game) if cache.cache_dir() else None
  if use_cache and fingerprint is not None:
    stored = cache.load(game_string, fingerprint)
    if stored is not None:
      arrays, keys = stored
      limit.check_tree(game, len(arrays["parent"]))
      return GameTree(game, arrays, keys)
  cap = limit.history_cap(game.num_players())
  limit.check_estimate(game, estimate_num_histories(game, stop_above=cap))
  tree = compile_tree(game, limit)
  if fingerprint is not None:
    cache.save(game_string, fingerprint, tree.arrays(), tree.infoset_keys)
  return tree


def clear_compiled_trees() -> None:
  """Forgets the trees memoised in this process (the disk cache stays)."""
  _MEMO.clear()
