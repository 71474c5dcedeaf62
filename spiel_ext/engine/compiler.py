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
import contextlib
import gc
import itertools
import math
from typing import Callable, Iterator

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


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
  """Pauses Python's cycle collector: the walk makes millions of
  short-lived tuples and lists and no cycles, and the collector would
  otherwise traverse the growing infoset table again and again (3% of the
  walk of tic_tac_toe's 295k infosets)."""
  was_enabled = gc.isenabled()
  gc.disable()
  try:
    yield
  finally:
    if was_enabled:
      gc.enable()


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


# The walk stores ids and actions plus one (the root's -1 as 0) in unsigned
# int arrays and players plus _PLAYER_OFFSET (TERMINAL as 0) in bytes: an
# append to those costs a third of a signed array's (which parses its
# argument with PyArg_Parse).
_PLAYER_OFFSET = -TERMINAL


def _walk(game: pyspiel.Game,
          limit: SizeLimit) -> tuple[dict[str, np.ndarray], list[str]]:
  """The tree's arrays (without perfect_recall) and its infoset keys.

  A depth-first walk that makes each history's state once and asks it once
  who acts (the pyspiel calls are two thirds of its time):

  * the children of a node are made together when it is expanded
    (``state.child`` for all but the last, which is the node's own state
    advanced in place: nothing else holds it), and each is asked
    ``current_player()`` there;
  * when all of them are terminal (the common case: the last move of a
    game), they are not pushed but appended to the arrays at once, their
    returns read there;
  * only what differs between histories is appended while walking: the
    infosets of decision histories, the probabilities of chance nodes'
    children and the returns of terminals go to compact buffers, scattered
    into the full arrays (-1, 1.0 and 0 elsewhere) by ``node_player`` at
    the end; each buffer is freed as soon as it is converted, and an
    infoset's action lists are shared with every infoset of the same legal
    actions, which bounds the peak memory.

  Every decision history's infostate string and legal actions are read; a
  key met again must come with the same acting player and the same legal
  actions, else the game is refused: its infostate strings do not identify
  information sets. The check is made on every history, not sampled: the
  ``legal_actions()`` call it needs on an infoset met before is 1 to 4% of
  the walk. Python's cycle collector is paused meanwhile (the walk makes no
  cycles).
  """
  if game.num_players() > 127 - _PLAYER_OFFSET:
    raise ValueError(f"{game} has {game.num_players()} players; the engine "
                     f"compiles games of at most {127 - _PLAYER_OFFSET}.")
  with _collector_paused():
    buffers = _StateWalk(game, limit).run()
  return _assemble(game, *buffers)


def _state_methods(game: pyspiel.Game) -> tuple:
  """pyspiel's methods the walk calls, unbound (no bound method made per
  call): (infostate_string, legal_actions, current_player, returns,
  apply_action), the infostate string being the observation string in a
  game without information-state strings."""
  infostate_string = (
      pyspiel.State.information_state_string
      if game.get_type().provides_information_state_string else
      pyspiel.State.observation_string)
  return (infostate_string, pyspiel.State.legal_actions,
          pyspiel.State.current_player, pyspiel.State.returns,
          pyspiel.State.apply_action)


def _history_buffers() -> tuple:
  """The walk's empty buffers: (parent, action, node_player,
  decision_infoset, chance_child_prob, terminal_utility, infoset_history).

  Per history, in pre-order: parent + 1, action + 1, player + offset.
  Compact, in pre-order of their histories: the infoset of each decision
  history, the probability of each chance node's child and the returns of
  each terminal. Per infoset, in order of discovery: its first history.
  """
  return (array.array("I"), array.array("I"), bytearray(), array.array("I"),
          array.array("d"), array.array("d"), array.array("I"))


