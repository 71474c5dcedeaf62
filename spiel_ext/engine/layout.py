"""The compiled game tree's layout: its arrays and the schedules derived
from them.

Every tabular algorithm in spiel_ext runs on this one representation:
histories in depth-first pre-order (see :mod:`spiel_ext.engine.compiler`),
so a parent precedes its children and every subtree is a contiguous range;
infoset rows in the layout of OpenSpiel's ``TabularPolicy``.

Per history ``h`` (arrays of length ``num_histories``):
  parent[h]       parent history, -1 for the root
  action[h]       action taken at the parent to reach h, -1 for the root
  node_player[h]  acting player, CHANCE (-1) or TERMINAL (-4)
  infoset[h]      infoset (policy row) of a decision history, else -1
  chance_prob[h]  probability of h's edge if the parent is a chance node, else 1
  utility[h, p]   terminal payoff of player p (0 at non-terminal histories)
  parent_slot[h]  who acts at the parent: a player, num_players for chance,
                  -1 for the root

Per infoset ``I`` (arrays of length ``num_infosets``):
  infoset_player[I], infoset_legal[I, a], infoset_num_actions[I],
  infoset_history[I] (the first history of I in pre-order, which is the state
  OpenSpiel's TabularPolicy keeps for that row) and infoset_keys[I].

:class:`TreeLayout` holds these arrays, the sizes and keys, and the
schedules derived from them on first use (``functools.cached_property``
attributes; those that depend on a player are :class:`PerPlayer` tables,
see :mod:`spiel_ext.engine.schedules`): everything the passes read of a
tree, and the check of a policy's shape. It imports only the numba
kernels, the schedules and :mod:`.memory`, so the modules built on a
tree's layout (the argument checks of :mod:`.inputs` and
:mod:`.strategy`, the models of :mod:`.model`, the passes) take it as
their tree with imports that point down. The public
:class:`~spiel_ext.engine.game_tree.GameTree` is a TreeLayout with the
player check, the game views and the pass methods added. Nothing a tree
keeps refers back to it, so a dropped tree is freed at once, without
waiting for the cycle collector.
"""

from __future__ import annotations

import functools
import threading
from typing import Sequence

import numpy as np
import pyspiel

from spiel_ext.engine import (block_passes, memory, passes, schedules,
                              stack_passes, threads)
from spiel_ext.engine.constants import CHANCE, TERMINAL
from spiel_ext.engine.schedules import (BeliefFallbacks, BestResponseSchedule,
                                        Groups, LevelSchedule, MemberEdges,
                                        ParallelBlocks, PerPlayer)
from spiel_ext.engine.stack_passes import StackLayout

__all__ = ["STORED_ARRAYS", "TreeLayout"]

# The arrays a tree is made of (what the disk cache stores).
STORED_ARRAYS = ("parent", "action", "node_player", "infoset", "chance_prob",
                 "utility", "infoset_player", "infoset_legal",
                 "infoset_history")


