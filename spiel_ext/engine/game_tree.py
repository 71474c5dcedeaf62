"""The compiled game tree and its game views: the engine's public classes.

:class:`GameTree` is a pyspiel game compiled into the arrays of its base
class :class:`~spiel_ext.engine.layout.TreeLayout`, with the checks of a
player and a policy, and the games the passes run on: ``tree.view()`` (the
compiled game), ``tree.with_model(chance_prob, utility)`` (a model of it,
checked once; ``tree.with_vouched_model`` takes arrays a learner built
valid by construction, unchecked) and ``tree.with_chance_sample(uniforms)``
(one chance outcome drawn per chance node).

A :class:`GameView` pairs a GameTree with a
:class:`~spiel_ext.engine.model.GameModel` (chance probabilities and
utilities). ``tree.view()`` is the compiled game itself;
``tree.with_model(chance_prob, utility)`` the same tree with a learner's
model of the game (a posterior draw or mean, a sampled chance outcome),
checked once when the view is made.

Each pass is written once, as a function of a game view in
:mod:`~spiel_ext.engine.regret_passes`,
:mod:`~spiel_ext.engine.response_passes` or
:mod:`~spiel_ext.engine.belief_passes`. :class:`PassMethods`, the base of
both classes, has these functions as its methods, so ``view.values(policy)``
is ``regret_passes.values(view, policy)``, and ``tree.values(policy)`` the
same on the compiled game (a tree stands for the view of its compiled
game)::

    view = tree.with_model(chance_prob, utility)
    value, best, _ = view.best_response(policy, player)

A tree makes its views and a view turns back to its tree for another
model, so the two classes share this module, the engine's top: the modules
below take a tree's layout, or a game as the passes read it
(:class:`~spiel_ext.engine.inputs.ViewLike`), and import only downwards.
"""

from __future__ import annotations

import functools
import weakref

import numpy as np

from spiel_ext.engine import belief_passes, passes, regret_passes
from spiel_ext.engine import response_passes
from spiel_ext.engine.inputs import check_player
from spiel_ext.engine.layout import TreeLayout
from spiel_ext.engine.model import GameModel, read_only

__all__ = ["GameTree", "GameView", "PassMethods"]

Array = np.ndarray


class PassMethods:
  """The engine's passes as methods of a game (a GameTree or a GameView).

  Each method is the pass function of the same name, its first argument
  (the game view) the object it is called on: ``game.reach(policy)`` is
  ``regret_passes.reach(game, policy)``. The functions document their
  arguments and results.
  """

  __slots__ = ()

  # regret_passes
  edge_weights = regret_passes.edge_weights
  reach = regret_passes.reach
  values = regret_passes.values
  root_values = regret_passes.root_values
  counterfactual_values = regret_passes.counterfactual_values
  player_counterfactual_values = regret_passes.player_counterfactual_values
  infoset_reach = regret_passes.infoset_reach
  own_reach = regret_passes.own_reach
  # response_passes
  best_response = response_passes.best_response
  weighted_best_response = response_passes.weighted_best_response
  best_response_actions = response_passes.best_response_actions
  # belief_passes
  beliefs = belief_passes.beliefs
  belief_action_values = belief_passes.belief_action_values
  sequential_best_values = belief_passes.sequential_best_values


