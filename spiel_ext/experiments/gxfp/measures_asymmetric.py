"""Schulze's Fig. 1 in numbers: the asymmetric von Neumann-Morgenstern
game's thresholds measured from GXFP's strategies, and the claims' measures.

Tim P. Schulze, "A Generalized Extensive-Form Fictitious Play Algorithm",
2023, arXiv:2310.09658, Figure 1: GXFP unperturbed and perturbed on the
asymmetric game with N hands, against the continuous solution's thresholds
a (player 1 bluffs below), b (value-bets above) and c (player 2 calls
above). Thresholds are measured as masses (a = bets below 1/2, b = 1 - bets
above, c = folds), equal for every member of the continuum of equilibria.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from spiel_ext.analysis.claims import (Measurement, RunResults, Threshold,
                                       table)
from spiel_ext.experiments.declaration import Settings
from spiel_ext.experiments.gxfp.shared import (MIXED, GXFPLabels,
                                               final_snapshots, hands_of,
                                               mean_final_measures,
                                               near_threshold, ran, sequences)
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


def threshold_table(settings: Settings, folder: Path,
                    labels: GXFPLabels) -> pd.DataFrame:
  """Per game and algorithm, mean over seeds: a, b, c, their errors
  against the continuous solution, the largest error and the share of
  player 2's hands that mix."""
  solution = continuum.asymmetric_solution()
  exact = {"a": solution.bluff_below, "b": solution.value_bet_above,
           "c": solution.call_above}
  records = []
  for record, measured in mean_final_measures(settings, folder, labels,
                                              asymmetric_thresholds):
    for key, value in exact.items():
      record[key] = measured[key]
      record[f"|{key} error|"] = abs(measured[key] - value)
    record["max error"] = max(record[f"|{k} error|"] for k in exact)
    record["P2 hands mixing"] = measured["p2_mixed_share"]
    records.append(record)
  return pd.DataFrame(records)


def bet_gap(snapshots: dict[str, list[np.ndarray]], game: str, plain: str,
            perturbed: str) -> float:
  """Mean |P(bet) unperturbed - P(bet) perturbed| over hands and seeds, as
  drawn (the perturbed strategy as played); NaN if either did not run."""
  if plain not in snapshots or perturbed not in snapshots:
    return float("nan")
  return float(np.mean([
      np.abs(sequences(game, a)["P1"]["bet"] -
             sequences(game, b)["P1"]["bet"]).mean()
      for a, b in zip(snapshots[plain], snapshots[perturbed])]))


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
  case = _case(results, variant, labels)
  if case is None:
    return None
  _, largest, plain, perturbed = case
  game = next(game for game in results.settings.games
              if hands_of(game) == largest)
  gap = bet_gap(final_snapshots(results.settings, results.folder, game),
                game, plain, perturbed)
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
