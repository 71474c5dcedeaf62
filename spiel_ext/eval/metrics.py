"""Exact evaluators on the compiled tree: NashConv, exploitability, values.

Definitions:
  nash_conv(sigma)      = sum_i [max_{b_i} u_i(b_i, sigma_{-i}) - u_i(sigma)]
                          (OpenSpiel's ``exploitability.nash_conv``; Tim P.
                          Schulze, "A Generalized Extensive-Form Fictitious
                          Play Algorithm", 2023, arXiv:2310.09658, calls it
                          the "total exploitability", eq. 23). Defined for
                          any number of players and any utility.
  exploitability(sigma) = nash_conv(sigma) / num_players, for zero-sum and
                          constant-sum games only (OpenSpiel's
                          ``exploitability.exploitability`` and
                          ``pyspiel.exploitability`` refuse other games too).
The two differ by a factor of the number of players; every result we write
names which one it is.

With ``min_action_prob`` = eps > 0 the best responses are restricted to the
eps-perturbed strategy space of Schulze 2023, eq. 24 (every legal action at
least eps), which is how the perturbed games of that paper are evaluated.
Every function accepts a pyspiel game, a game string or a compiled GameTree,
and any policy :func:`spiel_ext.policy.policy_to_array` accepts; the policy
must be a strategy (finite, non-negative, 0 on illegal actions, each
infoset's row summing to 1 within 1e-6; see
:func:`spiel_ext.policy.check_strategy`), else ValueError.
"""

from __future__ import annotations

import collections
from collections.abc import Mapping, Sequence
from typing import Any, Literal, TypeAlias, overload

import numpy as np
import pyspiel

from spiel_ext.checks import check_bool, is_integer
from spiel_ext.engine import GameTree, compile_game, regret_passes, threads
from spiel_ext.policy import PolicyLike, as_strategy, check_min_action_prob

# What the evaluators take as a game: a pyspiel game, its string, or its
# compiled tree.
GameLike: TypeAlias = pyspiel.Game | str | GameTree

NashConvResult = collections.namedtuple("NashConvResult",
                                        ["nash_conv", "player_improvements"])
NashConvResult.__doc__ = """What ``nash_conv(..., return_only_nash_conv=False)``
returns, as OpenSpiel's ``exploitability.nash_conv``.

Attributes:
  nash_conv: the NashConv, a float.
  player_improvements: [num_players] what each player's best response gains
    over the policy's own value.
"""

_CONSTANT_SUM = (pyspiel.GameType.Utility.ZERO_SUM,
                 pyspiel.GameType.Utility.CONSTANT_SUM)


def expected_values(game: GameLike, policy: PolicyLike) -> np.ndarray:
  """Expected utility of each player when everyone plays ``policy``.

  Args:
    game: a pyspiel game, game string or compiled GameTree.
    policy: any policy :func:`spiel_ext.policy.as_strategy` accepts (it
      must be a strategy).

  Returns:
    [num_players] expected utilities, in the game's own units.

  Raises:
    ValueError: ``policy`` is not a strategy of the game.
  """
  tree = compile_game(game)
  return tree.root_values(as_strategy(tree, policy))


def best_response_values(game: GameLike, policy: PolicyLike,
                         min_action_prob: float = 0.0) -> np.ndarray:
  """Each player's best-response value against the others' ``policy``.

  Args:
    game: a pyspiel game, game string or compiled GameTree.
    policy: any policy :func:`spiel_ext.policy.as_strategy` accepts (it
      must be a strategy).
    min_action_prob: eps in [0, 1/|A|): best responses restricted to the
      eps-perturbed strategies (default 0: unrestricted).

  Returns:
    [num_players] best-response values, in the game's own units.

  Raises:
    ValueError: ``policy`` is not a strategy of the game, or
      ``min_action_prob`` is out of range.
  """
  tree = compile_game(game)
  min_action_prob = check_min_action_prob(tree, min_action_prob)
  best, _ = _best_and_on_policy(tree, as_strategy(tree, policy),
                                min_action_prob)
  return best