class _StateWalk:
  """The walk of :func:`_walk`: its buffers, its infoset table and the cap
  on the number of histories, which falls as infosets are found.

  :meth:`run` is the loop over histories. Each step that happens once per
  infoset, per chance node or per group of terminal siblings is a method of
  its own; a decision history's common path stays inline in the loop (a
  call per history would add about 0.1 us to the 2 us a history takes).
  """

  def __init__(self, game: pyspiel.Game, limit: SizeLimit):
    self.game = game
    self.limit = limit
    self.methods = _state_methods(game)
    self.buffers = _history_buffers()
    # Each infoset by key: (id, player, *the action lists of its legal
    # actions), the lists (see _action_lists) shared by infosets of the
    # same legal actions.
    self.infosets: dict[str, tuple] = {}
    self.action_lists: dict[tuple[int, ...], tuple] = {}
    self.key_bytes = 0
    # Kept up to date as limit.history_cap(num_players, len(infosets),
    # key_bytes, num_actions) would compute it.
    (self.spare, self.history_bytes, self.infoset_bytes,
     self.key_byte_bytes) = limit.cap_terms(game.num_players(),
                                            game.num_distinct_actions())
    self.cap = max(0.0, self.spare) // self.history_bytes

  def refusal(self, count: int, how: str) -> ValueError:
    """The size limit's error for ``count`` histories ("found more than"
    or "found at least")."""
    return self.limit.error(self.game, count, how, len(self.infosets),
                            self.key_bytes)

  def new_infoset(self, key: str, legal: list[int], player: int,
                  history: int) -> tuple:
    """Adds the infoset of ``key``, first met at ``history``; lowers the
    cap by its bytes. Returns its table entry."""
    legal_set = tuple(legal)
    lists = self.action_lists.get(legal_set)
    if lists is None:
      lists = self.action_lists[legal_set] = _action_lists(legal)
    known = (len(self.infosets), player) + lists
    self.infosets[key] = known
    self.buffers[6].append(history)  # infoset_history
    self.key_bytes += len(key)
    self.spare -= self.infoset_bytes + self.key_byte_bytes * len(key)
    self.cap = max(0.0, self.spare) // self.history_bytes
    return known

  def add_terminals(self, parent_code: int, action_codes: list[int],
                    probs: list[float] | None,
                    states: list[pyspiel.State]) -> None:
    """Appends terminal siblings, the next histories in pre-order."""
    (parent, action, node_player, _, chance_child_prob, terminal_utility,
     _) = self.buffers
    count = len(action_codes)
    first = len(parent)
    if first + count > self.cap:
      raise self.refusal(max(first, math.ceil(self.cap)) + 1,
                         "found more than")
    parent.extend([parent_code] * count)
    action.extend(action_codes)
    node_player.extend(bytes(count))  # TERMINAL + _PLAYER_OFFSET is 0.
    if probs is not None:
      chance_child_prob.extend(probs)
    terminal_utility.extend(
        itertools.chain.from_iterable(map(self.methods[3], states)))

  def expand_chance(self, state: pyspiel.State, player: int, history: int,
                    stacked: int, push: Callable) -> None:
    """Expands the chance node ``state`` (history ``history``, ``stacked``
    histories waiting): its children pushed with ``push``, or appended
    when all are terminal."""
    if player != CHANCE:
      raise ValueError(f"{self.game}: history {state.history_str()!r} has "
                       f"acting player {player}; only sequential games with "
                       "chance nodes are supported.")
    outcomes = state.chance_outcomes()
    _check_chance(self.game, state, outcomes)
    # Refused before the children are built: each is a history to come.
    pending = history + 1 + stacked + len(outcomes)
    if pending > self.cap:
      raise self.refusal(pending, "found at least")
    if outcomes[-1][0] >= 10:
      outcomes = sorted(outcomes, key=lambda pair: str(pair[0]))
    moves = [outcome for outcome, _ in outcomes]
    probs = [outcome_prob for _, outcome_prob in outcomes]
    children = list(map(state.child, moves[:-1]))
    self.methods[4](state, moves[-1])  # apply_action
    children.append(state)
    players = list(map(self.methods[2], children))  # current_player
    codes = [move + 1 for move in moves]
    if players.count(TERMINAL) == len(players):
      self.add_terminals(history + 1, codes, probs, children)
    else:
      push(zip(reversed(children), reversed(players),
               [history + 1] * len(children), reversed(codes),
               reversed(probs)))

  def run(self) -> tuple:
    """Walks the game. Returns the buffers, as :func:`_assemble` takes
    them."""
    (infostate_string, legal_actions, current_player, returns,
     apply_action) = self.methods
    (parent, action, node_player, decision_infoset, chance_child_prob,
     terminal_utility) = self.buffers[:6]
    find_infoset, no_probs = self.infosets.get, itertools.repeat(None)
    # Stack entries, popped in pre-order: (state, player, parent + 1,
    # action + 1, prob), prob None unless the parent is a chance node.
    root = self.game.new_initial_state()
    stack = [(root, current_player(root), 0, 0, None)]
    pop, push, cap = stack.pop, stack.extend, self.cap
    while stack:
      state, player, parent_code, action_code, prob = pop()
      history = len(parent)
      if history >= cap:
        raise self.refusal(history + 1, "found more than")
      parent.append(parent_code)
      action.append(action_code)
      node_player.append(player + _PLAYER_OFFSET)
      if prob is not None:
        chance_child_prob.append(prob)
      if player >= 0:
        key = infostate_string(state, player)
        legal = legal_actions(state)
        known = find_infoset(key)
        if known is None:
          known = self.new_infoset(key, legal, player, history)
          cap = self.cap
        if known[2] != legal or known[1] != player:
          raise _ambiguous_key(self.game, key)
        decision_infoset.append(known[0])
        _, _, _, head, last, codes, backwards = known
        if last is None:
          continue
        # The last child is this state itself, advanced in place.
        children = list(map(state.child, head))
        apply_action(state, last)
        children.append(state)
        players = list(map(current_player, children))
        if players.count(TERMINAL) == len(players):
          self.add_terminals(history + 1, codes, None, children)
        else:
          children.reverse()
          players.reverse()
          push(zip(children, players, [history + 1] * len(children),
                   backwards, no_probs))
      elif player == TERMINAL:
        terminal_utility.extend(returns(state))
      else:
        self.expand_chance(state, player, history, len(stack), push)
    return self.buffers[:6] + (self.infosets, self.buffers[6])


