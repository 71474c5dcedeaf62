"""Strategy arrays as OpenSpiel ``TabularPolicy`` objects (OpenSpiel interop).

A strategy array is [num_infosets, num_distinct_actions] with rows in the
compiled tree's infoset order, which is exactly the row order of
``open_spiel.python.policy.TabularPolicy(game)``; so converting to a
TabularPolicy is a copy (:func:`to_tabular_policy`), and a TabularPolicy
built by OpenSpiel converts back by taking its array as it is.

Solvers return :class:`TabularPolicy`, OpenSpiel's ``TabularPolicy`` that
also reads as the dict ``infostate key -> [(action, prob), ...]`` pyspiel's
C++ functions take, so ``pyspiel.exploitability(game, policy)`` accepts it.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, SupportsIndex

import numpy as np
import pyspiel
from open_spiel.python import policy as openspiel_policy

from spiel_ext.engine import GameTree, compile_game

__all__ = ["TabularPolicy", "to_tabular_policy"]

# One template policy per compiled tree: its keys, masks and lookups are
# shared (not copied) by every policy built for that tree.
_TEMPLATES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class _LazyStates(Sequence):
  """TabularPolicy.states, rebuilt from the tree only when someone reads it."""

  def __init__(self, tree: GameTree):
    self._tree = tree

  def __len__(self) -> int:
    return self._tree.num_infosets

  def __getitem__(self, index: int | slice) -> Any:
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

  def __copy__(self, copy_action_probability_array: bool = True
               ) -> TabularPolicy:
    result = super().__copy__(copy_action_probability_array)
    result.__class__ = type(self)
    return result

  def __reduce_ex__(self, protocol: SupportsIndex) -> Any:
    if isinstance(self.states, _LazyStates):  # Built by to_tabular_policy.
      return (_rebuild_policy, (self.game, self.action_probability_array))
    return super().__reduce_ex__(protocol)

  def __repr__(self) -> str:
    return (f"TabularPolicy(game={str(self.game)!r}, "
            f"infosets={len(self.state_lookup)})")


# Pickles name the class and the rebuilding function by their public home.
TabularPolicy.__module__ = "spiel_ext.policy"


def _rebuild_policy(game: pyspiel.Game,
                    strategy: np.ndarray) -> TabularPolicy:
  return to_tabular_policy(game, strategy, copy=False)


_rebuild_policy.__module__ = "spiel_ext.policy"


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
  :func:`spiel_ext.engine.check_strategy` to check that ``strategy`` is a
  strategy.

  Args:
    tree: the compiled game (or a game / game string).
    strategy: a [num_infosets, num_distinct_actions] array in the tree's row
      order, or None for the uniform policy.
    copy: True to copy ``strategy`` (as float64), False to share it.

  Returns:
    The policy.

  Raises:
    ValueError: ``strategy`` does not have the tree's shape.
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
