"""What the passes take: a game view, a player, a policy, a float array.

A pass is a function of a game as :class:`ViewLike` describes it: a
compiled tree's layout (:class:`~spiel_ext.engine.layout.TreeLayout`, the
arrays and schedules) with the chance probabilities and utilities of a game
on it. A :class:`~spiel_ext.engine.game_tree.GameView` is one; so is a
GameTree, which stands for the view of its compiled game. The protocol lets
the passes sit below the classes that have them as methods.

The numba kernels do not check bounds, so every array a pass takes is
checked here first, against the compiled tree it runs on; the common case
(a float64 array of the right shape, an int player) costs one type and
shape comparison.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from spiel_ext.checks import is_integer
from spiel_ext.engine.layout import TreeLayout

__all__ = ["ViewLike", "check_player", "float_array", "policy_array"]


class ViewLike(Protocol):
  """A game as the passes read it (a GameView, or a GameTree for its
  compiled game)."""

  @property
  def tree(self) -> TreeLayout:
    """The compiled tree: histories, infosets and their schedules."""

  @property
  def chance_prob(self) -> np.ndarray:
    """[histories] the probability of each chance edge (1 elsewhere)."""

  @property
  def utility(self) -> np.ndarray:
    """[histories, players] the payoffs (0 away from terminals)."""


def check_player(tree: TreeLayout, player: object) -> None:
  """Raises ValueError unless ``player`` is a player of ``tree``'s game.

  Args:
    tree: the compiled tree.
    player: the value to check.
  """
  if type(player) is int and 0 <= player < tree.num_players:
    return  # The common case, without the slower checks below.
  if not is_integer(player) or not 0 <= player < tree.num_players:
    raise ValueError(f"player must be an int in 0..{tree.num_players - 1} "
                     f"for {tree.game_string}; got {player!r}.")


def float_array(tree: TreeLayout, name: str, value: object,
                shape: tuple[int, ...]) -> np.ndarray:
  """``value`` as a float64 array, if it is a numeric array of ``shape``.

  Args:
    tree: the compiled tree (its game is named in the error).
    name: what to call ``value`` in the error.
    value: the array.
    shape: the shape it must have.

  Returns:
    ``value`` as it is if it is a float64 array (any memory layout works in
    numba), else a contiguous float64 copy.

  Raises:
    ValueError: ``value`` is not a numeric array of ``shape``.
  """
  if (type(value) is np.ndarray and value.dtype.char == "d" and
      value.shape == shape):
    return value  # The common case.
  if (not isinstance(value, np.ndarray) or value.shape != shape or
      value.dtype.kind not in "biuf"):
    got = (f"{value.dtype} array of shape {value.shape}"
           if isinstance(value, np.ndarray) else type(value).__name__)
    raise ValueError(f"{name} must be a float array of shape {shape} for "
                     f"{tree.game_string}; got {got}.")
  return np.ascontiguousarray(value, dtype=np.float64)


def policy_array(tree: TreeLayout, policy: object) -> np.ndarray:
  """``policy`` as the passes read it.

  Args:
    tree: the compiled tree the pass runs on.
    policy: a numeric [infosets, actions] array.

  Returns:
    ``policy`` as a contiguous float64 array (the passes read it flat):
    itself if it is one, else a copy.

  Raises:
    ValueError: ``policy`` is not a numeric array of the tree's policy
      shape (``tree.check_policy``).
  """
  if type(policy) is np.ndarray and policy.shape == tree.policy_shape:
    try:
      return np.ascontiguousarray(policy, dtype=np.float64)
    except (TypeError, ValueError):
      pass  # Not numbers: float_array says so.
  tree.check_policy(policy)
  return np.ascontiguousarray(
      float_array(tree, "policy", policy, tree.policy_shape))