def _ambiguous_key(game: pyspiel.Game, key: str) -> ValueError:
  """The refusal of an infoset key met with another player or other legal
  actions."""
  return ValueError(
      f"{game}: infoset key {key!r} is shared by histories with different "
      "acting players or legal actions; the game's infostate strings do not "
      "identify information sets.")


def _action_lists(legal: list[int]) -> tuple:
  """What the walk needs of an infoset's legal actions: (the list as
  legal_actions() gave it, the actions in walk order but the last, the last
  (None if there are none), the walk order's actions + 1, the same
  reversed)."""
  moves = _action_order(legal)
  codes = [move + 1 for move in moves]
  return (legal, moves[:-1], moves[-1] if moves else None, codes,
          codes[::-1])


def _take(buffer: array.array | bytearray, dtype: type,
          offset: int = 0) -> np.ndarray:
  """A copy of ``buffer``'s unsigned ``dtype`` values less ``offset``, as
  the signed type of the same size (the walk's codes, see
  ``_PLAYER_OFFSET``); the buffer's memory is released."""
  copy = np.frombuffer(buffer, dtype=dtype).copy()
  del buffer[:]
  copy -= dtype(offset)  # Modulo 2**bits: 0 - 1 is -1 seen as signed.
  return copy.view(np.dtype(dtype).str.replace("u", "i"))


