"""The numbers of a game on a compiled tree: chance probabilities and
utilities, checked once.

A :class:`GameModel` holds ``chance_prob`` [histories] (the probability of
each chance edge, 1 elsewhere) and ``utility`` [histories, players] (the
payoffs, 0 away from terminal histories) as read-only float64 arrays. The
true game's model comes with its compiled tree (``tree.model``); a
learner's model of an unknown game (a posterior draw or mean) is built with
``tree.with_model(chance_prob, utility)`` and checked there, once: the
passes then take it as it is. A sampled chance outcome
(``tree.with_chance_sample(uniforms)``) is drawn by the engine from the
compiled game's checked probabilities and is not checked again.

A model is made for a :class:`CompiledGame`: a tree's layout, to lay the
arrays out on and check them against, with the model of its compiled game,
whose arrays stand for those left out. A GameTree is one; the protocol keeps
this module below :mod:`~spiel_ext.engine.game_tree`, which makes the
compiled game's model.
"""

from __future__ import annotations

from typing import Iterator, Protocol

import numpy as np

from spiel_ext.engine import passes
from spiel_ext.engine.constants import CHANCE_SUM_TOLERANCE
from spiel_ext.engine.inputs import float_array
from spiel_ext.engine.layout import TreeLayout

__all__ = ["CompiledGame", "GameModel"]


class CompiledGame(Protocol):
  """A compiled tree with its compiled game's model (a GameTree, whose
  ``tree`` is itself)."""

  @property
  def tree(self) -> TreeLayout:
    """The arrays a model is laid out on and checked against."""

  @property
  def model(self) -> GameModel:
    """The compiled game's chance probabilities and utilities."""


class GameModel:
  """A game's chance probabilities and utilities on a compiled tree.

  A frozen value: both arrays are read-only float64 arrays and were checked
  when the model was built (every chance node holds a probability
  distribution over its outcomes; utilities are finite, and 0 away from
  terminal histories). Two models are equal when their arrays are.

  ``GameModel(tree, chance_prob, utility)`` checks and freezes the arrays:
  a C-contiguous float64 array that owns its data is itself made read-only
  (no copy; the caller hands it over), anything else is copied first. None
  takes the tree's own array. Unpacks as ``chance_prob, utility = model``.

  Args:
    tree: the compiled tree the arrays are laid out on (a GameTree).
    chance_prob: [histories] chance edge probabilities, or None.
    utility: [histories, players] payoffs, or None.

  Raises:
    ValueError: an array of the wrong shape or type, a chance node whose
      probabilities are not a distribution, or a utility that is not finite
      or not 0 away from terminal histories (names the array, the first
      offending history and its history string).
  """

  __slots__ = ("_chance_prob", "_utility")

  def __init__(self, tree: CompiledGame,
               chance_prob: np.ndarray | None = None,
               utility: np.ndarray | None = None):
    own, layout = tree.model, tree.tree
    if chance_prob is None:
      chance_prob = own.chance_prob
    else:
      chance_prob = _frozen(layout, "chance_prob", chance_prob,
                            layout.chance_prob.shape)
      _check_chance(layout, chance_prob)
    if utility is None:
      utility = own.utility
    else:
      utility = _frozen(layout, "utility", utility, layout.utility.shape)
      _check_utility(layout, utility)
    self._chance_prob = chance_prob
    self._utility = utility

  @classmethod
  def _trusted(cls, chance_prob: np.ndarray,
               utility: np.ndarray) -> GameModel:
    """A model of arrays the engine made itself and knows to be valid
    (read-only float64 arrays of the tree's shapes: the compiled tree's
    own, a chance sample drawn from its checked probabilities), without
    checking them again: per iteration of a sampling solver the check
    would cost as much as the sampling. Private to the engine: everything
    else goes through the constructor."""
    model = cls.__new__(cls)
    model._chance_prob = chance_prob
    model._utility = utility
    return model

  @property
  def chance_prob(self) -> np.ndarray:
    """[histories] the probability of each chance edge (1 elsewhere)."""
    return self._chance_prob

  @property
  def utility(self) -> np.ndarray:
    """[histories, players] the payoffs (0 away from terminals)."""
    return self._utility

  def __iter__(self) -> Iterator[np.ndarray]:
    return iter((self._chance_prob, self._utility))

  def __eq__(self, other: object) -> bool:
    if not isinstance(other, GameModel):
      return NotImplemented
    return (np.array_equal(self.chance_prob, other.chance_prob) and
            np.array_equal(self.utility, other.utility))

  __hash__ = None  # Equal by value, but arrays are not hashable.

  def __reduce__(self):
    return (_unpickle, (self._chance_prob, self._utility))

  def __repr__(self) -> str:
    return (f"GameModel(histories={self._utility.shape[0]}, "
            f"players={self._utility.shape[1]})")


def _unpickle(chance_prob: np.ndarray, utility: np.ndarray) -> GameModel:
  """A model pickled from a checked one (read-only again)."""
  # pylint: disable-next=protected-access
  return GameModel._trusted(read_only(chance_prob), read_only(utility))


def read_only(array: np.ndarray) -> np.ndarray:
  """A read-only view of ``array`` (which stays as writeable as it was).

  Args:
    array: any numpy array.

  Returns:
    The view.
  """
  view = array.view()
  view.setflags(write=False)
  return view


def _frozen(tree: TreeLayout, name: str, value: object,
            shape: tuple[int, ...]) -> np.ndarray:
  """``value`` as a read-only float64 array of ``shape``: made read-only in
  place if it is a contiguous float64 array owning its data, else copied
  (a view could change through its base)."""
  array = float_array(tree, name, value, shape)
  if array.base is not None or not array.flags.c_contiguous:
    array = array.copy()
  array.setflags(write=False)  # Before the check: what is checked stays.
  return array


def _check_chance(tree: TreeLayout, chance_prob: np.ndarray) -> None:
  bad = passes.chance_distribution_problem(tree.parent, tree.node_player,
                                           chance_prob, CHANCE_SUM_TOLERANCE)
  if bad >= 0:
    start, members = tree.children_lists()
    children = members[start[bad]:start[bad + 1]]
    raise ValueError(
        f"chance_prob must hold a probability distribution over the "
        f"outcomes of every chance node of {tree.game_string}: values in "
        f"[0, 1] summing to 1; at chance history {bad} "
        f"({tree.state(bad).history_str()!r}) it holds "
        f"{chance_prob[children].tolist()[:8]}.")


def _check_utility(tree: TreeLayout, utility: np.ndarray) -> None:
  bad = passes.utility_problem(tree.node_player, utility)
  if bad >= 0:
    raise ValueError(
        f"utility must be finite, and 0 away from terminal histories, for "
        f"{tree.game_string}; history {bad} "
        f"({tree.state(bad).history_str()!r}) has {utility[bad].tolist()}.")
