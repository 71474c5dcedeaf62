"""The compiled game tree and its game views: the engine's public classes.

:class:`GameTree` is a pyspiel game compiled into the arrays of its base
class :class:`~spiel_ext.engine.layout.TreeLayout`, with the checks of a
player and a policy, and the games the passes run on: ``tree.view()`` (the
compiled game), ``tree.with_model(chance_prob, utility)`` (a model of it,
checked once), ``tree.with_chance_sample(uniforms)`` (one chance outcome
drawn per chance node), and the OpenSpiel-style pass methods
(``tree.values(policy)``, ``tree.best_response(policy, player)``, ...),
each the function of the same name in
:mod:`~spiel_ext.engine.regret_passes`,
:mod:`~spiel_ext.engine.response_passes` or
:mod:`~spiel_ext.engine.belief_passes` on the compiled game.

A :class:`GameView` pairs a GameTree with a
:class:`~spiel_ext.engine.model.GameModel` (chance probabilities and
utilities). ``tree.view()`` is the compiled game itself;
``tree.with_model(chance_prob, utility)`` the same tree with a learner's
model of the game (a posterior draw or mean, a sampled chance outcome),
checked once when the view is made. The view has each pass as a method
too::

    view = tree.with_model(chance_prob, utility)
    value, best, _ = view.best_response(policy, player)

A tree makes its views and a view turns back to its tree for another
model, so the two classes share this module, the engine's top: the modules
below take a tree's layout, or a game as the passes read it
(:class:`~spiel_ext.engine.inputs.ViewLike`), and import only downwards.
"""

from __future__ import annotations

import functools
import warnings
import weakref

import numpy as np

from spiel_ext.engine import belief_passes, passes, regret_passes
from spiel_ext.engine import response_passes
from spiel_ext.engine.inputs import check_player
from spiel_ext.engine.layout import TreeLayout
from spiel_ext.engine.model import GameModel, read_only
from spiel_ext.engine.regret_passes import PlayerPass
from spiel_ext.engine.strategy import check_policy_shape

__all__ = ["GameTree", "GameView"]

Array = np.ndarray


