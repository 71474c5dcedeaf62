"""The compiler: every history of a pyspiel game, depth-first, into arrays.

Histories are numbered in depth-first pre-order, so a parent precedes its
children and every subtree is a contiguous range. Children are visited in
the order of ``str(action)``, which makes the pre-order equal to the
lexicographic order of ``state.history_str()``: the order in which
OpenSpiel's ``TabularPolicy`` meets information states, so the infoset
numbering is exactly OpenSpiel's row layout. The arrays are described in
:mod:`spiel_ext.engine.layout`.

While walking, the compiler checks every chance node's distribution and
counts the tree's size against a :class:`~.admission.SizeLimit`; afterwards
it checks recall. A game with a native builder (:mod:`.native`) makes the
same arrays from its rules instead of being walked; recall is checked the
same way.
"""

from __future__ import annotations

import array
import math

import numpy as np
import pyspiel

from spiel_ext.engine import passes
from spiel_ext.engine.admission import SizeLimit
from spiel_ext.engine.constants import CHANCE, CHANCE_SUM_TOLERANCE, TERMINAL
from spiel_ext.engine.game_tree import GameTree
from spiel_ext.engine.native import native_builder


def compile_tree(game: pyspiel.Game, limit: SizeLimit, *,
                 native: bool = True) -> GameTree:
  """Enumerates every history of ``game`` into a GameTree.

  ``game`` is one the engine admits (:func:`~.admission.admit`, which
  :func:`spiel_ext.engine.compile_game` calls first, checks its type).
  With ``native`` (the default) a game that has a native builder is built
  by it; False walks every game's states (the builders' reference).

  Raises:
    ValueError: a chance node whose outcome probabilities are not a
      distribution, infostate strings that do not identify information
      sets, or a tree above ``limit``.
  """
  built = None
  if native:
    builder = native_builder(game)
    built = builder(game, limit) if builder is not None else None
  arrays, keys = built if built is not None else _walk(game, limit)
  arrays["perfect_recall"] = np.array(_perfect_recall(game, arrays, keys))
  return GameTree(game, arrays, keys)


def _action_order(actions: list[int]) -> list[int]:
  # Pre-order in str(action) order equals sorted(history_str) order; with all
  # ids below 10 that is plain numeric order (OpenSpiel returns it sorted).
  if actions and actions[-1] >= 10:
    return sorted(actions, key=str)
  return actions


def _check_chance(game: pyspiel.Game, state: pyspiel.State,
                  outcomes: list[tuple[int, float]]) -> None:
  """Refuses chance outcomes that are not a probability distribution.

  Probability-0 outcomes are allowed (they stay in the tree).
  """
  probabilities = [probability for _, probability in outcomes]
  total = math.fsum(probabilities) if outcomes else 0.0
  if (outcomes and abs(total - 1.0) <= CHANCE_SUM_TOLERANCE and
      min(probabilities) >= 0.0):
    return
  shown = outcomes if len(outcomes) <= 8 else outcomes[:8] + ["..."]
  raise ValueError(
      f"{game}: the chance node at history {state.history_str()!r} has "
      f"outcomes {shown}, which are not a probability distribution: "
      "probabilities must be finite, non-negative and sum to 1 (within "
      f"{CHANCE_SUM_TOLERANCE:g}); they sum to {total}.")


def _walk(game: pyspiel.Game,
          limit: SizeLimit) -> tuple[dict[str, np.ndarray], list[str]]:
  """The tree's arrays (without perfect_recall) and its infoset keys."""
  use_info_string = game.get_type().provides_information_state_string
  num_players = game.num_players()
  num_actions = game.num_distinct_actions()

  parent = array.array("i")
  action = array.array("i")
  node_player = array.array("b")
  infoset = array.array("i")
  chance_prob = array.array("d")
  terminal_history = array.array("i")
  terminal_utility = array.array("d")
  key_to_id: dict[str, int] = {}
  infoset_player: list[int] = []
  infoset_actions: list[list[int]] = []
  infoset_history: list[int] = []
  key_bytes = 0
  cap = limit.history_cap(num_players)

  stack = [(game.new_initial_state(), -1, -1, 1.0)]
  pop, push = stack.pop, stack.append
  while stack:
    state, parent_id, incoming, prob = pop()
    history = len(parent)
    if history >= cap:
      raise limit.error(game, history + 1, "found more than",
                        len(infoset_player), key_bytes)
    parent.append(parent_id)
    action.append(incoming)
    chance_prob.append(prob)
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
      _check_chance(game, state, outcomes)
      # Refused before the children are built: each is a history to come.
      pending = history + 1 + len(stack) + len(outcomes)
      if pending > cap:
        raise limit.error(game, pending, "found at least",
                          len(infoset_player), key_bytes)
      if outcomes[-1][0] >= 10:
        outcomes = sorted(outcomes, key=lambda pair: str(pair[0]))
      for outcome, outcome_prob in reversed(outcomes):
        push((state.child(outcome), history, outcome, outcome_prob))
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
      key_bytes += len(key)
      cap = limit.history_cap(num_players, len(infoset_player), key_bytes)
    elif infoset_actions[infoset_id] != legal or (
        infoset_player[infoset_id] != player):
      raise ValueError(
          f"{game}: infoset key {key!r} is shared by histories with different "
          "acting players or legal actions; the game's infostate strings do "
          "not identify information sets.")
    infoset.append(infoset_id)
    for move in reversed(_action_order(legal)):
      push((state.child(move), history, move, 1.0))

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
      "node_player": np.frombuffer(node_player, dtype=np.int8).astype(np.int32),
      "infoset": history_infoset,
      "chance_prob": np.frombuffer(chance_prob, dtype=np.float64).copy(),
      "utility": utility,
      "infoset_player": first_seen[order],
      "infoset_legal": legal_mask,
      "infoset_history": np.asarray(infoset_history, dtype=np.int32)[order],
  }
  return arrays, [keys_by_id[i] for i in order]


def _perfect_recall(game: pyspiel.Game, arrays: dict[str, np.ndarray],
                    keys: list[str]) -> bool:
  """Whether the tree has perfect recall; refuses trees the passes cannot
  handle.

  Perfect recall: the histories of an infoset agree on the acting player's
  own previous (infoset, action). Some OpenSpiel games key infosets more
  coarsely (universal_poker's strings sort the board cards, forgetting the
  order they came in); such trees still compile, with perfect_recall False,
  as long as each infoset's histories have the same number of own earlier
  decisions, which is what the best-response pass needs. Their values then
  match OpenSpiel's, which keys on the same strings.
  """
  recall = True
  for player in range(game.num_players()):
    violation = passes.recall_violation(
        arrays["parent"], arrays["node_player"], arrays["infoset"],
        arrays["action"], player, len(keys), game.num_distinct_actions())
    if violation == 0:
      continue
    recall = False
    if violation < 0:
      key = keys[-violation - 1]
      raise ValueError(
          f"{game} cannot be compiled: the histories of player {player}'s "
          f"infoset {key!r} follow different numbers of that player's own "
          "decisions, so its infostate strings do not describe a game the "
          "engine can solve (it needs perfect recall, or at least equal "
          "own-decision depth within an infoset).")
  return recall