class GameTree(TreeLayout, PassMethods):
  """A pyspiel game compiled into flat numpy arrays.

  Build one with :func:`spiel_ext.engine.compile_game`; the constructor only
  assembles arrays that were already computed. The stored arrays are the
  tree's definition and are not to be written to. The arrays and schedules
  are described in :mod:`spiel_ext.engine.layout`; the passes, methods of
  the compiled game, in :class:`PassMethods`.

  Args:
    game: the pyspiel game the arrays describe.
    arrays: the arrays named in ``STORED_ARRAYS`` and ``perfect_recall``.
    infoset_keys: the information-state string of each row.
  """

  _view_ref: weakref.ref | None = None  # The last view() made.

  # ------------------------------------------------------------------ info
  def __repr__(self) -> str:
    return (f"GameTree({self.game_string!r}, histories={self.num_histories}, "
            f"infosets={self.num_infosets}, "
            f"terminals={len(self.terminals)})")

  def infosets_of_player(self, player: int) -> np.ndarray:
    """Indices of the infosets where ``player`` acts, in row order.

    Args:
      player: a player of the game.

    Returns:
      The rows ``player_rows[player]`` as an int array.

    Raises:
      ValueError: ``player`` is not a player of the game.
    """
    self.check_player(player)
    return np.arange(self.player_rows[player].start,
                     self.player_rows[player].stop)

  # --------------------------------------------------------------- policies
  def uniform_policy(self) -> np.ndarray:
    """The uniform random behaviour strategy.

    Returns:
      A new float64 [infosets, actions] array: 1 / (number of legal
      actions) on each infoset's legal actions, 0 on the others.
    """
    return self.infoset_legal / self.infoset_num_actions[:, None]

  def check_player(self, player: int) -> None:
    """Raises ValueError unless ``player`` is a player of the game.

    Args:
      player: the value to check.
    """
    check_player(self, player)

  # ----------------------------------------------------------------- views
  @property
  def tree(self) -> GameTree:
    """The tree itself: a tree stands for the view of its compiled game in
    the pass functions (``regret_passes.values(tree, policy)``), which
    read ``.tree``, ``.chance_prob`` and ``.utility``."""
    return self

  @functools.cached_property
  def model(self) -> GameModel:
    """The compiled game's chance probabilities and utilities (read-only
    views of ``chance_prob`` and ``utility``, checked by the compiler)."""
    # pylint: disable-next=protected-access
    return GameModel._trusted(read_only(self.chance_prob),
                              read_only(self.utility))

  def view(self) -> GameView:
    """The compiled game as the passes see it.

    The same view is returned for as long as one is in use (the tree keeps
    it weakly: a view refers to its tree, so a tree holding its view would
    never be freed without the cycle collector).

    Returns:
      The GameView of this tree and its compiled game's model.
    """
    view = self._view_ref() if self._view_ref is not None else None
    if view is None:
      view = GameView(self, self.model)
      self._view_ref = weakref.ref(view)
    return view

  def with_model(self, chance_prob: np.ndarray | None = None,
                 utility: np.ndarray | None = None) -> GameView:
    """This tree with a model of the game.

    The arrays are checked here, once, and handed over: a C-contiguous
    float64 array that owns its data is made read-only in place, anything
    else is copied (see :class:`~spiel_ext.engine.model.GameModel`).

    Args:
      chance_prob: [histories] chance probabilities, or None for the
        compiled game's.
      utility: [histories, players] payoffs (not necessarily zero-sum), or
        None for the compiled game's.

    Returns:
      The GameView of the model (:meth:`view` when both are None).

    Raises:
      ValueError: an array of the wrong shape, a chance node whose
        probabilities are not a distribution, or a utility that is not
        finite or not 0 away from terminals.
    """
    if chance_prob is None and utility is None:
      return self.view()
    return GameView(self, GameModel(self, chance_prob, utility))

  def with_vouched_model(self, chance_prob: np.ndarray | None = None,
                         utility: np.ndarray | None = None) -> GameView:
    """:meth:`with_model` for arrays their caller built and vouches for.

    Not for user input: only for arrays that are valid by construction,
    such as a learner's posterior draw or mean, made from its own counts
    (every chance node a distribution, utilities finite and 0 away from
    terminals). Their values are not checked, which per iteration of a
    learner would cost as much as the draw; an array that is not a
    C-contiguous float64 array of the tree's shape, and no view of another
    array, goes through :meth:`with_model`'s checks instead. The arrays are
    handed over (made read-only in place). The view equals the one
    :meth:`with_model` makes of the same arrays.

    Args:
      chance_prob: [histories] chance probabilities, or None for the
        compiled game's.
      utility: [histories, players] payoffs, or None for the compiled
        game's.

    Returns:
      The GameView of the model.
    """
    if (chance_prob is None and utility is None) or not (
        _handed_over(chance_prob, self.chance_prob.shape) and
        _handed_over(utility, self.utility.shape)):
      return self.with_model(chance_prob, utility)
    own = self.model
    for array in (chance_prob, utility):
      if array is not None:
        array.setflags(write=False)
    # pylint: disable-next=protected-access
    model = GameModel._trusted(
        own.chance_prob if chance_prob is None else chance_prob,
        own.utility if utility is None else utility)
    return GameView(self, model)

  def sample_chance(self, rng: np.random.Generator) -> np.ndarray:
    """Chance probabilities with one outcome drawn at every chance node.

    The passes on ``tree.with_model(chance_prob=sample)`` give the
    chance-sampled values of Monte Carlo CFR (Lanctot, Waugh, Zinkevich,
    Bowling, "Monte Carlo Sampling for Regret Minimization in Extensive
    Games", NeurIPS 2009): the reach of the sampled history divided by its
    sampling probability. :meth:`with_chance_sample` makes that view
    directly.

    Args:
      rng: draws each chance node's outcome from the game's distribution.

    Returns:
      A ``chance_prob`` array: 1 on each chance node's drawn outcome, 0 on
      the others.

    Raises:
      TypeError: ``rng`` is not a numpy Generator.
    """
    if not isinstance(rng, np.random.Generator):
      raise TypeError("rng must be a numpy.random.Generator; got "
                      f"{type(rng).__name__}.")
    return self._chance_sample(rng.random(self.num_chance_nodes))

  def with_chance_sample(self, uniforms: np.ndarray) -> GameView:
    """This tree with one chance outcome drawn at every chance node.

    The k-th chance node in pre-order draws its outcome from the compiled
    game's distribution with ``uniforms[k]`` (in [0, 1)); the view's
    ``chance_prob`` is 1 on the drawn outcomes and 0 on the others (see
    :meth:`sample_chance`), its utility the compiled game's. Drawn here from
    the compiled game's checked probabilities, it is a distribution at
    every chance node whatever ``uniforms`` holds, so it is not checked
    again: a sampling solver's iteration stays as cheap as its pass.

    Args:
      uniforms: float64 [num_chance_nodes], e.g.
        ``rng.random(tree.num_chance_nodes)`` (what :meth:`sample_chance`
        draws), or values shared by chance nodes to correlate them.

    Returns:
      The GameView of the sampled chance outcomes.

    Raises:
      ValueError: ``uniforms`` is not a float64 array of that shape.
    """
    if (type(uniforms) is not np.ndarray or uniforms.dtype.char != "d" or
        uniforms.shape != (self.num_chance_nodes,)):
      raise ValueError(
          f"uniforms must be a float64 array of shape "
          f"({self.num_chance_nodes},) (one per chance node) for "
          f"{self.game_string}; got {uniforms!r:.80}.")
    sample = self._chance_sample(uniforms)
    sample.setflags(write=False)
    # pylint: disable-next=protected-access
    model = GameModel._trusted(sample, self.model.utility)
    return GameView(self, model)

  def _chance_sample(self, uniforms: np.ndarray) -> np.ndarray:
    out = np.empty(self.num_histories)
    passes.sample_chance_outcomes(
        self.node_player, self._children.start, self._children.members,
        self.chance_prob, uniforms, out)
    return out

  def check_model(self, chance_prob: np.ndarray | None = None,
                  utility: np.ndarray | None = None
                  ) -> tuple[np.ndarray | None, np.ndarray | None]:
    """The arrays of ``with_model(chance_prob, utility)``'s model.

    Args:
      chance_prob: as :meth:`with_model`.
      utility: as :meth:`with_model`.

    Returns:
      (chance_prob, utility), checked and read-only as :meth:`with_model`
      describes; None stays None.

    Raises:
      ValueError: as :meth:`with_model`.
    """
    model = self.with_model(chance_prob, utility).model
    return (None if chance_prob is None else model.chance_prob,
            None if utility is None else model.utility)

  # ----------------------------------------------------------------- passes
  def uniform_reach(self) -> Array:
    """``reach`` of the uniform random profile (computed once).

    Returns:
      The [histories, players + 1] reach array (shared: not to be written).
    """
    return self._uniform_reach

  @functools.cached_property
  def _uniform_reach(self) -> np.ndarray:
    return self.reach(self.uniform_policy())


