"""Compile a pyspiel game into a flat, array-based game tree.

Every tabular algorithm in spiel_ext runs on this one representation
(SPEC section 2). Histories are numbered in depth-first pre-order, so a
parent always precedes its children and every subtree is a contiguous range.
Children are visited in the order of ``str(action)``, which makes the
pre-order equal to the lexicographic order of ``state.history_str()``; that
is the order in which OpenSpiel's ``TabularPolicy`` meets information states,
so our infoset numbering is exactly OpenSpiel's row layout.

Per history ``h`` (arrays of length ``num_histories``):
  parent[h]       parent history, -1 for the root
  action[h]       action taken at the parent to reach h, -1 for the root
  depth[h]        number of actions from the root
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
"""

from __future__ import annotations

import array
import os
from typing import NamedTuple, Sequence

import numpy as np
import pyspiel

from spiel_ext.engine import beliefs as belief_passes
from spiel_ext.engine import best_response as response_passes
from spiel_ext.engine import passes

CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)

# Bytes a compiled history costs: the stored arrays (about 40 bytes plus the
# utilities) and the working arrays a pass allocates (reach and values).
BYTES_PER_HISTORY = 160

HISTORY_ARRAYS = ("parent", "action", "depth", "node_player", "infoset",
                  "chance_prob", "utility")
INFOSET_ARRAYS = ("infoset_player", "infoset_legal", "infoset_history")
FLAG_ARRAYS = ("perfect_recall",)


class PlayerPass(NamedTuple):
  """What GameTree.player_counterfactual_values returns (player's rows)."""
  cfv: np.ndarray
  own_reach: np.ndarray
  others_reach: np.ndarray
  root_value: float