class GameTree(TreeLayout):
  """A pyspiel game compiled into flat numpy arrays.

  Build one with :func:`spiel_ext.engine.compile_game`; the constructor only
  assembles arrays that were already computed. The stored arrays are the
  tree's definition and are not to be written to. The arrays and schedules
  are described in :mod:`spiel_ext.engine.layout`.

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
    """Indices of the infosets where ``player`` acts, in row order."""
    self.check_player(player)
    return np.arange(self.player_rows[player].start,
                     self.player_rows[player].stop)

  # --------------------------------------------------------------- policies
  def uniform_policy(self) -> np.ndarray:
    """The uniform random behaviour strategy as a [infosets, actions] array."""
    return self.infoset_legal / self.infoset_num_actions[:, None]

  def check_policy(self, policy: np.ndarray, name: str = "policy") -> None:
    """Raises ValueError unless ``policy`` is a [infosets, actions] array
    (the shape check of :func:`spiel_ext.engine.check_strategy`)."""
    check_policy_shape(self, policy, name)

  def check_player(self, player: int) -> None:
    """Raises ValueError unless ``player`` is a player of the game."""
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
    """The compiled game as the passes see it. The same view is returned
    for as long as one is in use (the tree keeps it weakly: a view refers
    to its tree, so a tree holding its view would never be freed without
    the cycle collector)."""
    view = self._view_ref() if self._view_ref is not None else None
    if view is None:
      view = GameView(self, self.model)
      self._view_ref = weakref.ref(view)
    return view

  def with_model(self, chance_prob: np.ndarray | None = None,
                 utility: np.ndarray | None = None) -> GameView:
    """This tree with a model of the game: ``chance_prob`` [histories] and
    ``utility`` [histories, players] (not necessarily zero-sum) instead of
    the compiled game's; None keeps the compiled game's array.

    The arrays are checked here, once, and handed over: a C-contiguous
    float64 array that owns its data is made read-only in place, anything
    else is copied (see :class:`~spiel_ext.engine.model.GameModel`).

    Raises:
      ValueError: an array of the wrong shape, a chance node whose
        probabilities are not a distribution, or a utility that is not
        finite or not 0 away from terminals.
    """
    if chance_prob is None and utility is None:
      return self.view()
    return GameView(self, GameModel(self, chance_prob, utility))

  def sample_chance(self, rng: np.random.Generator) -> np.ndarray:
    """Chance probabilities with one outcome drawn at every chance node.

    Returns a ``chance_prob`` array: 1 on each chance node's drawn outcome
    (drawn from the game's own distribution with ``rng``), 0 on the others.
    The passes on ``tree.with_model(chance_prob=sample)`` give the
    chance-sampled values of Monte Carlo CFR (Lanctot, Waugh, Zinkevich,
    Bowling, "Monte Carlo Sampling for Regret Minimization in Extensive
    Games", NeurIPS 2009): the reach of the sampled history divided by its
    sampling probability. :meth:`with_chance_sample` makes that view
    directly.
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
    """The arrays of ``with_model(chance_prob, utility)``'s model, checked
    and read-only as described there; None stays None.

    Raises:
      ValueError: as :meth:`with_model`.
    """
    model = self.with_model(chance_prob, utility).model
    return (None if chance_prob is None else model.chance_prob,
            None if utility is None else model.utility)

  def _model_view(self, chance_prob: Array | None,
                  utility: Array | None) -> GameView | GameTree:
    """The game of the deprecated ``chance_prob``/``utility`` keywords of
    the pass methods: the tree itself without them; else a view of them,
    checked on every call, the caller's arrays left as they were (copied if
    writeable)."""
    if chance_prob is None and utility is None:
      return self
    warnings.warn(
        "the chance_prob= and utility= arguments of GameTree's passes are "
        "deprecated: make the model's view once with "
        "tree.with_model(chance_prob, utility) and call its passes.",
        DeprecationWarning, stacklevel=3)
    copied = [value.copy() if isinstance(value, np.ndarray) and
              value.flags.writeable else value
              for value in (chance_prob, utility)]
    return self.with_model(*copied)

  # ---------------------------------------- passes (on the compiled game)
  # Each is the function of the same name in regret_passes,
  # response_passes or belief_passes on the compiled game.
  def edge_weights(self, policy: Array,
                   chance_prob: Array | None = None) -> Array:
    """Probability of each history's incoming edge under ``policy``."""
    return regret_passes.edge_weights(self._model_view(chance_prob, None),
                                      policy)

  def reach(self, policy: Array, chance_prob: Array | None = None) -> Array:
    """Reach probabilities [histories, players + 1] (see
    :func:`~spiel_ext.engine.regret_passes.reach`)."""
    return regret_passes.reach(self._model_view(chance_prob, None), policy)

  def values(self, policy: Array, chance_prob: Array | None = None,
             utility: Array | None = None) -> Array:
    """Expected utility of every player below every history, [histories,
    players]."""
    return regret_passes.values(self._model_view(chance_prob, utility),
                                policy)

  def root_values(self, policy: Array | None = None,
                  chance_prob: Array | None = None,
                  utility: Array | None = None,
                  reach: Array | None = None) -> Array:
    """Each player's expected utility at the root (from terminal reaches)."""
    return regret_passes.root_values(self._model_view(chance_prob, utility),
                                     policy, reach)

  def counterfactual_values(self, policy: Array,
                            chance_prob: Array | None = None,
                            utility: Array | None = None,
                            reach: Array | None = None,
                            values: Array | None = None) -> Array:
    """v_i(I, a) = sum_{h in I} x_{-i}(h) u_i(h.a) for every infoset [I, A]
    (see :func:`~spiel_ext.engine.regret_passes.counterfactual_values`)."""
    return regret_passes.counterfactual_values(
        self._model_view(chance_prob, utility), policy, reach, values)

  def player_counterfactual_values(self, policy: Array, player: int,
                                   chance_prob: Array | None = None,
                                   utility: Array | None = None
                                   ) -> PlayerPass:
    """The fused pass regret minimisers run once per player and iteration
    (see :func:`~spiel_ext.engine.regret_passes.
    player_counterfactual_values`)."""
    return regret_passes.player_counterfactual_values(
        self._model_view(chance_prob, utility), policy, player)

  def infoset_reach(self, reach: Array) -> tuple[Array, Array]:
    """Per-infoset reach sums (own, others) from a reach array (see
    :func:`~spiel_ext.engine.regret_passes.infoset_reach`)."""
    return regret_passes.infoset_reach(self, reach)

  def uniform_reach(self) -> Array:
    """reach() of the uniform random profile (computed once)."""
    return self._uniform_reach

  def best_response(self, policy: Array, player: int, *,
                    min_action_prob: float = 0.0,
                    chance_prob: Array | None = None,
                    utility: Array | None = None,
                    reach: Array | None = None,
                    terminal_others: Array | None = None
                    ) -> tuple[float, Array, Array]:
    """Best response of ``player`` to the others' part of ``policy`` (see
    :func:`~spiel_ext.engine.response_passes.best_response`)."""
    return response_passes.best_response(
        self._model_view(chance_prob, utility), policy, player,
        min_action_prob=min_action_prob, reach=reach,
        terminal_others=terminal_others)

  def weighted_best_response(self, policy: Array, player: int, *,
                             infoset_weight: Array | None = None,
                             min_action_prob: float = 0.0
                             ) -> tuple[float, Array, Array]:
    """Best response by backward induction on values, OpenSpiel's order
    (see :func:`~spiel_ext.engine.response_passes.weighted_best_response`)."""
    return response_passes.weighted_best_response(
        self, policy, player, infoset_weight=infoset_weight,
        min_action_prob=min_action_prob)

  def best_response_actions(self, policy: Array, player: int, *,
                            min_action_prob: float = 0.0,
                            tie_tolerance: float = 1e-9) -> Array:
    """The best-response choice at each infoset, as OpenSpiel makes it (see
    :func:`~spiel_ext.engine.response_passes.best_response_actions`)."""
    return response_passes.best_response_actions(
        self, policy, player, min_action_prob=min_action_prob,
        tie_tolerance=tie_tolerance)

  def beliefs(self, policy: Array, player: int) -> tuple[Array, Array]:
    """Beliefs over the histories of ``player``'s infosets (see
    :func:`~spiel_ext.engine.belief_passes.beliefs`)."""
    return belief_passes.beliefs(self, policy, player)

  def belief_action_values(self, policy: Array, player: int, belief: Array,
                           values: Array | None = None) -> Array:
    """Belief-weighted action values on ``player``'s rows (see
    :func:`~spiel_ext.engine.belief_passes.belief_action_values`)."""
    return belief_passes.belief_action_values(self, policy, player,
                                              belief, values)

  def sequential_best_values(self, policy: Array, player: int,
                             belief: Array) -> Array:
    """Best value from each of ``player``'s infosets on under ``belief``
    (see :func:`~spiel_ext.engine.belief_passes.sequential_best_values`)."""
    return belief_passes.sequential_best_values(self, policy, player,
                                                belief)

  @functools.cached_property
  def _uniform_reach(self) -> np.ndarray:
    return self.reach(self.uniform_policy())


class GameView:
  """A compiled tree with the chance probabilities and utilities of a game.

  Immutable. Make one with ``tree.view()`` or ``tree.with_model(...)``.

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
    """This view's tree with another model (see ``GameTree.with_model``);
    None keeps the compiled game's array."""
    return self.tree.with_model(chance_prob, utility)

  # ------------------------------------------------------- regret passes
  def edge_weights(self, policy: np.ndarray) -> np.ndarray:
    """See :func:`regret_passes.edge_weights`."""
    return regret_passes.edge_weights(self, policy)

  def reach(self, policy: np.ndarray) -> np.ndarray:
    """See :func:`regret_passes.reach`."""
    return regret_passes.reach(self, policy)

  def values(self, policy: np.ndarray) -> np.ndarray:
    """See :func:`regret_passes.values`."""
    return regret_passes.values(self, policy)

  def root_values(self, policy: np.ndarray | None = None,
                  reach: np.ndarray | None = None) -> np.ndarray:
    """See :func:`regret_passes.root_values`."""
    return regret_passes.root_values(self, policy, reach)

  def counterfactual_values(self, policy: np.ndarray,
                            reach: np.ndarray | None = None,
                            values: np.ndarray | None = None) -> np.ndarray:
    """See :func:`regret_passes.counterfactual_values`."""
    return regret_passes.counterfactual_values(self, policy, reach, values)

  def player_counterfactual_values(self, policy: np.ndarray,
                                   player: int) -> PlayerPass:
    """See :func:`regret_passes.player_counterfactual_values`."""
    return regret_passes.player_counterfactual_values(self, policy, player)

  def infoset_reach(self,
                    reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """See :func:`regret_passes.infoset_reach`."""
    return regret_passes.infoset_reach(self, reach)

  # ----------------------------------------------------- best responses
  def best_response(self, policy: np.ndarray, player: int, *,
                    min_action_prob: float = 0.0,
                    reach: np.ndarray | None = None,
                    terminal_others: np.ndarray | None = None
                    ) -> tuple[float, np.ndarray, np.ndarray]:
    """See :func:`response_passes.best_response`."""
    return response_passes.best_response(
        self, policy, player, min_action_prob=min_action_prob, reach=reach,
        terminal_others=terminal_others)

  def weighted_best_response(
      self, policy: np.ndarray, player: int, *,
      infoset_weight: np.ndarray | None = None,
      min_action_prob: float = 0.0) -> tuple[float, np.ndarray, np.ndarray]:
    """See :func:`response_passes.weighted_best_response`."""
    return response_passes.weighted_best_response(
        self, policy, player, infoset_weight=infoset_weight,
        min_action_prob=min_action_prob)

  def best_response_actions(self, policy: np.ndarray, player: int, *,
                            min_action_prob: float = 0.0,
                            tie_tolerance: float = 1e-9) -> np.ndarray:
    """See :func:`response_passes.best_response_actions`."""
    return response_passes.best_response_actions(
        self, policy, player, min_action_prob=min_action_prob,
        tie_tolerance=tie_tolerance)

  # ------------------------------------------------------------ beliefs
  def beliefs(self, policy: np.ndarray,
              player: int) -> tuple[np.ndarray, np.ndarray]:
    """See :func:`belief_passes.beliefs`."""
    return belief_passes.beliefs(self, policy, player)

  def belief_action_values(self, policy: np.ndarray, player: int,
                           belief: np.ndarray,
                           values: np.ndarray | None = None) -> np.ndarray:
    """See :func:`belief_passes.belief_action_values`."""
    return belief_passes.belief_action_values(self, policy, player, belief,
                                              values)

  def sequential_best_values(self, policy: np.ndarray, player: int,
                             belief: np.ndarray) -> np.ndarray:
    """See :func:`belief_passes.sequential_best_values`."""
    return belief_passes.sequential_best_values(self, policy, player, belief)


# The slots' own setters: a view's attributes are set once, in __init__
# (its __setattr__ refuses), and read as plain slots by every pass.
_set_tree = GameView.tree.__set__
_set_model = GameView.model.__set__
_set_chance_prob = GameView.chance_prob.__set__
_set_utility = GameView.utility.__set__
