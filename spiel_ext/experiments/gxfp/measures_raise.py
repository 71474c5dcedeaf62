"""Schulze's Figs. 2-3 in numbers: the raise variant's strategies against
the continuous solution, and the claims' measures.

Tim P. Schulze, "A Generalized Extensive-Form Fictitious Play Algorithm",
2023, arXiv:2310.09658, Figures 2-3: unperturbed GXFP (Fig. 2), perturbed
XFP and GXFP (Fig. 3) on von Neumann-Morgenstern poker with a raise, in
three panels (player 1's sequences, player 2 after a check, player 2 facing
a bet). The fit is measured as sequence masses (equal for every member of
the continuum of equilibria) and, for player 2 (unique in the continuum),
as the share of hands away from a threshold that play the continuous
solution's sequence.
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
# A hand plays the continuum's sequence when its probability is at least.
PLAYS_AS = 0.9
# Figs. 2-3's mixing claim: the unperturbed run mixes on at least
# MIXING_PLAIN of (hand, panel) pairs and the perturbed on below
# MIXING_REMOVED times that.
MIXING_PLAIN, MIXING_REMOVED = 0.5, 0.5
# Mean |XFP(eps) - GXFP(eps)| sequence probability.
XFP_GXFP_GAP = Threshold(0.05, partly_at=0.15)
# Fig. 3's fit: player 2 plays the continuum on at least FIT_SHARE of its
# hands away from thresholds and every mass error is at most FIT_HANDS / N;
# partly if one run plays it on at least FIT_PARTLY_SHARE.
FIT_SHARE, FIT_PARTLY_SHARE, FIT_HANDS = 0.95, 0.8, 2.0


def roles(labels: GXFPLabels) -> tuple[str, str, str]:
  """Figs. 2-3's roles: unperturbed GXFP, perturbed GXFP and XFP."""
  return ("GXFP", labels.gxfp_eps, labels.xfp_eps)


def raise_errors(game: str, strategy: np.ndarray,
                 eps: float = 0.0) -> dict[str, float]:
  """Per panel: the largest |sequence mass - continuous mass|, and for
  player 2 (unique in the continuum) the share of hands at least 2/N from
  a threshold that play the continuous solution's sequence with
  probability >= 0.9; the share of hands that mix (largest sequence
  probability below 0.95, player 1's sequences as shares of the hand's
  play) over all panels. A strategy of the ``eps``-perturbed game is read
  as the choice it stands for."""
  hands = hands_of(game)
  strengths = continuum.hand_strengths(hands)
  readable = sequences(game, strategy, eps)
  result = {}
  mixing = []
  for panel, played in readable.items():
    exact = continuum.raise_sequence_masses(panel)
    result[f"{panel}: mass error"] = max(
        abs(values.sum() / hands - exact[sequence])
        for sequence, values in played.items())
    stacked = np.stack(list(played.values()), axis=1)
    mixing.append(stacked.max(axis=1) < MIXED[1])
    if panel.startswith("P2"):
      away = ~near_threshold(strengths, continuum.raise_thresholds(panel),
                             hands)
      names = list(played)
      prescribed = [names.index(continuum.raise_sequence_at(panel, x))
                    for x in strengths]
      hits = stacked[np.arange(hands), prescribed] >= PLAYS_AS
      result[f"{panel}: hands as continuum"] = float(hits[away].mean())
  result["hands mixing"] = float(np.mean(np.concatenate(mixing)))
  return result


def raise_table(settings: Settings, folder: Path,
                labels: GXFPLabels) -> pd.DataFrame:
  """Per game and algorithm, mean over seeds: :func:`raise_errors`."""
  return pd.DataFrame([{**record, **measured.to_dict()}
                       for record, measured in mean_final_measures(
                           settings, folder, labels, raise_errors)])


def perturbed_gap(snapshots: dict[str, list[np.ndarray]], game: str,
                  xfp: str, gxfp: str) -> float:
  """Mean |XFP(eps) - GXFP(eps)| sequence probability (shares of the
  hand's play) over hands, panels and seeds; NaN if either did not run."""
  if xfp not in snapshots or gxfp not in snapshots:
    return float("nan")
  gaps = []
  for first_strategy, second_strategy in zip(snapshots[xfp], snapshots[gxfp]):
    first = sequences(game, first_strategy)
    second = sequences(game, second_strategy)
    gaps += [np.abs(first[p][s] - second[p][s]).mean()
             for p in first for s in first[p]]
  return float(np.mean(gaps))


def mixing_verdict(shares: tuple[float, float]) -> str:
  """From the (unperturbed, perturbed) share of mixing (hand, panel)
  pairs: the perturbation must remove the mixing, the perturbed share
  below :data:`MIXING_REMOVED` times the unperturbed; holds when the
  unperturbed also mixes on most pairs, partly when it mixes on fewer;
  a smaller removal does not hold."""
  plain, perturbed = shares
  if not perturbed < MIXING_REMOVED * plain:
    return "does not hold"
  return "holds" if plain >= MIXING_PLAIN else "holds partly"


def fit_verdict(found: tuple[tuple[tuple[float, float], ...], int]) -> str:
  """From ((share played as the continuum, largest mass error) of each
  perturbed run, N)."""
  fits, hands = found
  if all(share >= FIT_SHARE and error <= FIT_HANDS / hands
         for share, error in fits):
    return "holds"
  return ("holds partly" if any(share >= FIT_PARTLY_SHARE
                                for share, _ in fits) else "does not hold")