def _best_and_on_policy(tree: GameTree, strategy: np.ndarray,
                        min_action_prob: float
                        ) -> tuple[np.ndarray, np.ndarray]:
  """Best-response and on-policy values of every player from one reach."""
  others, on_policy = regret_passes.terminal_reaches(tree,
                                                     tree.reach(strategy))
  columns = [np.ascontiguousarray(others[:, player])
             for player in range(tree.num_players)]
  for player in range(tree.num_players):  # Built once, before the threads.
    tree.best_response_schedules[player]  # pylint: disable=pointless-statement
  # The players' best responses are serial kernels: one per thread.
  best = np.array(threads.map_serial_kernels(
      lambda player: tree.best_response(
          strategy, player, min_action_prob=min_action_prob,
          terminal_others=columns[player])[0],
      range(tree.num_players), tree.num_histories))
  return best, on_policy


@overload
def nash_conv(game: GameLike, policy: PolicyLike,
              return_only_nash_conv: Literal[True] = ...,
              min_action_prob: float = ...) -> float: ...


@overload
def nash_conv(game: GameLike, policy: PolicyLike,
              return_only_nash_conv: Literal[False],
              min_action_prob: float = ...) -> NashConvResult: ...


@overload
def nash_conv(game: GameLike, policy: PolicyLike,
              return_only_nash_conv: bool = ...,
              min_action_prob: float = ...) -> float | NashConvResult: ...


def nash_conv(game: GameLike, policy: PolicyLike,
              return_only_nash_conv: bool = True,
              min_action_prob: float = 0.0) -> float | NashConvResult:
  """NashConv: the sum over players of what a best response gains.

  Mirrors ``open_spiel.python.algorithms.exploitability.nash_conv``, and like
  it is defined for general-sum games and any number of players (it is 0
  exactly at a Nash equilibrium).

  Args:
    game: a pyspiel game, game string or compiled GameTree.
    policy: the strategy profile (any policy form; checked to be a
      strategy).
    return_only_nash_conv: True (default) for the number, False for
      ``NashConvResult(nash_conv, player_improvements)``.
    min_action_prob: eps in [0, 1/|A|): best responses restricted to the
      eps-perturbed strategies (default 0: unrestricted).

  Returns:
    The NashConv (a float), or a :class:`NashConvResult` with each player's
    improvement when ``return_only_nash_conv`` is False.

  Raises:
    TypeError: ``return_only_nash_conv`` is not a bool.
    ValueError: ``policy`` is not a strategy of the game, or
      ``min_action_prob`` is out of range.
  """
  return_only_nash_conv = check_bool("return_only_nash_conv",
                                     return_only_nash_conv)
  tree = compile_game(game)
  min_action_prob = check_min_action_prob(tree, min_action_prob)
  best, on_policy = _best_and_on_policy(tree, as_strategy(tree, policy),
                                        min_action_prob)
  improvements = best - on_policy
  total = float(improvements.sum())
  if return_only_nash_conv:
    return total
  return NashConvResult(total, improvements)


def exploitability(game: GameLike, policy: PolicyLike,
                   min_action_prob: float = 0.0) -> float:
  """Exploitability = NashConv / num_players (OpenSpiel's convention).

  Defined, as OpenSpiel defines it, for zero-sum and constant-sum games
  only (any number of players, as ``pyspiel.exploitability``); use
  :func:`nash_conv` for other games.

  Args:
    game, policy, min_action_prob: as :func:`best_response_values`.

  Returns:
    NashConv / num_players, a float.

  Raises:
    ValueError: the game is not zero-sum or constant-sum, or as
      :func:`nash_conv`.
  """
  return exploitability_and_nash_conv(game, policy, min_action_prob)[0]


def exploitability_and_nash_conv(
    game: GameLike, policy: PolicyLike,
    min_action_prob: float = 0.0) -> tuple[float, float]:
  """The exploitability and the NashConv it divides, from one NashConv.

  Args:
    game, policy, min_action_prob: as :func:`best_response_values`.

  Returns:
    (NashConv / num_players, NashConv): the values :func:`exploitability`
    and :func:`nash_conv` return.

  Raises:
    ValueError: as :func:`exploitability`.
  """
  tree = compile_game(game)
  utility = tree.game.get_type().utility
  if utility not in _CONSTANT_SUM:
    raise ValueError(
        f"exploitability is defined for zero-sum and constant-sum games "
        f"only (as OpenSpiel's); {tree.game_string} has {utility.name} "
        "utility. Use nash_conv, which is defined for any game.")
  total = nash_conv(tree, policy, min_action_prob=min_action_prob)
  return total / tree.num_players, total


