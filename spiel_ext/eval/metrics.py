"""Exact evaluators on the compiled tree: NashConv, exploitability, values.

Definitions (SPEC section 5):
  nash_conv(sigma)      = sum_i [max_{b_i} u_i(b_i, sigma_{-i}) - u_i(sigma)]
                          (Schulze's "total exploitability", seed 002 eq. 23;
                          OpenSpiel's ``exploitability.nash_conv``)
  exploitability(sigma) = nash_conv(sigma) / num_players
                          (OpenSpiel's ``exploitability.exploitability`` for
                          zero-sum games)
The two differ by a factor of the number of players; every result we write
names which one it is.

With ``min_action_prob`` = eps > 0 the best responses are restricted to the
eps-perturbed strategy space of seed 002 eq. 24 (every legal action at least
eps), which is how the perturbed games of that paper are evaluated.
Every function accepts a pyspiel game, a game string or a compiled GameTree,
and any policy :func:`spiel_ext.policy.policy_to_array` accepts.
"""

from __future__ import annotations

import collections

import numpy as np

from spiel_ext.engine import GameTree, compile_game, passes
from spiel_ext.policy import PolicyLike, policy_to_array

NashConvResult = collections.namedtuple("NashConvResult",
                                        ["nash_conv", "player_improvements"])


def _strategy(tree: GameTree, policy: PolicyLike) -> np.ndarray:
  if isinstance(policy, np.ndarray):
    tree.check_policy(policy)
    return policy
  return policy_to_array(tree, policy)


def _check_min_action_prob(tree: GameTree, min_action_prob: float) -> None:
  largest = 1.0 / tree.infoset_num_actions.max() if tree.num_infosets else 1.0
  if not 0.0 <= min_action_prob < largest or np.isnan(min_action_prob):
    raise ValueError(f"min_action_prob must be in [0, 1/|A|) = [0, {largest:g}) "
                     f"for {tree.game_string}; got {min_action_prob}.")


def expected_values(game, policy: PolicyLike) -> np.ndarray:
  """Expected utility of each player when everyone plays ``policy``."""
  tree = compile_game(game)
  return tree.root_values(_strategy(tree, policy))


def best_response_values(game, policy: PolicyLike,
                         min_action_prob: float = 0.0) -> np.ndarray:
  """Each player's best-response value against the others' ``policy``."""
  tree = compile_game(game)
  _check_min_action_prob(tree, min_action_prob)
  strategy = _strategy(tree, policy)
  best, _ = _best_and_on_policy(tree, strategy, min_action_prob)
  return best


def _best_and_on_policy(tree, strategy, min_action_prob):
  """Best-response and on-policy values of every player from one reach."""
  others, on_policy = passes.terminal_reaches(tree.reach(strategy),
                                              tree.terminals, tree.utility)
  best = np.array([
      tree.best_response(strategy, player, min_action_prob=min_action_prob,
                         terminal_others=np.ascontiguousarray(
                             others[:, player]))[0]
      for player in range(tree.num_players)])
  return best, on_policy


def nash_conv(game, policy: PolicyLike, return_only_nash_conv: bool = True,
              min_action_prob: float = 0.0):
  """NashConv: the sum over players of what a best response gains.

  Mirrors ``open_spiel.python.algorithms.exploitability.nash_conv``: with
  ``return_only_nash_conv=False`` it returns (nash_conv, player_improvements).
  """
  tree = compile_game(game)
  _check_min_action_prob(tree, min_action_prob)
  best, on_policy = _best_and_on_policy(tree, _strategy(tree, policy),
                                        min_action_prob)
  improvements = best - on_policy
  total = float(improvements.sum())
  if return_only_nash_conv:
    return total
  return NashConvResult(total, improvements)


def exploitability(game, policy: PolicyLike,
                   min_action_prob: float = 0.0) -> float:
  """Exploitability = NashConv / num_players (OpenSpiel's convention)."""
  tree = compile_game(game)
  return nash_conv(tree, policy, min_action_prob=min_action_prob) / (
      tree.num_players)


def head_to_head(game, policy_a: PolicyLike, policy_b: PolicyLike,
                 seat: int = 0) -> float:
  """Exact expected payoff of ``policy_a`` in ``seat`` against ``policy_b``.

  ``policy_b`` plays every other seat. No sampling: the value is computed on
  the whole tree, in the game's own units (chips for poker).
  """
  tree = compile_game(game)
  if not 0 <= seat < tree.num_players:
    raise ValueError(f"seat must be in 0..{tree.num_players - 1}; got {seat}.")
  combined = _strategy(tree, policy_b).copy()
  rows = tree.infosets_of_player(seat)
  combined[rows] = _strategy(tree, policy_a)[rows]
  return float(tree.root_values(combined)[seat])


def head_to_head_matrix(game, policies: dict[str, PolicyLike],
                        seat: int = 0) -> tuple[list[str], np.ndarray]:
  """Payoffs of every row policy in ``seat`` against every column policy.

  Returns:
    (names, matrix) with matrix[r, c] = head_to_head(game, policies[r],
    policies[c], seat).
  """
  tree = compile_game(game)
  names = list(policies)
  strategies = [_strategy(tree, policies[name]) for name in names]
  matrix = np.array([[head_to_head(tree, row, column, seat)
                      for column in strategies] for row in strategies])
  return names, matrix
