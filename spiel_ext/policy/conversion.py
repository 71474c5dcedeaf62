"""Any OpenSpiel policy to a strategy array in the compiled tree's layout.

:func:`policy_to_array` accepts anything OpenSpiel calls a policy:
``policy.TabularPolicy`` (any row order, a subset of players is completed
from ``fallback``), any ``policy.Policy`` with ``action_probabilities(state,
player_id)``, pyspiel policies (``pyspiel.TabularPolicy``,
``pyspiel.UniformRandomPolicy``, ...), a callable ``state -> {action: prob}``
or ``[(action, prob), ...]``, a dict ``infostate key -> [(action, prob), ...]``
(the format of ``TabularPolicy.to_dict()``), or a numpy array in our layout.

:func:`as_strategy` converts and then checks that the result is a strategy
(:func:`spiel_ext.engine.check_strategy`). The evaluators and the solvers'
``initial_policy`` take policies through it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Callable, NoReturn

import numpy as np
import pyspiel
from open_spiel.python import policy as openspiel_policy

from spiel_ext.checks import is_integer, is_real
from spiel_ext.engine import GameTree, check_strategy, compile_game

__all__ = ["PolicyLike", "as_strategy", "policy_to_array"]

# Anything :func:`policy_to_array` accepts (see the module docstring).
PolicyLike = Any


def as_strategy(tree: GameTree, policy: PolicyLike,
                name: str = "policy") -> np.ndarray:
  """Any policy :func:`policy_to_array` accepts, checked to be a strategy
  (:func:`spiel_ext.engine.check_strategy`). An array that already is one
  is returned as is (not copied).

  Args:
    tree: the compiled game.
    policy: any policy :func:`policy_to_array` accepts.
    name: what to call the policy in error messages.

  Returns:
    The strategy, a float64 [num_infosets, num_distinct_actions] array.

  Raises:
    ValueError: the policy cannot be converted (as :func:`policy_to_array`)
      or is not a strategy of the game (naming the first bad infoset).
  """
  if not isinstance(policy, np.ndarray):
    policy = policy_to_array(tree, policy, name=name)
  return check_strategy(tree, policy, name)


def policy_to_array(tree: GameTree | str | pyspiel.Game, policy: PolicyLike,
                    fallback: np.ndarray | None = None, *,
                    name: str = "policy") -> np.ndarray:
  """Converts any OpenSpiel policy (see module docstring) to an array.

  The result has the policy's probabilities as they are; use
  :func:`as_strategy` to also check that they form a strategy.

  Args:
    tree: the compiled game (or a game / game string).
    policy: the policy.
    fallback: rows used for infosets a TabularPolicy or dict does not cover
      (OpenSpiel's own merge fills them uniformly). Without it a missing
      infoset is an error.
    name: what to call the policy in error messages.

  Returns:
    A new float64 [num_infosets, num_distinct_actions] array in the tree's
    row order (an array ``policy`` is copied).

  Raises:
    ValueError: the policy belongs to another game, misses infosets, or
      names an action that is not legal at an infoset (or not an action).
  """
  tree = compile_game(tree)
  if isinstance(policy, np.ndarray):
    tree.check_policy(policy, name)
    return np.array(policy, dtype=np.float64)
  game = getattr(policy, "game", None)
  if isinstance(game, pyspiel.Game) and str(game) != tree.game_string:
    raise ValueError(f"{name} is for game {game}, not {tree.game_string}.")
  if isinstance(policy, openspiel_policy.TabularPolicy):
    return _from_rows(tree, policy.state_lookup,
                      policy.action_probability_array, fallback, name)
  if isinstance(policy, Mapping):
    return _from_dict(tree, policy, fallback, name)
  return _from_callable(tree, _as_state_function(policy, name), name)


def _from_rows(tree: GameTree, lookup: dict[str, int], rows: np.ndarray,
               fallback: np.ndarray | None, name: str) -> np.ndarray:
  rows = np.asarray(rows, dtype=np.float64)
  if rows.ndim != 2 or rows.shape[1] != tree.num_distinct_actions:
    raise ValueError(f"{name} has {rows.shape} action probabilities; "
                     f"{tree.game_string} needs {tree.num_distinct_actions} "
                     "columns.")
  if lookup is tree.key_to_infoset or lookup == tree.key_to_infoset:
    return rows.copy()
  index = np.fromiter((lookup.get(key, -1) for key in tree.infoset_keys),
                      dtype=np.int64, count=tree.num_infosets)
  missing = index < 0
  if missing.any():
    if fallback is None:
      _raise_missing(tree, np.flatnonzero(missing), name)
    result = np.array(fallback, dtype=np.float64)
    result[~missing] = rows[index[~missing]]
    return result
  return rows[index]


def _from_dict(tree: GameTree, table: Mapping, fallback: Any,
               name: str) -> np.ndarray:
  result = (np.zeros((tree.num_infosets, tree.num_distinct_actions))
            if fallback is None else np.array(fallback, dtype=np.float64))
  found = np.zeros(tree.num_infosets, dtype=bool)
  for key, entries in table.items():
    row = tree.key_to_infoset.get(key)
    if row is None:
      continue
    found[row] = True
    result[row] = 0.0
    _write_row(tree, row, entries, result, name)
  if fallback is None and not found.all():
    _raise_missing(tree, np.flatnonzero(~found), name)
  return result


def _write_row(tree: GameTree, row: int, entries: Any, result: np.ndarray,
               name: str) -> None:
  """Writes (action, prob) pairs (or an {action: prob} dict) into ``row``.

  An action that is not an id of the game, or an illegal one with non-zero
  probability, is an error (OpenSpiel's own tables list illegal actions with
  probability 0, which is accepted).
  """
  try:
    pairs = list(entries.items() if isinstance(entries, Mapping) else
                 entries)
  except TypeError:
    pairs = None
  if pairs is None or not all(
      isinstance(pair, Sequence) and len(pair) == 2 for pair in pairs):
    raise ValueError(
        f"{name} at infoset {tree.infoset_keys[row]!r} must give "
        f"{{action: prob}} or [(action, prob), ...]; got {entries!r}.")
  legal = tree.infoset_legal[row]
  for action, prob in pairs:
    valid_id = is_integer(action) and 0 <= action < tree.num_distinct_actions
    if not is_real(prob):
      raise ValueError(f"{name} at infoset {tree.infoset_keys[row]!r} gives "
                       f"action {action!r} the probability {prob!r}, which "
                       "is not a number.")
    if not valid_id or (prob != 0 and not legal[action]):
      what = ("not legal there" if valid_id else
              f"not an action id (0..{tree.num_distinct_actions - 1})")
      raise ValueError(
          f"{name} at infoset {tree.infoset_keys[row]!r} gives probability "
          f"{prob!r} to action {action!r}, which is {what}; the legal "
          f"actions are {np.flatnonzero(legal).tolist()}.")
    result[row, action] = prob


def _as_state_function(policy: Any, name: str
                       ) -> Callable[[pyspiel.State, int], Any]:
  if isinstance(policy, openspiel_policy.Policy):
    return policy.action_probabilities
  if isinstance(policy, pyspiel.Policy):
    return lambda state, player: policy.action_probabilities(state)
  if callable(policy):
    return lambda state, player: policy(state)
  raise ValueError(
      f"{name} must be an OpenSpiel policy (policy.Policy, TabularPolicy, a "
      "pyspiel policy), a callable state -> {action: prob}, a dict infostate "
      f"key -> [(action, prob)] or a strategy array; got "
      f"{type(policy).__name__}.")


def _from_callable(tree: GameTree,
                   state_policy: Callable[[pyspiel.State, int], Any],
                   name: str) -> np.ndarray:
  result = np.zeros((tree.num_infosets, tree.num_distinct_actions))
  for row in range(tree.num_infosets):
    state = tree.state(int(tree.infoset_history[row]))
    _write_row(tree, row, state_policy(state, int(tree.infoset_player[row])),
               result, name)
  return result


def _raise_missing(tree: GameTree, rows: np.ndarray, name: str) -> NoReturn:
  examples = ", ".join(repr(tree.infoset_keys[r]) for r in rows[:3])
  raise ValueError(
      f"{name} has no entry for {len(rows)} of the {tree.num_infosets} "
      f"infosets of {tree.game_string} (e.g. {examples}); is it a policy for "
      "this game? Pass fallback= to fill missing rows.")
