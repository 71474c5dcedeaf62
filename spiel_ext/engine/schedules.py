"""Schedules a compiled tree derives from its arrays on first use.

Each is built once per tree (the cached properties of
:class:`~spiel_ext.engine.layout.TreeLayout` call the functions here) and
read by the passes: CSR groupings, the best-response skeletons and level
orders, the edges of a player, and the fallback weights of the beliefs.
Those that depend on a player are :class:`PerPlayer` tables, built for a
player the first time it is asked for. The functions take the arrays they
read, not the tree, so that no table refers back to its tree.
"""

from __future__ import annotations

import heapq
from typing import Callable, Generic, NamedTuple, TypeVar

import numpy as np

from spiel_ext.engine import beliefs, best_response, block_passes, passes
from spiel_ext.engine.constants import TERMINAL

T = TypeVar("T")


class Groups(NamedTuple):
  """Indices grouped CSR-style: group g is members[start[g]:start[g + 1]]."""
  start: np.ndarray
  members: np.ndarray


class BestResponseSchedule(NamedTuple):
  """The skeleton of the fast best-response pass (see
  :func:`spiel_ext.engine.best_response.best_response_schedule`)."""
  nodes: np.ndarray
  level_bounds: np.ndarray
  node_edge: np.ndarray
  terminal_edge: np.ndarray


class LevelSchedule(NamedTuple):
  """Histories and infosets by own-decision level, deepest first (see
  :func:`spiel_ext.engine.best_response.level_schedule`)."""
  order: np.ndarray
  bounds: np.ndarray
  infosets: np.ndarray
  infoset_bounds: np.ndarray


class BeliefFallbacks(NamedTuple):
  """x_{-i}(h) with uniformly random opponents (chance as in the game), and
  with chance uniform over its outcomes too."""
  uniform_opponents: np.ndarray
  uniform_all: np.ndarray


class ParallelBlocks(NamedTuple):
  """A tree cut for the parallel passes (see
  :mod:`spiel_ext.engine.block_passes`): ``top`` the split histories in
  pre-order (the root first), ``roots`` the roots of the blocks, disjoint
  subtrees covering every other history, in pre-order, and ``tail`` the
  top without the root and the roots, deepest first (the order in which a
  backward pass adds them into their parents). ``internal`` are the
  non-terminal histories in pre-order, block b's being
  internal[first[b]:stop[b]], and ``top_position`` the places of the top
  in ``internal``."""
  top: np.ndarray
  tail: np.ndarray
  roots: np.ndarray
  internal: np.ndarray
  first: np.ndarray
  stop: np.ndarray
  top_position: np.ndarray


class MemberEdges(NamedTuple):
  """Where CFR's block pass writes each decision history's reach and edge
  values for the per-infoset gather (see
  :func:`spiel_ext.engine.block_passes.member_edges`)."""
  member_position: np.ndarray
  edge_start: np.ndarray
  edge_action: np.ndarray


class PerPlayer(dict[int, T], Generic[T]):
  """One value per player, built by ``build(player)`` on first use and kept
  (a dict, so that a lookup of a built value costs no Python call).

  ``build`` must not refer to the tree itself (only to its arrays), so that
  a tree is freed as soon as it is dropped.
  """

  def __init__(self, build: Callable[[int], T]):
    super().__init__()
    self._build = build

  def __missing__(self, player: int) -> T:
    value = self[player] = self._build(player)
    return value


def best_response_schedules(parent: np.ndarray, node_player: np.ndarray,
                            action: np.ndarray, num_actions: int
                            ) -> PerPlayer[BestResponseSchedule]:
  """Per player, the skeleton of the fast best-response pass."""
  return PerPlayer(lambda player: BestResponseSchedule(
      *best_response.best_response_schedule(parent, node_player, action,
                                             player, num_actions)))


