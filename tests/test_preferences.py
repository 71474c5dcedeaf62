"""Pref-CFR's preference language (Ju, Tellier, Sun, Fang, Luo,
"Preference-CFR: Beyond Nash Equilibrium for Better Game Strategies",
ICML 2025): scopes, labels and the resolution of normalised specs onto a
game's rows, checked against Kuhn poker worked by hand.

Kuhn poker's 12 infosets, keyed by the player's card (0 = J, 1 = Q, 2 = K)
and the moves so far (p = Pass, action 0; b = Bet, action 1): player 0
opens at "0", "1", "2" and answers a bet after passing at "0pb", "1pb",
"2pb"; player 1 acts once, at "0p", "0b", "1p", "1b", "2p", "2b".
"""

import numpy as np
import pytest

from spiel_ext.algorithms.preferences import (FirstDecisions, action_labels,
                                              apply_preference,
                                              apply_vulnerability,
                                              normalise_preference,
                                              normalise_vulnerability,
                                              resolve_scope)
from spiel_ext.engine import compile_game

OPENINGS = ["0", "1", "2"]
ANSWERS = ["0pb", "1pb", "2pb"]
PLAYER_1 = ["0p", "0b", "1p", "1b", "2p", "2b"]


@pytest.fixture(scope="module")
def tree():
  return compile_game("kuhn_poker")


def _keys(tree, mask) -> list[str]:
  return sorted(tree.infoset_keys[row] for row in np.flatnonzero(mask))


def test_the_hand_worked_infosets_are_kuhns(tree):
  assert sorted(tree.infoset_keys) == sorted(OPENINGS + ANSWERS + PLAYER_1)


def test_scopes_select_the_hand_worked_infosets(tree):
  assert _keys(tree, resolve_scope(tree, None)) == sorted(tree.infoset_keys)
  # Player 1 moves once, so each of its infosets is a first decision.
  assert _keys(tree, resolve_scope(tree, FirstDecisions(1))) == sorted(
      PLAYER_1)
  assert _keys(tree, resolve_scope(tree, FirstDecisions())) == sorted(
      OPENINGS + PLAYER_1)
  row = tree.key_to_infoset["2pb"]
  assert _keys(tree, resolve_scope(tree, ["0b", row])) == ["0b", "2pb"]
  with pytest.raises(ValueError, match="got row 12"):
    resolve_scope(tree, lambda _: [0, 12])
  with pytest.raises(ValueError, match="unknown infoset key 'x'"):
    resolve_scope(tree, ["x"])


def test_action_labels_name_kuhns_two_moves(tree):
  for key in ("1", "1pb", "2b"):
    assert action_labels(tree, tree.key_to_infoset[key]) == {"Pass": 0,
                                                             "Bet": 1}


def test_a_normalised_preference_lands_on_the_hand_worked_cells(tree):
  normal = normalise_preference({"Bet": 3, "2pb": {"Pass": 7}})
  delta = apply_preference(tree, normal, where=FirstDecisions(1))
  expected = np.ones((12, 2))
  for key in PLAYER_1:  # {"Bet": 3} on every infoset in scope.
    expected[tree.key_to_infoset[key], 1] = 3
  expected[tree.key_to_infoset["2pb"], 0] = 7  # An infoset, scope aside.
  np.testing.assert_array_equal(delta, expected)
  by_player = apply_preference(tree, normalise_preference({0: {1: 2}}))
  expected = np.ones((12, 2))
  for key in OPENINGS + ANSWERS:
    expected[tree.key_to_infoset[key], 1] = 2
  np.testing.assert_array_equal(by_player, expected)
  np.testing.assert_array_equal(apply_preference(tree, ()), np.ones((12, 2)))
  # Player 0 has no infoset among player 1's first decisions.
  with pytest.raises(ValueError, match="player 0 in scope holds no infoset"):
    apply_preference(tree, normalise_preference({0: {"Bet": 2}}),
                     where=FirstDecisions(1))


def test_a_normalised_vulnerability_lands_on_the_hand_worked_rows(tree):
  normal = normalise_vulnerability({0: 0.2, "1p": 0.4})
  beta = apply_vulnerability(tree, normal, where=FirstDecisions(0))
  expected = np.zeros(12)
  for key in OPENINGS:  # Player 0's infosets in scope: its openings only.
    expected[tree.key_to_infoset[key]] = 0.2
  expected[tree.key_to_infoset["1p"]] = 0.4  # An infoset, scope aside.
  np.testing.assert_array_equal(beta, expected)
  everywhere = apply_vulnerability(tree, normalise_vulnerability(0.5),
                                   where=ANSWERS)
  expected = np.zeros(12)
  for key in ANSWERS:
    expected[tree.key_to_infoset[key]] = 0.5
  np.testing.assert_array_equal(everywhere, expected)


def test_a_vulnerability_array_is_checked_and_copied(tree):
  array = np.arange(12)
  beta = apply_vulnerability(tree, array)
  assert beta.dtype == np.float64
  array[0] = 5
  assert beta[0] == 0.0
  with pytest.raises(ValueError, match=r"must have shape \(12,\)"):
    apply_vulnerability(tree, np.zeros(11))
  with pytest.raises(ValueError, match="finite numbers >= 0"):
    apply_vulnerability(tree, np.full(12, -1.0))
