"""Exact history counts of games whose tree follows from their parameters.

Random walks (:func:`~.admission.estimate_num_histories`) rarely follow the
long raise chains of a betting game, so their estimate of a deep, narrow tree
can be off by orders of magnitude (a Leduc hold'em with a million raises per
round looked like 28,244 histories). For the games whose rules are known
here, the count comes from the rules instead, exactly and in well under a
second, without building a state:

- ``spiel_ext_leduc`` and OpenSpiel's ``leduc_poker`` (its deck of
  ``players + 1`` ranks and 2 suits, without suit isomorphism): the deal
  chain, then each betting round counted over its situations (who is still
  in, who must still match the bet, calls and raises so far, who acts),
  each situation once;
- OpenSpiel's ``kuhn_poker``: a closed form in its number of players;
- ``spiel_ext_bid_leduc``: over the two stakes and who acts (past a
  ``max_bid`` of 30 the count of 30 is returned, already above 10^18: the
  tree only grows with ``max_bid``);
- ``spiel_ext_vnm_poker``: a closed form;
- ``spiel_ext_unknown_env``: its compiled base tree plus the reward chance
  node's two outcomes under each base terminal.

:func:`count_histories` returns None for any other game (the walks'
estimate is used then).
"""

from __future__ import annotations

import math
from typing import Callable, Hashable

import pyspiel

__all__ = ["count_histories"]

# Situations a count may visit before it gives up (None: the walks'
# estimate is used). Counting is a few microseconds per situation.
_MAX_SITUATIONS = 100_000
# bid_leduc's tree grows about 3.6 times per step of max_bid: past this the
# count of this max_bid (already above 10^18) stands for the game's.
_BID_LEDUC_COUNTED_UP_TO = 30


def count_histories(game: pyspiel.Game,
                    stop_above: float | None = None) -> int | None:
  """The number of histories (chance, decision and terminal nodes) of
  ``game``, if its tree follows from its parameters (module docstring).

  Args:
    game: a loaded game.
    stop_above: if given, counting may stop as soon as the count is certain
      to be above it, returning a lower bound on the count that is above
      it.

  Returns:
    The exact count (for ``spiel_ext_bid_leduc`` past ``max_bid=30``, the
    count of 30, above 10^18); or a lower bound above ``stop_above``; or
    None when the game's rules are not known here or counting would visit
    more than 100,000 betting situations.
  """
  counter = _COUNTERS.get(game.get_type().short_name)
  if counter is None:
    return None
  try:
    return counter(game, stop_above)
  except _AboveLimit as above:
    return above.bound


class _AboveLimit(Exception):
  """A lower bound on a game's count, found above the count's stop."""

  def __init__(self, bound: int):
    super().__init__(bound)
    self.bound = bound


def _evaluate(root: Hashable, expand: Callable[[Hashable], tuple[int, list]],
              weight: Callable[[Hashable], int] = lambda key: 1,
              stop_above: float | None = None) -> int | None:
  """value(key) = own + sum(multiplier * value(child)) with ``expand(key) =
  (own, [(multiplier, child)])``, each key expanded once (no recursion).

  ``weight(key)`` is how many times at least the game's tree holds the
  subtree of ``key`` (its deals above it): the running total of the
  weights of the keys met, and any finished key's weight times its value,
  are lower bounds on the game's count. As soon as one is above
  ``stop_above`` it is raised (:class:`_AboveLimit`). None past
  :data:`_MAX_SITUATIONS` keys.
  """
  values: dict = {}
  expanded: dict = {}
  stack = [root]
  met = 0
  while stack:
    key = stack[-1]
    if key in values:
      stack.pop()
      continue
    entry = expanded.get(key)
    if entry is None:
      if len(expanded) >= _MAX_SITUATIONS:
        return None
      entry = expanded[key] = expand(key)
      met += weight(key)
      if stop_above is not None and met > stop_above:
        raise _AboveLimit(met)
      pending = [child for _, child in entry[1] if child not in values]
      if pending:
        stack.extend(pending)
        continue
    own, children = entry
    value = values[key] = own + sum(multiplier * values[child]
                                    for multiplier, child in children)
    if stop_above is not None and value * weight(key) > stop_above:
      raise _AboveLimit(value * weight(key))
    stack.pop()
  return values[root]


def _falling(n: int, k: int) -> int:
  """n (n - 1) ... (n - k + 1)."""
  return math.prod(range(n - k + 1, n + 1))


