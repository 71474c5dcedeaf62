"""A Pref-CFR play style on universal_poker, against plain CFR.

Pref-CFR (Ju et al., "Preference-CFR: Beyond Nash Equilibrium for Better
Game Strategies", 2025) steers CFR toward a style: a preference degree
delta > 1 on an action makes it more likely, and a vulnerability degree
beta bounds how exploitable the style may be where it applies. Here player
0 prefers to bet at its first decision of a small limit hold'em
(universal_poker, 2 players, one card each from a few ranks, one betting
round). The script prints player 0's betting frequency per card under plain
CFR and under the style, and each profile's NashConv.

Run:
  python examples/pref_cfr_style.py
  python examples/pref_cfr_style.py --ranks=5 --preference=10 --iterations=2000
"""

from absl import app
from absl import flags
import pyspiel

from spiel_ext import eval as se
from spiel_ext.algorithms import FirstDecisions, PrefCFRSolver, cfr

FLAGS = flags.FLAGS

flags.DEFINE_integer("ranks", 3, "Card ranks in the deck (one suit).")
flags.DEFINE_integer("iterations", 500, "CFR iterations for each solver.")
flags.DEFINE_float("preference", 5.0, "Preference degree delta for betting.")
flags.DEFINE_float("vulnerability", 0.05,
                   "Vulnerability degree beta at player 0's first decisions.")

BET = "player=0 move=Bet"  # universal_poker's label of player 0's bet


def limit_poker(ranks: int) -> pyspiel.Game:
  """A two-player, one-round limit poker game with one card each."""
  return pyspiel.load_game(
      "universal_poker(betting=limit,numPlayers=2,numRounds=1,blind=1 1,"
      "raiseSize=2 2,firstPlayer=1 1,maxRaises=2 2,numSuits=1,"
      f"numRanks={ranks},numHoleCards=1,stack=10 10,numBoardCards=0 0)")


def first_decisions(game: pyspiel.Game) -> list[pyspiel.State]:
  """Player 0's first decision after each deal, one state per card held."""
  states = {}
  root = game.new_initial_state()
  for first in root.legal_actions():
    for second in root.child(first).legal_actions():
      state = root.child(first).child(second)
      states.setdefault(first, state)
  return [states[card] for card in sorted(states)]


def bet_probability(policy, state: pyspiel.State) -> float:
  """The probability `policy` gives to betting at `state`."""
  labels = {state.action_to_string(action): action
            for action in state.legal_actions()}
  return policy.action_probabilities(state).get(labels[BET], 0.0)


def main(argv):
  del argv  # Unused.
  game = limit_poker(FLAGS.ranks)
  plain = cfr.CFRSolver(game)
  styled = PrefCFRSolver(game, preference={BET: FLAGS.preference},
                         vulnerability=FLAGS.vulnerability,
                         where=FirstDecisions(player=0), variant="br")
  for _ in range(FLAGS.iterations):
    plain.evaluate_and_update_policy()
    styled.evaluate_and_update_policy()
  plain_policy, styled_policy = plain.average_policy(), styled.average_policy()

  print(f"game {game}")
  print(f"P(bet) at player 0's first decision after {FLAGS.iterations} "
        "iterations")
  print(f"{'card':>6} {'CFR':>8} {'Pref-CFR':>9}")
  for card, state in enumerate(first_decisions(game)):
    print(f"{card:>6} {bet_probability(plain_policy, state):>8.4f} "
          f"{bet_probability(styled_policy, state):>9.4f}")
  print(f"CFR nash_conv {se.nash_conv(game, plain_policy):.6f}")
  print(f"Pref-CFR nash_conv {se.nash_conv(game, styled_policy):.6f}")


if __name__ == "__main__":
  app.run(main)