def _assemble(game: pyspiel.Game, parent: array.array, action: array.array,
              node_player: bytearray, decision_infoset: array.array,
              chance_child_prob: array.array, terminal_utility: array.array,
              infosets: dict[str, tuple], infoset_history: array.array
              ) -> tuple[dict[str, np.ndarray], list[str]]:
  """The walk's buffers as the tree's arrays (see :func:`_walk`), freeing
  each buffer once it is converted."""
  num_players = game.num_players()
  players = _take(node_player, np.uint8, _PLAYER_OFFSET)
  parents = _take(parent, np.uint32, 1)
  num_histories = len(parents)
  chance_prob = _chance_probabilities(players, parents, chance_child_prob)
  utility = _utilities(players, terminal_utility, num_players)
  first_seen, order, row_of_id = _infoset_rows(infosets)
  legal_mask = _legal_mask(infosets, row_of_id, len(order),
                           game.num_distinct_actions())
  keys_by_id = list(infosets)
  infosets.clear()
  history_infoset = np.full(num_histories, -1, dtype=np.int32)
  history_infoset[players >= 0] = row_of_id[np.frombuffer(
      decision_infoset, dtype=np.uint32)]
  del decision_infoset[:]

  arrays = {
      "parent": parents,
      "action": _take(action, np.uint32, 1),
      "node_player": players.astype(np.int32),
      "infoset": history_infoset,
      "chance_prob": chance_prob,
      "utility": utility,
      "infoset_player": first_seen[order],
      "infoset_legal": legal_mask,
      "infoset_history": np.frombuffer(infoset_history,
                                       dtype=np.uint32).astype(np.int32)[order],
  }
  return arrays, [keys_by_id[i] for i in order]


def _chance_probabilities(players: np.ndarray, parents: np.ndarray,
                          chance_child_prob: array.array) -> np.ndarray:
  """[histories] the probability of each chance node's child, 1 elsewhere;
  ``chance_child_prob`` is emptied."""
  chance_prob = np.ones(len(parents))
  chance_children = np.flatnonzero(players[parents[1:]] == CHANCE)
  chance_children += 1
  chance_prob[chance_children] = np.frombuffer(chance_child_prob,
                                               dtype=np.float64)
  del chance_children, chance_child_prob[:]
  return chance_prob


def _utilities(players: np.ndarray, terminal_utility: array.array,
               num_players: int) -> np.ndarray:
  """[histories, players] the returns at terminals, 0 elsewhere;
  ``terminal_utility`` is emptied."""
  terminal = players == TERMINAL
  utility = np.zeros((len(players), num_players))
  utility[terminal] = np.frombuffer(terminal_utility,
                                    dtype=np.float64).reshape(-1, num_players)
  del terminal, terminal_utility[:]
  return utility


def _infoset_rows(infosets: dict[str, tuple]) -> tuple[np.ndarray, ...]:
  """(each infoset's player by id, the ids in row order, the row of each
  id): rows grouped by player, first-encounter order within a player, the
  layout of open_spiel.python.policy.TabularPolicy."""
  first_seen = np.array([known[1] for known in infosets.values()],
                        dtype=np.int32)
  row_of_id = np.empty(len(first_seen), dtype=np.int32)
  order = np.argsort(first_seen, kind="stable")
  row_of_id[order] = np.arange(len(order), dtype=np.int32)
  return first_seen, order, row_of_id


def _legal_mask(infosets: dict[str, tuple], row_of_id: np.ndarray,
                num_rows: int, num_actions: int) -> np.ndarray:
  """[rows, actions] the legal actions of each infoset row."""
  legal_lists = [known[2] for known in infosets.values()]
  num_legal = np.fromiter(map(len, legal_lists), dtype=np.int64,
                          count=len(legal_lists))
  legal_actions = np.fromiter(itertools.chain.from_iterable(legal_lists),
                              dtype=np.int64, count=int(num_legal.sum()))
  legal_mask = np.zeros((num_rows, num_actions), dtype=bool)
  legal_mask[np.repeat(row_of_id, num_legal), legal_actions] = True
  return legal_mask


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
