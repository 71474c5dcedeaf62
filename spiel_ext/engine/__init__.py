"""The engine: pyspiel games compiled once into flat arrays, plus shared passes.

    from spiel_ext.engine import compile_game
    tree = compile_game("leduc_poker")        # or a pyspiel.Game
    values = tree.values(tree.uniform_policy())
    view = tree.with_model(chance_prob, utility)   # a model of the game
    value, best, _ = view.best_response(policy, player=0)

Modules: :mod:`.game_tree` (the GameTree, a compiled tree with its checks
and views; the GameView, a tree with a model; both with the passes as
methods, written once in its PassMethods), the passes by family in
:mod:`.regret_passes`, :mod:`.response_passes` and :mod:`.belief_passes`,
:mod:`.model` (a game's numbers, checked once), :mod:`.inputs` (what the
passes take, and their argument checks), :mod:`.strategy` (the strategy
check), :mod:`.layout` (a tree's arrays, with the schedules of
:mod:`.schedules`), :mod:`.constants`, :mod:`.compiler` (pyspiel game to
arrays), :mod:`.native` (games that build their arrays from their rules),
:mod:`.admission` (what can be compiled and how large), :mod:`.loading`
(game strings), :mod:`.cache` and :mod:`.fingerprint` (the disk cache),
:mod:`.tree_checks` (the check of a tree read from it), and the numba
kernels in :mod:`.passes`, :mod:`.best_response` and :mod:`.beliefs`. The kernels are compiled by numba on first use (about 20 s
once; the compiled code is cached on disk).
"""

from __future__ import annotations

import pyspiel

from spiel_ext.checks import check_bool
from spiel_ext.engine import cache
from spiel_ext.engine.admission import (admit, check_compiled_size,
                                        check_max_histories,
                                        estimate_num_histories)
from spiel_ext.engine.compiler import compile_tree
from spiel_ext.engine.constants import CHANCE, STRATEGY_TOLERANCE, TERMINAL
from spiel_ext.engine.fingerprint import game_fingerprint
from spiel_ext.engine.game_tree import GameTree, GameView
from spiel_ext.engine.loading import load_game
from spiel_ext.engine.model import GameModel
from spiel_ext.engine.regret_passes import PlayerPass
from spiel_ext.engine.strategy import StrategyTypeError, check_strategy
from spiel_ext.engine.tree_checks import check_stored_tree

__all__ = ["CHANCE", "TERMINAL", "STRATEGY_TOLERANCE", "GameModel",
           "GameTree", "GameView", "PlayerPass", "StrategyTypeError",
           "check_strategy", "clear_compiled_trees", "compile_game",
           "estimate_num_histories", "load_game"]

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

  Returns:
    The compiled GameTree (``game`` itself if it is one).

  Raises:
    TypeError: ``game``, ``use_cache`` or ``max_histories`` of a wrong type.
    ValueError: unknown game, a game type the engine cannot handle
      (simultaneous moves, sampled chance, imperfect recall), a chance node
      whose probabilities are not a distribution, a game too large for
      ``max_histories``, or ``max_histories`` < 1.
  """
  check_bool("use_cache", use_cache)
  if max_histories is not None:
    max_histories = check_max_histories(max_histories)
  if isinstance(game, GameTree):
    check_compiled_size(game.game, game.num_histories, max_histories)
    return game
  game = load_game(game)
  game_string = str(game)
  tree = _MEMO.get(game_string) if use_cache else None
  if tree is None or type(tree.game) is not type(game):
    tree = _load_or_build(game, bool(use_cache), max_histories)
    _MEMO.pop(game_string, None)
    if len(_MEMO) >= _MEMO_LIMIT:
      _MEMO.pop(next(iter(_MEMO)))
    _MEMO[game_string] = tree
  else:
    check_compiled_size(game, tree.num_histories, max_histories)
  return tree


def _load_or_build(game: pyspiel.Game, use_cache: bool,
                   max_histories: int | None) -> GameTree:
  """The tree from the disk cache (signed and checked as a tree of
  ``game``, see :mod:`spiel_ext.engine.cache`), else admitted, compiled and
  stored."""
  game_string = str(game)
  fingerprint = game_fingerprint(game) if cache.cache_dir() else None
  if use_cache and fingerprint is not None:
    stored = cache.load(
        game_string, fingerprint,
        check=lambda arrays, keys: check_stored_tree(game, arrays, keys))
    if stored is not None:
      arrays, keys = stored
      check_compiled_size(game, len(arrays["parent"]), max_histories)
      return GameTree(game, arrays, keys)
  tree = compile_tree(game, admit(game, max_histories))
  if fingerprint is not None:
    cache.save(game_string, fingerprint, tree.arrays(), tree.infoset_keys)
  return tree


def clear_compiled_trees() -> None:
  """Forgets the trees memoised in this process (the disk cache stays)."""
  _MEMO.clear()
