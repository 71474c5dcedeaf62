"""Strategy arrays <-> OpenSpiel policies, and the check that a policy is one.

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

:func:`as_strategy` converts and then checks that the result is a strategy
(:func:`check_strategy`): finite, non-negative probabilities, 0 on illegal
actions, each infoset's row summing to 1 within ``STRATEGY_TOLERANCE``. The
evaluators and the solvers' ``initial_policy`` take policies through it.

Solvers return :class:`TabularPolicy`, OpenSpiel's ``TabularPolicy`` that
also reads as the dict ``infostate key -> [(action, prob), ...]`` pyspiel's
C++ functions take, so ``pyspiel.exploitability(game, policy)`` accepts it.
"""

from __future__ import annotations

import numbers
import weakref
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Callable

import numba
import numpy as np
import pyspiel
from open_spiel.python import policy as openspiel_policy

from spiel_ext.engine import GameTree, compile_game

PolicyLike = Any

# Largest |sum of a row over the legal actions - 1| a strategy may have.
STRATEGY_TOLERANCE = 1e-6

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


class TabularPolicy(openspiel_policy.TabularPolicy, Mapping):
  """OpenSpiel's ``policy.TabularPolicy``, also readable as a dict.

  It is an ``open_spiel.python.policy.TabularPolicy`` in every respect (same
  ``state_lookup``, ``action_probability_array`` and methods), and in
  addition a read-only mapping ``infostate key -> [(action, prob), ...]``
  over each infoset's legal actions: the table pyspiel's C++ functions
  accept, so ``pyspiel.exploitability(game, policy)`` and
  ``pyspiel.nash_conv(game, policy)`` take it as they take a dict. Build
  one with :func:`to_tabular_policy`. It pickles as its game and array.
  """

  # --------------------------------------------------------------- mapping
  def __getitem__(self, key: str) -> list[tuple[int, float]]:
    row = self.state_lookup[key]
    probs = self.action_probability_array[row]
    return [(int(a), float(probs[a]))
            for a in np.flatnonzero(self.legal_actions_mask[row])]

  def __len__(self) -> int:
    return len(self.state_lookup)

  def __iter__(self) -> Iterator[str]:
    return iter(self.state_lookup)

  def __contains__(self, key: object) -> bool:
    return key in self.state_lookup

  # Mapping's equality would compare tables; policies compare by identity.
  __eq__ = object.__eq__
  __hash__ = object.__hash__

  # ---------------------------------------------------- OpenSpiel details
  @property
  def _random_state(self) -> np.random.RandomState:
    """The generator ``sample_action`` draws from, as OpenSpiel's Policy
    makes it (unseeded); created on first use."""
    state = self.__dict__.get("_sampler")
    if state is None:
      state = self.__dict__["_sampler"] = np.random.RandomState()
    return state

  @_random_state.setter
  def _random_state(self, value: np.random.RandomState) -> None:
    self.__dict__["_sampler"] = value

  def __copy__(self, copy_action_probability_array: bool = True):
    result = super().__copy__(copy_action_probability_array)
    result.__class__ = type(self)
    return result

  def __reduce_ex__(self, protocol):
    if isinstance(self.states, _LazyStates):  # Built by to_tabular_policy.
      return (_rebuild_policy, (self.game, self.action_probability_array))
    return super().__reduce_ex__(protocol)

  def __repr__(self) -> str:
    return (f"TabularPolicy(game={str(self.game)!r}, "
            f"infosets={len(self.state_lookup)})")


def _rebuild_policy(game: pyspiel.Game,
                    strategy: np.ndarray) -> TabularPolicy:
  return to_tabular_policy(game, strategy, copy=False)