class GameView(PassMethods):
  """A compiled tree with the chance probabilities and utilities of a game.

  Immutable. Make one with ``tree.view()`` or ``tree.with_model(...)``.
  Its passes are the methods of :class:`PassMethods`.

  Args:
    tree: the compiled tree.
    model: the chance probabilities and utilities, checked against it.

  Attributes:
    tree: the compiled tree (structure and schedules).
    model: the GameModel.
    chance_prob: ``model.chance_prob``, read-only [histories].
    utility: ``model.utility``, read-only [histories, players].
  """

  __slots__ = ("tree", "model", "chance_prob", "utility", "__weakref__")
  tree: GameTree
  model: GameModel
  chance_prob: np.ndarray
  utility: np.ndarray

  def __init__(self, tree: GameTree, model: GameModel):
    if not isinstance(model, GameModel):
      raise TypeError(f"model must be a GameModel; got "
                      f"{type(model).__name__}.")
    _set_tree(self, tree)
    _set_model(self, model)
    _set_chance_prob(self, model.chance_prob)
    _set_utility(self, model.utility)

  def __setattr__(self, name: str, value: object) -> None:
    raise AttributeError(f"GameView is immutable: cannot set {name!r}.")

  def __delattr__(self, name: str) -> None:
    raise AttributeError(f"GameView is immutable: cannot delete {name!r}.")

  def __reduce__(self):
    return (GameView, (self.tree, self.model))

  def __repr__(self) -> str:
    own = self.model is self.tree.model
    return (f"GameView({self.tree.game_string!r}, "
            f"{'compiled game' if own else 'model'})")

  def with_model(self, chance_prob: np.ndarray | None = None,
                 utility: np.ndarray | None = None) -> GameView:
    """This view's tree with another model (see ``GameTree.with_model``).

    Args:
      chance_prob: [histories], or None for the compiled game's.
      utility: [histories, players], or None for the compiled game's.

    Returns:
      The GameView of the model.
    """
    return self.tree.with_model(chance_prob, utility)


def _handed_over(array: np.ndarray | None, shape: tuple[int, ...]) -> bool:
  """Whether ``array`` is None or a C-contiguous float64 ndarray of
  ``shape`` that is no view of another array (its own data, or a numba
  kernel's): what a model can take over without a copy."""
  return array is None or (
      type(array) is np.ndarray and array.dtype.char == "d" and
      array.shape == shape and not isinstance(array.base, np.ndarray) and
      array.flags.c_contiguous)


# The slots' own setters: a view's attributes are set once, in __init__
# (its __setattr__ refuses), and read as plain slots by every pass.
_set_tree = GameView.tree.__set__
_set_model = GameView.model.__set__
_set_chance_prob = GameView.chance_prob.__set__
_set_utility = GameView.utility.__set__