def _leduc_histories(*, players: int, deck_size: int, opening_stake: int,
                     initial_contribution: list[int],
                     raise_sizes: tuple[int, int], max_raises: int,
                     bet_cap: int, fold_always: bool, round2_after_last: bool,
                     stop_above: float | None = None) -> int | None:
  """The histories of Leduc hold'em with these rules (the betting of
  :mod:`spiel_ext.games.leduc`, which OpenSpiel's ``leduc_poker`` shares;
  the arguments are its rules' attributes).

  A betting situation is (round, the players still in, those who must still
  match the bet, calls and raises so far, and the stake in round 1 or the
  raises still allowed in round 2, the seat to act): the subtrees of equal
  situations are equal, so each is counted once.

  Returns:
    The exact count, or None past 100,000 betting situations.

  Raises:
    _AboveLimit: the count is certain to be above ``stop_above``.
  """
  everyone = (1 << players) - 1
  public_outcomes = deck_size - players

  def next_active(seat: int, active: int) -> int:
    for step in range(1, players + 1):
      candidate = (seat + step) % players
      if active >> candidate & 1:
        return candidate
    raise AssertionError("no active player")

  def round2_start(active: int, last: int, stakes: int) -> tuple:
    first = (next_active(last, active) if round2_after_last else
             next_active(players - 1, active))
    room = max_raises
    if bet_cap:
      room = min(room, max(0, (bet_cap - stakes) // raise_sizes[1]))
    return (2, active, 0, 0, 0, room, first)

  def expand(key: tuple) -> tuple[int, list]:
    # Round 1: (1, active, unmatched, calls, raises, stakes, seat);
    # round 2: (2, active, unmatched, calls, raised, raises left, seat).
    betting_round, active, unmatched, calls, fifth, sixth, seat = key
    own, children = 1, []
    if betting_round == 1:
      raises, stakes = fifth, sixth
      can_raise = raises < max_raises and (
          not bet_cap or stakes + raise_sizes[0] <= bet_cap)
    else:
      raises, room = fifth, sixth  # raises: 0 or 1 (whether raised).
      can_raise = room > 0
    bit = 1 << seat

    def after(active_now: int, unmatched_now: int, calls_now: int) -> None:
      """A fold or call by ``seat``: game over, round over or next seat."""
      nonlocal own
      remaining = bin(active_now).count("1")
      over = calls_now == (remaining if raises == 0 else remaining - 1)
      if remaining == 1 or (over and betting_round == 2):
        own += 1  # Terminal.
      elif over:
        own += 1  # The public card's chance node.
        children.append((public_outcomes,
                         round2_start(active_now, seat, stakes)))
      elif betting_round == 1:
        children.append((1, (1, active_now, unmatched_now, calls_now,
                             raises, stakes, next_active(seat, active_now))))
      else:
        children.append((1, (2, active_now, unmatched_now, calls_now,
                             raises, room, next_active(seat, active_now))))

    if unmatched & bit or fold_always:
      after(active & ~bit, unmatched & ~bit, calls)
    after(active, unmatched & ~bit, calls + 1)
    if can_raise:
      others = active & ~bit
      nxt = next_active(seat, active)
      if betting_round == 1:
        children.append((1, (1, active, others, 0, raises + 1,
                             stakes + raise_sizes[0], nxt)))
      else:
        children.append((1, (2, active, others, 0, 1, room - 1, nxt)))
    return own, children

  unmatched = sum(1 << seat for seat in range(players)
                  if initial_contribution[seat] < opening_stake)
  deals = _falling(deck_size, players)
  # A round-1 situation is met under every deal; a round-2 one under every
  # deal and public card too.
  weights = {1: deals, 2: deals * public_outcomes}
  round1 = _evaluate((1, everyone, unmatched, 0, 0, opening_stake,
                      next_active(players - 1, everyone)), expand,
                     lambda key: weights[key[0]], stop_above)
  if round1 is None:
    return None
  chance = sum(_falling(deck_size, dealt) for dealt in range(players))
  return chance + deals * round1


def _spiel_ext_leduc(game: pyspiel.Game,
                     stop_above: float | None) -> int | None:
  rules = getattr(game, "rules", None)
  if rules is None:
    return None
  return _leduc_histories(
      players=rules.players, deck_size=rules.deck_size,
      opening_stake=rules.opening_stake,
      initial_contribution=rules.initial_contribution(),
      raise_sizes=tuple(rules.raise_sizes), max_raises=rules.max_raises,
      bet_cap=rules.bet_cap, fold_always=rules.fold_always,
      round2_after_last=rules.round2_first == "after_last",
      stop_above=stop_above)


def _openspiel_leduc(game: pyspiel.Game,
                     stop_above: float | None) -> int | None:
  params = game.get_parameters()
  if params.get("suit_isomorphism", False):
    return None
  players = game.num_players()
  return _leduc_histories(
      players=players, deck_size=2 * (players + 1), opening_stake=1,
      initial_contribution=[1] * players, raise_sizes=(2, 4), max_raises=2,
      bet_cap=0, fold_always=False, round2_after_last=False,
      stop_above=stop_above)


def _bid_leduc_histories(max_bid: int,
                         stop_above: float | None = None) -> int | None:
  """The histories of ``spiel_ext_bid_leduc(max_bid=k)`` (its rules: see
  :mod:`spiel_ext.games.bid_leduc`); past k = 30, the count of k = 30.

  Returns:
    The count, or None past 100,000 situations.

  Raises:
    _AboveLimit: the count is certain to be above ``stop_above``.
  """
  top = min(max_bid, _BID_LEDUC_COUNTED_UP_TO)
  not_bid = -1

  def expand(key: tuple) -> tuple[int, list]:
    betting_round, first, second, seat = key
    stakes = (first, second)
    opponent = stakes[1 - seat]
    own, children = 2, []  # The node and its fold.
    choices = top if opponent == not_bid else top - opponent + 1
    for action in range(choices):
      stake = action + 1 if opponent == not_bid else opponent + action
      if stake == stakes[seat]:  # Round over.
        if betting_round == 2:
          own += 1
        else:
          own += 1  # The public rank's chance node.
          children.append((3, (2, first, second, 0)))
      else:
        new = (stake, second) if seat == 0 else (first, stake)
        children.append((1, (betting_round, *new, 1 - seat)))
    return own, children

  # 9 private deals above round 1, 3 public ranks more above round 2.
  betting = _evaluate((1, not_bid, not_bid, 0), expand,
                      lambda key: 9 if key[0] == 1 else 27, stop_above)
  return None if betting is None else 1 + 3 + 9 * betting


def _spiel_ext_bid_leduc(game: pyspiel.Game,
                         stop_above: float | None) -> int | None:
  rules = getattr(game, "rules", None)
  return (None if rules is None else
          _bid_leduc_histories(rules.max_bid, stop_above))


def _openspiel_kuhn(game: pyspiel.Game,
                    stop_above: float | None) -> int | None:
  del stop_above  # A closed form.
  players = game.num_players()
  deck = players + 1
  # Betting: a chain of passes (players decisions and the terminal after
  # the last); a bet at any of them is answered by each other player in
  # turn, call or fold: a full binary tree of 2^players - 1 nodes.
  betting = players + 1 + players * (2**players - 1)
  chance = sum(_falling(deck, dealt) for dealt in range(players))
  return chance + _falling(deck, players) * betting


def _spiel_ext_vnm_poker(game: pyspiel.Game,
                         stop_above: float | None) -> int | None:
  del stop_above  # A closed form.
  rules = getattr(game, "rules", None)
  if rules is None:
    return None
  # Betting nodes: "", k, kk, kb, kbf, kbc, kbr, kbrf, kbrc, b, bf, bc, br,
  # brf, brc for "raise"; "", k, b, bf, bc for "asymmetric".
  betting = 15 if rules.variant == "raise" else 5
  return 1 + rules.hands + rules.hands**2 * betting


def _spiel_ext_unknown_env(game: pyspiel.Game,
                           stop_above: float | None) -> int | None:
  del stop_above  # Read from the compiled base tree.
  base = getattr(game, "base_tree", None)
  if base is None:
    return None
  terminals = int(base.is_terminal.sum())
  return int(base.num_histories) + 2 * terminals


_COUNTERS: dict[str, Callable[[pyspiel.Game, float | None],
                              int | None]] = {
    "spiel_ext_leduc": _spiel_ext_leduc,
    "leduc_poker": _openspiel_leduc,
    "kuhn_poker": _openspiel_kuhn,
    "spiel_ext_bid_leduc": _spiel_ext_bid_leduc,
    "spiel_ext_vnm_poker": _spiel_ext_vnm_poker,
    "spiel_ext_unknown_env": _spiel_ext_unknown_env,
}
