"""BUFP on a game of your own: define a pyspiel game in Python and solve it.

The game is a one-card bluff. Chance flips a coin only player 0 sees.
Player 0 passes (the coin pays 1) or bets; then player 1 folds (player 0
wins 1) or calls (the coin pays 2). Worked by hand, player 0 wins 1/3 per
game at equilibrium. Once `pyspiel.register_game` has run, every spiel_ext
solver and evaluator accepts the game like a built-in one.

The script runs BUFP(EF) and BUFP(X) (Ju, Fang, Luo, "Beyond Nash
Equilibrium: Achieving Bayesian Perfect Equilibrium with Belief Update
Fictitious Play", 2024) and prints each average policy's NashConv, its
perfect-Bayesian gap and player 0's expected value.

Run:
  python examples/bufp_own_game.py
  python examples/bufp_own_game.py --iterations=2000 --policy_out=/tmp/p.json
"""

import json

from absl import app
from absl import flags
import pyspiel

from spiel_ext import eval as se
from spiel_ext.algorithms import BUFPSolver
from spiel_ext.games.common import Observer, poker_game_type

FLAGS = flags.FLAGS

flags.DEFINE_integer("iterations", 300, "Fictitious-play iterations.")
flags.DEFINE_string("policy_out", "",
                    "If set, write BUFP(EF)'s average policy here as JSON "
                    "(information state -> action probabilities).")

GAME_TYPE = poker_game_type("example_coin_bluff", "Example coin bluff",
                            parameters={}, information_state_tensor=False,
                            observation_tensor=False)
GAME_INFO = pyspiel.GameInfo(num_distinct_actions=2, max_chance_outcomes=2,
                             num_players=2, min_utility=-2.0,
                             max_utility=2.0, utility_sum=0.0,
                             max_game_length=3)
PASS_OR_FOLD, BET_OR_CALL = 0, 1


class CoinBluffGame(pyspiel.Game):
  """The game: a coin flip, then at most one bet and one answer."""

  def __init__(self, params=None):
    super().__init__(GAME_TYPE, GAME_INFO, params or {})

  def new_initial_state(self):
    return CoinBluffState(self)

  def make_py_observer(self, iig_obs_type=None, params=None):
    return CoinBluffObserver(iig_obs_type, params)


class CoinBluffState(pyspiel.State):
  """The coin (None before the flip) and the moves so far."""

  def __init__(self, game):
    super().__init__(game)
    self.coin, self.moves = None, []

  def current_player(self):
    if self.coin is None:
      return pyspiel.PlayerId.CHANCE
    if self.is_terminal():
      return pyspiel.PlayerId.TERMINAL
    return len(self.moves)

  def is_terminal(self):
    return self.moves[:1] == [PASS_OR_FOLD] or len(self.moves) == 2

  def chance_outcomes(self):
    return [(0, 0.5), (1, 0.5)]  # tails, heads

  def _legal_actions(self, player):
    return [PASS_OR_FOLD, BET_OR_CALL]

  def _apply_action(self, action):
    if self.coin is None:
      self.coin = action
    else:
      self.moves.append(action)

  def _action_to_string(self, player, action):
    if player == pyspiel.PlayerId.CHANCE:
      return ["Tails", "Heads"][action]
    return [["Pass", "Bet"], ["Fold", "Call"]][player][action]

  def returns(self):
    if not self.is_terminal():
      return [0.0, 0.0]
    coin = 1.0 if self.coin == 1 else -1.0
    won = {(0,): coin, (1, 0): 1.0, (1, 1): 2.0 * coin}[tuple(self.moves)]
    return [won, -won]

  def __str__(self):
    return f"coin={self.coin} moves={self.moves}"


class CoinBluffObserver(Observer):
  """Strings only: player 0 sees the coin, both players see the moves."""

  def pieces(self):
    return []

  def fill(self, state, player):
    pass

  def string_from(self, state, player):
    coin = state.coin if player == 0 and state.coin is not None else "?"
    return f"p{player} coin={coin} moves={state.moves}"


pyspiel.register_game(GAME_TYPE, CoinBluffGame)


def main(argv):
  del argv  # Unused.
  game = pyspiel.load_game("example_coin_bluff")
  for stepsize in ("ef", "x"):
    solver = BUFPSolver(game, stepsize=stepsize)
    for _ in range(FLAGS.iterations):
      solver.evaluate_and_update_policy()
    average = solver.average_policy()
    nash_conv = se.nash_conv(game, average)
    gap = se.sequential_gap(game, average).mean
    value = se.expected_values(game, average)[0]
    print(f"BUFP({stepsize.upper()}) iterations {FLAGS.iterations} "
          f"nash_conv {nash_conv:.6f} perfect_bayesian_gap {gap:.6f} "
          f"player0_value {value:.6f} (equilibrium 1/3)")
    if stepsize == "ef" and FLAGS.policy_out:
      with open(FLAGS.policy_out, "w") as stream:
        json.dump({key: average.policy_for_key(key).tolist()
                   for key in average.state_lookup}, stream, indent=1)


if __name__ == "__main__":
  app.run(main)