class GameTree:
  """A pyspiel game compiled into flat numpy arrays.

  Build one with :func:`spiel_ext.engine.compile_game`; the constructor only
  assembles arrays that were already computed.
  """

  def __init__(self, game: pyspiel.Game, arrays: dict[str, np.ndarray],
               infoset_keys: Sequence[str]):
    self.game = game
    self.game_string = str(game)
    self.num_players = game.num_players()
    self.num_distinct_actions = game.num_distinct_actions()
    self.parent = arrays["parent"]
    self.action = arrays["action"]
    self.depth = arrays["depth"]
    self.node_player = arrays["node_player"]
    self.infoset = arrays["infoset"]
    self.chance_prob = arrays["chance_prob"]
    self.utility = arrays["utility"]
    self.infoset_player = arrays["infoset_player"]
    self.infoset_legal = arrays["infoset_legal"]
    self.infoset_history = arrays["infoset_history"]
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
    starts = np.searchsorted(self.infoset_player, np.arange(self.num_players + 1))
    self.player_rows = [slice(int(starts[p]), int(starts[p + 1]))
                        for p in range(self.num_players)]
    self.key_to_infoset = {key: i for i, key in enumerate(self.infoset_keys)}
    self.perfect_recall = bool(arrays.get("perfect_recall", True))
    self._br_schedules: dict[int, tuple[np.ndarray, ...]] = {}
    self._derived: dict = {}

  # ------------------------------------------------------------------ info
  def __repr__(self) -> str:
    return (f"GameTree({self.game_string!r}, histories={self.num_histories}, "
            f"infosets={self.num_infosets}, "
            f"terminals={int(self.is_terminal.sum())})")

  def arrays(self) -> dict[str, np.ndarray]:
    """The stored arrays by name (what the disk cache saves)."""
    arrays = {name: getattr(self, name)
              for name in HISTORY_ARRAYS + INFOSET_ARRAYS}
    arrays["perfect_recall"] = np.array(self.perfect_recall)
    return arrays

  def infosets_of_player(self, player: int) -> np.ndarray:
    """Indices of the infosets where ``player`` acts, in row order."""
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

  def edge_weights(self, policy: np.ndarray,
                   chance_prob: np.ndarray | None = None) -> np.ndarray:
    """Probability of each history's incoming edge under ``policy``."""
    return passes.edge_weights(self.edge_policy_index,
                               self._chance(chance_prob),
                               np.ascontiguousarray(policy, dtype=np.float64))

  # ----------------------------------------------------------------- passes
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
    if reach is None:
      reach = self.reach(policy, chance_prob)
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
    if reach is None:
      reach = self.reach(policy, chance_prob)
    if values is None:
      values = self.values(policy, chance_prob, utility)
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
    strategies that play every legal action with probability at least eps
    (SPEC 3.2, seed 002 eq. 24): eps on every action plus (1 - |A| eps) on
    the best one.

    Returns:
      (value, best_action, action_values): the best-response value of
      ``player`` at the root; for each infoset of ``player`` the chosen action
      (-1 elsewhere); and [I, A] counterfactual action values
      sum_{h in I} x_{-i}(h) v^BR(h.a) at ``player``'s infosets.
    """
    self.check_player(player)
    if terminal_others is not None:
      others = terminal_others
    elif reach is None:
      others = passes.others_reach(
          self.parent, self.parent_slot, self.edge_policy_index,
          self._chance(chance_prob),
          np.ascontiguousarray(policy, dtype=np.float64), player)[
              self.terminals]
    else:
      others = passes.others_from_reach(reach, player, self.terminals)
    return response_passes.best_response(
        self.terminals, self.infoset, self._utility(utility), others, player,
        *self._br_schedule(player), self.infoset_legal,
        self.infoset_num_actions, float(min_action_prob))

  def player_counterfactual_values(
      self, policy: np.ndarray, player: int,
      chance_prob: np.ndarray | None = None,
      utility: np.ndarray | None = None,
  ) -> PlayerPass:
    """The fused pass regret minimisers run once per player and iteration.

    Returns:
      PlayerPass(cfv, own_reach, others_reach, root_value), arrays on
      ``player``'s rows only (``tree.player_rows[player]``): cfv[I, a] =
      sum_{h in I} x_{-i}(h) u_i(h.a); own_reach[I] = x_i(I) under perfect
      recall, else sum_{h in I} x_i(h) as OpenSpiel's CFR accumulates it;
      others_reach[I] = sum_{h in I} x_{-i}(h); u_i at the root.
    """
    rows = self.player_rows[player]
    policy = np.ascontiguousarray(policy, dtype=np.float64)
    cfv = np.zeros((rows.stop - rows.start, self.num_distinct_actions))
    track_own = not self.perfect_recall
    own_reach = np.zeros(rows.stop - rows.start)
    others_reach = np.zeros(rows.stop - rows.start)
    root = passes.player_regret_pass(
        self.parent, self.parent_slot, self.edge_policy_index,
        self.node_player, self.infoset, self._chance(chance_prob),
        self._utility(utility), policy, player, track_own, cfv, own_reach,
        others_reach, rows.start)
    if not track_own:
      own_reach = passes.own_reach_of_infosets(self.own_sequence, policy,
                                               rows.start, rows.stop)
    return PlayerPass(cfv, own_reach, others_reach, root)

  # ---------------------------------------------------------- beliefs
  def beliefs(self, policy: np.ndarray,
              player: int) -> tuple[np.ndarray, np.ndarray]:
    """Beliefs over the histories of ``player``'s infosets (SPEC 3.2).

    B(I, h) = x_{-i}(h) / sum_{h' in I} x_{-i}(h'), chance's and the other
    players' reach under ``policy``. Where that sum is 0 (the others never
    reach I) the belief falls back to w(h) = chance reach times the reach of
    uniformly random opponents, normalised over I.

    Returns:
      (belief, on_path): belief[h] at ``player``'s histories (0 elsewhere),
      and on_path[I] for the player's rows (``player_rows[player]``): True
      where the others reach I.
    """
    self.check_player(player)
    rows = self.player_rows[player]
    return belief_passes.belief_weights(
        self.parent, self.parent_slot, self.edge_policy_index,
        self.node_player, self.infoset, self.chance_prob,
        self._lazy("uniform_edge_weight"),
        np.ascontiguousarray(policy, dtype=np.float64), player, rows.start,
        rows.stop - rows.start)

  def sequential_best_values(self, policy: np.ndarray, player: int,
                             belief: np.ndarray) -> np.ndarray:
    """Best value ``player`` can get from each of its infosets on, reached
    with ``belief`` (see :func:`beliefs.sequential_best_values`), [rows]."""
    rows = self.player_rows[player]
    return belief_passes.sequential_best_values(
        self.parent, self.parent_slot, self.node_player, self.infoset,
        self.edge_weights(policy), self.utility, player, belief,
        self._lazy("subtree_end"), self._own_edges(player), self.own_sequence,
        *self._lazy("infoset_history_lists"), rows.start, rows.stop,
        self.infoset_legal)

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
    return response_passes.weighted_best_response(
        self.node_player, self.infoset, self.action, weights, self.utility,
        player, *self._lazy(("level_schedule", player)),
        *self._lazy("children_lists"), infoset_weight,
        *self._lazy("infoset_history_lists"), self.infoset_legal,
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
    if response_passes.has_near_tie(q, self.infoset_legal, rows.start, rows.stop,
                           tie_tolerance):
      _, best, _ = self.weighted_best_response(
          policy, player, min_action_prob=min_action_prob)
    return best

  def uniform_reach(self) -> np.ndarray:
    """reach() of the uniform random profile (computed once)."""
    return self._lazy("uniform_reach")

  def _own_edges(self, player: int) -> np.ndarray:
    return self._lazy(("own_edges", player))

  def _lazy(self, name):
    """Derived arrays built on first use and kept."""
    value = self._derived.get(name)
    if value is None:
      if name == "subtree_end":
        value = passes.subtree_ends(self.parent)
      elif name == "infoset_history_lists":
        value = passes.infoset_histories(self.infoset, self.num_infosets)
      elif name == "uniform_reach":
        value = self.reach(self.uniform_policy())
      elif name == "children_lists":
        value = passes.children_lists(self.parent)
      elif name[0] == "level_schedule":
        value = response_passes.level_schedule(self.parent, self.node_player,
                                      self.infoset, name[1])
      elif name == "uniform_edge_weight":
        value = self.edge_weights(self.uniform_policy())
      else:
        value = belief_passes.own_edges(self.parent, self.node_player,
                                 self.edge_policy_index.astype(np.int64),
                                 name[1])
      self._derived[name] = value
    return value

  def infoset_reach(self, reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-infoset reach sums from a [histories, players + 1] reach array.

    Returns:
      (own, others): own[I] = x_i(I), the acting player's own reach of I
      (equal on every history of I under perfect recall), and
      others[I] = sum_{h in I} x_{-i}(h), chance and opponents' reach.
    """
    return passes.infoset_reach(self.node_player, self.infoset, reach,
                                self.num_infosets)

  # ---------------------------------------------------------------- helpers
  def check_player(self, player: int) -> None:
    if not 0 <= player < self.num_players:
      raise ValueError(f"player must be in 0..{self.num_players - 1} for "
                       f"{self.game_string}; got {player}.")

  def _chance(self, chance_prob):
    if chance_prob is None:
      return self.chance_prob
    if chance_prob.shape != self.chance_prob.shape:
      raise ValueError(f"chance_prob must have shape {self.chance_prob.shape}; "
                       f"got {chance_prob.shape}.")
    return np.ascontiguousarray(chance_prob, dtype=np.float64)

  def _utility(self, utility):
    if utility is None:
      return self.utility
    if utility.shape != self.utility.shape:
      raise ValueError(f"utility must have shape {self.utility.shape}; "
                       f"got {utility.shape}.")
    return np.ascontiguousarray(utility, dtype=np.float64)

  def _br_schedule(self, player: int) -> tuple[np.ndarray, ...]:
    schedule = self._br_schedules.get(player)
    if schedule is None:
      schedule = response_passes.best_response_schedule(
          self.parent, self.node_player, self.action, player,
          self.num_distinct_actions)
      self._br_schedules[player] = schedule
    return schedule


