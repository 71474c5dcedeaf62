"""Schulze's Fig. 1 in numbers: the asymmetric von Neumann-Morgenstern
game's thresholds measured from GXFP's strategies, and the claims' measures.

Tim P. Schulze, "A Generalized Extensive-Form Fictitious Play Algorithm",
2023, arXiv:2310.09658, Figure 1: GXFP unperturbed and perturbed on the
asymmetric game with N hands, against the continuous solution's thresholds
a (player 1 bluffs below), b (value-bets above) and c (player 2 calls
above). Thresholds are measured as masses (a = bets below 1/2, b = 1 - bets
above, c = folds), equal for every member of the continuum of equilibria.
Fig. 1's bottom row, the action-value differences (player 1's bet - check,
player 2's call - fold), is read on the hands between a and b, where
player 1 checks and player 2's mixed equilibria live.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from spiel_ext.analysis.claims import (Measurement, RunResults, Threshold,
                                       mean_of_parts_verdict, table)
from spiel_ext.experiments.declaration import Settings
from spiel_ext.experiments.gxfp.shared import (MIXED, GXFPLabels,
                                               final_snapshots, hands_of,
                                               mean_final_measures,
                                               near_threshold, ran, sequences)
from spiel_ext.eval import vnm
from spiel_ext.games import vnm_solution as continuum
from spiel_ext.results.report import Variant

THRESHOLDS = table("thresholds")
# Fig. 1's drift claim: the unperturbed run's player 2 mixes on at least
# DRIFT_PLAIN of its hands away from c, the perturbed run's on at most
# DRIFT_PERTURBED; partly if the unperturbed mixes on DRIFT_PLAIN_PARTLY.
DRIFT_PLAIN, DRIFT_PERTURBED, DRIFT_PLAIN_PARTLY = 0.2, 0.02, 0.05
# Mean |P(bet) unperturbed - perturbed| over hands.
BET_GAP = Threshold(0.05, partly_at=0.15)
# The largest threshold error at the largest N: at most APPROACH_HOLDS / N
# (and shrinking with N), partly at most APPROACH_PARTLY / N.
APPROACH_HOLDS, APPROACH_PARTLY = 1.0, 2.0
_SHRINK_TOLERANCE = 1e-9
# Fig. 1's bottom right, as a share of the unperturbed call - fold curve's
# range (the panel's scale): the largest |perturbed - unperturbed| over
# hands ("no significant difference"), and the unperturbed run's largest
# |call - fold| between a and b ("indifferent": equal at the panel's
# scale, a tighter bound).
PAYOFF_GAP = Threshold(0.05, partly_at=0.15)
INDIFFERENT = Threshold(0.01, partly_at=0.05)
# Table columns of the bottom row.
BET_MINUS_CHECK = "P1 bet - check, a..b"
INDIFFERENCE = "P2 max |call - fold|, a..b / range"


def roles(labels: GXFPLabels) -> tuple[str, str]:
  """Fig. 1's roles: unperturbed and perturbed GXFP."""
  return ("GXFP", labels.gxfp_eps)


def asymmetric_thresholds(game: str, strategy: np.ndarray,
                          eps: float = 0.0) -> dict[str, float]:
  """Player 1's bluff and value-bet thresholds and player 2's call
  threshold measured as masses (a = bets below 1/2, b = 1 - bets above,
  c = folds), and the share of player 2's hands away from c that mix; a
  strategy of the ``eps``-perturbed game is read as the choice it stands
  for."""
  hands = hands_of(game)
  readable = sequences(game, strategy, eps)
  bets, calls = readable["P1"]["bet"], readable["P2"]["call"]
  strengths = continuum.hand_strengths(hands)
  low = strengths < 0.5
  solution = continuum.asymmetric_solution()
  away = ~near_threshold(strengths, [solution.call_above], hands)
  mixing = (calls > MIXED[0]) & (calls < MIXED[1]) & away
  return {"a": bets[low].sum() / hands, "b": 1 - bets[~low].sum() / hands,
          "c": 1 - calls.sum() / hands,
          "p2_mixed_share": float(mixing.sum() / max(away.sum(), 1))}


