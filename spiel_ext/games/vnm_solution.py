"""Closed-form solutions of continuous von Neumann-Morgenstern poker.

With hands uniform on [0, 1] instead of 1..N, both variants of
``spiel_ext_vnm_poker`` have equilibria made of hand-strength intervals. The
discrete game approaches them as N grows, so they are the reference lines of
Schulze, "A Generalized Extensive-Form Fictitious Play Algorithm", 2023,
arXiv:2310.09658, Figures 1-3, and a check on any solver.

- Asymmetric game (von Neumann and Morgenstern, "Theory of Games and Economic
  Behavior", 1944, section 19), ante A and bet B, r = B / A: player 1 bluffs
  below a = r / ((r + 1)(r + 4)) and value-bets above
  b = (r^2 + 4r + 2) / ((r + 1)(r + 4)); player 2's weakly dominant reply
  calls above c = r(r + 3) / ((r + 1)(r + 4)); the value to player 1 is A a.
- Raise variant (Schulze's benchmark, section 4.2) for A : B : R = 1 : 2 : 2:
  value to player 1 -88/1083 (times A); the intervals of
  :data:`RAISE_INTERVALS`. Player 1's check-raise blocks may move (the bluff
  block anywhere inside the check-fold range, the value block anywhere above
  17/19): only their lengths are fixed, which is why unperturbed solvers
  drift. Sequence masses (the share of hands playing each sequence) are the
  same for every member of that continuum.

Hands map to strength x = (h - 1/2) / N, the midpoint of the hand's slice of
[0, 1] (:func:`hand_strengths`).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np

from spiel_ext.checks import check_real

# Panels of the raise variant: (player, situation) -> the sequences played.
P1_SEQUENCES = ("check-fold", "check-call", "check-raise", "bet-fold",
                "bet-call")
P2_AFTER_CHECK = ("check", "bet-fold", "bet-call")
P2_FACING_BET = ("fold", "call", "raise")

F = Fraction

# (start, end, sequence) in hand strength, A : B : R = 1 : 2 : 2.
RAISE_INTERVALS: dict[str, tuple[tuple[Fraction, Fraction, str], ...]] = {
    "P1": ((F(0), F(64, 1083), "bet-fold"),
           (F(64, 1083), F(369, 722), "check-fold"),
           (F(369, 722), F(10, 19), "check-raise"),
           (F(10, 19), F(889, 1083), "check-call"),
           (F(889, 1083), F(307, 361), "bet-fold"),
           (F(307, 361), F(339, 361), "bet-call"),
           (F(339, 361), F(1), "check-raise")),
    "P2 after check": ((F(0), F(8, 57), "bet-fold"),
                       (F(8, 57), F(41, 57), "check"),
                       (F(41, 57), F(15, 19), "bet-fold"),
                       (F(15, 19), F(1), "bet-call")),
    "P2 facing bet": ((F(0), F(1, 38), "raise"),
                      (F(1, 38), F(10, 19), "fold"),
                      (F(10, 19), F(17, 19), "call"),
                      (F(17, 19), F(1), "raise")),
}
RAISE_VALUE = F(-88, 1083)
# Thresholds that may move along the continuum of equilibria (player 1's
# check-raise blocks); figures draw them dotted.
RAISE_FREE_THRESHOLDS = (F(369, 722), F(10, 19), F(339, 361))
RAISE_SEQUENCES = {"P1": P1_SEQUENCES, "P2 after check": P2_AFTER_CHECK,
                   "P2 facing bet": P2_FACING_BET}


@dataclasses.dataclass(frozen=True)
class AsymmetricSolution:
  """vN&M's asymmetric game in the continuum (hand strengths in [0, 1]).

  Attributes:
    bluff_below: a, player 1 bets below it (bluffs).
    value_bet_above: b, player 1 bets above it.
    call_above: c, player 2's weakly dominant strategy calls above it.
    value: the value to player 1.
  """
  bluff_below: float
  value_bet_above: float
  call_above: float
  value: float


def _ratio(name: str, value: float, ante: float) -> float:
  check_real(name, value, 0.0, low_inclusive=False)
  check_real("ante", ante, 0.0, low_inclusive=False)
  return value / ante


def asymmetric_solution(bet: float = 2.0, ante: float = 1.0
                        ) -> AsymmetricSolution:
  """The continuous solution of the asymmetric game (ante A, bet B).

  Args:
    bet: B, a finite number > 0.
    ante: A, a finite number > 0.

  Returns:
    The thresholds a, b, c and the value to player 1.

  Raises:
    ValueError: ``bet`` or ``ante`` not a finite number > 0.
  """
  r = _ratio("bet", bet, ante)
  denominator = (r + 1) * (r + 4)
  return AsymmetricSolution(r / denominator, (r * r + 4 * r + 2) / denominator,
                            r * (r + 3) / denominator, ante * r / denominator)


def check_raise_sizes(ante: float, bet: float, raise_size: float) -> None:
  """The raise variant's closed form is known for A : B : R = 1 : 2 : 2.

  Args:
    ante: A.
    bet: B.
    raise_size: R.

  Raises:
    ValueError: other proportions, naming the three parameters.
  """
  if not np.isclose(bet, 2 * ante) or not np.isclose(raise_size, 2 * ante):
    raise ValueError(
        "the raise variant's continuous solution is known for ante : bet : "
        f"raise_size = 1 : 2 : 2 only; got {ante:g} : {bet:g} : "
        f"{raise_size:g}.")


def hand_strengths(hands: int) -> np.ndarray:
  """x = (h - 1/2) / N for hands h = 1..N.

  Args:
    hands: N, the number of hands.

  Returns:
    [N] strengths in (0, 1), hand 1 first.
  """
  return (np.arange(1, hands + 1) - 0.5) / hands


def raise_sequence_masses(panel: str) -> dict[str, float]:
  """{sequence: share of hands} of the continuous raise-variant solution
  for one panel of :data:`RAISE_INTERVALS` (fixed along the continuum).

  Args:
    panel: "P1", "P2 after check" or "P2 facing bet".

  Returns:
    {sequence: share of hands in [0, 1]}, every sequence of the panel, the
    shares adding to 1.
  """
  masses = {sequence: F(0) for sequence in RAISE_SEQUENCES[panel]}
  for start, end, sequence in RAISE_INTERVALS[panel]:
    masses[sequence] += end - start
  return {sequence: float(mass) for sequence, mass in masses.items()}


def raise_sequence_at(panel: str, strength: float) -> str:
  """The sequence the continuous solution plays at ``strength`` (one
  member of the continuum for player 1: the layout of RAISE_INTERVALS).

  Args:
    panel: "P1", "P2 after check" or "P2 facing bet".
    strength: a hand strength in [0, 1].

  Returns:
    The sequence's name, such as "check-raise".
  """
  for start, end, sequence in RAISE_INTERVALS[panel]:
    if start <= strength < end:
      return sequence
  return RAISE_INTERVALS[panel][-1][2]


def raise_thresholds(panel: str) -> list[float]:
  """The interior interval boundaries of one panel.

  Args:
    panel: "P1", "P2 after check" or "P2 facing bet".

  Returns:
    The boundaries in increasing order, as floats.
  """
  return [float(end) for _, end, _ in RAISE_INTERVALS[panel][:-1]]


def asymmetric_thresholds(solution: AsymmetricSolution
                          ) -> dict[str, list[float]]:
  """{panel: thresholds}: player 1's a and b, player 2's c.

  Args:
    solution: an :func:`asymmetric_solution`.

  Returns:
    {"P1": [a, b], "P2": [c]}.
  """
  return {"P1": [solution.bluff_below, solution.value_bet_above],
          "P2": [solution.call_above]}