def check_game_type(game: pyspiel.Game) -> None:
  """Raises ValueError if the engine cannot compile games of this type."""
  game_type = game.get_type()
  if game_type.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
    raise ValueError(
        f"{game} is a simultaneous-move game; the engine needs a sequential "
        "game. Convert it first: pyspiel.convert_to_turn_based(game) or "
        f"pyspiel.load_game_as_turn_based('{game_type.short_name}').")
  if game_type.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
    raise ValueError(f"{game} has {game_type.dynamics} dynamics; only "
                     "sequential games can be compiled.")
  if game_type.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
    raise ValueError(f"{game} has sampled chance: its chance outcomes cannot "
                     "be enumerated, so its tree cannot be compiled.")
  if not (game_type.provides_information_state_string or
          game_type.provides_observation_string):
    raise ValueError(f"{game} provides neither information state strings nor "
                     "observation strings, so its infosets have no key.")


def estimate_num_histories(game: pyspiel.Game, samples: int = 200,
                           seed: int = 0) -> float:
  """Knuth's unbiased estimate of the number of histories in ``game``.

  Each random root-to-leaf walk estimates the tree size as
  1 + b_0 + b_0 b_1 + ... with b_k the branching factor met at depth k.
  """
  rng = np.random.default_rng(seed)
  total = 0.0
  for _ in range(samples):
    state = game.new_initial_state()
    estimate, width = 1.0, 1.0
    while not state.is_terminal():
      actions = (state.legal_actions() if not state.is_chance_node() else
                 [a for a, _ in state.chance_outcomes()])
      width *= len(actions)
      estimate += width
      if estimate > 1e18:
        return estimate
      state.apply_action(actions[rng.integers(len(actions))])
    total += estimate
  return total / samples