def _check_seat(tree: GameTree, seat: Any) -> int:
  if not is_integer(seat) or not 0 <= seat < tree.num_players:
    raise ValueError(f"seat must be in 0..{tree.num_players - 1}; got "
                     f"{seat!r}.")
  return int(seat)


def head_to_head(game: GameLike, policy_a: PolicyLike, policy_b: PolicyLike,
                 seat: int = 0) -> float:
  """Exact expected payoff of ``policy_a`` in ``seat`` against ``policy_b``.

  ``policy_b`` plays every other seat. No sampling: the value is computed on
  the whole tree, in the game's own units (chips for poker).

  Args:
    game: a pyspiel game, game string or compiled GameTree.
    policy_a: the policy playing ``seat`` (any policy form; checked to be a
      strategy).
    policy_b: the policy playing every other seat (likewise).
    seat: the seat of ``policy_a``, in 0..num_players - 1.

  Returns:
    ``policy_a``'s expected payoff, a float.

  Raises:
    ValueError: a policy that is not a strategy, or ``seat`` not a player.
  """
  tree = compile_game(game)
  seat = _check_seat(tree, seat)
  combined = as_strategy(tree, policy_b, "policy_b").copy()
  rows = tree.player_rows[seat]
  combined[rows] = as_strategy(tree, policy_a, "policy_a")[rows]
  return float(tree.root_values(combined)[seat])


def head_to_head_matrix(game: GameLike, policies: Mapping[str, PolicyLike],
                        seat: int = 0) -> tuple[list[str], np.ndarray]:
  """Payoffs of every row policy in ``seat`` against every column policy.

  Args:
    game: a pyspiel game, game string or compiled GameTree.
    policies: a dict {name: policy}, each any policy form (checked to be a
      strategy); they are the rows and the columns in the dict's order.
    seat: the seat the row policy plays, in 0..num_players - 1.

  Returns:
    (names, matrix) with matrix[r, c] = head_to_head(game, policies[r],
    policies[c], seat).

  Raises:
    ValueError: ``policies`` not a dict of strategies, or a bad ``seat``.
  """
  tree = compile_game(game)
  seat = _check_seat(tree, seat)
  if not isinstance(policies, Mapping):
    raise ValueError("policies must be a dict {name: policy}; got "
                     f"{type(policies).__name__}.")
  names = list(policies)
  strategies = [as_strategy(tree, policies[name], f"policies[{name!r}]")
                for name in names]
  matrix = np.array([[head_to_head(tree, row, column, seat)
                      for column in strategies] for row in strategies])
  return names, matrix


def profile_values(game: GameLike,
                   policies: Sequence[PolicyLike]) -> np.ndarray:
  """Exact expected utility of every player when seat s plays policies[s].

  The profile is assembled seat by seat: each seat's rows come from its own
  policy, so any number of players can each bring a different strategy
  (``expected_game_score.policy_value(state, policies)`` of OpenSpiel,
  computed on the compiled tree without sampling). ``head_to_head`` is the
  case of one policy in one seat and another in all the others.

  Args:
    game: a pyspiel game, game string or compiled GameTree.
    policies: one policy per seat, in seat order (any policy form; each
      checked to be a strategy of the game).

  Returns:
    [num_players] expected utilities, in the game's own units.

  Raises:
    ValueError: ``policies`` not a sequence of num_players strategies.
  """
  tree = compile_game(game)
  is_list = isinstance(policies, Sequence) and not isinstance(
      policies, (str, bytes))
  if not is_list or len(policies) != tree.num_players:
    got = (f"{type(policies).__name__} of length {len(policies)}" if is_list
           else type(policies).__name__)
    raise ValueError(f"policies must be a list of {tree.num_players} "
                     f"policies, one per seat of {tree.game_string}; got "
                     f"{got}.")
  combined = np.empty((tree.num_infosets, tree.num_distinct_actions))
  for seat, policy in enumerate(policies):
    rows = tree.player_rows[seat]
    combined[rows] = as_strategy(tree, policy, f"policies[{seat}]")[rows]
  return tree.root_values(combined)
