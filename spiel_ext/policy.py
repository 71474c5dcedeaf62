"""Strategy arrays <-> OpenSpiel policies.

A strategy array is [num_infosets, num_distinct_actions] with rows in the
compiled tree's infoset order, which is exactly the row order of
``open_spiel.python.policy.TabularPolicy(game)``; so converting to a
TabularPolicy is a copy, and a TabularPolicy built by OpenSpiel converts back
by taking its array as it is.

:func:`policy_to_array` accepts anything OpenSpiel calls a policy:
``policy.TabularPolicy`` (any row order, a subset of players is completed
from ``fallback``), any ``policy.Policy`` with ``action_probabilities(state,
player_id)``, pyspiel policies (``pyspiel.TabularPolicy``,
``pyspiel.UniformRandomPolicy``, ...), a callable ``state -> {action: prob}``
or ``[(action, prob), ...]``, a dict ``infostate key -> [(action, prob), ...]``
(the format of ``TabularPolicy.to_dict()``), or a numpy array in our layout.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any, Callable

import numpy as np
import pyspiel
from open_spiel.python import policy as openspiel_policy

from spiel_ext.engine import GameTree, compile_game

PolicyLike = Any

_TEMPLATES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class _LazyStates(Sequence):
  """TabularPolicy.states, rebuilt from the tree only when someone reads it."""

  def __init__(self, tree: GameTree):
    self._tree = tree

  def __len__(self) -> int:
    return self._tree.num_infosets

  def __getitem__(self, index):
    if isinstance(index, slice):
      return [self[i] for i in range(*index.indices(len(self)))]
    return self._tree.state(int(self._tree.infoset_history[index]))


def _template(tree: GameTree) -> openspiel_policy.TabularPolicy:
  template = _TEMPLATES.get(tree)
  if template is None:
    template = openspiel_policy.TabularPolicy.__new__(
        openspiel_policy.TabularPolicy)
    template.game = tree.game
    template.player_ids = list(range(tree.num_players))
    template.game_type = tree.game.get_type()
    template.state_lookup = tree.key_to_infoset
    template.states_per_player = [
        [tree.infoset_keys[i] for i in tree.infosets_of_player(player)]
        for player in range(tree.num_players)]
    template.states = _LazyStates(tree)
    template.state_in = None
    template.legal_actions_mask = tree.infoset_legal.astype(np.int64)
    _TEMPLATES[tree] = template
  return template


def to_tabular_policy(tree: GameTree | str | pyspiel.Game,
                      strategy: np.ndarray | None = None,
                      copy: bool = True) -> openspiel_policy.TabularPolicy:
  """A TabularPolicy holding ``strategy`` (uniform when None).

  The result has the keys and row layout OpenSpiel's own
  ``TabularPolicy(game)`` would have; ``state_in`` is None and ``states`` is
  rebuilt lazily from the tree when read. With ``copy=False`` the policy
  shares ``strategy``'s memory.
  """
  tree = compile_game(tree)
  if strategy is None:
    strategy = tree.uniform_policy()
  else:
    tree.check_policy(strategy, "strategy")
  result = _template(tree).__copy__(copy_action_probability_array=False)
  result.action_probability_array = (
      np.array(strategy, dtype=np.float64) if copy else strategy)
  return result


def policy_to_array(tree: GameTree | str | pyspiel.Game, policy: PolicyLike,
                    fallback: np.ndarray | None = None) -> np.ndarray:
  """Converts any OpenSpiel policy (see module docstring) to a strategy array.

  Args:
    tree: the compiled game (or a game / game string).
    policy: the policy.
    fallback: rows used for infosets a TabularPolicy or dict does not cover
      (OpenSpiel's own merge fills them uniformly). Without it a missing
      infoset is an error.

  Raises:
    ValueError: the policy belongs to another game or misses infosets.
  """
  tree = compile_game(tree)
  if isinstance(policy, np.ndarray):
    tree.check_policy(policy)
    return np.array(policy, dtype=np.float64)
  game = getattr(policy, "game", None)
  if isinstance(game, pyspiel.Game) and str(game) != tree.game_string:
    raise ValueError(f"policy is for game {game}, not {tree.game_string}.")
  if isinstance(policy, openspiel_policy.TabularPolicy):
    return _from_rows(tree, policy.state_lookup,
                      policy.action_probability_array, fallback)
  if isinstance(policy, dict):
    return _from_dict(tree, policy, fallback)
  return _from_callable(tree, _as_state_function(policy))


def _from_rows(tree: GameTree, lookup: dict[str, int], rows: np.ndarray,
               fallback: np.ndarray | None) -> np.ndarray:
  rows = np.asarray(rows, dtype=np.float64)
  if rows.ndim != 2 or rows.shape[1] != tree.num_distinct_actions:
    raise ValueError(f"policy has {rows.shape} action probabilities; "
                     f"{tree.game_string} needs {tree.num_distinct_actions} "
                     "columns.")
  if lookup is tree.key_to_infoset or lookup == tree.key_to_infoset:
    return rows.copy()
  index = np.fromiter((lookup.get(key, -1) for key in tree.infoset_keys),
                      dtype=np.int64, count=tree.num_infosets)
  missing = index < 0
  if missing.any():
    if fallback is None:
      _raise_missing(tree, np.flatnonzero(missing))
    result = np.array(fallback, dtype=np.float64)
    result[~missing] = rows[index[~missing]]
    return result
  return rows[index]


def _from_dict(tree: GameTree, table: dict, fallback) -> np.ndarray:
  result = (np.zeros((tree.num_infosets, tree.num_distinct_actions))
            if fallback is None else np.array(fallback, dtype=np.float64))
  found = np.zeros(tree.num_infosets, dtype=bool)
  for key, entries in table.items():
    row = tree.key_to_infoset.get(key)
    if row is None:
      continue
    found[row] = True
    result[row] = 0.0
    pairs = entries.items() if isinstance(entries, dict) else entries
    for action, prob in pairs:
      result[row, action] = prob
  if fallback is None and not found.all():
    _raise_missing(tree, np.flatnonzero(~found))
  return result


def _as_state_function(policy) -> Callable[[pyspiel.State, int], Any]:
  if isinstance(policy, openspiel_policy.Policy):
    return policy.action_probabilities
  if isinstance(policy, pyspiel.Policy):
    return lambda state, player: policy.action_probabilities(state)
  if callable(policy):
    return lambda state, player: policy(state)
  raise ValueError(
      "policy must be an OpenSpiel policy (policy.Policy, TabularPolicy, a "
      "pyspiel policy), a callable state -> {action: prob}, a dict infostate "
      f"key -> [(action, prob)] or a strategy array; got "
      f"{type(policy).__name__}.")


def _from_callable(tree: GameTree, state_policy) -> np.ndarray:
  result = np.zeros((tree.num_infosets, tree.num_distinct_actions))
  for row in range(tree.num_infosets):
    state = tree.state(int(tree.infoset_history[row]))
    probs = state_policy(state, int(tree.infoset_player[row]))
    pairs = probs.items() if isinstance(probs, dict) else probs
    for action, prob in pairs:
      result[row, action] = prob
  return result


def _raise_missing(tree: GameTree, rows: np.ndarray):
  examples = ", ".join(repr(tree.infoset_keys[r]) for r in rows[:3])
  raise ValueError(
      f"policy has no entry for {len(rows)} of the {tree.num_infosets} "
      f"infosets of {tree.game_string} (e.g. {examples}); is it a policy for "
      "this game? Pass fallback= to fill missing rows.")