class TreeLayout:
  """A pyspiel game's tree as flat numpy arrays, and their schedules.

  The base class of :class:`~spiel_ext.engine.game_tree.GameTree` (whose
  constructor this is; see there). The stored arrays are the tree's
  definition and are not to be written to. They are trusted: the numba
  kernels the constructor runs index with them unchecked, so arrays from
  anywhere but the compiler (the disk cache) are checked first with
  :func:`spiel_ext.engine.tree_checks.check_stored_tree`.

  Args:
    game: the pyspiel game the arrays describe.
    arrays: the arrays named in ``STORED_ARRAYS`` and ``perfect_recall``.
    infoset_keys: the information-state string of each row.
  """

  def __init__(self, game: pyspiel.Game, arrays: dict[str, np.ndarray],
               infoset_keys: Sequence[str]):
    self.game = game
    self.game_string = str(game)
    self.num_players = game.num_players()
    self.num_distinct_actions = game.num_distinct_actions()
    self.parent = arrays["parent"]
    self.action = arrays["action"]
    self.node_player = arrays["node_player"]
    self.infoset = arrays["infoset"]
    self.chance_prob = arrays["chance_prob"]
    self.utility = arrays["utility"]
    self.infoset_player = arrays["infoset_player"]
    self.infoset_legal = arrays["infoset_legal"]
    self.infoset_history = arrays["infoset_history"]
    self.perfect_recall = bool(arrays["perfect_recall"])
    self.infoset_keys = list(infoset_keys)
    self.num_histories = len(self.parent)
    self.num_infosets = len(self.infoset_player)
    self.infoset_num_actions = self.infoset_legal.sum(axis=1).astype(np.int32)
    self.parent_slot = passes.parent_slots(self.parent, self.node_player,
                                           self.num_players)
    self.is_terminal = self.node_player == TERMINAL
    self.terminals = np.flatnonzero(self.is_terminal).astype(np.int32)
    self.edge_policy_index = passes.edge_policy_index(
        self.parent, self.node_player, self.infoset, self.action,
        self.num_distinct_actions)
    if self.num_infosets * self.num_distinct_actions < 2**31:
      # Half the memory traffic in the hot loops.
      self.edge_policy_index = self.edge_policy_index.astype(np.int32)
    self.own_sequence = passes.own_sequences(
        self.parent, self.node_player, self.action, self.infoset,
        self.infoset_history, self.infoset_player, self.num_distinct_actions)
    # Rows of each player are contiguous (TabularPolicy groups by player).
    starts = np.searchsorted(self.infoset_player,
                             np.arange(self.num_players + 1))
    self.player_rows = [slice(int(starts[p]), int(starts[p + 1]))
                        for p in range(self.num_players)]
    self.key_to_infoset = {key: i for i, key in enumerate(self.infoset_keys)}
    self.policy_shape = (self.num_infosets, self.num_distinct_actions)
    self.reach_shape = (self.num_histories, self.num_players + 1)

  # ------------------------------------------------------------------ info
  def check_policy(self, policy: object, name: str = "policy") -> None:
    """Raises ValueError unless ``policy`` is a [infosets, actions] array.

    The shape check of :func:`spiel_ext.engine.check_strategy` and of the
    passes' policies, the only one in the engine.

    Args:
      policy: the value to check.
      name: what to call it in the error message.
    """
    if not isinstance(policy, np.ndarray) or policy.shape != self.policy_shape:
      got = (f"{policy.dtype} array of shape {policy.shape}"
             if isinstance(policy, np.ndarray) else type(policy).__name__)
      raise ValueError(f"{name} must be a float array of shape "
                       f"{self.policy_shape} for {self.game_string}; got "
                       f"{got}.")

  def arrays(self) -> dict[str, np.ndarray]:
    """The stored arrays by name (what the disk cache saves).

    Returns:
      {name: array} for ``STORED_ARRAYS`` and ``perfect_recall``.
    """
    arrays = {name: getattr(self, name) for name in STORED_ARRAYS}
    arrays["perfect_recall"] = np.array(self.perfect_recall)
    return arrays

  def history_actions(self, history: int) -> list[int]:
    """The action sequence from the root to ``history``.

    Args:
      history: a compiled history's index.

    Returns:
      The actions, first to last.
    """
    actions = []
    while history > 0:
      actions.append(int(self.action[history]))
      history = int(self.parent[history])
    return actions[::-1]

  def state(self, history: int) -> pyspiel.State:
    """A fresh pyspiel state for compiled history ``history``.

    Args:
      history: a compiled history's index.

    Returns:
      The state the game reaches by :meth:`history_actions`.
    """
    state = self.game.new_initial_state()
    for action in self.history_actions(history):
      state.apply_action(action)
    return state

  def children_lists(self) -> Groups:
    """The children of every history (computed once).

    Returns:
      (start, members): the children of h are members[start[h]:start[h +
      1]], in increasing history index (the str(action) order of the
      compiler).
    """
    return self._children

  # ------------------------------------------------- derived on first use
  # The schedules take the arrays they read, never the tree: what a tree
  # keeps does not refer back to it.
  @functools.cached_property
  def _children(self) -> Groups:
    return Groups(*passes.children_lists(self.parent))

  @functools.cached_property
  def num_chance_nodes(self) -> int:
    """The number of chance histories."""
    return int(np.count_nonzero(self.node_player == CHANCE))

  @functools.cached_property
  def infoset_histories(self) -> Groups:
    """The histories of every infoset, CSR-style."""
    return Groups(*passes.infoset_histories(self.infoset, self.num_infosets))

  @functools.cached_property
  def subtree_end(self) -> np.ndarray:
    """One past the last history of each history's subtree."""
    return passes.subtree_ends(self.parent)

  @functools.cached_property
  def parallel_blocks(self) -> ParallelBlocks | None:
    """The tree cut into blocks for the parallel passes (see
    :func:`schedules.parallel_blocks`)."""
    return schedules.parallel_blocks(self.subtree_end, self.node_player)

  @functools.cached_property
  def member_edges(self) -> MemberEdges:
    """Each decision history's place in its infoset's list and its edges
    there (see :func:`block_passes.member_edges`)."""
    return MemberEdges(*block_passes.member_edges(
        self.infoset_histories.members, self.subtree_end, self.action))

  @functools.cached_property
  def stack_layout(self) -> StackLayout:
    """What CFR's stack pass reads (see
    :func:`stack_passes.stack_layout`)."""
    return stack_passes.stack_layout(
        self.parent, self.parent_slot, self.node_player,
        self.edge_policy_index, self.num_infosets * self.num_distinct_actions)

  @functools.cached_property
  def _scratch(self) -> threading.local:
    return threading.local()

  def scratch_arrays(self, count: int) -> list[np.ndarray]:
    """``count`` float64 work arrays of one entry per history, kept per
    thread for the block passes to reuse (their content is whatever the
    last pass left): a fresh array costs a page fault per 4 KiB on first
    touch, which on a large tree cost as much as the pass itself.

    Args:
      count: how many arrays.

    Returns:
      The arrays, [histories] each.
    """
    arrays = getattr(self._scratch, "arrays", [])
    if len(arrays) < count:
      arrays = arrays + [np.empty(self.num_histories)
                         for _ in range(count - len(arrays))]
      self._scratch.arrays = arrays
    return arrays[:count]

  def pass_blocks(self) -> ParallelBlocks | None:
    """The blocks the passes run on now.

    Returns:
      ``parallel_blocks``, or None (the serial passes) for a tree below
      ``threads.PARALLEL_MIN_HISTORIES`` histories.
    """
    if self.num_histories < threads.PARALLEL_MIN_HISTORIES:
      return None
    return self.parallel_blocks

  @functools.cached_property
  def best_response_schedules(self) -> PerPlayer[BestResponseSchedule]:
    """The fast best-response pass's skeleton, per player."""
    return schedules.best_response_schedules(
        self.parent, self.node_player, self.action, self.num_distinct_actions)

  @functools.cached_property
  def level_schedules(self) -> PerPlayer[LevelSchedule]:
    """Histories and infosets by own-decision level, per player."""
    return schedules.level_schedules(self.parent, self.node_player,
                                     self.infoset)

  @functools.cached_property
  def own_edges(self) -> PerPlayer[np.ndarray]:
    """Each player's own decision edges (see :func:`beliefs.own_edges`)."""
    return schedules.own_edges(self.parent, self.node_player,
                               self.edge_policy_index)

  @functools.cached_property
  def player_edges(self) -> PerPlayer[np.ndarray]:
    """The histories whose parent is one of the player's."""
    return schedules.player_edges(self.parent_slot)

  @functools.cached_property
  def belief_fallbacks(self) -> PerPlayer[BeliefFallbacks]:
    """The fallback weights of :func:`belief_passes.beliefs`, per player."""
    return schedules.belief_fallbacks(self.parent, self.parent_slot,
                                      self.chance_prob, self.num_players)

  @property
  def nbytes(self) -> int:
    """Bytes of the numpy arrays the tree holds: stored, derived, and the
    schedules and scratch arrays computed so far, each buffer once (itemised
    by :func:`spiel_ext.engine.memory.memory_report`)."""
    return sum(memory.memory_report(self).values())
