"""The GXFP paper's experiments on von Neumann-Morgenstern poker.

Tim P. Schulze, "A Generalized Extensive-Form Fictitious Play Algorithm",
2023, arXiv:2310.09658.

- ``gxfp_vnm_asymmetric``: Figure 1. vN&M's asymmetric game with N hands:
  player 1's bet and player 2's call probability vs hand strength for GXFP
  unperturbed and perturbed (every action >= eps), the continuous
  solution's thresholds as vertical lines; bottom row, the action-value
  differences (bet - check, call - fold). Several N show the thresholds
  approaching the continuum.
- ``gxfp_vnm_raise``: Figures 2-3. The raise variant: player 1's five
  sequences, player 2 after a check, player 2 facing a bet; unperturbed GXFP
  (Fig. 2), perturbed XFP vs GXFP with the continuous thresholds (Fig. 3;
  player 1's movable check-raise boundaries dotted).
- ``gxfp_convergence``: Figures 4-5. The value of the strategy pair to
  player 1 and NashConv vs iterations for CFR, XFP and GXFP from random
  initial strategies, the continuous game value -88/1083 as reference
  (Fig. 4); perturbed XFP vs GXFP with the perturbed game's NashConv
  (Fig. 5); and the paper's side remarks as panels of their own:
  alternating vs simultaneous updates, integer vs float averaging.

The paper's N, eps and iteration counts did not survive in the text we
have; we use eps = 0.01 and state N and iterations per scale. Thresholds
are compared as sequence masses (the share of hands playing a sequence,
which is the same for every member of the continuum of equilibria) after
reading perturbed strategies as the choice they stand for
(:func:`spiel_ext.policy.remove_perturbation`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pyspiel

from spiel_ext.experiments.metrics import perturbed_metric_name
from spiel_ext.experiments.solvers import GXFP_EPSILON
from spiel_ext.experiments.spec import (Experiment, Scale, Settings,
                                        command_for, load_snapshots)
from spiel_ext.games import vnm_solution as continuum
from spiel_ext.results.figures import (CurvePanel, curves_figure, line_figure,
                                       stacked_figure)
from spiel_ext.results.report import Claim
from spiel_ext.results.tables import write_table

_PAPER = "GXFP (Schulze 2023)"
GXFP_EPS = f"GXFP (eps={GXFP_EPSILON:g})"
XFP_EPS = f"XFP (eps={GXFP_EPSILON:g})"
PERTURBED_NASH_CONV = perturbed_metric_name(GXFP_EPSILON)
_METRICS = ("nash_conv", PERTURBED_NASH_CONV, "value_player_0")
_MIXED = (0.05, 0.95)  # A hand mixes when its largest probability is below.


def vnm_game(hands: int, variant: str) -> str:
  return f"spiel_ext_vnm_poker(hands={hands},variant={variant})"


def hands_of(game: str) -> int:
  return int(pyspiel.load_game(game).get_parameters()["hands"])


def _eps_of(algorithm: str) -> float:
  return GXFP_EPSILON if "eps=" in algorithm else 0.0


def _sequences(game: str, strategy: np.ndarray, algorithm: str,
               readable: bool) -> dict[str, dict[str, np.ndarray]]:
  """Sequence probabilities by hand; ``readable`` removes the perturbation."""
  from spiel_ext.eval import vnm  # pylint: disable=g-import-not-at-top
  return vnm.sequence_probabilities(
      game, strategy, _eps_of(algorithm) if readable else 0.0)


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
                     line_order=order,
                     title="NashConv of the average strategy")


# ----------------------------------------------------------- Figure 1
_ASYMMETRIC_ORDER = ("GXFP", GXFP_EPS)
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
      record = {"N": hands_of(game), "algorithm": algorithm,
                "seeds": len(strategies)}
      for key, value in exact.items():
        record[key] = measured[key]
        record[f"|{key} error|"] = abs(measured[key] - value)
      record["max error"] = max(record[f"|{k} error|"] for k in exact)
      record["P2 hands mixing"] = measured["p2_mixed_share"]
      records.append(record)
  return pd.DataFrame(records)


def _asymmetric_figure(game: str, snapshots: dict[str, list[np.ndarray]],
                       folder: Path) -> list[Path]:
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
  for algorithm in _ASYMMETRIC_ORDER:
    if algorithm not in snapshots:
      continue
    strategy = snapshots[algorithm][0]
    probabilities = _sequences(game, strategy, algorithm, False)
    differences = vnm.action_value_differences(game, strategy)
    style = _STYLES[algorithm]
    top[0].curves[algorithm] = (strengths, probabilities["P1"]["bet"], style)
    top[1].curves[algorithm] = (strengths, probabilities["P2"]["call"], style)
    bottom[0].curves[algorithm] = (strengths, differences["P1"], style)
    bottom[1].curves[algorithm] = (strengths, differences["P2"], style)
  for panels, player in ((top, "P1"), (bottom, "P1")):
    panels[0].vlines = [(x, "continuous thresholds" if i == 0 else "", {})
                        for i, x in enumerate(lines[player])]
  for panels in (top, bottom):
    panels[1].vlines = [(lines["P2"][0], "continuous threshold", {})]
  return curves_figure(
      [top, bottom], folder / "figures" / f"fig1_strategies_N{hands}",
      title=f"Asymmetric vN&M poker, N = {hands}: GXFP unperturbed and "
      f"perturbed (eps = {GXFP_EPSILON:g}), first seed (Schulze, Fig. 1)")


def summarize_asymmetric(frame: pd.DataFrame, settings: Settings,
                         folder: Path) -> tuple[list[Path], list[Path]]:
  figures = []
  for game in settings.games:
    figures += _asymmetric_figure(
        game, load_snapshots(settings, folder, "final", game), folder)
  figures += _convergence_figures(frame, folder, _ASYMMETRIC_ORDER)
  tables = write_table(
      _threshold_table(settings, folder), folder / "tables" / "thresholds",
      caption="Measured thresholds vs the continuous solution (a = 1/9, "
      "b = 7/9, c = 5/9), mean over seeds; P2 hands mixing: share of player "
      "2's hands at least 2/N from c whose call probability is in "
      "(0.05, 0.95)")
  return figures, tables


def asymmetric_claims(frame: pd.DataFrame, settings: Settings,
                      folder: Path) -> list[Claim]:
  del frame
  table = _threshold_table(settings, folder)
  command = command_for(settings)
  evidence = "gxfp_vnm_asymmetric/tables/thresholds.md"
  largest = table.N.max()
  at_largest = table[table.N == largest].set_index("algorithm")
  claims = []
  if {"GXFP", GXFP_EPS} <= set(at_largest.index):
    plain = at_largest.loc["GXFP", "P2 hands mixing"]
    perturbed = at_largest.loc[GXFP_EPS, "P2 hands mixing"]
    claims.append(Claim(
        _PAPER, "Perturbed GXFP removes player 2's weakly dominated mixing; "
        "unperturbed it drifts among mixed equilibria (Fig. 1)",
        "qualitative (Fig. 1)",
        f"N = {largest}: player 2 mixes on {plain:.0%} of its hands away from "
        f"the threshold unperturbed, {perturbed:.0%} perturbed",
        "holds" if perturbed <= 0.02 and plain > perturbed else
        "holds partly" if plain > perturbed else "does not hold",
        evidence, command))
  # The unique parts of the equilibrium: player 1's thresholds (unperturbed
  # run) and player 2's weakly dominant threshold (perturbed run; the
  # perturbation itself moves player 1's thresholds by O(eps)).
  plain = table[table.algorithm == "GXFP"].set_index("N")
  perturbed = table[table.algorithm == GXFP_EPS].set_index("N")
  sizes = sorted(set(plain.index) & set(perturbed.index))
  if sizes:
    errors = [max(plain.loc[n, "|a error|"], plain.loc[n, "|b error|"],
                  perturbed.loc[n, "|c error|"]) for n in sizes]
    text = ", ".join(f"N = {n}: {e:.4f} (1/N = {1 / n:.4f})"
                     for n, e in zip(sizes, errors))
    shrinking = bool(np.all(np.diff(errors) <= 1e-9))
    shift = max(perturbed.loc[n, "|b error|"] for n in sizes)
    claims.append(Claim(
        _PAPER, "The discrete solution approaches the continuous thresholds "
        "(a = 1/9, b = 7/9, c = 5/9) as N grows (Fig. 1)", "qualitative",
        f"largest error of a, b (GXFP) and c (perturbed GXFP): {text}; the "
        f"perturbation itself moves player 1's b by up to {shift:.4f}",
        "holds" if errors[-1] <= 1.0 / sizes[-1] and shrinking else
        "holds partly" if errors[-1] <= 2.0 / sizes[-1] else
        "does not hold", evidence, command))
  return claims


GXFP_VNM_ASYMMETRIC = Experiment(
    name="gxfp_vnm_asymmetric",
    description="GXFP Fig. 1: asymmetric vN&M poker, strategies and action "
                "values vs hand, perturbed and not, continuous thresholds",
    quick=Scale(iterations=10_000, seeds=2,
                games=tuple(vnm_game(n, "asymmetric") for n in (18, 45, 90)),
                algorithms=_ASYMMETRIC_ORDER),
    paper=Scale(iterations=50_000, seeds=3,
                games=tuple(vnm_game(n, "asymmetric")
                            for n in (45, 90, 180)),
                algorithms=_ASYMMETRIC_ORDER),
    metrics=_METRICS,
    summarize=summarize_asymmetric,
    cost="quick: about 1 minute; paper: 11 minutes with --workers=2",
    claims=asymmetric_claims)


# -------------------------------------------------------- Figures 2-3
_RAISE_ORDER = ("GXFP", GXFP_EPS, XFP_EPS)
_SEQUENCE_COLORS = {
    "check-fold": "tab:purple", "check-call": "tab:green",
    "check-raise": "tab:cyan", "bet-fold": "goldenrod",
    "bet-call": "tab:blue", "check": "tab:green", "fold": "goldenrod",
    "call": "tab:red", "raise": "tab:blue"}
_PANEL_TITLES = {"P1": "Player 1's sequences",
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


def _raise_panels(game: str, runs: dict[str, tuple[np.ndarray, dict]]
                  ) -> list[list[CurvePanel]]:
  """Colour = sequence, line style = algorithm (first run labelled by
  sequence, the styles explained by legend-only entries)."""
  strengths = continuum.hand_strengths(hands_of(game))
  rows = []
  for panel in continuum.RAISE_SEQUENCES:
    curves = {}
    for number, (algorithm, (strategy, style)) in enumerate(runs.items()):
      probabilities = _sequences(game, strategy, algorithm, False)[panel]
      for sequence, values in probabilities.items():
        label = sequence if number == 0 else f"_{sequence}, {algorithm}"
        curves[label] = (strengths, values, {
            "color": _SEQUENCE_COLORS[sequence], **style})
    if len(runs) > 1:
      for algorithm, (_, style) in runs.items():
        curves[algorithm] = ([], [], {"color": "black", **style})
    rows.append([CurvePanel(_PANEL_TITLES[panel], "hand strength",
                            "probability", curves, _raise_vlines(panel))])
  return rows


def raise_errors(game: str, strategy: np.ndarray,
                 algorithm: str) -> dict[str, float]:
  """Per panel: the largest |sequence mass - continuous mass|, and for
  player 2 (unique in the continuum) the share of hands at least 2/N from
  a threshold that play the continuous solution's sequence with
  probability >= 0.9; the share of hands that mix (largest sequence
  probability below 0.95) over all panels."""
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
      records.append({"N": hands_of(game), "algorithm": algorithm,
                      "seeds": len(strategies), **measured.to_dict()})
  return pd.DataFrame(records)


def _perturbed_gap(settings: Settings, folder: Path, game: str) -> float:
  """Mean |XFP(eps) - GXFP(eps)| sequence probability over hands, panels
  and seeds."""
  snapshots = load_snapshots(settings, folder, "final", game)
  if XFP_EPS not in snapshots or GXFP_EPS not in snapshots:
    return float("nan")
  gaps = []
  for xfp, gxfp in zip(snapshots[XFP_EPS], snapshots[GXFP_EPS]):
    first = _sequences(game, xfp, XFP_EPS, False)
    second = _sequences(game, gxfp, GXFP_EPS, False)
    gaps += [np.abs(first[p][s] - second[p][s]).mean()
             for p in first for s in first[p]]
  return float(np.mean(gaps))


def summarize_raise(frame: pd.DataFrame, settings: Settings,
                    folder: Path) -> tuple[list[Path], list[Path]]:
  figures = []
  for game in settings.games:
    hands = hands_of(game)
    snapshots = load_snapshots(settings, folder, "final", game)
    if "GXFP" in snapshots:
      figures += curves_figure(
          _raise_panels(game, {"GXFP": (snapshots["GXFP"][0], {})}),
          folder / "figures" / f"fig2_gxfp_N{hands}", legend_outside=True,
          title=f"Raise variant, N = {hands}: unperturbed GXFP, first seed\n"
          "(Schulze, Fig. 2)")
    runs = {name: (snapshots[name][0], style) for name, style in (
        (XFP_EPS, {}), (GXFP_EPS, {"linestyle": "--"}),
        ("GXFP", {"alpha": 0.35, "linewidth": 0.8})) if name in snapshots}
    if runs:
      figures += curves_figure(
          _raise_panels(game, runs),
          folder / "figures" / f"fig3_perturbed_N{hands}", legend_outside=True,
          title=f"Raise variant, N = {hands}: perturbed XFP and GXFP (eps = "
          f"{GXFP_EPSILON:g}),\nunperturbed GXFP faint; first seed (Schulze, "
          "Fig. 3)")
  figures += _convergence_figures(frame, folder, _RAISE_ORDER)
  tables = write_table(
      _raise_table(settings, folder), folder / "tables" / "thresholds",
      caption="Fit to the continuous solution, mean over seeds: per panel "
      "the largest sequence-mass error and (player 2) the share of hands "
      "2/N or more from a threshold played as the continuum; hands mixing: "
      "share of (hand, panel) with no sequence >= 0.95")
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
  if {"GXFP", GXFP_EPS} <= set(rows.index):
    plain, perturbed = (rows.loc["GXFP", "hands mixing"],
                        rows.loc[GXFP_EPS, "hands mixing"])
    claims.append(Claim(
        _PAPER, "Unperturbed GXFP mixes for most hands; the perturbation "
        "removes the weakly dominated mixing (Figs. 2-3)", "qualitative",
        f"N = {hands}: (hand, panel) pairs mixing: unperturbed "
        f"{plain:.0%}, perturbed {perturbed:.0%}",
        "holds" if plain >= 0.5 and perturbed < plain / 2 else
        "holds partly" if perturbed < plain else "does not hold",
        evidence, command))
  gap = _perturbed_gap(settings, folder, game)
  if np.isfinite(gap):
    claims.append(Claim(
        _PAPER, "Perturbed XFP and GXFP give nearly identical strategies "
        "(Fig. 3)", "qualitative",
        f"N = {hands}: mean |XFP - GXFP| sequence probability {gap:.3f}",
        "holds" if gap <= 0.05 else "holds partly" if gap <= 0.15 else
        "does not hold", evidence, command))
  perturbed = [name for name in (GXFP_EPS, XFP_EPS) if name in rows.index]
  if perturbed:
    fits = {name: (min(rows.loc[name, "P2 after check: hands as continuum"],
                       rows.loc[name, "P2 facing bet: hands as continuum"]),
                   max(rows.loc[name, f"{p}: mass error"]
                       for p in continuum.RAISE_SEQUENCES))
            for name in perturbed}
    text = "; ".join(f"{name}: player 2 plays the continuum on {share:.0%} "
                     f"of hands away from thresholds, largest mass error "
                     f"{error:.3f} (2/N = {2 / hands:.3f})"
                     for name, (share, error) in fits.items())
    good = [share >= 0.95 and error <= 2.0 / hands
            for share, error in fits.values()]
    claims.append(Claim(
        _PAPER, "The perturbed solutions fit the continuous thresholds "
        "(Fig. 3)", "qualitative", f"N = {hands}: {text}",
        "holds" if all(good) else "holds partly" if any(
            share >= 0.8 for share, _ in fits.values()) else "does not hold",
        evidence, command))
  return claims


GXFP_VNM_RAISE = Experiment(
    name="gxfp_vnm_raise",
    description="GXFP Figs. 2-3: raise-variant strategies vs hand, "
                "unperturbed GXFP, perturbed XFP vs GXFP, continuous "
                "thresholds",
    quick=Scale(iterations=5000, seeds=2, games=(vnm_game(38, "raise"),),
                algorithms=_RAISE_ORDER),
    paper=Scale(iterations=50_000, seeds=3, games=(vnm_game(114, "raise"),),
                algorithms=_RAISE_ORDER),
    metrics=_METRICS,
    summarize=summarize_raise,
    cost="quick: about 20 s; paper: 25 minutes with --workers=2",
    claims=raise_claims)


# -------------------------------------------------------- Figures 4-5
_MAIN = ("CFR", "XFP", "GXFP")
_PERTURBED = (XFP_EPS, GXFP_EPS)
_UPDATES = ("CFR", "CFR (simultaneous)", "XFP (alternating)", "XFP",
            "GXFP (alternating)", "GXFP")
_COUNTING = ("GXFP", "GXFP (integer)")
_CONVERGENCE_ALGORITHMS = tuple(dict.fromkeys(
    _MAIN + _PERTURBED + _UPDATES + _COUNTING))
_VALUE = float(continuum.RAISE_VALUE)


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
      f"NashConv (eps={GXFP_EPSILON:g} game)": means[PERTURBED_NASH_CONV],
      "value to player 1": means["value_player_0"],
      "ms per iteration": 1000 * _per_iteration_seconds(frame)})
  # The perturbed game's NashConv means something for its strategies only
  # (a strategy outside it can beat the restricted best responses).
  table.loc[[name for name in table.index if not _eps_of(name)],
            f"NashConv (eps={GXFP_EPSILON:g} game)"] = np.nan
  order = [name for name in _CONVERGENCE_ALGORITHMS if name in table.index]
  return table.reindex(order).reset_index(names="algorithm")


def summarize_convergence(frame: pd.DataFrame, settings: Settings,
                          folder: Path) -> tuple[list[Path], list[Path]]:
  hands = hands_of(settings.games[0])
  figures = []
  for name, algorithms, metrics, label in (
      ("fig4_cfr_xfp_gxfp", _MAIN, ("value_player_0", "nash_conv"),
       "Fig. 4"),
      ("fig5_perturbed", _PERTURBED, ("value_player_0", PERTURBED_NASH_CONV),
       f"Fig. 5, eps = {GXFP_EPSILON:g}")):
    subset = frame[frame.algorithm.isin(algorithms)]
    if subset.empty:
      continue
    figures += stacked_figure(
        subset, metrics, folder / "figures" / name,
        title=f"Raise variant, N = {hands}: value to player 1 and "
        f"NashConv from random starts (Schulze, {label})",
        line_order=[a for a in algorithms if a in set(subset.algorithm)],
        log_y=(False, True),
        references={"value_player_0": {
            "continuous game value -88/1083": _VALUE}})
  for name, algorithms, dashed, title in (
      ("updates", _UPDATES, ("CFR (simultaneous)", "XFP", "GXFP"),
       "alternating (solid) vs simultaneous (dashed) updates"),
      ("counting", _COUNTING, ("GXFP (integer)",),
       "GXFP: float averaging vs integer counting (dashed)")):
    subset = frame[frame.algorithm.isin(algorithms)]
    if subset.empty:
      continue
    figures += line_figure(
        subset, "nash_conv", folder / "figures" / name,
        line_order=[a for a in algorithms if a in set(subset.algorithm)],
        dashed=dashed, title=f"Raise variant, N = {hands}: {title}")
  tables = write_table(
      _convergence_table(frame), folder / "tables" / "final_values",
      caption=f"After {settings.iterations} iterations, mean over seeds "
      f"(N = {hands}; continuous game value {_VALUE:.5f})")
  return figures, tables


def convergence_claims(frame: pd.DataFrame, settings: Settings,
                       folder: Path) -> list[Claim]:
  del folder
  table = _convergence_table(frame).set_index("algorithm")
  command = command_for(settings)
  evidence = "gxfp_convergence/tables/final_values.md"
  claims = []
  if set(_MAIN) <= set(table.index):
    cost = table.loc[list(_MAIN), "ms per iteration"]
    error = table.loc[list(_MAIN), "NashConv"]
    cost_ratio = cost.max() / cost.min()
    error_ratio = error.max() / error.min()
    claims.append(Claim(
        _PAPER, "CFR, XFP and GXFP have similar cost per iteration (Fig. 4 "
        "discussion)", "similar",
        "solver ms per iteration in these runs (parallel workers share the "
        "machine; benchmarks/bench_fp.py times them alone): " + ", ".join(
            f"{n} {v:.3g}" for n, v in cost.items()),
        "holds" if cost_ratio <= 2 else "holds partly" if cost_ratio <= 4
        else "does not hold", evidence, command))
    claims.append(Claim(
        _PAPER, "The error (NashConv) and its decay are similar for CFR, "
        "XFP and GXFP (Fig. 4)", "similar",
        "final NashConv: " + ", ".join(f"{n} {v:.3g}"
                                       for n, v in error.items()),
        "holds" if error_ratio <= 3 else "holds partly" if error_ratio <= 10
        else "does not hold", evidence, command))
  pairs = [(a, b) for a, b in (("CFR", "CFR (simultaneous)"),
                               ("XFP (alternating)", "XFP"),
                               ("GXFP (alternating)", "GXFP"))
           if a in table.index and b in table.index]
  if pairs:
    faster = [table.loc[a, "NashConv"] < 0.5 * table.loc[b, "NashConv"]
              for a, b in pairs]
    claims.append(Claim(
        _PAPER, "All three converge much more quickly with alternating "
        "updates (section 6)", "qualitative",
        "final NashConv alternating vs simultaneous (holds: alternating below "
        "half of simultaneous for all three): " + "; ".join(
            f"{a} {table.loc[a, 'NashConv']:.3g} vs "
            f"{table.loc[b, 'NashConv']:.3g}" for a, b in pairs),
        "holds" if all(faster) else "holds partly" if any(faster)
        else "does not hold", evidence, command))
  if set(_PERTURBED) | {"XFP", "GXFP"} <= set(table.index):
    perturbed = table.loc[list(_PERTURBED),
                          f"NashConv (eps={GXFP_EPSILON:g} game)"]
    plain = table.loc[["XFP", "GXFP"], "NashConv"]
    claims.append(Claim(
        _PAPER, "Convergence in the perturbed game is much faster than in "
        "the unperturbed one (Fig. 5)", "qualitative",
        "final NashConv, perturbed game (perturbed runs): " + ", ".join(
            f"{n} {v:.3g}" for n, v in perturbed.items()) +
        "; unperturbed game (plain runs): " + ", ".join(
            f"{n} {v:.3g}" for n, v in plain.items()),
        "holds" if perturbed.max() < 0.5 * plain.min() else "holds partly"
        if perturbed.min() < plain.max() else "does not hold", evidence,
        command))
  if set(_COUNTING) <= set(table.index):
    difference = abs(table.loc["GXFP (integer)", "NashConv"] -
                     table.loc["GXFP", "NashConv"])
    claims.append(Claim(
        _PAPER, "GXFP can count best decisions in integers, free of "
        "round-off (section 6)", "qualitative",
        f"final NashConv integer {table.loc['GXFP (integer)', 'NashConv']:.3g}"
        f" vs float {table.loc['GXFP', 'NashConv']:.3g} (difference "
        f"{difference:.2g})",
        "holds" if difference <= 0.1 * table.loc["GXFP", "NashConv"]
        else "holds partly", evidence, command))
  return claims


GXFP_CONVERGENCE = Experiment(
    name="gxfp_convergence",
    description="GXFP Figs. 4-5: value and NashConv vs iterations for CFR, "
                "XFP, GXFP on the raise variant; perturbed XFP vs GXFP; "
                "alternating vs simultaneous; integer vs float",
    quick=Scale(iterations=2000, seeds=3, games=(vnm_game(19, "raise"),),
                algorithms=_CONVERGENCE_ALGORITHMS),
    paper=Scale(iterations=20_000, seeds=5, games=(vnm_game(57, "raise"),),
                algorithms=_CONVERGENCE_ALGORITHMS),
    metrics=_METRICS,
    summarize=summarize_convergence,
    cost="quick: about 20 s; paper: 14 minutes with --workers=2",
    claims=convergence_claims)
