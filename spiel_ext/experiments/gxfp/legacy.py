"""The GXFP paper's experiments on von Neumann-Morgenstern poker.

Tim P. Schulze, "A Generalized Extensive-Form Fictitious Play Algorithm",
2023, arXiv:2310.09658.

- ``gxfp_vnm_asymmetric``: Figure 1. vN&M's asymmetric game with N hands:
  player 1's bet and player 2's call probability vs hand strength for GXFP
  unperturbed and perturbed (every action >= eps), the continuous
  solution's thresholds as vertical lines; bottom row, the action-value
  differences (bet - check, call - fold). Several N show the thresholds
  approaching the continuum.
- ``gxfp_vnm_raise``: Figures 2-3. The raise variant: player 1's sequences
  given the first action (as the paper draws them), player 2 after a check,
  player 2 facing a bet; unperturbed GXFP (Fig. 2), perturbed XFP vs GXFP
  with the continuous thresholds (Fig. 3; player 1's movable check-raise
  boundaries dotted).
- ``gxfp_convergence``: Figures 4-5. The value of the strategy pair to
  player 1 and NashConv vs iterations for CFR, XFP and GXFP from random
  initial strategies, the continuous game value -88/1083 as reference
  (Fig. 4); perturbed XFP vs GXFP with the perturbed game's NashConv
  (Fig. 5); the paper's side remarks (alternating updates, cost per
  iteration, integer counting) as claims of their own.

The paper does not say whether players update at once or in turn, and its
summary says all three algorithms converge much faster in turn; every
figure therefore runs all its algorithms on one schedule, once per
schedule ("paper setting (simultaneous)", "paper setting (alternating)").
N, eps, the bet sizes and the iteration counts did not survive in the text
we have: the settings tables mark those values as ours. Thresholds are
compared as sequence masses (the share of hands playing a sequence, which
is the same for every member of the continuum of equilibria) after reading
perturbed strategies as the choice they stand for
(:func:`spiel_ext.policy.remove_perturbation`).
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd
import pyspiel

from spiel_ext.experiments.metrics import perturbed_metric_name
from spiel_ext.experiments.solvers import ALGORITHMS, GXFP_EPSILON
from spiel_ext.experiments.spec import (Experiment, Scale, Settings,
                                        command_for, load_snapshots)
from spiel_ext.files import atomic_write
from spiel_ext.games import vnm_solution as continuum
from spiel_ext.results.figures import (CurvePanel, curves_figure, line_figure,
                                       stacked_figure)
from spiel_ext.results.report import Choice, Claim, Variant, verdict_from
from spiel_ext.results.tables import write_table

_PAPER = "GXFP (Schulze 2023)"
_EPS = f"eps={GXFP_EPSILON:g}"
GXFP_EPS = f"GXFP ({_EPS})"
XFP_EPS = f"XFP ({_EPS})"
GXFP_ALT_EPS = f"GXFP (alternating, {_EPS})"
XFP_ALT_EPS = f"XFP (alternating, {_EPS})"
CFR_LIGHT = "CFR (light start)"
CFR_SIM_LIGHT = "CFR (simultaneous, light start)"
PERTURBED_NASH_CONV = perturbed_metric_name(GXFP_EPSILON)
_METRICS = ("nash_conv", PERTURBED_NASH_CONV, "value_player_0")
_MIXED = (0.05, 0.95)  # A hand mixes when its largest probability is below.
SCHEDULES = ("simultaneous", "alternating")

# Each schedule's algorithm for each role the figures draw.
_ROLES = {
    "simultaneous": {"CFR": CFR_SIM_LIGHT, "XFP": "XFP", "GXFP": "GXFP",
                     XFP_EPS: XFP_EPS, GXFP_EPS: GXFP_EPS},
    "alternating": {"CFR": CFR_LIGHT, "XFP": "XFP (alternating)",
                    "GXFP": "GXFP (alternating)", XFP_EPS: XFP_ALT_EPS,
                    GXFP_EPS: GXFP_ALT_EPS},
}
_SCHEDULE_OF = {label: schedule for schedule, roles in _ROLES.items()
                for label in roles.values()}
_SCHEDULE_TEXT = {
    "simultaneous": "both players best-respond to sigma_t, then both "
                    "update (OpenSpiel's XFP)",
    "alternating": "player 2 answers player 1's updated strategy (the "
                   "paper's summary: all three converge much faster so)"}


def vnm_game(hands: int, variant: str) -> str:
  return f"spiel_ext_vnm_poker(hands={hands},variant={variant})"


def hands_of(game: str) -> int:
  return int(pyspiel.load_game(game).get_parameters()["hands"])


def _eps_of(algorithm: str) -> float:
  return GXFP_EPSILON if "eps=" in algorithm else 0.0


def schedule_of(algorithm: str) -> str:
  """"simultaneous" or "alternating" for the labels these experiments run."""
  if algorithm in _SCHEDULE_OF:
    return _SCHEDULE_OF[algorithm]
  return "alternating" if algorithm in ("CFR", "CFR (uniform)") else (
      "simultaneous")


def schedule_roles(schedule: str) -> dict[str, str]:
  """{role: algorithm label} of a schedule: roles "CFR", "XFP", "GXFP",
  "XFP (eps=...)", "GXFP (eps=...)"."""
  return dict(_ROLES[schedule])


def _schedule_variant(schedule: str, roles: Sequence[str]) -> Variant:
  return Variant(f"paper setting ({schedule})",
                 tuple(_ROLES[schedule][role] for role in roles),
                 _SCHEDULE_TEXT[schedule])


def _role_labels(variant: Variant, roles: Sequence[str]) -> dict[str, str]:
  """{role: label} of a schedule variant."""
  schedule = variant.name[len("paper setting ("):-1]
  return {role: _ROLES[schedule][role] for role in roles}


def _sequences(game: str, strategy: np.ndarray, algorithm: str,
               readable: bool, conditional: bool = False
               ) -> dict[str, dict[str, np.ndarray]]:
  """Sequence probabilities by hand; ``readable`` removes the perturbation;
  ``conditional`` gives player 1's raise-variant sequences given the first
  action (the paper's drawing)."""
  from spiel_ext.eval import vnm  # pylint: disable=g-import-not-at-top
  return vnm.sequence_probabilities(
      game, strategy, _eps_of(algorithm) if readable else 0.0,
      conditional=conditional)


def _near_threshold(strengths: np.ndarray, thresholds, hands: int):
  """Hands within 2/N of a threshold (boundary effects of the discrete
  game, which the paper expects)."""
  if not len(thresholds):
    return np.zeros(len(strengths), dtype=bool)
  distance = np.min(np.abs(strengths[:, None] - np.asarray(thresholds)[None]),
                    axis=1)
  return distance < 2.0 / hands


def _final_means(frame: pd.DataFrame) -> pd.DataFrame:
  """[game, algorithm] x metric: mean over seeds at the last iteration."""
  last = frame[frame.iteration == frame.groupby(
      ["game", "algorithm", "metric"])["iteration"].transform("max")]
  return last.pivot_table(index=["game", "algorithm"], columns="metric",
                          values="value", aggfunc="mean")


def _convergence_figures(frame: pd.DataFrame, folder: Path,
                         order) -> list[Path]:
  return line_figure(frame, "nash_conv", folder / "figures" / "nash_conv",
                     line_order=[a for a in order
                                 if a in set(frame.algorithm)],
                     dashed=[a for a in order
                             if schedule_of(a) == "alternating"],
                     title="NashConv of the average strategy "
                     "(dashed: alternating updates)")


def _choices(*rows: tuple[str, ...]) -> tuple[Choice, ...]:
  return tuple(Choice(*row) for row in rows)


_NO_CODE = "no public code"
_SCHEDULE_CHOICE = (
    "update schedule", "not stated for the figures; the summary says all "
    "three algorithms converged much faster with alternating updates",
    _NO_CODE, "both readings run, each figure on one schedule: paper "
    "setting (simultaneous) and paper setting (alternating)")
_FP_START_CHOICE = (
    "fictitious-play start", "random initial data (section 5)", _NO_CODE,
    "ours: sigma_1 drawn Dirichlet(1) per infoset with the run's seed, "
    "weight one iteration in the average")
_EPS_CHOICE = (
    "perturbation eps", "every action at least eps (eq. 24); the value was "
    "lost from our copy of the text", _NO_CODE,
    f"ours: eps = {GXFP_EPSILON:g}")
_TIE_CHOICE = (
    "GXFP ties in the best decision", "not stated", _NO_CODE,
    "ours: the lowest action id")
_AVERAGE_CHOICE = (
    "GXFP averaging", "sigma_(t+1) = (t sigma_t + b_t) / (t + 1), float or "
    "integer counts (section 6)", _NO_CODE, "float running average")
_EVALUATED_CHOICE = (
    "what is evaluated", "the strategy sigma_t (fictitious play's running "
    "average)", _NO_CODE, "the average strategy; perturbed strategies read "
    "as the choice they stand for when thresholds are measured, drawn as "
    "played")


# ----------------------------------------------------------- Figure 1
_ASYMMETRIC_ROLES = ("GXFP", GXFP_EPS)
_ASYMMETRIC_VARIANTS = tuple(_schedule_variant(schedule, _ASYMMETRIC_ROLES)
                             for schedule in SCHEDULES)
_ASYMMETRIC_ORDER = tuple(label for variant in _ASYMMETRIC_VARIANTS
                          for label in variant.algorithms)
_STYLES = {"GXFP": {"color": "tab:purple"},
           GXFP_EPS: {"color": "tab:green", "linestyle": "--"},
           XFP_EPS: {"color": "tab:orange"}}


def asymmetric_thresholds(game: str, strategy: np.ndarray,
                          algorithm: str) -> dict[str, float]:
  """Player 1's bluff and value-bet thresholds and player 2's call
  threshold measured as masses (a = bets below 1/2, b = 1 - bets above,
  c = folds), and the share of player 2's hands away from c that mix."""
  hands = hands_of(game)
  readable = _sequences(game, strategy, algorithm, True)
  bets, calls = readable["P1"]["bet"], readable["P2"]["call"]
  strengths = continuum.hand_strengths(hands)
  low = strengths < 0.5
  solution = continuum.asymmetric_solution()
  away = ~_near_threshold(strengths, [solution.call_above], hands)
  mixing = (calls > _MIXED[0]) & (calls < _MIXED[1]) & away
  return {"a": bets[low].sum() / hands, "b": 1 - bets[~low].sum() / hands,
          "c": 1 - calls.sum() / hands,
          "p2_mixed_share": float(mixing.sum() / max(away.sum(), 1))}


def _threshold_table(settings: Settings, folder: Path) -> pd.DataFrame:
  solution = continuum.asymmetric_solution()
  exact = {"a": solution.bluff_below, "b": solution.value_bet_above,
           "c": solution.call_above}
  records = []
  for game in settings.games:
    for algorithm, strategies in load_snapshots(settings, folder, "final",
                                                game).items():
      measured = pd.DataFrame([asymmetric_thresholds(game, s, algorithm)
                               for s in strategies]).mean()
      record = {"N": hands_of(game), "schedule": schedule_of(algorithm),
                "algorithm": algorithm, "seeds": len(strategies)}
      for key, value in exact.items():
        record[key] = measured[key]
        record[f"|{key} error|"] = abs(measured[key] - value)
      record["max error"] = max(record[f"|{k} error|"] for k in exact)
      record["P2 hands mixing"] = measured["p2_mixed_share"]
      records.append(record)
  return pd.DataFrame(records)


def _asymmetric_figure(game: str, snapshots: dict[str, list[np.ndarray]],
                       variant: Variant, folder: Path) -> list[Path]:
  from spiel_ext.eval import vnm  # pylint: disable=g-import-not-at-top
  hands = hands_of(game)
  strengths = continuum.hand_strengths(hands)
  solution = continuum.asymmetric_solution()
  lines = continuum.asymmetric_thresholds(solution)
  top = [CurvePanel("Player 1: P(bet)", "hand strength", "probability", {}),
         CurvePanel("Player 2: P(call | bet)", "hand strength",
                    "probability", {})]
  bottom = [CurvePanel("Player 1: value(bet) - value(check)",
                       "hand strength", "value difference", {}),
            CurvePanel("Player 2: value(call) - value(fold)",
                       "hand strength", "value difference", {})]
  for role, algorithm in _role_labels(variant, _ASYMMETRIC_ROLES).items():
    if algorithm not in snapshots:
      continue
    strategy = snapshots[algorithm][0]
    probabilities = _sequences(game, strategy, algorithm, False)
    differences = vnm.action_value_differences(game, strategy)
    style = _STYLES[role]
    top[0].curves[role] = (strengths, probabilities["P1"]["bet"], style)
    top[1].curves[role] = (strengths, probabilities["P2"]["call"], style)
    bottom[0].curves[role] = (strengths, differences["P1"], style)
    bottom[1].curves[role] = (strengths, differences["P2"], style)
  if not top[0].curves:
    return []
  for panels, player in ((top, "P1"), (bottom, "P1")):
    panels[0].vlines = [(x, "continuous thresholds" if i == 0 else "", {})
                        for i, x in enumerate(lines[player])]
  for panels in (top, bottom):
    panels[1].vlines = [(lines["P2"][0], "continuous threshold", {})]
  schedule = schedule_of(variant.algorithms[0])
  return curves_figure(
      [top, bottom],
      folder / "figures" / f"fig1_strategies_N{hands}_{schedule}",
      title=f"Asymmetric vN&M poker, N = {hands}, {schedule} updates: GXFP "
      f"unperturbed and perturbed (eps = {GXFP_EPSILON:g}), first seed "
      "(Schulze, Fig. 1)")


def summarize_asymmetric(frame: pd.DataFrame, settings: Settings,
                         folder: Path) -> tuple[list[Path], list[Path]]:
  figures = []
  for game in settings.games:
    snapshots = load_snapshots(settings, folder, "final", game)
    for variant in _ASYMMETRIC_VARIANTS:
      figures += _asymmetric_figure(game, snapshots, variant, folder)
  figures += _convergence_figures(frame, folder, _ASYMMETRIC_ORDER)
  tables = write_table(
      _threshold_table(settings, folder), folder / "tables" / "thresholds",
      caption="Measured thresholds vs the continuous solution (a = 1/9, "
      "b = 7/9, c = 5/9), mean over seeds; P2 hands mixing: share of player "
      "2's hands at least 2/N from c whose call probability is in "
      "(0.05, 0.95)")
  return figures, tables


def _bet_gap(settings: Settings, folder: Path, game: str, plain: str,
             perturbed: str) -> float:
  """Mean |P(bet) unperturbed - P(bet) perturbed| over hands and seeds, as
  drawn (the perturbed strategy as played)."""
  snapshots = load_snapshots(settings, folder, "final", game)
  if plain not in snapshots or perturbed not in snapshots:
    return float("nan")
  return float(np.mean([
      np.abs(_sequences(game, a, plain, False)["P1"]["bet"] -
             _sequences(game, b, perturbed, False)["P1"]["bet"]).mean()
      for a, b in zip(snapshots[plain], snapshots[perturbed])]))


def _drift_verdict(plain: float, perturbed: float) -> str:
  """Fig. 1's mixing claim from player 2's share of mixing hands: the
  unperturbed run mixes on a fifth of them or more, the perturbed on none
  (up to 2%)."""
  if plain >= 0.2:
    return ("holds" if perturbed <= 0.02 else "holds partly"
            if perturbed < plain / 2 else "does not hold")
  return "holds partly" if plain >= 0.05 and perturbed <= 0.02 else (
      "does not hold")


def asymmetric_claims(frame: pd.DataFrame, settings: Settings,
                      folder: Path) -> list[Claim]:
  del frame
  table = _threshold_table(settings, folder)
  command = command_for(settings)
  evidence = "gxfp_vnm_asymmetric/tables/thresholds.md"
  largest = table.N.max()
  at_largest = table[table.N == largest].set_index("algorithm")
  claims = []
  for variant in GXFP_VNM_ASYMMETRIC.variants_run(settings):
    plain_label, perturbed_label = _role_labels(
        variant, _ASYMMETRIC_ROLES).values()
    if not {plain_label, perturbed_label} <= set(at_largest.index):
      continue
    plain = at_largest.loc[plain_label, "P2 hands mixing"]
    perturbed = at_largest.loc[perturbed_label, "P2 hands mixing"]
    claims.append(Claim(
        _PAPER, "Perturbed GXFP removes player 2's weakly dominated mixing; "
        "unperturbed it drifts among mixed equilibria (Fig. 1)",
        "qualitative (Fig. 1)",
        f"N = {largest}: player 2 mixes on {plain:.0%} of its hands away from "
        f"the threshold unperturbed, {perturbed:.0%} perturbed (holds: "
        "unperturbed >= 20%, perturbed <= 2%)",
        _drift_verdict(plain, perturbed), evidence, command, variant.label))
    gap = _bet_gap(settings, folder, next(
        game for game in settings.games if hands_of(game) == largest),
                   plain_label, perturbed_label)
    if np.isfinite(gap):
      claims.append(Claim(
          _PAPER, "Player 1's unperturbed and perturbed bet probabilities "
          "are nearly indistinguishable (Fig. 1)", "qualitative",
          f"N = {largest}: mean |P(bet) unperturbed - perturbed| over hands "
          f"{gap:.3f} (the eps floor alone gives up to {GXFP_EPSILON:g})",
          "holds" if gap <= 0.05 else "holds partly" if gap <= 0.15 else
          "does not hold", evidence, command, variant.label))
    # The unique parts of the equilibrium: player 1's thresholds (unperturbed
    # run) and player 2's weakly dominant threshold (perturbed run; the
    # perturbation itself moves player 1's thresholds by O(eps)).
    plain_rows = table[table.algorithm == plain_label].set_index("N")
    perturbed_rows = table[table.algorithm == perturbed_label].set_index("N")
    sizes = sorted(set(plain_rows.index) & set(perturbed_rows.index))
    if not sizes:
      continue
    errors = [max(plain_rows.loc[n, "|a error|"],
                  plain_rows.loc[n, "|b error|"],
                  perturbed_rows.loc[n, "|c error|"]) for n in sizes]
    text = ", ".join(f"N = {n}: {e:.4f} (1/N = {1 / n:.4f})"
                     for n, e in zip(sizes, errors))
    shrinking = bool(np.all(np.diff(errors) <= 1e-9))
    shift = max(perturbed_rows.loc[n, "|b error|"] for n in sizes)
    claims.append(Claim(
        _PAPER, "The discrete solution approaches the continuous thresholds "
        "(a = 1/9, b = 7/9, c = 5/9) as N grows (Fig. 1)", "qualitative",
        f"largest error of a, b (GXFP) and c (perturbed GXFP): {text}; the "
        f"perturbation itself moves player 1's b by up to {shift:.4f}",
        "holds" if errors[-1] <= 1.0 / sizes[-1] and shrinking else
        "holds partly" if errors[-1] <= 2.0 / sizes[-1] else
        "does not hold", evidence, command, variant.label))
  return claims


_ASYMMETRIC_ITERATIONS = (10_000, 30_000)
GXFP_VNM_ASYMMETRIC = Experiment(
    name="gxfp_vnm_asymmetric",
    description="GXFP Fig. 1: asymmetric vN&M poker, strategies and action "
                "values vs hand, perturbed and not, continuous thresholds, "
                "on each update schedule",
    quick=Scale(iterations=_ASYMMETRIC_ITERATIONS[0], seeds=2,
                games=tuple(vnm_game(n, "asymmetric") for n in (18, 45, 90)),
                algorithms=_ASYMMETRIC_ORDER),
    paper=Scale(iterations=_ASYMMETRIC_ITERATIONS[1], seeds=2,
                games=tuple(vnm_game(n, "asymmetric")
                            for n in (45, 90, 180)),
                algorithms=_ASYMMETRIC_ORDER),
    metrics=_METRICS,
    summarize=summarize_asymmetric,
    cost="quick: about 1 minute; paper: 9 minutes with --workers=1 (2 "
         "busy cores)",
    claims=asymmetric_claims,
    choices=_choices(
        ("hands N", "N uniformly distributed hands; N lost from our copy of "
         "the text", _NO_CODE, "ours: N = 45, 90, 180 (multiples of 9, so "
         "a = 1/9, b = 7/9, c = 5/9 fall between hands); quick: 18, 45, 90"),
        ("ante, bet", "ante and bet sizes lost from our copy of the text",
         _NO_CODE, "ours: ante 1, bet 2 (continuous solution a = 1/9, "
         "b = 7/9, c = 5/9)"),
        _EPS_CHOICE,
        ("iterations", "lost from our copy of the text", _NO_CODE,
         f"ours: {_ASYMMETRIC_ITERATIONS[1]:,} "
         f"(quick: {_ASYMMETRIC_ITERATIONS[0]:,})"),
        ("runs", "one realization drawn", _NO_CODE,
         "ours: 2 seeds; figures draw the first, tables average both"),
        _SCHEDULE_CHOICE, _FP_START_CHOICE, _AVERAGE_CHOICE, _TIE_CHOICE,
        _EVALUATED_CHOICE,
        ("player 2 mixing", "drawn, not measured", _NO_CODE,
         "ours: share of player 2's hands at least 2/N from c whose call "
         "probability is in (0.05, 0.95)")),
    variants=_ASYMMETRIC_VARIANTS)


# -------------------------------------------------------- Figures 2-3
_RAISE_ROLES = ("GXFP", GXFP_EPS, XFP_EPS)
_RAISE_VARIANTS = tuple(_schedule_variant(schedule, _RAISE_ROLES)
                        for schedule in SCHEDULES)
_RAISE_ORDER = tuple(label for variant in _RAISE_VARIANTS
                     for label in variant.algorithms)
_SEQUENCE_COLORS = {
    "check-fold": "tab:purple", "check-call": "tab:green",
    "check-raise": "tab:cyan", "bet-fold": "goldenrod",
    "bet-call": "tab:blue", "check": "tab:green", "fold": "goldenrod",
    "call": "tab:red", "raise": "tab:blue"}
_PANEL_TITLES = {"P1": "Player 1's sequences given the first action "
                       "(check-*: add to one; bet-*: add to one)",
                 "P2 after check": "Player 2 after a check",
                 "P2 facing bet": "Player 2 facing a bet"}


def _raise_vlines(panel: str) -> list[tuple[float, str, dict]]:
  """The panel's thresholds; player 1's movable ones dotted."""
  free = ({float(x) for x in continuum.RAISE_FREE_THRESHOLDS}
          if panel == "P1" else set())
  lines = []
  for number, x in enumerate(continuum.raise_thresholds(panel)):
    movable = any(abs(x - f) < 1e-12 for f in free)
    label = ("continuous thresholds" + (" (dotted: movable)" if free else "")
             if number == 0 else "")
    lines.append((x, label,
                  {"color": "gray", "linewidth": 0.8,
                   "linestyle": ":" if movable else "-"}))
  return lines


def _raise_panels(game: str, runs: dict[str, tuple[str, np.ndarray, dict]]
                  ) -> list[list[CurvePanel]]:
  """``runs``: {name in the legend: (algorithm, strategy, style)}. Colour =
  sequence, line style = run (first run labelled by sequence, the styles
  explained by legend-only entries). Player 1's panel is conditional on
  the first action, as the paper draws it."""
  strengths = continuum.hand_strengths(hands_of(game))
  rows = []
  for panel in continuum.RAISE_SEQUENCES:
    curves = {}
    for number, (name, (algorithm, strategy, style)) in enumerate(
        runs.items()):
      probabilities = _sequences(game, strategy, algorithm, False,
                                 conditional=True)[panel]
      for sequence, values in probabilities.items():
        label = sequence if number == 0 else f"_{sequence}, {name}"
        curves[label] = (strengths, values, {
            "color": _SEQUENCE_COLORS[sequence], **style})
    if len(runs) > 1:
      for name, (_, _, style) in runs.items():
        curves[name] = ([], [], {"color": "black", **style})
    rows.append([CurvePanel(_PANEL_TITLES[panel], "hand strength",
                            "probability", curves, _raise_vlines(panel))])
  return rows


def raise_errors(game: str, strategy: np.ndarray,
                 algorithm: str) -> dict[str, float]:
  """Per panel: the largest |sequence mass - continuous mass|, and for
  player 2 (unique in the continuum) the share of hands at least 2/N from
  a threshold that play the continuous solution's sequence with
  probability >= 0.9; the share of hands that mix (largest sequence
  probability below 0.95, player 1's sequences as shares of the hand's
  play) over all panels."""
  hands = hands_of(game)
  strengths = continuum.hand_strengths(hands)
  readable = _sequences(game, strategy, algorithm, True)
  result = {}
  mixing = []
  for panel, sequences in readable.items():
    exact = continuum.raise_sequence_masses(panel)
    result[f"{panel}: mass error"] = max(
        abs(values.sum() / hands - exact[sequence])
        for sequence, values in sequences.items())
    stacked = np.stack(list(sequences.values()), axis=1)
    mixing.append(stacked.max(axis=1) < _MIXED[1])
    if panel.startswith("P2"):
      away = ~_near_threshold(strengths, continuum.raise_thresholds(panel),
                              hands)
      names = list(sequences)
      prescribed = [names.index(continuum.raise_sequence_at(panel, x))
                    for x in strengths]
      hits = stacked[np.arange(hands), prescribed] >= 0.9
      result[f"{panel}: hands as continuum"] = float(hits[away].mean())
  result["hands mixing"] = float(np.mean(np.concatenate(mixing)))
  return result


def _raise_table(settings: Settings, folder: Path) -> pd.DataFrame:
  records = []
  for game in settings.games:
    for algorithm, strategies in load_snapshots(settings, folder, "final",
                                                game).items():
      measured = pd.DataFrame([raise_errors(game, s, algorithm)
                               for s in strategies]).mean()
      records.append({"N": hands_of(game), "schedule": schedule_of(algorithm),
                      "algorithm": algorithm, "seeds": len(strategies),
                      **measured.to_dict()})
  return pd.DataFrame(records)


def _perturbed_gap(settings: Settings, folder: Path, game: str, xfp: str,
                   gxfp: str) -> float:
  """Mean |XFP(eps) - GXFP(eps)| sequence probability (shares of the
  hand's play) over hands, panels and seeds."""
  snapshots = load_snapshots(settings, folder, "final", game)
  if xfp not in snapshots or gxfp not in snapshots:
    return float("nan")
  gaps = []
  for first_strategy, second_strategy in zip(snapshots[xfp], snapshots[gxfp]):
    first = _sequences(game, first_strategy, xfp, False)
    second = _sequences(game, second_strategy, gxfp, False)
    gaps += [np.abs(first[p][s] - second[p][s]).mean()
             for p in first for s in first[p]]
  return float(np.mean(gaps))


def summarize_raise(frame: pd.DataFrame, settings: Settings,
                    folder: Path) -> tuple[list[Path], list[Path]]:
  figures = []
  for game in settings.games:
    hands = hands_of(game)
    snapshots = load_snapshots(settings, folder, "final", game)
    for variant in _RAISE_VARIANTS:
      roles = _role_labels(variant, _RAISE_ROLES)
      schedule = schedule_of(roles["GXFP"])
      if roles["GXFP"] in snapshots:
        figures += curves_figure(
            _raise_panels(game, {"GXFP": (roles["GXFP"],
                                          snapshots[roles["GXFP"]][0], {})}),
            folder / "figures" / f"fig2_gxfp_N{hands}_{schedule}",
            legend_outside=True,
            title=f"Raise variant, N = {hands}, {schedule} updates: "
            "unperturbed GXFP, first seed\n(Schulze, Fig. 2)")
      runs = {role: (roles[role], snapshots[roles[role]][0], style)
              for role, style in (
                  (XFP_EPS, {}), (GXFP_EPS, {"linestyle": "--"}),
                  ("GXFP", {"alpha": 0.35, "linewidth": 0.8}))
              if roles[role] in snapshots}
      if runs:
        figures += curves_figure(
            _raise_panels(game, runs),
            folder / "figures" / f"fig3_perturbed_N{hands}_{schedule}",
            legend_outside=True,
            title=f"Raise variant, N = {hands}, {schedule} updates: "
            f"perturbed XFP and GXFP (eps = {GXFP_EPSILON:g}),\nunperturbed "
            "GXFP faint; first seed (Schulze, Fig. 3)")
  figures += _convergence_figures(frame, folder, _RAISE_ORDER)
  tables = write_table(
      _raise_table(settings, folder), folder / "tables" / "thresholds",
      caption="Fit to the continuous solution, mean over seeds: per panel "
      "the largest sequence-mass error and (player 2) the share of hands "
      "2/N or more from a threshold played as the continuum; hands mixing: "
      "share of (hand, panel) with no sequence >= 0.95 (player 1's "
      "sequences as shares of the hand's play)")
  return figures, tables


def raise_claims(frame: pd.DataFrame, settings: Settings,
                 folder: Path) -> list[Claim]:
  del frame
  table = _raise_table(settings, folder)
  command = command_for(settings)
  evidence = "gxfp_vnm_raise/tables/thresholds.md"
  game = settings.games[-1]
  hands = hands_of(game)
  rows = table[table.N == hands].set_index("algorithm")
  claims = []
  for variant in GXFP_VNM_RAISE.variants_run(settings):
    roles = _role_labels(variant, _RAISE_ROLES)
    plain_label, gxfp_eps, xfp_eps = (roles["GXFP"], roles[GXFP_EPS],
                                      roles[XFP_EPS])
    if {plain_label, gxfp_eps} <= set(rows.index):
      plain, perturbed = (rows.loc[plain_label, "hands mixing"],
                          rows.loc[gxfp_eps, "hands mixing"])
      claims.append(Claim(
          _PAPER, "Unperturbed GXFP mixes for most hands; the perturbation "
          "removes the weakly dominated mixing (Figs. 2-3)", "qualitative",
          f"N = {hands}: (hand, panel) pairs mixing: unperturbed "
          f"{plain:.0%}, perturbed {perturbed:.0%} (holds: unperturbed >= "
          "50%, perturbed below half of it)",
          "holds" if plain >= 0.5 and perturbed < plain / 2 else
          "holds partly" if perturbed < plain else "does not hold",
          evidence, command, variant.label))
    gap = _perturbed_gap(settings, folder, game, xfp_eps, gxfp_eps)
    if np.isfinite(gap):
      claims.append(Claim(
          _PAPER, "Perturbed XFP and GXFP give nearly identical strategies "
          "(Fig. 3)", "qualitative",
          f"N = {hands}: mean |XFP - GXFP| sequence probability {gap:.3f}",
          "holds" if gap <= 0.05 else "holds partly" if gap <= 0.15 else
          "does not hold", evidence, command, variant.label))
    perturbed = {role: label for role, label in ((GXFP_EPS, gxfp_eps),
                                                 (XFP_EPS, xfp_eps))
                 if label in rows.index}
    if perturbed:
      fits = {role: (min(rows.loc[label, "P2 after check: hands as continuum"],
                         rows.loc[label, "P2 facing bet: hands as continuum"]),
                     max(rows.loc[label, f"{p}: mass error"]
                         for p in continuum.RAISE_SEQUENCES))
              for role, label in perturbed.items()}
      text = "; ".join(f"{role}: player 2 plays the continuum on {share:.0%} "
                       f"of hands away from thresholds, largest mass error "
                       f"{error:.3f} (2/N = {2 / hands:.3f})"
                       for role, (share, error) in fits.items())
      good = [share >= 0.95 and error <= 2.0 / hands
              for share, error in fits.values()]
      claims.append(Claim(
          _PAPER, "The perturbed solutions fit the continuous thresholds "
          "(Fig. 3)", "qualitative", f"N = {hands}: {text}",
          "holds" if all(good) else "holds partly" if any(
              share >= 0.8 for share, _ in fits.values()) else
          "does not hold", evidence, command, variant.label))
  return claims


_RAISE_ITERATIONS = (5000, 25_000)
_SIZES_CHOICE = (
    "ante : bet : raise", "pot, bet and raise sizes lost from our copy of "
    "the text", _NO_CODE, "ours: 1 : 2 : 2, the sizes of the closed form "
    "(game value -88/1083)")
GXFP_VNM_RAISE = Experiment(
    name="gxfp_vnm_raise",
    description="GXFP Figs. 2-3: raise-variant strategies vs hand, "
                "unperturbed GXFP, perturbed XFP vs GXFP, continuous "
                "thresholds, on each update schedule",
    quick=Scale(iterations=_RAISE_ITERATIONS[0], seeds=2,
                games=(vnm_game(38, "raise"),), algorithms=_RAISE_ORDER),
    paper=Scale(iterations=_RAISE_ITERATIONS[1], seeds=2,
                games=(vnm_game(114, "raise"),), algorithms=_RAISE_ORDER),
    metrics=_METRICS,
    summarize=summarize_raise,
    cost="quick: about 30 s; paper: 18 minutes with --workers=1 (2 busy "
         "cores)",
    claims=raise_claims,
    choices=_choices(
        ("hands N", "lost from our copy of the text", _NO_CODE,
         "ours: N = 114 (6 x 19: the closed form's thresholds have "
         "denominator 19); quick: 38"),
        _SIZES_CHOICE, _EPS_CHOICE,
        ("iterations", "lost from our copy of the text", _NO_CODE,
         f"ours: {_RAISE_ITERATIONS[1]:,} (quick: {_RAISE_ITERATIONS[0]:,})"),
        ("runs", "a single realization (section 5)", _NO_CODE,
         "ours: 2 seeds; figures draw the first, tables average both"),
        _SCHEDULE_CHOICE, _FP_START_CHOICE, _AVERAGE_CHOICE, _TIE_CHOICE,
        _EVALUATED_CHOICE,
        ("player 1's panel", "check-fold, check-call, check-raise add to "
         "one; bet-call, bet-fold add to one (section 5)", _NO_CODE,
         "drawn so: conditional on the first action; masses and mixing in "
         "the table use shares of the hand's play"),
        ("player 1's movable thresholds", "two thresholds roughly fit to "
         "the graphs", _NO_CODE, "ours: drawn dotted at one member of the "
         "continuum; compared as sequence masses, equal for every member"),
        ("hands mixing", "drawn, not measured", _NO_CODE,
         "ours: share of (hand, panel) pairs with no sequence >= 0.95")),
    variants=_RAISE_VARIANTS)


# -------------------------------------------------------- Figures 4-5
_MAIN_ROLES = ("CFR", "XFP", "GXFP")
_PERTURBED_ROLES = (XFP_EPS, GXFP_EPS)
_CONVERGENCE_ROLES = _MAIN_ROLES + _PERTURBED_ROLES
_HEAVY = {"simultaneous": "CFR (simultaneous)", "alternating": "CFR"}
_UNIFORM = {"simultaneous": "CFR (simultaneous, uniform)",
            "alternating": "CFR (uniform)"}
_CONVERGENCE_VARIANTS = tuple(
    _schedule_variant(schedule, _CONVERGENCE_ROLES)
    for schedule in SCHEDULES) + (
        Variant("heavy CFR start", tuple(_HEAVY.values()),
                "CFR from U(0, 1) regrets and policy, worth ~N iterations of "
                "regret (our earlier runs' start)"),
        Variant("uniform CFR start", tuple(_UNIFORM.values()),
                "CFR from the uniform strategy (deterministic, one run)"),
        Variant("integer counting", ("GXFP (integer)",),
                "simultaneous GXFP counting best decisions in integers "
                "(a consistency check of the two implementations)"))
_CONVERGENCE_ALGORITHMS = tuple(dict.fromkeys(
    label for variant in _CONVERGENCE_VARIANTS
    for label in variant.algorithms))
_VALUE = float(continuum.RAISE_VALUE)
TIMING_FILE = "cost_alone.json"


def time_alone(game: str, algorithms: Sequence[str], iterations: int = 600,
               rounds: int = 3) -> dict[str, float]:
  """Seconds per iteration of each algorithm label on ``game``, timed in
  this process one solver at a time: 5 warm-up iterations each, then
  ``rounds`` rounds in which each solver in turn runs ``iterations //
  rounds`` iterations; the median of its rounds (interleaving keeps a
  change in the machine's load from favouring one solver)."""
  solvers = {}
  for name in algorithms:
    entry = ALGORITHMS[name]
    solvers[name] = entry.factory(game, seed=0,
                                  **dict(entry.hyperparameters))
    for _ in range(5):
      solvers[name].iteration()
  per_round = max(iterations // rounds, 1)
  times = {name: [] for name in algorithms}
  for _ in range(rounds):
    for name, solver in solvers.items():
      start = time.perf_counter()
      for _ in range(per_round):
        solver.iteration()
      times[name].append((time.perf_counter() - start) / per_round)
  return {name: statistics.median(values) for name, values in times.items()}


def _time_main_solvers(game: str) -> dict[str, float]:
  labels = [label for variant in _CONVERGENCE_VARIANTS[:2]
            for label in _role_labels(variant, _MAIN_ROLES).values()]
  return time_alone(game, labels)


def _timing_alone(settings: Settings, folder: Path) -> tuple[dict, str]:
  """The timing written after the run, or one taken now if it is missing;
  with a phrase saying which."""
  path = folder / "tables" / TIMING_FILE
  try:
    return json.loads(path.read_text()), "timed after the run"
  except (OSError, ValueError):
    return (_time_main_solvers(settings.games[0]),
            "timed while writing the report")


def _per_iteration_seconds(frame: pd.DataFrame) -> pd.Series:
  """Solver seconds per iteration at the last evaluation, mean over seeds."""
  data = frame[frame.metric == "nash_conv"]
  last = data[data.iteration == data.groupby("algorithm")["iteration"]
              .transform("max")]
  return (last.wall_time / last.iteration).groupby(last.algorithm).mean()


def _convergence_table(frame: pd.DataFrame) -> pd.DataFrame:
  means = _final_means(frame).reset_index(level="game", drop=True)
  table = pd.DataFrame({
      "NashConv": means["nash_conv"],
      f"NashConv ({_EPS} game)": means[PERTURBED_NASH_CONV],
      "value to player 1": means["value_player_0"],
      "ms per iteration (run)": 1000 * _per_iteration_seconds(frame)})
  # The perturbed game's NashConv means something for its strategies only
  # (a strategy outside it can beat the restricted best responses).
  table.loc[[name for name in table.index if not _eps_of(name)],
            f"NashConv ({_EPS} game)"] = np.nan
  order = [name for name in _CONVERGENCE_ALGORITHMS if name in table.index]
  table = table.reindex(order)
  table.insert(0, "schedule", [schedule_of(name) for name in table.index])
  return table.reset_index(names="algorithm")


def summarize_convergence(frame: pd.DataFrame, settings: Settings,
                          folder: Path) -> tuple[list[Path], list[Path]]:
  game = settings.games[0]
  hands = hands_of(game)
  figures = []
  present = set(frame.algorithm)
  for variant in _CONVERGENCE_VARIANTS[:2]:
    schedule = schedule_of(variant.algorithms[0])
    for name, roles, metrics, label in (
        ("fig4_cfr_xfp_gxfp", _MAIN_ROLES, ("value_player_0", "nash_conv"),
         "Fig. 4"),
        ("fig5_perturbed", _PERTURBED_ROLES,
         ("value_player_0", PERTURBED_NASH_CONV),
         f"Fig. 5, eps = {GXFP_EPSILON:g}")):
      labels = [label_ for label_ in _role_labels(variant, roles).values()
                if label_ in present]
      if not labels:
        continue
      figures += stacked_figure(
          frame[frame.algorithm.isin(labels)], metrics,
          folder / "figures" / f"{name}_{schedule}",
          title=f"Raise variant, N = {hands}, {schedule} updates: value to "
          f"player 1 and NashConv from random starts (Schulze, {label})",
          line_order=labels, log_y=(False, True),
          references={"value_player_0": {
              "continuous game value -88/1083": _VALUE}})
  main = [label for variant in _CONVERGENCE_VARIANTS[:2]
          for label in _role_labels(variant, _MAIN_ROLES).values()]
  starts = [label for schedule in SCHEDULES for label in (
      _ROLES[schedule]["CFR"], _HEAVY[schedule], _UNIFORM[schedule])]
  for name, algorithms, title in (
      ("updates", main, "simultaneous (solid) vs alternating (dashed) "
       "updates"),
      ("cfr_start", starts, "CFR's start: light random, heavy random "
       "U(0, 1), uniform; simultaneous (solid) vs alternating (dashed)"),
      ("counting", ("GXFP", "GXFP (integer)"),
       "GXFP: float averaging vs integer counting")):
    labels = [a for a in algorithms if a in present]
    if not labels:
      continue
    figures += line_figure(
        frame[frame.algorithm.isin(labels)], "nash_conv",
        folder / "figures" / name, line_order=labels,
        dashed=[a for a in labels if schedule_of(a) == "alternating" or
                a == "GXFP (integer)"],
        title=f"Raise variant, N = {hands}: {title}")
  tables = write_table(
      _convergence_table(frame), folder / "tables" / "final_values",
      caption=f"After {settings.iterations} iterations, mean over seeds "
      f"(N = {hands}; continuous game value {_VALUE:.5f}); ms per iteration "
      "(run): solver time in the run, workers sharing the machine")
  timing = {label: seconds for label, seconds in _time_main_solvers(
      game).items()}
  atomic_write(folder / "tables" / TIMING_FILE, json.dumps(timing, indent=1))
  tables += write_table(
      pd.DataFrame({"algorithm": list(timing),
                    "schedule": [schedule_of(a) for a in timing],
                    "ms per iteration (alone)": [1000 * s
                                                 for s in timing.values()]}),
      folder / "tables" / "cost_alone",
      caption=f"Cost per iteration on N = {hands}, timed after the run in "
      "one process, one solver at a time (3 interleaved rounds of 200 "
      "iterations, median)")
  return figures, tables


def _ratio_verdict(ratio: float, similar: float, partly: float) -> str:
  return ("holds" if ratio <= similar else "holds partly"
          if ratio <= partly else "does not hold")


def _error_ratio(table: pd.DataFrame, labels: Sequence[str]) -> float:
  error = table.loc[list(labels), "NashConv"]
  return float(error.max() / error.min())


def convergence_claims(frame: pd.DataFrame, settings: Settings,
                       folder: Path) -> list[Claim]:
  table = _convergence_table(frame).set_index("algorithm")
  command = command_for(settings)
  evidence = "gxfp_convergence/tables/final_values.md"
  present = set(table.index)
  run = GXFP_CONVERGENCE.variants_run(settings)
  schedules = [variant for variant in run if variant.is_paper_setting]
  claims = []
  timing, how = (_timing_alone(settings, folder) if any(
      set(_role_labels(v, _MAIN_ROLES).values()) <= present
      for v in schedules) else ({}, ""))
  for variant in schedules:
    roles = _role_labels(variant, _CONVERGENCE_ROLES)
    main = [roles[role] for role in _MAIN_ROLES]
    if not set(main) <= present:
      continue
    if set(main) <= set(timing):
      cost = {label: 1000 * timing[label] for label in main}
      claims.append(Claim(
          _PAPER, "CFR, XFP and GXFP have similar cost per iteration (Fig. 4 "
          "discussion)", "similar",
          f"ms per iteration {how} in one process, one solver at a time "
          "(tables/cost_alone.md): " + ", ".join(
              f"{n} {v:.3g}" for n, v in cost.items()) +
          f"; largest / smallest {max(cost.values()) / min(cost.values()):.2f}"
          " (holds: <= 2)",
          _ratio_verdict(max(cost.values()) / min(cost.values()), 2, 4),
          "gxfp_convergence/tables/cost_alone.md", command, variant.label))
    claims.append(Claim(
        _PAPER, "The error (NashConv) and its decay are similar for CFR, "
        "XFP and GXFP (Fig. 4)", "similar",
        "final NashConv: " + ", ".join(
            f"{n} {table.loc[n, 'NashConv']:.3g}" for n in main) +
        f"; largest / smallest {_error_ratio(table, main):.1f} (holds: <= 3)",
        _ratio_verdict(_error_ratio(table, main), 3, 10), evidence, command,
        variant.label))
    perturbed_labels = [roles[role] for role in _PERTURBED_ROLES]
    plain_labels = [roles["XFP"], roles["GXFP"]]
    if set(perturbed_labels) <= present:
      perturbed = table.loc[perturbed_labels, f"NashConv ({_EPS} game)"]
      plain = table.loc[plain_labels, "NashConv"]
      claims.append(Claim(
          _PAPER, "Convergence in the perturbed game is much faster than in "
          "the unperturbed one (Fig. 5)", "qualitative",
          "final NashConv, perturbed game (perturbed runs): " + ", ".join(
              f"{n} {v:.3g}" for n, v in perturbed.items()) +
          "; unperturbed game (plain runs): " + ", ".join(
              f"{n} {v:.3g}" for n, v in plain.items()),
          "holds" if perturbed.max() < 0.5 * plain.min() else "holds partly"
          if perturbed.min() < plain.max() else "does not hold", evidence,
          command, variant.label))

  def speedups(cfr: dict[str, str]) -> list[tuple[str, str, str]]:
    names = [(role, _ROLES["alternating"][role], _ROLES["simultaneous"][role])
             for role in ("XFP", "GXFP")]
    return [("CFR", cfr["alternating"], cfr["simultaneous"])] + names

  def speedup_text(pairs) -> tuple[str, list[bool]]:
    pairs = [(r, a, s) for r, a, s in pairs if {a, s} <= present]
    faster = [table.loc[a, "NashConv"] < 0.5 * table.loc[s, "NashConv"]
              for _, a, s in pairs]
    return "; ".join(
        f"{role} {table.loc[a, 'NashConv']:.3g} vs "
        f"{table.loc[s, 'NashConv']:.3g} "
        f"({table.loc[s, 'NashConv'] / table.loc[a, 'NashConv']:.1f}x)"
        for role, a, s in pairs), faster

  if len(schedules) == 2:
    text, faster = speedup_text(speedups(
        {s: _ROLES[s]["CFR"] for s in SCHEDULES}))
    if faster:
      claims.append(Claim(
          _PAPER, "All three converge much more quickly with alternating "
          "updates (section 6)", "qualitative",
          "final NashConv alternating vs simultaneous (holds: alternating "
          "below half of simultaneous for all three): " + text,
          verdict_from(faster), evidence, command,
          " vs ".join(variant.label for variant in schedules[::-1])))
  # Each CFR-start ablation: how far it moves CFR and the two claims that
  # involve CFR (similar error, faster with alternating updates).
  for variant, cfr in ((v, _HEAVY if v.name == "heavy CFR start" else
                        _UNIFORM) for v in run
                       if v.name in ("heavy CFR start", "uniform CFR start")):
    moves, ratios, verdicts = [], [], []
    for schedule in SCHEDULES:
      light = _ROLES[schedule]["CFR"]
      others = [_ROLES[schedule]["XFP"], _ROLES[schedule]["GXFP"]]
      if not {light, cfr[schedule], *others} <= present:
        continue
      before = _error_ratio(table, [light, *others])
      after = _error_ratio(table, [cfr[schedule], *others])
      moves.append(f"{schedule}: CFR's final NashConv "
                   f"{table.loc[light, 'NashConv']:.3g} -> "
                   f"{table.loc[cfr[schedule], 'NashConv']:.3g}, Fig. 4's "
                   f"largest / smallest error {before:.1f} -> {after:.1f}")
      ratios.append(after)
      verdicts.append(_ratio_verdict(after, 3, 10))
    if not moves:
      continue
    text, _ = speedup_text(speedups(cfr)[:1])
    claims.append(Claim(
        _PAPER, "The error (NashConv) and its decay are similar for CFR, "
        "XFP and GXFP (Fig. 4), with CFR's start changed", "similar",
        "; ".join(moves) + (f"; CFR alternating vs simultaneous: {text}"
                            if text else ""),
        "holds" if all(v == "holds" for v in verdicts) else "does not hold"
        if all(v == "does not hold" for v in verdicts) else "holds partly",
        evidence, command, variant.label))
  if {"GXFP (integer)", "GXFP"} <= present:
    integer, plain = (table.loc["GXFP (integer)", "NashConv"],
                      table.loc["GXFP", "NashConv"])
    difference = abs(integer - plain)
    claims.append(Claim(
        _PAPER, "GXFP can count best decisions in integers, free of "
        "round-off (section 6); consistency check only: integer and float "
        "GXFP must agree, which does not test the round-off claim",
        "qualitative",
        f"final NashConv integer {integer:.3g} vs float {plain:.3g} "
        f"(difference {difference:.2g})",
        "holds" if difference <= 0.1 * plain else "holds partly", evidence,
        command, next(v.label for v in run if v.name == "integer counting")))
  return claims


_CONVERGENCE_ITERATIONS = (2000, 20_000)
_CONVERGENCE_SEEDS = (3, 4)
GXFP_CONVERGENCE = Experiment(
    name="gxfp_convergence",
    description="GXFP Figs. 4-5: value and NashConv vs iterations for CFR, "
                "XFP, GXFP on the raise variant; perturbed XFP vs GXFP; on "
                "each update schedule; CFR-start ablations; integer vs "
                "float counting; cost per iteration timed alone",
    quick=Scale(iterations=_CONVERGENCE_ITERATIONS[0],
                seeds=_CONVERGENCE_SEEDS[0],
                games=(vnm_game(19, "raise"),),
                algorithms=_CONVERGENCE_ALGORITHMS),
    paper=Scale(iterations=_CONVERGENCE_ITERATIONS[1],
                seeds=_CONVERGENCE_SEEDS[1],
                games=(vnm_game(57, "raise"),),
                algorithms=_CONVERGENCE_ALGORITHMS),
    metrics=_METRICS,
    summarize=summarize_convergence,
    cost="quick: about 30 s; paper: 18 minutes with --workers=1 (2 busy "
         "cores)",
    claims=convergence_claims,
    choices=_choices(
        ("hands N", "lost from our copy of the text", _NO_CODE,
         "ours: N = 57 (3 x 19); quick: 19"),
        _SIZES_CHOICE, _EPS_CHOICE,
        ("iterations and evaluation points", "iterations lost; evaluated "
         "at fixed intervals (the interval lost)", _NO_CODE,
         f"ours: {_CONVERGENCE_ITERATIONS[1]:,} (quick: "
         f"{_CONVERGENCE_ITERATIONS[0]:,}), evaluated at about 8 "
         "log-spaced points per decade"),
        ("runs", "one sample per algorithm drawn, from random initial data",
         _NO_CODE, f"ours: {_CONVERGENCE_SEEDS[1]} seeds (quick: "
         f"{_CONVERGENCE_SEEDS[0]}; the uniform CFR start is deterministic: "
         "one run), mean and 90% band"),
        _SCHEDULE_CHOICE,
        ("CFR's start", "random initial data (section 5)", _NO_CODE,
         "ours: random regrets and policy U(0, 0.02), about one "
         "iteration's regret at N = 57 (half one at N = 19), as "
         "fictitious play's random start weighs one iteration",
         "heavy CFR start: U(0, 1), worth ~N iterations of regret; uniform "
         "CFR start: the uniform strategy"),
        _FP_START_CHOICE,
        ("GXFP averaging", "float, or integer counts free of round-off "
         "(section 6)", _NO_CODE, "float running average",
         "integer counting (a consistency check: the two must agree)"),
        ("XFP renormalisation (eq. 18)", "used", _NO_CODE,
         "ours: off (not run here)"),
        _TIE_CHOICE,
        ("what is evaluated", "the value of the current strategy pair and "
         "total exploitability (NashConv)", _NO_CODE, "the average strategy "
         "of all three (fictitious play's current strategy is its "
         "average); NashConv of the eps-perturbed game for Fig. 5"),
        ("cost per iteration", "similar for all three (section 5)",
         _NO_CODE, "timed after the run in one process, one solver at a "
         "time on the experiment's game (not from the run's workers)")),
    variants=_CONVERGENCE_VARIANTS)
