"""The check of a compiled tree's arrays read back from the disk cache.

A file in the cache folder is untrusted input: the numba passes read the
tree's index arrays without bounds checks, so an index out of range would
crash the process or read other memory, and a utility or a probability
altered in place would give wrong values silently. Before a stored tree is
used, :func:`check_stored_tree` checks what the passes rely on (the arrays
are described in :mod:`spiel_ext.engine.layout`):

- the names, dtypes and shapes of the arrays, and their sizes against the
  game (its number of players and of distinct actions);
- the structure, in one pass of a numba kernel that checks every index
  before it uses it: the root first, every parent an earlier history and
  the histories in depth-first pre-order; the acting players; the infoset
  of every decision history and its player; the actions, each legal at
  its infoset and distinct among siblings, a decision history having a
  child for each legal action; terminals without children and other
  histories with some; each infoset's first history and the rows of each
  player contiguous and in order of their first histories;
- the numbers: chance probabilities finite, in [0, 1] and summing to 1 at
  every chance node, 1 on other edges; utilities finite, 0 off terminals;
  the perfect-recall flag as the compiler derives it;
- the infoset keys: one per row, distinct;
- against the game itself, along the paths to a few terminals spread over
  the tree (first, last and between): the acting player, the chance
  outcomes and their probabilities, the legal actions and the infostate
  string of each history met, and the terminal's returns.

The derived arrays (parent slots, policy indices, own sequences and the
schedules) are computed from the checked arrays by the same kernels as for
a freshly compiled tree, so they are in range too. The check costs a few
milliseconds per 100,000 histories, far below compiling the tree.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pyspiel

from spiel_ext.engine import passes
from spiel_ext.engine.constants import CHANCE, CHANCE_SUM_TOLERANCE, TERMINAL
from spiel_ext.engine.layout import STORED_ARRAYS
from spiel_ext.engine.passes import jit

__all__ = ["SPOT_CHECKED_TERMINALS", "check_stored_tree"]

# How many terminals' paths are replayed in pyspiel.
SPOT_CHECKED_TERMINALS = 8
# How far a replayed return or chance probability may be from the stored one.
_REPLAY_TOLERANCE = 1e-9

_INDEX_ARRAYS = ("parent", "action", "node_player", "infoset",
                 "infoset_player", "infoset_history")

# The structure kernel's findings: (code, index) -> message.
_PROBLEMS = {
    1: "parent[0] is not -1 (the root comes first)",
    2: "action[0] is not -1 (the root is reached by no action)",
    3: "node_player[{}] is not a player, CHANCE or TERMINAL",
    4: "parent[{}] is not an earlier history",
    5: "history {} breaks the depth-first pre-order (its parent is not on "
       "the path to the history before it)",
    6: "parent[{}] is a terminal history",
    7: "action[{}] is not a legal action of its parent's infoset",
    8: "action[{}] is out of range for its parent chance node",
    9: "action[{}] repeats the action of a sibling",
    10: "infoset[{}] is out of range or does not match the history's player",
    11: "infoset[{}] is not -1 at a chance or terminal history",
    12: "infoset_player[{}] is not a player",
    13: "infoset_player is not sorted by player (row {})",
    14: "infoset_history[{}] is not the first history of its infoset",
    15: "history {} is not a terminal and has no children",
    16: "history {} does not have one child per legal action",
    17: "infoset_history[{}] is not after the previous row's of the same "
        "player (rows are in order of their first histories)",
}


@jit
def _structure_problem(parent, action, node_player, infoset, infoset_player,
                       infoset_legal, infoset_history, num_players,
                       num_actions, num_chance_actions):
  """The first structural problem as (code, index), (0, 0) if none.

  Every index is checked before it is used, so any arrays of consistent
  lengths can be passed (the lengths are checked by the caller).
  """
  num_histories = parent.shape[0]
  num_infosets = infoset_player.shape[0]
  if parent[0] != -1:
    return 1, 0
  if action[0] != -1:
    return 2, 0
  for row in range(num_infosets):
    if infoset_player[row] < 0 or infoset_player[row] >= num_players:
      return 12, row
    if row > 0 and infoset_player[row] < infoset_player[row - 1]:
      return 13, row
  # The path from the root to the last history seen (pre-order check).
  path = np.empty(num_histories, dtype=np.int64)
  path[0] = 0
  depth = 0
  depth_of = np.zeros(num_histories, dtype=np.int64)
  num_children = np.zeros(num_histories, dtype=np.int64)
  first_history = np.full(num_infosets, -1, dtype=np.int64)
  max_depth = 0
  for h in range(num_histories):
    player = node_player[h]
    if not (player == TERMINAL or player == CHANCE or
            (player >= 0 and player < num_players)):
      return 3, h
    row = infoset[h]
    if player >= 0:
      if row < 0 or row >= num_infosets or infoset_player[row] != player:
        return 10, h
      if first_history[row] < 0:
        first_history[row] = h
    elif row != -1:
      return 11, h
    if h == 0:
      continue
    p = parent[h]
    if p < 0 or p >= h:
      return 4, h
    while depth >= 0 and path[depth] != p:
      depth -= 1
    if depth < 0:
      return 5, h
    depth += 1
    path[depth] = h
    depth_of[h] = depth
    if depth > max_depth:
      max_depth = depth
    num_children[p] += 1
    acting = node_player[p]
    a = action[h]
    if acting == TERMINAL:
      return 6, h
    if acting >= 0:
      if a < 0 or a >= num_actions or not infoset_legal[infoset[p], a]:
        return 7, h
    elif a < 0 or a >= num_chance_actions:
      return 8, h
  for row in range(num_infosets):
    first = infoset_history[row]
    if first < 0 or first >= num_histories or first_history[row] != first:
      return 14, row
    if (row > 0 and infoset_player[row] == infoset_player[row - 1] and
        infoset_history[row - 1] >= first):
      return 17, row
  for h in range(num_histories):
    player = node_player[h]
    if player != TERMINAL and num_children[h] == 0:
      return 15, h
    if player >= 0:
      legal = 0
      for a in range(num_actions):
        if infoset_legal[infoset[h], a]:
          legal += 1
      if num_children[h] != legal:
        return 16, h
  # Siblings' actions are distinct: the children of a history at depth d
  # are at depth d + 1 while it is on the path, so a table of which parent
  # last used each action, per depth, finds a repeat.
  width = max(num_actions, num_chance_actions)
  last_parent = np.full((max_depth + 1, width), -1, dtype=np.int64)
  for h in range(1, num_histories):
    d = depth_of[h]
    if last_parent[d, action[h]] == parent[h]:
      return 9, h
    last_parent[d, action[h]] = parent[h]
  return 0, 0


def check_stored_tree(game: pyspiel.Game, arrays: dict[str, np.ndarray],
                      infoset_keys: Sequence[str]) -> None:
  """Raises ValueError unless the arrays are a well-formed tree of ``game``.

  Args:
    game: the pyspiel game the arrays claim to describe.
    arrays: the arrays named in ``STORED_ARRAYS`` and ``perfect_recall``.
    infoset_keys: the information-state string of each row.

  Raises:
    ValueError: the first problem found, in one line naming the array.
  """
  _check_names_and_shapes(game, arrays, infoset_keys)
  num_actions = game.num_distinct_actions()
  num_chance_actions = max(num_actions, game.max_chance_outcomes())
  code, where = _structure_problem(
      arrays["parent"], arrays["action"], arrays["node_player"],
      arrays["infoset"], arrays["infoset_player"], arrays["infoset_legal"],
      arrays["infoset_history"], game.num_players(), num_actions,
      num_chance_actions)
  if code:
    raise ValueError(_PROBLEMS[int(code)].format(int(where)) + ".")
  _check_numbers(arrays)
  _check_recall(game, arrays, len(infoset_keys))
  _check_against_game(game, arrays, infoset_keys)


def _check_names_and_shapes(game: pyspiel.Game, arrays: dict[str, np.ndarray],
                            infoset_keys: Sequence[str]) -> None:
  expected = set(STORED_ARRAYS) | {"perfect_recall"}
  if set(arrays) != expected:
    missing = sorted(expected - set(arrays))
    extra = sorted(set(arrays) - expected)
    raise ValueError(f"arrays missing {missing} or unexpected {extra}.")
  for name, value in arrays.items():
    if not isinstance(value, np.ndarray):
      raise ValueError(f"{name} is a {type(value).__name__}, not an array.")
  for name in _INDEX_ARRAYS:
    if arrays[name].dtype.kind != "i" or arrays[name].ndim != 1:
      raise ValueError(f"{name} must be a 1-d signed integer array; got "
                       f"{arrays[name].dtype} of shape {arrays[name].shape}.")
  for name in ("chance_prob", "utility"):
    if arrays[name].dtype != np.float64:
      raise ValueError(f"{name} must be float64; got {arrays[name].dtype}.")
  for name in ("infoset_legal", "perfect_recall"):
    if arrays[name].dtype != np.bool_:
      raise ValueError(f"{name} must be bool; got {arrays[name].dtype}.")
  num_histories = len(arrays["parent"])
  num_infosets = len(arrays["infoset_player"])
  shapes = {
      "parent": (num_histories,), "action": (num_histories,),
      "node_player": (num_histories,), "infoset": (num_histories,),
      "chance_prob": (num_histories,),
      "utility": (num_histories, game.num_players()),
      "infoset_player": (num_infosets,),
      "infoset_legal": (num_infosets, game.num_distinct_actions()),
      "infoset_history": (num_infosets,), "perfect_recall": ()}
  for name, shape in shapes.items():
    if arrays[name].shape != shape:
      raise ValueError(f"{name} has shape {arrays[name].shape}, not {shape} "
                       f"({num_histories} histories, {num_infosets} infosets "
                       f"of {game}).")
  if num_histories == 0:
    raise ValueError("parent is empty (a tree has at least its root).")
  if len(infoset_keys) != num_infosets:
    raise ValueError(f"infoset_keys has {len(infoset_keys)} keys for "
                     f"{num_infosets} infosets.")
  if len(set(infoset_keys)) != num_infosets:
    raise ValueError("infoset_keys repeats a key.")


_NUMBER_PROBLEMS = {
    1: "chance_prob[{}] is non-finite",
    2: "chance_prob[{}] is outside [0, 1]",
    3: "chance_prob[{}] is not 1 on an edge that does not leave a chance node",
    5: "utility[{}] is non-finite",
    6: "utility[{}] is not 0 at a non-terminal history",
}


@jit
def _number_problem(parent, node_player, chance_prob, utility, tolerance):
  """The first problem with the numbers as (code, index), (0, 0) if none
  (code 4: chance node ``index``'s children's probabilities do not sum
  to 1). The structure is checked first: the parents are in range."""
  num_histories = parent.shape[0]
  totals = np.zeros(num_histories)
  for h in range(num_histories):
    probability = chance_prob[h]
    if not np.isfinite(probability):
      return 1, h
    if probability < 0.0 or probability > 1.0:
      return 2, h
    if h > 0 and node_player[parent[h]] == CHANCE:
      totals[parent[h]] += probability
    elif probability != 1.0:
      return 3, h
    for player in range(utility.shape[1]):
      if not np.isfinite(utility[h, player]):
        return 5, h
      if node_player[h] != TERMINAL and utility[h, player] != 0.0:
        return 6, h
  for h in range(num_histories):
    if node_player[h] == CHANCE and abs(totals[h] - 1.0) > tolerance:
      return 4, h
  return 0, 0


def _check_numbers(arrays: dict[str, np.ndarray]) -> None:
  """Chance probabilities and utilities (the structure is checked)."""
  code, where = _number_problem(arrays["parent"], arrays["node_player"],
                                arrays["chance_prob"], arrays["utility"],
                                CHANCE_SUM_TOLERANCE)
  if code == 4:
    children = arrays["parent"] == where
    total = float(arrays["chance_prob"][children].sum())
    raise ValueError(f"chance_prob of chance node {int(where)}'s children "
                     f"sums to {total!r}, not 1.")
  if code:
    raise ValueError(_NUMBER_PROBLEMS[int(code)].format(int(where)) + ".")


def _check_recall(game: pyspiel.Game, arrays: dict[str, np.ndarray],
                  num_infosets: int) -> None:
  """The perfect-recall flag as the compiler derives it."""
  recall = True
  for player in range(game.num_players()):
    violation = passes.recall_violation(
        arrays["parent"], arrays["node_player"], arrays["infoset"],
        arrays["action"], player, num_infosets, game.num_distinct_actions())
    if violation < 0:
      raise ValueError(f"infoset {-violation - 1}'s histories follow "
                       "different numbers of their player's own decisions.")
    recall = recall and violation == 0
  if bool(arrays["perfect_recall"]) != recall:
    raise ValueError(f"perfect_recall is {bool(arrays['perfect_recall'])}; "
                     f"the tree's infosets say {recall}.")


def _spot_terminals(node_player: np.ndarray) -> np.ndarray:
  """The terminals whose paths are replayed: first, last and spread
  evenly between."""
  terminals = np.flatnonzero(node_player == TERMINAL)
  if len(terminals) <= SPOT_CHECKED_TERMINALS:
    return terminals
  picks = np.linspace(0, len(terminals) - 1, SPOT_CHECKED_TERMINALS)
  return terminals[np.unique(picks.round().astype(np.int64))]


def _check_against_game(game: pyspiel.Game, arrays: dict[str, np.ndarray],
                        infoset_keys: Sequence[str]) -> None:
  """Replays the paths to a few terminals in pyspiel."""
  parent = arrays["parent"]
  action = arrays["action"]
  node_player = arrays["node_player"]
  num_children = np.bincount(parent[1:], minlength=len(parent))
  information_state = game.get_type().provides_information_state_string
  for terminal in _spot_terminals(node_player):
    path = [int(terminal)]
    while path[-1] > 0:
      path.append(int(parent[path[-1]]))
    path.reverse()
    state = game.new_initial_state()
    for h, child in zip(path, path[1:] + [None]):
      _check_history(game, arrays, infoset_keys, state, h, num_children[h],
                     information_state)
      if child is not None:
        if node_player[h] == CHANCE:
          outcomes = dict(state.chance_outcomes())
          probability = outcomes.get(int(action[child]))
          if (probability is None or abs(probability -
                                         arrays["chance_prob"][child]) >
              _REPLAY_TOLERANCE):
            raise ValueError(f"chance_prob[{child}] (action "
                             f"{int(action[child])}) is not the game's "
                             f"{probability!r}.")
        state.apply_action(int(action[child]))


def _check_history(game: pyspiel.Game, arrays: dict[str, np.ndarray],
                   infoset_keys: Sequence[str], state: pyspiel.State,
                   history: int, num_children: int,
                   information_state: bool) -> None:
  """One replayed history against the stored one."""
  stored = int(arrays["node_player"][history])
  if state.is_terminal():
    if stored != TERMINAL:
      raise ValueError(f"node_player[{history}] is {stored}; the game's "
                       "state there is terminal.")
    returns = np.asarray(state.returns(), dtype=np.float64)
    utility = arrays["utility"][history]
    if np.any(np.abs(returns - utility) >
              _REPLAY_TOLERANCE * np.maximum(1.0, np.abs(returns))):
      raise ValueError(f"utility[{history}] is {utility.tolist()}; the game's "
                       f"returns there are {returns.tolist()}.")
    return
  player = state.current_player()
  if stored != player:
    raise ValueError(f"node_player[{history}] is {stored}; the game's "
                     f"player there is {player}.")
  if player == CHANCE:
    if len(state.chance_outcomes()) != num_children:
      raise ValueError(f"chance node {history} has {num_children} children; "
                       f"the game has {len(state.chance_outcomes())} "
                       "outcomes there.")
    return
  row = int(arrays["infoset"][history])
  legal = np.flatnonzero(arrays["infoset_legal"][row]).tolist()
  if legal != sorted(state.legal_actions()):
    raise ValueError(f"infoset_legal[{row}] is {legal}; the game's legal "
                     f"actions there are {list(state.legal_actions())}.")
  key = (state.information_state_string() if information_state else
         state.observation_string())
  if infoset_keys[row] != key:
    raise ValueError(f"infoset_keys[{row}] is not the game's infostate "
                     f"string at history {history} ({key!r}).")