def _case(results: RunResults, variant: Variant, labels: GXFPLabels
          ) -> tuple[pd.DataFrame, str, int, dict[str, str]] | None:
  """(the table's rows at the last game, that game, its N, {role: label})
  of a schedule variant that ran; else None."""
  if not ran(variant, results.settings):
    return None
  frame = raise_table(results.settings, results.folder, labels)
  game = results.settings.games[-1]
  hands = hands_of(game)
  rows = frame[frame.N == hands].set_index("algorithm")
  return rows, game, hands, labels.role_labels(
      labels.schedule_of_variant(variant), roles(labels))


def hands_mixing(results: RunResults, *, variant: Variant,
                 labels: GXFPLabels) -> Measurement | None:
  """The share of (hand, panel) pairs that mix, unperturbed and perturbed
  GXFP."""
  case = _case(results, variant, labels)
  if case is None:
    return None
  rows, _, hands, by_role = case
  plain_label, perturbed_label = by_role["GXFP"], by_role[labels.gxfp_eps]
  if not {plain_label, perturbed_label} <= set(rows.index):
    return None
  plain, perturbed = (rows.loc[plain_label, "hands mixing"],
                      rows.loc[perturbed_label, "hands mixing"])
  return Measurement(
      f"N = {hands}: (hand, panel) pairs mixing: unperturbed {plain:.0%}, "
      f"perturbed {perturbed:.0%} (holds: unperturbed >= "
      f"{MIXING_PLAIN:.0%}, perturbed below half of it)", (plain, perturbed),
      variant.label)


def xfp_gxfp_gap(results: RunResults, *, variant: Variant,
                 labels: GXFPLabels) -> Measurement | None:
  """Mean |XFP(eps) - GXFP(eps)| sequence probability at the last game."""
  case = _case(results, variant, labels)
  if case is None:
    return None
  _, game, hands, by_role = case
  gap = perturbed_gap(final_snapshots(results.settings, results.folder, game),
                      game, by_role[labels.xfp_eps], by_role[labels.gxfp_eps])
  if not np.isfinite(gap):
    return None
  return Measurement(
      f"N = {hands}: mean |XFP - GXFP| sequence probability {gap:.3f}", gap,
      variant.label)


def continuum_fit(results: RunResults, *, variant: Variant,
                  labels: GXFPLabels) -> Measurement | None:
  """Each perturbed run's share of player 2's hands played as the
  continuum (the worse of its two panels) and its largest mass error."""
  case = _case(results, variant, labels)
  if case is None:
    return None
  rows, _, hands, by_role = case
  perturbed = {role: by_role[role] for role in (labels.gxfp_eps,
                                                labels.xfp_eps)
               if by_role[role] in rows.index}
  if not perturbed:
    return None
  fits = {role: (min(rows.loc[label, "P2 after check: hands as continuum"],
                     rows.loc[label, "P2 facing bet: hands as continuum"]),
                 max(rows.loc[label, f"{p}: mass error"]
                     for p in continuum.RAISE_SEQUENCES))
          for role, label in perturbed.items()}
  text = "; ".join(f"{role}: player 2 plays the continuum on {share:.0%} "
                   f"of hands away from thresholds, largest mass error "
                   f"{error:.3f} ({FIT_HANDS:g}/N = {FIT_HANDS / hands:.3f})"
                   for role, (share, error) in fits.items())
  return Measurement(f"N = {hands}: {text}", (tuple(fits.values()), hands),
                     variant.label)


def shrink_verdict(found: dict[str, list[float]] | None) -> str:
  """From each perturbed run's share of mixing (hand, panel) pairs by
  growing N: holds when every run's share falls at each larger N, partly
  when every one ends below where it started, else does not hold; not run
  with one N (None)."""
  if not found:
    return "not run"
  shares = list(found.values())
  if all(np.all(np.diff(share) < 0) for share in shares):
    return "holds"
  return ("holds partly" if all(share[-1] < share[0] for share in shares)
          else "does not hold")


def mixing_by_hands(results: RunResults, *, variant: Variant,
                    labels: GXFPLabels) -> Measurement | None:
  """The perturbed runs' share of mixing (hand, panel) pairs at each N
  the run has (their mixing is near the thresholds: boundary effects);
  a "not tested" row when the run has one N."""
  if not ran(variant, results.settings):
    return None
  frame = raise_table(results.settings, results.folder, labels)
  by_role = labels.role_labels(labels.schedule_of_variant(variant),
                               (labels.gxfp_eps, labels.xfp_eps))
  sizes = sorted(set(frame.N))
  if len(sizes) < 2:
    return Measurement(
        f"not tested: one N (N = {', '.join(map(str, sizes))}) in this run; "
        "the claim needs several", None, variant.label)
  rows = frame.set_index(["algorithm", "N"])
  found = {role: [float(rows.loc[(label, n), "hands mixing"])
                  for n in sizes]
           for role, label in by_role.items()
           if all((label, n) in rows.index for n in sizes)}
  if not found:
    return None
  return Measurement(
      "(hand, panel) pairs mixing, perturbed runs, by N " +
      "/".join(map(str, sizes)) + ": " + "; ".join(
          f"{role} " + "/".join(f"{share:.1%}" for share in shares)
          for role, shares in found.items()) +
      " (holds: falling at each larger N)", found, variant.label)