def level_schedules(parent: np.ndarray, node_player: np.ndarray,
                    infoset: np.ndarray) -> PerPlayer[LevelSchedule]:
  """Per player, histories and infosets by own-decision level."""
  return PerPlayer(lambda player: LevelSchedule(
      *best_response.level_schedule(parent, node_player, infoset, player)))


def own_edges(parent: np.ndarray, node_player: np.ndarray,
              edge_policy_index: np.ndarray) -> PerPlayer[np.ndarray]:
  """Per player, the flat index of the nearest edge out of one of the
  player's histories above each history (-1 above its first decision)."""
  index = edge_policy_index.astype(np.int64)
  return PerPlayer(lambda player: beliefs.own_edges(
      parent, node_player, index, player))


def player_edges(parent_slot: np.ndarray) -> PerPlayer[np.ndarray]:
  """Per player, the edges leaving the player's decision nodes."""
  return PerPlayer(lambda player: np.flatnonzero(parent_slot == player))


def belief_fallbacks(parent: np.ndarray, parent_slot: np.ndarray,
                     chance_prob: np.ndarray,
                     num_players: int) -> PerPlayer[BeliefFallbacks]:
  """Per player, the reach weights beliefs fall back on at an infoset the
  strategy reaches with probability 0."""
  # Uniform play everywhere: each edge weighs 1 / (number of siblings),
  # which at a decision node is 1 / |A(I)|. Rule 2 keeps chance's own
  # probabilities on chance edges.
  num_histories = len(parent)
  children = np.bincount(parent[1:], minlength=num_histories)
  uniform_all = np.ones(num_histories)
  uniform_all[1:] = 1.0 / children[parent[1:]]
  from_chance = parent_slot == num_players
  uniform_opponents = np.where(from_chance, chance_prob, uniform_all)
  no_edges = np.full(num_histories, -1, dtype=np.int64)
  no_policy = np.zeros((1, 1))

  def build(player: int) -> BeliefFallbacks:
    return BeliefFallbacks(*(
        passes.others_reach(parent, parent_slot, no_edges, weights,
                            no_policy, player)
        for weights in (uniform_opponents, uniform_all)))
  return PerPlayer(build)


# The parallel passes cut a tree into at least this many blocks (when it
# has enough histories), whatever the thread count: the blocks fix the
# order of every sum, the threads only share them out.
PARALLEL_BLOCKS = 256


def parallel_blocks(subtree_end: np.ndarray, node_player: np.ndarray,
                    target: int = PARALLEL_BLOCKS) -> ParallelBlocks | None:
  """Cuts a tree into ``target`` or more blocks of at most
  ``num_histories / target`` histories where it can, by splitting the
  largest block into its children's subtrees until none is too large;
  None for a tree whose root has no children.

  Args:
    subtree_end: one past the last history of each history's subtree.
    node_player: who acts at each history.
    target: the number of blocks to aim for.
  """
  num_histories = len(subtree_end)
  if num_histories < 2:
    return None
  largest = max(1, num_histories // target)
  blocks = [(-num_histories, 0)]
  top = []
  # A history with one child adds no block: cap the splits for chains.
  for _ in range(16 * target):
    size, history = blocks[0]
    if top and (len(blocks) >= target or -size <= largest):
      break
    if -size == 1:
      break
    heapq.heappop(blocks)
    top.append(history)
    child, stop = history + 1, int(subtree_end[history])
    while child < stop:
      child_end = int(subtree_end[child])
      heapq.heappush(blocks, (child - child_end, child))
      child = child_end
  top_array = np.array(sorted(top), dtype=np.int32)
  roots = np.array(sorted(history for _, history in blocks), dtype=np.int32)
  tail = np.sort(np.concatenate([top_array[1:], roots]))[::-1].copy()
  internal = np.flatnonzero(node_player != TERMINAL).astype(np.int32)
  first = np.searchsorted(internal, roots)
  stop = np.searchsorted(internal, subtree_end[roots])
  return ParallelBlocks(top_array, tail.astype(np.int32), roots, internal,
                        first, stop, np.searchsorted(internal, top_array))