def check_region(hands: int) -> np.ndarray:
  """[N] bools: hands between the continuum's a and b, at least 2/N from
  both, where player 1 checks and player 2's mixed equilibria live."""
  strengths = continuum.hand_strengths(hands)
  solution = continuum.asymmetric_solution()
  return ((strengths > solution.bluff_below) &
          (strengths < solution.value_bet_above) &
          ~near_threshold(strengths, [solution.bluff_below,
                                      solution.value_bet_above], hands))


def bottom_row(game: str, strategy: np.ndarray,
               eps: float = 0.0) -> dict[str, float]:
  """Fig. 1's bottom row in two numbers, the strategy as played: player
  1's mean bet - check value on :func:`check_region`, and player 2's
  largest |call - fold| there as a share of its call - fold curve's range
  over all hands."""
  del eps  # The values are those of the strategy as played, as drawn.
  differences = vnm.action_value_differences(game, strategy)
  region = check_region(hands_of(game))
  spread = float(np.ptp(differences["P2"]))
  return {BET_MINUS_CHECK: float(differences["P1"][region].mean()),
          INDIFFERENCE: (float(np.abs(differences["P2"][region]).max())
                         / spread if spread > 0 else float("nan"))}


def _measured(game: str, strategy: np.ndarray,
              eps: float = 0.0) -> dict[str, float]:
  return {**asymmetric_thresholds(game, strategy, eps),
          **bottom_row(game, strategy, eps)}


def threshold_table(settings: Settings, folder: Path,
                    labels: GXFPLabels) -> pd.DataFrame:
  """Per game and algorithm, mean over seeds: a, b, c, their errors
  against the continuous solution, the largest error, the share of
  player 2's hands that mix and Fig. 1's bottom row
  (:func:`bottom_row`)."""
  solution = continuum.asymmetric_solution()
  exact = {"a": solution.bluff_below, "b": solution.value_bet_above,
           "c": solution.call_above}
  records = []
  for record, measured in mean_final_measures(settings, folder, labels,
                                              _measured):
    for key, value in exact.items():
      record[key] = measured[key]
      record[f"|{key} error|"] = abs(measured[key] - value)
    record["max error"] = max(record[f"|{k} error|"] for k in exact)
    record["P2 hands mixing"] = measured["p2_mixed_share"]
    record[BET_MINUS_CHECK] = measured[BET_MINUS_CHECK]
    record[INDIFFERENCE] = measured[INDIFFERENCE]
    records.append(record)
  return pd.DataFrame(records)


def bet_gap(game: str, plain: list[np.ndarray],
            perturbed: list[np.ndarray]) -> float:
  """Mean |P(bet) unperturbed - P(bet) perturbed| over hands and seeds, as
  drawn (the perturbed strategy as played), from each run's final
  strategies by seed."""
  return float(np.mean([
      np.abs(sequences(game, a)["P1"]["bet"] -
             sequences(game, b)["P1"]["bet"]).mean()
      for a, b in zip(plain, perturbed)]))


def drift_verdict(shares: tuple[float, float]) -> str:
  """Fig. 1's mixing claim from player 2's (unperturbed, perturbed) share
  of mixing hands: the unperturbed run mixes on a fifth of them or more,
  the perturbed on none (up to 2%)."""
  plain, perturbed = shares
  if plain >= DRIFT_PLAIN:
    return ("holds" if perturbed <= DRIFT_PERTURBED else "holds partly"
            if perturbed < plain / 2 else "does not hold")
  return "holds partly" if (plain >= DRIFT_PLAIN_PARTLY and
                            perturbed <= DRIFT_PERTURBED) else "does not hold"


