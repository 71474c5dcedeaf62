"""Von Neumann-Morgenstern poker readouts: strategies and action values by hand.

What Schulze, "A Generalized Extensive-Form Fictitious Play Algorithm",
2023, arXiv:2310.09658, plots in Figures 1-3 for ``spiel_ext_vnm_poker``:

- :func:`sequence_probabilities`: per hand, the probability of each action
  sequence of a panel. Asymmetric game: player 1 bets, player 2 calls a bet.
  Raise variant: player 1's five sequences (check-fold, check-call,
  check-raise, bet-fold, bet-call; they add to one), player 2 after a check
  (check, bet-fold, bet-call) and player 2 facing a bet (fold, call, raise).
  With ``conditional=True`` player 1's sequences are conditional on the
  first action, as the paper's Figs. 2-3 draw them: check-fold, check-call
  and check-raise add to one, and so do bet-fold and bet-call.
- :func:`action_value_differences`: per hand, the expected value of betting
  minus checking (player 1) and of calling minus folding (player 2),
  conditional on reaching the decision with the hand (the belief over the
  opponent's hands; where the opponent never bets, the uniform-opponent
  belief of :meth:`GameTree.beliefs`).

``min_action_prob`` = eps > 0 reads a strategy of the eps-perturbed game as
the choice it stands for (:func:`spiel_ext.policy.remove_perturbation`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import pyspiel

from spiel_ext.engine import GameTree, compile_game
from spiel_ext.games import vnm_solution as solution
from spiel_ext.policy import (PolicyLike, as_strategy, check_min_action_prob,
                              remove_perturbation)

if TYPE_CHECKING:
  from spiel_ext.exploitability import GameLike

FOLD, CALL, RAISE = 0, 1, 2  # Action ids (check = call, bet = raise).
_NAME = "spiel_ext_vnm_poker"


def vnm_parameters(tree: GameTree) -> dict:
  """The game's parameters (hands, ante, bet, raise_size, variant).

  Args:
    tree: a compiled ``spiel_ext_vnm_poker`` game.

  Returns:
    {"hands", "ante", "bet", "raise_size", "variant": value}, the game's
    value of each, or its default where the game string leaves it out.

  Raises:
    ValueError: the game is not ``spiel_ext_vnm_poker``.
  """
  game = pyspiel.load_game(tree.game_string)
  if game.get_type().short_name != _NAME:
    raise ValueError(f"game must be {_NAME}; got {tree.game_string}.")
  parameters = game.get_parameters()
  defaults = {"hands": 10, "ante": 1.0, "bet": 2.0, "raise_size": 2.0,
              "variant": "raise"}
  return {key: parameters.get(key, value) for key, value in defaults.items()}


def _strategy_by_key(game: GameLike, policy: PolicyLike, min_action_prob: float
                     ) -> tuple[GameTree, Callable[[int, str], np.ndarray]]:
  tree = compile_game(game)
  eps = check_min_action_prob(tree, min_action_prob)
  strategy = remove_perturbation(as_strategy(tree, policy),
                                 tree.infoset_legal, eps)
  hands = int(vnm_parameters(tree)["hands"])

  def probabilities(player: int, betting: str) -> np.ndarray:
    """[hands, actions] at the infosets "P<player> hand h/N: <betting>"."""
    rows = [tree.key_to_infoset[f"P{player} hand {h}/{hands}: {betting}"]
            for h in range(1, hands + 1)]
    return strategy[rows]

  return tree, probabilities


def sequence_probabilities(game: GameLike, policy: PolicyLike,
                           min_action_prob: float = 0.0,
                           conditional: bool = False
                           ) -> dict[str, dict[str, np.ndarray]]:
  """{panel: {sequence: [probability for hands 1..N]}} (see module doc).

  Args:
    game: a ``spiel_ext_vnm_poker`` game (string, pyspiel game or tree).
    policy: a strategy of it.
    min_action_prob: read an eps-perturbed strategy as the choice it
      stands for (0: as given).
    conditional: player 1's raise-variant sequences given the first action
      (the behaviour after check-bet and after bet-raise) instead of the
      share of the hand's play; other panels are unchanged.

  Returns:
    {panel: {sequence: [hands] probabilities}}: panels "P1" and "P2" for
    the asymmetric variant, "P1", "P2 after check" and "P2 facing bet" for
    the raise variant.

  Raises:
    ValueError: not a vN&M poker game, or ``policy`` not a strategy of it,
      or ``min_action_prob`` out of range.
  """
  tree, probabilities = _strategy_by_key(game, policy, min_action_prob)
  if vnm_parameters(tree)["variant"] == "asymmetric":
    return {"P1": {"bet": probabilities(1, "")[:, RAISE]},
            "P2": {"call": probabilities(2, "b")[:, CALL]}}
  first, after_check, after_bet = (probabilities(1, ""),
                                   probabilities(1, "kb"),
                                   probabilities(1, "br"))
  check, bet = first[:, CALL], first[:, RAISE]
  p2_check, p2_raised = probabilities(2, "k"), probabilities(2, "kbr")
  p2_bet = probabilities(2, "b")
  if conditional:
    check = bet = np.ones(len(first))
  return {
      "P1": {"check-fold": check * after_check[:, FOLD],
             "check-call": check * after_check[:, CALL],
             "check-raise": check * after_check[:, RAISE],
             "bet-fold": bet * after_bet[:, FOLD],
             "bet-call": bet * after_bet[:, CALL]},
      "P2 after check": {
          "check": p2_check[:, CALL],
          "bet-fold": p2_check[:, RAISE] * p2_raised[:, FOLD],
          "bet-call": p2_check[:, RAISE] * p2_raised[:, CALL]},
      "P2 facing bet": {"fold": p2_bet[:, FOLD], "call": p2_bet[:, CALL],
                        "raise": p2_bet[:, RAISE]},
  }


def action_value_differences(game: GameLike, policy: PolicyLike
                             ) -> dict[str, np.ndarray]:
  """{"P1": bet - check, "P2": call - fold}, [hands], for the asymmetric
  game: each player's expected payoff of the two actions given its hand
  and that the decision is reached, everyone else playing ``policy``.

  Args:
    game: an asymmetric ``spiel_ext_vnm_poker`` game (string, pyspiel game
      or tree).
    policy: any policy :func:`spiel_ext.policy.as_strategy` accepts (it
      must be a strategy).

  Returns:
    {"P1": [hands] bet minus check, "P2": [hands] call minus fold}, hand 1
    first.

  Raises:
    ValueError: not the asymmetric vN&M game, or ``policy`` not a strategy.
  """
  tree = compile_game(game)
  parameters = vnm_parameters(tree)
  if parameters["variant"] != "asymmetric":
    raise ValueError("action_value_differences needs variant=asymmetric; "
                     f"got {tree.game_string}.")
  strategy = as_strategy(tree, policy)
  hands = int(parameters["hands"])
  values = tree.values(strategy)
  differences = {}
  for player, betting, (high, low) in ((0, "", (RAISE, CALL)),
                                       (1, "b", (CALL, FOLD))):
    belief, _ = tree.beliefs(strategy, player)
    action_values = tree.belief_action_values(strategy, player, belief,
                                              values)
    start = tree.player_rows[player].start
    rows = np.array([tree.key_to_infoset[
        f"P{player + 1} hand {h}/{hands}: {betting}"]
                     for h in range(1, hands + 1)]) - start
    differences[f"P{player + 1}"] = (action_values[rows, high] -
                                     action_values[rows, low])
  return differences


# Player 1's sequences: (first action, action after check-bet, after bet-raise).
_P1_PLAN = {"check-fold": (CALL, FOLD, FOLD), "check-call": (CALL, CALL, FOLD),
            "check-raise": (CALL, RAISE, FOLD), "bet-fold": (RAISE, FOLD, FOLD),
            "bet-call": (RAISE, FOLD, CALL)}
# Player 2 after a check: (action at "k", action at "kbr").
_P2_CHECK_PLAN = {"check": (CALL, FOLD), "bet-fold": (RAISE, FOLD),
                  "bet-call": (RAISE, CALL)}
_P2_BET_PLAN = {"fold": FOLD, "call": CALL, "raise": RAISE}


def continuous_solution_policy(game: GameLike) -> np.ndarray:
  """The continuous solution played on the discrete hands: hand h plays
  what the solution prescribes at strength (h - 1/2) / N (pure; unreached
  decisions fold). A [infosets, actions] strategy.

  Args:
    game: a ``spiel_ext_vnm_poker`` game (string, pyspiel game or tree).

  Returns:
    The pure strategy, a [num_infosets, num_distinct_actions] array.

  Raises:
    ValueError: not a vN&M game, or a raise variant whose ante : bet :
      raise_size is not 1 : 2 : 2 (the only closed form known).
  """
  tree = compile_game(game)
  parameters = vnm_parameters(tree)
  hands = int(parameters["hands"])
  strategy = np.zeros(tree.infoset_legal.shape)

  def play(player: int, hand: int, betting: str, action: int) -> None:
    strategy[tree.key_to_infoset[f"P{player} hand {hand}/{hands}: "
                                 f"{betting}"], action] = 1.0

  for hand, strength in enumerate(solution.hand_strengths(hands), start=1):
    if parameters["variant"] == "asymmetric":
      answer = solution.asymmetric_solution(parameters["bet"],
                                            parameters["ante"])
      bets = not (answer.bluff_below <= strength <= answer.value_bet_above)
      play(1, hand, "", RAISE if bets else CALL)
      play(2, hand, "b", CALL if strength > answer.call_above else FOLD)
      continue
    solution.check_raise_sizes(parameters["ante"], parameters["bet"],
                               parameters["raise_size"])
    first, after_check, after_raise = _P1_PLAN[
        solution.raise_sequence_at("P1", strength)]
    play(1, hand, "", first)
    play(1, hand, "kb", after_check)
    play(1, hand, "br", after_raise)
    at_check, at_raise = _P2_CHECK_PLAN[
        solution.raise_sequence_at("P2 after check", strength)]
    play(2, hand, "k", at_check)
    play(2, hand, "kbr", at_raise)
    play(2, hand, "b", _P2_BET_PLAN[
        solution.raise_sequence_at("P2 facing bet", strength)])
  return strategy
