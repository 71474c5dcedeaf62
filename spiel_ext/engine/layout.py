"""The compiled game tree: its array layout and the passes over it.

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

The passes take a policy as a [infosets, num_distinct_actions] float array
(OpenSpiel's ``TabularPolicy.action_probability_array`` layout). Arrays
derived on first use are ``functools.cached_property`` attributes; those
that depend on a player are :class:`PerPlayer` tables built the same way.
"""

from __future__ import annotations

import functools
import numbers
import weakref
from typing import Callable, Generic, NamedTuple, Sequence, TypeVar

import numpy as np
import pyspiel

from spiel_ext.engine import beliefs as belief_passes
from spiel_ext.engine import best_response as response_passes
from spiel_ext.engine import passes

CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)

# The arrays a tree is made of (what the disk cache stores).
STORED_ARRAYS = ("parent", "action", "node_player", "infoset", "chance_prob",
                 "utility", "infoset_player", "infoset_legal",
                 "infoset_history")

T = TypeVar("T")


class PlayerPass(NamedTuple):
  """What GameTree.player_counterfactual_values returns (player's rows)."""
  cfv: np.ndarray
  own_reach: np.ndarray
  others_reach: np.ndarray


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


class GameTree:
  """A pyspiel game compiled into flat numpy arrays.

  Build one with :func:`spiel_ext.engine.compile_game`; the constructor only
  assembles arrays that were already computed.

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
    self._policy_shape = (self.num_infosets, self.num_distinct_actions)
    self._reach_shape = (self.num_histories, self.num_players + 1)
    self._terminals_shape = self.terminals.shape
    # Model arrays check_model has checked, by id (see _is_checked).
    self._checked: weakref.WeakValueDictionary = weakref.WeakValueDictionary()

  # ------------------------------------------------------------------ info
  def __repr__(self) -> str:
    return (f"GameTree({self.game_string!r}, histories={self.num_histories}, "
            f"infosets={self.num_infosets}, "
            f"terminals={len(self.terminals)})")

  def arrays(self) -> dict[str, np.ndarray]:
    """The stored arrays by name (what the disk cache saves)."""
    arrays = {name: getattr(self, name) for name in STORED_ARRAYS}
    arrays["perfect_recall"] = np.array(self.perfect_recall)
    return arrays

  def infosets_of_player(self, player: int) -> np.ndarray:
    """Indices of the infosets where ``player`` acts, in row order."""
    self.check_player(player)
    return np.arange(self.player_rows[player].start,
                     self.player_rows[player].stop)

  def history_actions(self, history: int) -> list[int]:
    """The action sequence from the root to ``history``."""
    actions = []
    while history > 0:
      actions.append(int(self.action[history]))
      history = int(self.parent[history])
    return actions[::-1]

  def state(self, history: int) -> pyspiel.State:
    """A fresh pyspiel state for compiled history ``history``."""
    state = self.game.new_initial_state()
    for action in self.history_actions(history):
      state.apply_action(action)
    return state

  def children_lists(self) -> Groups:
    """The children of every history: (start, members), the children of h
    being members[start[h]:start[h + 1]] in increasing history index (the
    str(action) order of the compiler). Computed once."""
    return self._children

  def sample_chance(self, rng: np.random.Generator) -> np.ndarray:
    """Chance probabilities with one outcome drawn at every chance node.

    Returns a ``chance_prob`` override: 1 on each chance node's drawn
    outcome (drawn from the game's own distribution with ``rng``), 0 on the
    others. Passed to the passes, it gives the chance-sampled values of
    Monte Carlo CFR (Lanctot, Waugh, Zinkevich, Bowling, "Monte Carlo
    Sampling for Regret Minimization in Extensive Games", NeurIPS 2009):
    the reach of the sampled history divided by its sampling probability.
    """
    if not isinstance(rng, np.random.Generator):
      raise TypeError("rng must be a numpy.random.Generator; got "
                      f"{type(rng).__name__}.")
    out = np.empty(self.num_histories)
    passes.sample_chance_outcomes(
        self.node_player, self._children.start, self._children.members,
        self.chance_prob, rng.random(self._num_chance_nodes), out)
    return out

  # --------------------------------------------------------------- policies
  def uniform_policy(self) -> np.ndarray:
    """The uniform random behaviour strategy as a [infosets, actions] array."""
    return self.infoset_legal / self.infoset_num_actions[:, None]

  def check_policy(self, policy: np.ndarray, name: str = "policy") -> None:
    """Raises ValueError unless ``policy`` is a [infosets, actions] array."""
    expected = (self.num_infosets, self.num_distinct_actions)
    if not isinstance(policy, np.ndarray) or policy.shape != expected:
      got = getattr(policy, "shape", type(policy).__name__)
      raise ValueError(f"{name} must be a float array of shape {expected} for "
                       f"{self.game_string}; got {got}.")

  def check_player(self, player: int) -> None:
    """Raises ValueError unless ``player`` is a player of the game."""
    if type(player) is int and 0 <= player < self.num_players:
      return  # The common case, without the slower checks below.
    if (isinstance(player, (bool, np.bool_)) or
        not isinstance(player, numbers.Integral) or
        not 0 <= player < self.num_players):
      raise ValueError(f"player must be an int in 0..{self.num_players - 1} "
                       f"for {self.game_string}; got {player!r}.")

  def edge_weights(self, policy: np.ndarray,
                   chance_prob: np.ndarray | None = None) -> np.ndarray:
    """Probability of each history's incoming edge under ``policy``."""
    return passes.edge_weights(self.edge_policy_index,
                               self._chance(chance_prob),
                               self._policy(policy))

  # ----------------------------------------------------------------- passes
  # Every pass takes optional ``chance_prob`` ([histories], the probability
  # of each chance edge) and ``utility`` ([histories, players], non-zero at
  # terminals only) to use instead of the game's, on the same tree.
  def reach(self, policy: np.ndarray,
            chance_prob: np.ndarray | None = None) -> np.ndarray:
    """Reach probabilities [histories, players + 1]; the last column is chance.

    Column p < num_players is player p's own contribution x_p(h); the product
    of all columns is the probability of reaching h.
    """
    weights = self.edge_weights(policy, chance_prob)
    return passes.reach_probabilities(self.parent, self.parent_slot, weights,
                                      self.num_players)

  def values(self, policy: np.ndarray, chance_prob: np.ndarray | None = None,
             utility: np.ndarray | None = None) -> np.ndarray:
    """Expected utility of every player below every history [histories, players]."""
    weights = self.edge_weights(policy, chance_prob)
    return passes.expected_values(self.parent, weights,
                                  self._utility(utility))

  def root_values(self, policy: np.ndarray | None = None,
                  chance_prob: np.ndarray | None = None,
                  utility: np.ndarray | None = None,
                  reach: np.ndarray | None = None) -> np.ndarray:
    """Each player's expected utility at the root (from terminal reaches)."""
    reach = (self.reach(policy, chance_prob) if reach is None else
             self._array("reach", reach, self._reach_shape))
    return passes.terminal_values(self.terminals, reach,
                                  self._utility(utility))

  def counterfactual_values(
      self, policy: np.ndarray, chance_prob: np.ndarray | None = None,
      utility: np.ndarray | None = None,
      reach: np.ndarray | None = None,
      values: np.ndarray | None = None) -> np.ndarray:
    """v_i(I, a) = sum_{h in I} x_{-i}(h) u_i(h.a) for every infoset [I, A].

    i is the player acting at I. Entries of illegal actions are 0.
    """
    reach = (self.reach(policy, chance_prob) if reach is None else
             self._array("reach", reach, self._reach_shape))
    values = (self.values(policy, chance_prob, utility) if values is None else
              self._array("values", values, self.utility.shape))
    return passes.counterfactual_values(
        self.parent, self.node_player, self.infoset, self.action, reach, values,
        self.num_infosets, self.num_distinct_actions)

  def best_response(
      self, policy: np.ndarray, player: int, *, min_action_prob: float = 0.0,
      chance_prob: np.ndarray | None = None,
      utility: np.ndarray | None = None,
      reach: np.ndarray | None = None,
      terminal_others: np.ndarray | None = None,
  ) -> tuple[float, np.ndarray, np.ndarray]:
    """Best response of ``player`` to the other players' part of ``policy``.

    With ``min_action_prob`` = eps > 0 the response is restricted to
    strategies that play every legal action with probability at least eps:
    eps on every action plus (1 - |A| eps) on the best one (the perturbed
    best response of Tim P. Schulze, "A Generalized Extensive-Form
    Fictitious Play Algorithm", 2023, arXiv:2310.09658, eq. 24).

    Returns:
      (value, best_action, action_values): the best-response value of
      ``player`` at the root; for each infoset of ``player`` the chosen action
      (-1 elsewhere); and [I, A] counterfactual action values
      sum_{h in I} x_{-i}(h) v^BR(h.a) at ``player``'s infosets.
    """
    if type(player) is not int or not 0 <= player < self.num_players:
      self.check_player(player)
    if terminal_others is not None:
      others = terminal_others
      if (type(others) is not np.ndarray or
          others.shape != self._terminals_shape):
        others = self._array("terminal_others", others,
                             self._terminals_shape)
    elif reach is None:
      others = passes.others_reach(
          self.parent, self.parent_slot, self.edge_policy_index,
          self._chance(chance_prob), self._policy(policy), player)[
              self.terminals]
    else:
      others = passes.others_from_reach(
          self._array("reach", reach, self._reach_shape), player,
          self.terminals)
    return response_passes.best_response(
        self.terminals, self.infoset, self._utility(utility), others, player,
        *self._best_response_schedules[player], self.infoset_legal,
        self.infoset_num_actions, float(min_action_prob))

  def player_counterfactual_values(
      self, policy: np.ndarray, player: int,
      chance_prob: np.ndarray | None = None,
      utility: np.ndarray | None = None,
  ) -> PlayerPass:
    """The fused pass regret minimisers run once per player and iteration.

    Returns:
      PlayerPass(cfv, own_reach, others_reach), arrays on ``player``'s rows
      only (``tree.player_rows[player]``): cfv[I, a] =
      sum_{h in I} x_{-i}(h) u_i(h.a); own_reach[I] = x_i(I) under perfect
      recall, else sum_{h in I} x_i(h) as OpenSpiel's CFR accumulates it;
      others_reach[I] = sum_{h in I} x_{-i}(h).
    """
    self.check_player(player)
    rows = self.player_rows[player]
    policy = self._policy(policy)
    cfv = np.zeros((rows.stop - rows.start, self.num_distinct_actions))
    track_own = not self.perfect_recall
    own_reach = np.zeros(rows.stop - rows.start)
    others_reach = np.zeros(rows.stop - rows.start)
    passes.player_regret_pass(
        self.parent, self.parent_slot, self.edge_policy_index,
        self.node_player, self.infoset, self._chance(chance_prob),
        self._utility(utility), policy, player, track_own, cfv, own_reach,
        others_reach, rows.start)
    if not track_own:
      own_reach = passes.own_reach_of_infosets(self.own_sequence, policy,
                                               rows.start, rows.stop)
    return PlayerPass(cfv, own_reach, others_reach)

  def infoset_reach(self, reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-infoset reach sums from a [histories, players + 1] reach array.

    Returns:
      (own, others): own[I] = x_i(I), the acting player's own reach of I
      (equal on every history of I under perfect recall), and
      others[I] = sum_{h in I} x_{-i}(h), chance and opponents' reach.
    """
    return passes.infoset_reach(
        self.node_player, self.infoset,
        self._array("reach", reach, self._reach_shape), self.num_infosets)

  def uniform_reach(self) -> np.ndarray:
    """reach() of the uniform random profile (computed once)."""
    return self._uniform_reach

  # ---------------------------------------------------------------- beliefs
  def beliefs(self, policy: np.ndarray,
              player: int) -> tuple[np.ndarray, np.ndarray]:
    """Beliefs over the histories of ``player``'s infosets.

    The belief of Ju, Fang, Luo, "Beyond Nash Equilibrium: Achieving
    Bayesian Perfect Equilibrium with Belief Update Fictitious Play", DDCLS
    2024, arXiv:2409.02706 (section 4), with i = ``player``, is
    B(I, h) = w(h) / sum_{h' in I} w(h') for the first of these weights
    whose sum over I is positive:

      1. w(h) = x_{-i}(h), the reach of h by chance and the other players
         under ``policy`` (I is on path);
      2. w(h) = chance reach of h times the reach by uniformly random
         opponents (the others never reach I);
      3. w(h) = the reach of h when chance too is uniform over its outcomes,
         times uniformly random opponents (I lies only below
         probability-0 chance outcomes). This one is always positive.

    Returns:
      (belief, on_path): belief[h] at ``player``'s histories (0 elsewhere),
      and on_path[I] for the player's rows (``player_rows[player]``): True
      where the others reach I (rule 1).
    """
    self.check_player(player)
    rows = self.player_rows[player]
    others = passes.others_reach(
        self.parent, self.parent_slot, self.edge_policy_index,
        self.chance_prob, self._policy(policy),
        player)
    return belief_passes.belief_weights(
        self.node_player, self.infoset, others,
        *self._belief_fallbacks[player], player, rows.start,
        rows.stop - rows.start)

  def belief_action_values(self, policy: np.ndarray, player: int,
                           belief: np.ndarray,
                           values: np.ndarray | None = None) -> np.ndarray:
    """Belief-weighted action values on ``player``'s rows, [rows, A].

    Q(I, a) = sum_{h in I} belief[h] u_i(h.a), with u_i(h.a) ``player``'s
    expected utility below h.a when everyone, ``player`` included, plays
    ``policy`` on (BUFP's best decision with its own average strategy as the
    continuation). Entries of illegal actions are 0.

    Args:
      policy: a [infosets, actions] strategy.
      player: whose rows.
      belief: [histories], e.g. ``beliefs(policy, player)[0]``.
      values: ``values(policy)`` if already computed.
    """
    self.check_player(player)
    belief = self._array("belief", belief, (self.num_histories,))
    values = (self.values(policy) if values is None else
              self._array("values", values, self.utility.shape))
    rows = self.player_rows[player]
    edges = self._player_edges[player]
    num_actions = self.num_distinct_actions
    flat = np.bincount(
        self.edge_policy_index[edges] - rows.start * num_actions,
        weights=belief[self.parent[edges]] * values[edges, player],
        minlength=(rows.stop - rows.start) * num_actions)
    return flat.reshape(rows.stop - rows.start, num_actions)

  def sequential_best_values(self, policy: np.ndarray, player: int,
                             belief: np.ndarray) -> np.ndarray:
    """Best value ``player`` can get from each of its infosets on, reached
    with ``belief`` (see :func:`beliefs.sequential_best_values`), [rows]."""
    self.check_player(player)
    rows = self.player_rows[player]
    belief = self._array("belief", belief, (self.num_histories,))
    return belief_passes.sequential_best_values(
        self.parent, self.parent_slot, self.node_player, self.infoset,
        self.edge_weights(policy), self.utility, player, belief,
        self._subtree_end, self._own_edges[player], self.own_sequence,
        *self._infoset_histories, rows.start, rows.stop, self.infoset_legal)

  def weighted_best_response(
      self, policy: np.ndarray, player: int, *,
      infoset_weight: np.ndarray | None = None,
      min_action_prob: float = 0.0) -> tuple[float, np.ndarray, np.ndarray]:
    """Best response by backward induction on values (XFP's, BUFP(X)'s).

    With the default ``infoset_weight`` (x_{-i}, multiplied in OpenSpiel's
    order) it is OpenSpiel's ``BestResponsePolicy`` computed the same way,
    so its choices match OpenSpiel's even at exact ties that round-off
    decides; pass a belief (``beliefs()[0]``) for the sequential best
    response to that belief. :meth:`best_response` is the faster pass for
    values alone.

    Returns:
      (value, best_action, q): the player's value at the root, the chosen
      action per infoset (-1 at other players'), and Q[I, a] = sum_{h in I}
      infoset_weight[h] U(h.a).
    """
    self.check_player(player)
    weights = self.edge_weights(policy)
    if infoset_weight is None:
      infoset_weight = response_passes.counterfactual_weights(
          self.parent, self.node_player, weights, player)
    else:
      infoset_weight = self._array("infoset_weight", infoset_weight,
                                   (self.num_histories,))
    return response_passes.weighted_best_response(
        self.node_player, self.infoset, self.action, weights, self.utility,
        player, *self._level_schedules[player], *self._children,
        infoset_weight, *self._infoset_histories, self.infoset_legal,
        self.infoset_num_actions, float(min_action_prob))

  def best_response_actions(self, policy: np.ndarray, player: int, *,
                            min_action_prob: float = 0.0,
                            tie_tolerance: float = 1e-9) -> np.ndarray:
    """The best-response choice at each infoset, as OpenSpiel makes it.

    Uses the fast pass (:meth:`best_response`) when every infoset of the
    player has a clear winner; when two actions are within
    ``tie_tolerance`` it redoes the choice with
    :meth:`weighted_best_response`, which sums in OpenSpiel's order, so
    that round-off breaks exact ties the way OpenSpiel's best response does.
    """
    _, best, q = self.best_response(policy, player,
                                    min_action_prob=min_action_prob)
    rows = self.player_rows[player]
    if response_passes.has_near_tie(q, self.infoset_legal, rows.start,
                                    rows.stop, tie_tolerance):
      _, best, _ = self.weighted_best_response(
          policy, player, min_action_prob=min_action_prob)
    return best

  # ------------------------------------------------- derived on first use
  @functools.cached_property
  def _children(self) -> Groups:
    return Groups(*passes.children_lists(self.parent))

  @functools.cached_property
  def _num_chance_nodes(self) -> int:
    return int(np.count_nonzero(self.node_player == passes.CHANCE))

  @functools.cached_property
  def _infoset_histories(self) -> Groups:
    return Groups(*passes.infoset_histories(self.infoset, self.num_infosets))

  @functools.cached_property
  def _subtree_end(self) -> np.ndarray:
    return passes.subtree_ends(self.parent)

  @functools.cached_property
  def _uniform_reach(self) -> np.ndarray:
    return self.reach(self.uniform_policy())

  @functools.cached_property
  def _best_response_schedules(self) -> PerPlayer[BestResponseSchedule]:
    parent, node_player, action = self.parent, self.node_player, self.action
    num_actions = self.num_distinct_actions
    return PerPlayer(lambda player: BestResponseSchedule(
        *response_passes.best_response_schedule(parent, node_player, action,
                                                player, num_actions)))

  @functools.cached_property
  def _level_schedules(self) -> PerPlayer[LevelSchedule]:
    parent, node_player, infoset = self.parent, self.node_player, self.infoset
    return PerPlayer(lambda player: LevelSchedule(
        *response_passes.level_schedule(parent, node_player, infoset,
                                        player)))

  @functools.cached_property
  def _own_edges(self) -> PerPlayer[np.ndarray]:
    parent, node_player = self.parent, self.node_player
    index = self.edge_policy_index.astype(np.int64)
    return PerPlayer(lambda player: belief_passes.own_edges(
        parent, node_player, index, player))

  @functools.cached_property
  def _player_edges(self) -> PerPlayer[np.ndarray]:
    """The histories whose parent is one of the player's."""
    parent_slot = self.parent_slot
    return PerPlayer(lambda player: np.flatnonzero(parent_slot == player))

  @functools.cached_property
  def _belief_fallbacks(self) -> PerPlayer[BeliefFallbacks]:
    # Uniform play everywhere: each edge weighs 1 / (number of siblings),
    # which at a decision node is 1 / |A(I)|. Rule 2 keeps chance's own
    # probabilities on chance edges.
    children = np.bincount(self.parent[1:], minlength=self.num_histories)
    uniform_all = np.ones(self.num_histories)
    uniform_all[1:] = 1.0 / children[self.parent[1:]]
    from_chance = self.parent_slot == self.num_players
    uniform_opponents = np.where(from_chance, self.chance_prob, uniform_all)
    parent, parent_slot = self.parent, self.parent_slot
    no_edges = np.full(self.num_histories, -1, dtype=np.int64)
    no_policy = np.zeros((1, 1))

    def build(player: int) -> BeliefFallbacks:
      return BeliefFallbacks(*(
          passes.others_reach(parent, parent_slot, no_edges, weights,
                              no_policy, player)
          for weights in (uniform_opponents, uniform_all)))
    return PerPlayer(build)

  # ------------------------------------------------------------- overrides
  def check_model(self, chance_prob: np.ndarray | None = None,
                  utility: np.ndarray | None = None
                  ) -> tuple[np.ndarray | None, np.ndarray | None]:
    """Checks a model game's ``chance_prob`` [histories] and ``utility``
    [histories, players] once, as every method taking them does, and
    returns them read-only: a contiguous float64 array that owns its data
    is itself made read-only, anything else is copied first. Every method
    then takes the returned arrays without
    checking them again, which matters when one model feeds several
    passes (the unknown-environment learners' CFR iteration and best
    responses). None stays None (the tree's own arrays).

    Raises:
      ValueError: as the methods taking the arrays (names the array and
        the first offending history).
    """
    return (self._frozen("chance_prob", chance_prob, self._chance),
            self._frozen("utility", utility, self._utility))

  def _frozen(self, name: str, value: np.ndarray | None,
              check: Callable[[np.ndarray], np.ndarray]
              ) -> np.ndarray | None:
    if value is None or self._is_checked(value):
      return value
    shape = self.chance_prob.shape if name == "chance_prob" else (
        self.utility.shape)
    array = self._array(name, value, shape)
    if array is value and (array.base is not None or
                           not array.flags.c_contiguous):
      array = array.copy()  # A view can change through its base.
    array.flags.writeable = False  # Before the check: what is checked stays.
    check(array)
    self._checked[id(array)] = array
    return array

  def _is_checked(self, value: np.ndarray) -> bool:
    return (self._checked.get(id(value)) is value and
            not value.flags.writeable)

  def _chance(self, chance_prob: np.ndarray | None) -> np.ndarray:
    if chance_prob is None:
      return self.chance_prob
    if type(chance_prob) is np.ndarray and self._is_checked(chance_prob):
      return chance_prob
    chance_prob = self._array("chance_prob", chance_prob,
                              self.chance_prob.shape)
    bad = passes.chance_distribution_problem(self.parent, self.node_player,
                                             chance_prob, 1e-9)
    if bad >= 0:
      children = self._children.members[
          self._children.start[bad]:self._children.start[bad + 1]]
      raise ValueError(
          f"chance_prob must hold a probability distribution over the "
          f"outcomes of every chance node of {self.game_string}: values in "
          f"[0, 1] summing to 1; at chance history {bad} "
          f"({self.state(bad).history_str()!r}) it holds "
          f"{chance_prob[children].tolist()[:8]}.")
    return chance_prob

  def _utility(self, utility: np.ndarray | None) -> np.ndarray:
    if utility is None:
      return self.utility
    if type(utility) is np.ndarray and self._is_checked(utility):
      return utility
    utility = self._array("utility", utility, self.utility.shape)
    bad = passes.utility_problem(self.node_player, utility)
    if bad >= 0:
      raise ValueError(
          f"utility must be finite, and 0 away from terminal histories, for "
          f"{self.game_string}; history {bad} "
          f"({self.state(bad).history_str()!r}) has {utility[bad].tolist()}.")
    return utility

  def _policy(self, policy: np.ndarray) -> np.ndarray:
    # Contiguous float64: the passes read it flat.
    if type(policy) is np.ndarray and policy.shape == self._policy_shape:
      try:
        return np.ascontiguousarray(policy, dtype=np.float64)
      except (TypeError, ValueError):
        pass  # Not numbers: _array says so.
    return np.ascontiguousarray(
        self._array("policy", policy, self._policy_shape))

  def _array(self, name: str, value: object,
             shape: tuple[int, ...]) -> np.ndarray:
    """``value`` as a float64 array, if it is a numeric array of ``shape``;
    ValueError naming it else (the kernels do not check bounds)."""
    if (type(value) is np.ndarray and value.dtype.char == "d" and
        value.shape == shape):
      return value  # The common case: any memory layout works in numba.
    if (not isinstance(value, np.ndarray) or value.shape != shape or
        value.dtype.kind not in "biuf"):
      got = (f"{value.dtype} array of shape {value.shape}"
             if isinstance(value, np.ndarray) else type(value).__name__)
      raise ValueError(f"{name} must be a float array of shape {shape} for "
                       f"{self.game_string}; got {got}.")
    return np.ascontiguousarray(value, dtype=np.float64)