def approach_verdict(found: tuple[float, int, bool]) -> str:
  """From (the largest error at the largest N, that N, whether the error
  shrinks with N)."""
  error, hands, shrinking = found
  return ("holds" if error <= APPROACH_HOLDS / hands and shrinking else
          "holds partly" if error <= APPROACH_PARTLY / hands else
          "does not hold")


def _case(results: RunResults, variant: Variant, labels: GXFPLabels
          ) -> tuple[pd.DataFrame, int, str, str] | None:
  """(threshold table, the largest N, unperturbed label, perturbed label)
  of a schedule variant that ran both at the largest N; else None."""
  if not ran(variant, results.settings):
    return None
  frame = threshold_table(results.settings, results.folder, labels)
  largest = frame.N.max()
  at_largest = set(frame[frame.N == largest].algorithm)
  plain, perturbed = labels.role_labels(labels.schedule_of_variant(variant),
                                        roles(labels)).values()
  if not {plain, perturbed} <= at_largest:
    return None
  return frame, largest, plain, perturbed


def p2_mixing(results: RunResults, *, variant: Variant,
              labels: GXFPLabels) -> Measurement | None:
  """Player 2's share of mixing hands, unperturbed and perturbed, at the
  largest N."""
  case = _case(results, variant, labels)
  if case is None:
    return None
  frame, largest, plain_label, perturbed_label = case
  rows = frame[frame.N == largest].set_index("algorithm")
  plain = rows.loc[plain_label, "P2 hands mixing"]
  perturbed = rows.loc[perturbed_label, "P2 hands mixing"]
  return Measurement(
      f"N = {largest}: player 2 mixes on {plain:.0%} of its hands away from "
      f"the threshold unperturbed, {perturbed:.0%} perturbed (holds: "
      f"unperturbed >= {DRIFT_PLAIN:.0%}, perturbed <= "
      f"{DRIFT_PERTURBED:.0%})", (plain, perturbed), variant.label)


def p1_bet_gap(results: RunResults, *, variant: Variant,
               labels: GXFPLabels) -> Measurement | None:
  """Mean |P(bet) unperturbed - perturbed| at the largest N."""
  case = _bottom_case(results, variant, labels)
  if case is None:
    return None
  game, largest, plain, perturbed = case
  gap = bet_gap(game, plain, perturbed)
  if not np.isfinite(gap):
    return None
  return Measurement(
      f"N = {largest}: mean |P(bet) unperturbed - perturbed| over hands "
      f"{gap:.3f} (the eps floor alone gives up to {labels.epsilon:g})", gap,
      variant.label)


def threshold_approach(results: RunResults, *, variant: Variant,
                       labels: GXFPLabels) -> Measurement | None:
  """The largest error of the equilibrium's unique parts by N: player 1's
  a and b (unperturbed run) and player 2's weakly dominant c (perturbed
  run; the perturbation itself moves player 1's thresholds by O(eps))."""
  case = _case(results, variant, labels)
  if case is None:
    return None
  frame, _, plain, perturbed = case
  plain_rows = frame[frame.algorithm == plain].set_index("N")
  perturbed_rows = frame[frame.algorithm == perturbed].set_index("N")
  sizes = sorted(set(plain_rows.index) & set(perturbed_rows.index))
  if not sizes:
    return None
  errors = [max(plain_rows.loc[n, "|a error|"], plain_rows.loc[n, "|b error|"],
                perturbed_rows.loc[n, "|c error|"]) for n in sizes]
  text = ", ".join(f"N = {n}: {e:.4f} (1/N = {1 / n:.4f})"
                   for n, e in zip(sizes, errors))
  shrinking = bool(np.all(np.diff(errors) <= _SHRINK_TOLERANCE))
  shift = max(perturbed_rows.loc[n, "|b error|"] for n in sizes)
  return Measurement(
      f"largest error of a, b (GXFP) and c (perturbed GXFP): {text}; the "
      f"perturbation itself moves player 1's b by up to {shift:.4f}",
      (errors[-1], sizes[-1], shrinking), variant.label)