def _template(tree: GameTree) -> TabularPolicy:
  template = _TEMPLATES.get(tree)
  if template is None:
    template = TabularPolicy.__new__(TabularPolicy)
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
                      copy: bool = True) -> TabularPolicy:
  """A :class:`TabularPolicy` holding ``strategy`` (uniform when None).

  The result has the keys and row layout OpenSpiel's own
  ``TabularPolicy(game)`` would have; ``state_in`` is None and ``states`` is
  rebuilt lazily from the tree when read. With ``copy=False`` the policy
  shares ``strategy``'s memory. Only the shape is checked: use
  :func:`check_strategy` to check that ``strategy`` is a strategy.
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


# ------------------------------------------------------------------ checks
@numba.njit(cache=True, nogil=True)
def _first_bad_row(strategy, legal, tolerance):
  """The first row that is not a distribution over the legal actions (finite,
  non-negative, 0 on illegal actions, summing to 1 within ``tolerance``),
  or -1."""
  for row in range(strategy.shape[0]):
    total = 0.0
    for a in range(strategy.shape[1]):
      p = strategy[row, a]
      if not 0.0 <= p < np.inf or (p != 0.0 and not legal[row, a]):
        return row
      total += p
    if not abs(total - 1.0) <= tolerance:
      return row
  return -1


def _problem(values: np.ndarray, legal: np.ndarray) -> str:
  """What is wrong with a row :func:`_first_bad_row` picked."""
  if not np.isfinite(values).all():
    return "a value that is not finite"
  if (values < 0).any():
    return "a negative value"
  if (values[~legal] != 0).any():
    return "probability on an illegal action"
  return "legal-action probabilities that do not sum to 1"


def check_strategy(tree: GameTree, strategy: Any, name: str = "policy",
                   tolerance: float = STRATEGY_TOLERANCE) -> np.ndarray:
  """``strategy`` as a float64 array, if it is a strategy of ``tree``'s game.

  A strategy is a [num_infosets, num_distinct_actions] array whose every row
  holds finite, non-negative probabilities, 0 on the infoset's illegal
  actions, summing to 1 within ``tolerance`` over its legal actions.

  Raises:
    ValueError: naming ``name`` and the first infoset (key and row) that
      breaks a rule, with its values and legal actions.
  """
  tree.check_policy(strategy, name)
  if strategy.dtype != np.float64:
    if strategy.dtype.kind not in "biuf":
      raise ValueError(f"{name} must be a float array; got dtype "
                       f"{strategy.dtype}.")
    strategy = strategy.astype(np.float64)
  row = _first_bad_row(strategy, tree.infoset_legal, tolerance)
  if row >= 0:
    legal = tree.infoset_legal[row]
    raise ValueError(
        f"{name} is not a strategy: at infoset {tree.infoset_keys[row]!r} "
        f"(row {row}) it has {_problem(strategy[row], legal)}: "
        f"{strategy[row].tolist()[:12]}. Each row must hold finite, "
        "non-negative probabilities of the legal actions "
        f"({np.flatnonzero(legal).tolist()} there), 0 on the others, summing "
        f"to 1 (within {tolerance:g}).")
  return strategy


def check_min_action_prob(tree: GameTree, value: Any) -> float:
  """``value`` as a float in [0, 1/|A|), |A| the largest number of legal
  actions at an infoset; ValueError naming ``min_action_prob`` otherwise."""
  if type(value) in (float, int) and value == 0:  # The common case, fast.
    return 0.0
  largest = (1.0 / float(tree.infoset_num_actions.max())
             if tree.num_infosets else 1.0)
  wanted = (f"min_action_prob must be in [0, 1/|A|) = [0, {largest:g}) for "
            f"{tree.game_string}")
  shown = repr(value) if len(repr(value)) <= 80 else repr(value)[:77] + "..."
  if (isinstance(value, (bool, np.bool_)) or
      not isinstance(value, numbers.Real)):
    raise ValueError(f"{wanted}; got {shown}.")
  try:
    number = float(value)
  except OverflowError:  # An int beyond the floats.
    number = float("inf")
  if not 0.0 <= number < largest:  # False for NaN too.
    raise ValueError(f"{wanted}; got {shown}.")
  return number


def mix_in(profile: np.ndarray, legal: np.ndarray,
           min_action_prob: float) -> np.ndarray:
  """b_eps = eps + (1 - |A| eps) b on legal actions: a strategy of the
  eps-perturbed game (Schulze 2023, eq. 24)."""
  if min_action_prob == 0.0:
    return profile
  num_actions = legal.sum(axis=1, keepdims=True)
  return legal * min_action_prob + (1.0 - num_actions * min_action_prob) * (
      profile)


def remove_perturbation(strategy: np.ndarray, legal: np.ndarray,
                        min_action_prob: float) -> np.ndarray:
  """The inverse of :func:`mix_in`: b = (b_eps - eps) / (1 - |A| eps),
  clipped at 0 and renormalised (a strategy outside the perturbed space
  has entries below eps). Reads a perturbed strategy as the pure or mixed
  choice it stands for."""
  if min_action_prob == 0.0:
    return strategy
  num_actions = legal.sum(axis=1, keepdims=True)
  raw = np.clip((strategy - min_action_prob) /
                (1.0 - num_actions * min_action_prob), 0.0, None) * legal
  total = raw.sum(axis=1, keepdims=True)
  return np.where(total > 0, raw / np.where(total > 0, total, 1.0),
                  legal / np.maximum(num_actions, 1))


def as_strategy(tree: GameTree, policy: PolicyLike,
                name: str = "policy") -> np.ndarray:
  """Any policy :func:`policy_to_array` accepts, checked to be a strategy
  (:func:`check_strategy`). An array that already is one is returned as is
  (not copied)."""
  if not isinstance(policy, np.ndarray):
    policy = policy_to_array(tree, policy, name=name)
  return check_strategy(tree, policy, name)


# -------------------------------------------------------------- conversion
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


def _from_dict(tree: GameTree, table: Mapping, fallback,
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
    valid_id = (isinstance(action, numbers.Integral) and
                not isinstance(action, (bool, np.bool_)) and
                0 <= action < tree.num_distinct_actions)
    if not isinstance(prob, numbers.Real) or isinstance(prob, (bool, np.bool_)):
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


def _as_state_function(policy, name: str) -> Callable[[pyspiel.State, int],
                                                       Any]:
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


def _from_callable(tree: GameTree, state_policy, name: str) -> np.ndarray:
  result = np.zeros((tree.num_infosets, tree.num_distinct_actions))
  for row in range(tree.num_infosets):
    state = tree.state(int(tree.infoset_history[row]))
    _write_row(tree, row, state_policy(state, int(tree.infoset_player[row])),
               result, name)
  return result


def _raise_missing(tree: GameTree, rows: np.ndarray, name: str):
  examples = ", ".join(repr(tree.infoset_keys[r]) for r in rows[:3])
  raise ValueError(
      f"{name} has no entry for {len(rows)} of the {tree.num_infosets} "
      f"infosets of {tree.game_string} (e.g. {examples}); is it a policy for "
      "this game? Pass fallback= to fill missing rows.")