def _available_memory_bytes() -> int:
  try:
    with open("/proc/meminfo") as meminfo:
      for line in meminfo:
        if line.startswith("MemAvailable:"):
          return int(line.split()[1]) * 1024
  except OSError:
    pass
  return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))


def default_max_histories() -> int:
  """Half the available memory divided by the bytes a history costs."""
  return max(1, _available_memory_bytes() // 2 // BYTES_PER_HISTORY)


def too_large_error(game, count: float, max_histories: int,
                    how: str) -> ValueError:
  """The error for a game above the history limit, with its size."""
  gib = count * BYTES_PER_HISTORY / 2**30
  return ValueError(
      f"{game} is too large to compile: {how} {count:.3g} histories, about "
      f"{gib:.3g} GiB, above the limit of {max_histories} histories "
      f"({max_histories * BYTES_PER_HISTORY / 2**30:.3g} GiB). Pass a larger "
      "max_histories if the machine has the memory.")


def _action_order(actions: list[int]) -> list[int]:
  # Pre-order in str(action) order equals sorted(history_str) order; with all
  # ids below 10 that is plain numeric order (OpenSpiel returns it sorted).
  if actions and actions[-1] >= 10:
    return sorted(actions, key=str)
  return actions


def walk_game(game: pyspiel.Game, max_histories: int) -> GameTree:
  """Enumerates every history of ``game`` depth-first into a GameTree."""
  check_game_type(game)
  game_type = game.get_type()
  use_info_string = game_type.provides_information_state_string
  num_players = game.num_players()
  num_actions = game.num_distinct_actions()

  parent = array.array("i")
  action = array.array("i")
  depth = array.array("i")
  node_player = array.array("b")
  infoset = array.array("i")
  chance_prob = array.array("d")
  terminal_history = array.array("i")
  terminal_utility = array.array("d")
  key_to_id: dict[str, int] = {}
  infoset_player: list[int] = []
  infoset_actions: list[list[int]] = []
  infoset_history: list[int] = []

  stack = [(game.new_initial_state(), -1, -1, 1.0, 0)]
  pop, push = stack.pop, stack.append
  while stack:
    state, parent_id, incoming, prob, level = pop()
    history = len(parent)
    if history >= max_histories:
      raise too_large_error(game, history + 1, max_histories, "found more than")
    parent.append(parent_id)
    action.append(incoming)
    chance_prob.append(prob)
    depth.append(level)
    player = state.current_player()
    if player == TERMINAL:
      node_player.append(TERMINAL)
      infoset.append(-1)
      terminal_history.append(history)
      terminal_utility.extend(state.returns())
      continue
    if player == CHANCE:
      node_player.append(CHANCE)
      infoset.append(-1)
      outcomes = state.chance_outcomes()
      if outcomes and outcomes[-1][0] >= 10:
        outcomes = sorted(outcomes, key=lambda pair: str(pair[0]))
      for outcome, outcome_prob in reversed(outcomes):
        push((state.child(outcome), history, outcome, outcome_prob, level + 1))
      continue
    if player < 0:
      raise ValueError(f"{game}: history {state.history_str()!r} has acting "
                       f"player {player}; only sequential games with chance "
                       "nodes are supported.")
    node_player.append(player)
    key = (state.information_state_string(player) if use_info_string else
           state.observation_string(player))
    legal = state.legal_actions()
    infoset_id = key_to_id.get(key)
    if infoset_id is None:
      infoset_id = len(infoset_player)
      key_to_id[key] = infoset_id
      infoset_player.append(player)
      infoset_actions.append(legal)
      infoset_history.append(history)
    elif infoset_actions[infoset_id] != legal or (
        infoset_player[infoset_id] != player):
      raise ValueError(
          f"{game}: infoset key {key!r} is shared by histories with different "
          "acting players or legal actions; the game's infostate strings do "
          "not identify information sets.")
    infoset.append(infoset_id)
    for move in reversed(_action_order(legal)):
      push((state.child(move), history, move, 1.0, level + 1))

  num_histories = len(parent)
  utility = np.zeros((num_histories, num_players))
  utility[np.frombuffer(terminal_history, dtype=np.int32)] = np.frombuffer(
      terminal_utility, dtype=np.float64).reshape(-1, num_players)

  # Rows grouped by player, first-encounter order within a player: the
  # layout of open_spiel.python.policy.TabularPolicy.
  first_seen = np.asarray(infoset_player, dtype=np.int32)
  row_of_id = np.empty(len(first_seen), dtype=np.int32)
  order = np.argsort(first_seen, kind="stable")
  row_of_id[order] = np.arange(len(order), dtype=np.int32)
  keys_by_id = list(key_to_id)
  legal_mask = np.zeros((len(order), num_actions), dtype=bool)
  for infoset_id, legal in enumerate(infoset_actions):
    legal_mask[row_of_id[infoset_id], legal] = True
  history_infoset = np.frombuffer(infoset, dtype=np.int32).copy()
  decision = history_infoset >= 0
  history_infoset[decision] = row_of_id[history_infoset[decision]]

  arrays = {
      "parent": np.frombuffer(parent, dtype=np.int32).copy(),
      "action": np.frombuffer(action, dtype=np.int32).copy(),
      "depth": np.frombuffer(depth, dtype=np.int32).copy(),
      "node_player": np.frombuffer(node_player, dtype=np.int8).astype(np.int32),
      "infoset": history_infoset,
      "chance_prob": np.frombuffer(chance_prob, dtype=np.float64).copy(),
      "utility": utility,
      "infoset_player": first_seen[order],
      "infoset_legal": legal_mask,
      "infoset_history": np.asarray(infoset_history, dtype=np.int32)[order],
  }
  tree = GameTree(game, arrays, [keys_by_id[i] for i in order])
  _check_recall(tree)
  return tree


def _check_recall(tree: GameTree) -> None:
  """Sets tree.perfect_recall; refuses trees the passes cannot handle.

  Perfect recall: the histories of an infoset agree on the acting player's
  own previous (infoset, action). Some OpenSpiel games key infosets more
  coarsely (universal_poker's strings sort the board cards, forgetting the
  order they came in); such trees still compile, with perfect_recall False,
  as long as each infoset's histories have the same number of own earlier
  decisions, which is what the best-response pass needs. Their values then
  match OpenSpiel's, which keys on the same strings.
  """
  tree.perfect_recall = True
  for player in range(tree.num_players):
    violation = passes.recall_violation(
        tree.parent, tree.node_player, tree.infoset, tree.action, player,
        tree.num_infosets, tree.num_distinct_actions)
    if violation == 0:
      continue
    tree.perfect_recall = False
    if violation < 0:
      key = tree.infoset_keys[-violation - 1]
      raise ValueError(
          f"{tree.game_string} cannot be compiled: the histories of player "
          f"{player}'s infoset {key!r} follow different numbers of that "
          "player's own decisions, so its infostate strings do not describe "
          "a game the engine can solve (it needs perfect recall, or at least "
          "equal own-decision depth within an infoset).")