def _bottom_case(results: RunResults, variant: Variant, labels: GXFPLabels
                 ) -> tuple[str, int, list[np.ndarray], list[np.ndarray]
                            ] | None:
  """(the largest N's game, N, unperturbed and perturbed final strategies
  by seed) of a schedule variant that ran both there; else None."""
  case = _case(results, variant, labels)
  if case is None:
    return None
  _, largest, plain, perturbed = case
  game = next(game for game in results.settings.games
              if hands_of(game) == largest)
  snapshots = final_snapshots(results.settings, results.folder, game)
  if plain not in snapshots or perturbed not in snapshots:
    return None
  return game, largest, snapshots[plain], snapshots[perturbed]


def punished_verdict(shifts: tuple[float, ...]) -> str:
  """Fig. 1's bottom left from each seed's mean shift of player 1's bet -
  check between a and b (perturbed minus unperturbed): holds when it is
  below 0 on every seed (the dominant strategy punishes forced bets
  more); a mean whose parts disagree in sign does not hold."""
  if not shifts:
    return "not run"
  mean = float(np.mean(shifts))
  return mean_of_parts_verdict([(shift, -1.0) for shift in shifts],
                               "holds" if mean < 0 else "does not hold")


def forced_bets_punished(results: RunResults, *, variant: Variant,
                         labels: GXFPLabels) -> Measurement | None:
  """Player 1's bet - check between a and b, unperturbed and perturbed, at
  the largest N: the perturbed run's player 2 (the dominant strategy)
  should make player 1's forced bets there cost more."""
  case = _bottom_case(results, variant, labels)
  if case is None:
    return None
  game, largest, plain, perturbed = case
  region = check_region(largest)
  shifts, below = [], []
  for first, second in zip(plain, perturbed):
    before = vnm.action_value_differences(game, first)["P1"][region]
    after = vnm.action_value_differences(game, second)["P1"][region]
    shifts.append(float((after - before).mean()))
    below.append(float((after < before).mean()))
  return Measurement(
      f"N = {largest}: player 1's bet - check on the hands between a and b, "
      f"perturbed minus unperturbed, by seed: "
      + ", ".join(f"{shift:+.3f}" for shift in shifts)
      + f" (lower on {np.mean(below):.0%} of those hands; holds: below 0 on "
      "every seed)", tuple(shifts), variant.label)


def payoff_gap(results: RunResults, *, variant: Variant,
               labels: GXFPLabels) -> Measurement | None:
  """The largest |call - fold perturbed - unperturbed| over hands at the
  largest N, as a share of the unperturbed curve's range; the largest over
  seeds."""
  case = _bottom_case(results, variant, labels)
  if case is None:
    return None
  game, largest, plain, perturbed = case
  shares = []
  for first, second in zip(plain, perturbed):
    before = vnm.action_value_differences(game, first)["P2"]
    after = vnm.action_value_differences(game, second)["P2"]
    shares.append(float(np.abs(after - before).max() / np.ptp(before)))
  share = max(shares)
  return Measurement(
      f"N = {largest}: largest |perturbed - unperturbed| call - fold over "
      f"hands {share:.1%} of the unperturbed curve's range (worst seed; "
      f"{PAYOFF_GAP.describe('{:.0%}')})", share, variant.label)


def indifference(results: RunResults, *, variant: Variant,
                 labels: GXFPLabels) -> Measurement | None:
  """The unperturbed run's largest |call - fold| between a and b at the
  largest N, as a share of its curve's range; the largest over seeds."""
  case = _bottom_case(results, variant, labels)
  if case is None:
    return None
  game, largest, plain, _ = case
  share = max(bottom_row(game, strategy)[INDIFFERENCE] for strategy in plain)
  return Measurement(
      f"N = {largest}: unperturbed player 2's largest |call - fold| on the "
      f"hands between a and b {share:.2%} of its curve's range (worst "
      f"seed; {INDIFFERENT.describe('{:.0%}')})", share, variant.label)
