"""The GXFP paper's experiments: settings, schedules, CFR's start, the cost
claim and player 1's panel (Schulze, "A Generalized Extensive-Form
Fictitious Play Algorithm", 2023).

References: OpenSpiel's own CFR (one iteration's regrets), the solvers'
recorded hyperparameters, and strategies worked by hand.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pyspiel
import pytest
from open_spiel.python.algorithms import cfr as openspiel_cfr

import spiel_ext  # pylint: disable=unused-import
from spiel_ext.analysis.claims import RunResults
from spiel_ext.experiments.gxfp.measures_asymmetric import drift_verdict
from spiel_ext.experiments.gxfp.measures_convergence import TIMING_FILE
from spiel_ext.engine import compile_game
from spiel_ext.eval import vnm
from spiel_ext.experiments import gxfp
from spiel_ext.experiments.gxfp.paper_values import vnm_game
from spiel_ext.experiments.solvers import ALGORITHMS
from spiel_ext.experiments.spec import (command_for, settings_for,
                                        stored_settings)
from spiel_ext.results.claims import judge
from test_runner import _run

EXPERIMENTS = (gxfp.GXFP_VNM_ASYMMETRIC, gxfp.GXFP_VNM_RAISE,
               gxfp.GXFP_CONVERGENCE)


def _hyperparameters(label: str) -> dict:
  """What the label's solver records of itself (its constructor's values,
  defaults included)."""
  entry = ALGORITHMS[label]
  solver = entry.factory("kuhn_poker", seed=0, **dict(entry.hyperparameters))
  return solver.hyperparameters


@pytest.mark.parametrize("experiment", EXPERIMENTS, ids=lambda e: e.name)
def test_each_figure_runs_all_its_algorithms_on_one_schedule(experiment):
  """Both readings of the paper's silent schedule run, each variant on one
  schedule throughout, and the paper scale runs nothing outside a
  variant."""
  names = [variant.name for variant in experiment.variants]
  assert names[:2] == ["paper setting (simultaneous)",
                       "paper setting (alternating)"]
  for variant in experiment.variants[:2]:
    alternating = variant.name.endswith("(alternating)")
    for label in variant.algorithms:
      assert _hyperparameters(label)["alternating_updates"] == alternating, (
          variant.name, label)
  covered = {label for variant in experiment.variants
             for label in variant.algorithms}
  assert covered == set(experiment.paper.algorithms)
  assert set(experiment.quick.algorithms) == set(experiment.paper.algorithms)


@pytest.mark.parametrize("experiment", EXPERIMENTS, ids=lambda e: e.name)
def test_the_settings_table_marks_lost_numbers_as_ours(experiment):
  choices = {choice.name: choice for choice in experiment.choices}
  for name in ("hands N", "perturbation eps", "update schedule"):
    assert name in choices, name
  for choice in experiment.choices:
    assert choice.authors_code == "no public code"
    if "lost" in choice.paper_text:
      assert choice.paper_setting.startswith("ours"), choice.name
  for scale in (experiment.quick, experiment.paper):
    assert (f"{scale.iterations:,}" in
            " ".join(c.paper_setting for c in experiment.choices))


@pytest.mark.slow
def test_cfr_light_start_is_worth_about_one_iteration_of_openspiels_regret():
  """OpenSpiel's CFR, one iteration from the uniform strategy on the paper
  scale's N = 57 raise game: the mean over infosets of the largest |regret|
  is within a factor 3 of the light start's; the heavy U(0, 1) start is
  worth more than 20 iterations."""
  hands = 57
  game = pyspiel.load_game(vnm_game(hands, "raise"))
  solver = openspiel_cfr.CFRSolver(game)
  solver.evaluate_and_update_policy()
  one_iteration = np.mean([
      np.max(np.abs(list(node.cumulative_regret.values())))
      for node in solver._info_state_nodes.values()])  # pylint: disable=protected-access

  def start(label: str) -> float:
    entry = ALGORITHMS[label]
    ours = entry.factory(game, seed=3, **dict(entry.hyperparameters))
    return float(np.abs(ours.cumulative_regret).max(axis=1).mean())

  for label in ("CFR (light start)", "CFR (simultaneous, light start)"):
    assert 1 / 3 < start(label) / one_iteration < 3, label
  for label in ("CFR", "CFR (simultaneous)"):
    assert start(label) / one_iteration > 20, label
  assert _hyperparameters("CFR (simultaneous, uniform)")["random_init"] is (
      False)


def test_player_1s_panel_conditional_on_the_first_action():
  """Each hand's check-fold, check-call, check-raise add to one, and so do
  bet-fold, bet-call; they are the behaviour after check-bet and after
  bet-raise, whatever the first action's probability (a hand that never
  bets included). The unconditional sequences are these times P(first)."""
  game = "spiel_ext_vnm_poker(hands=3)"
  tree = compile_game(game)
  strategy = np.where(tree.infoset_legal, np.random.default_rng(7).random(
      tree.infoset_legal.shape), 0.0)
  strategy /= strategy.sum(axis=1, keepdims=True)
  strategy[tree.key_to_infoset["P1 hand 1/3: "]] = [0.0, 1.0, 0.0]
  conditional = vnm.sequence_probabilities(game, strategy,
                                           conditional=True)["P1"]
  plain = vnm.sequence_probabilities(game, strategy)["P1"]
  checks = ("check-fold", "check-call", "check-raise")
  bets = ("bet-fold", "bet-call")
  for group in (checks, bets):
    np.testing.assert_allclose(sum(conditional[s] for s in group),
                               np.ones(3), atol=1e-12)
  for hand in range(1, 4):
    first = strategy[tree.key_to_infoset[f"P1 hand {hand}/3: "]]
    after_check = strategy[tree.key_to_infoset[f"P1 hand {hand}/3: kb"]]
    after_raise = strategy[tree.key_to_infoset[f"P1 hand {hand}/3: br"]]
    assert [conditional[s][hand - 1] for s in checks] == pytest.approx(
        list(after_check))
    assert [conditional[s][hand - 1] for s in bets] == pytest.approx(
        list(after_raise[:2]))
    for group, share in ((checks, first[1]), (bets, first[2])):
      for sequence in group:
        assert plain[sequence][hand - 1] == pytest.approx(
            share * conditional[sequence][hand - 1])
  assert plain["bet-call"][0] == 0.0 and conditional["bet-call"][0] > 0


def test_time_alone_times_each_label_in_this_process():
  labels = ["CFR (light start)", "GXFP"]
  seconds = gxfp.time_alone("spiel_ext_vnm_poker(hands=4)", labels,
                            iterations=30)
  assert list(seconds) == labels
  assert all(0 < value < 0.1 for value in seconds.values())


@pytest.fixture(scope="module")
def convergence_run(tmp_path_factory):
  """A tiny gxfp_convergence run (every label, 20 iterations, 1 seed)."""
  folder = tmp_path_factory.mktemp("gxfp_settings")
  _run("--experiment=gxfp_convergence", f"--output_dir={folder}",
       "--iterations=20", "--seeds=1",
       "--games=spiel_ext_vnm_poker(hands=4,variant=raise)")
  return folder / "gxfp_convergence"


@pytest.mark.slow
def test_cost_claim_reads_the_timing_taken_alone(convergence_run):
  """The cost verdict follows the after-run timing file, not the run's
  worker times: a file saying XFP is 5x CFR turns it to "does not hold"."""
  settings = stored_settings(convergence_run)
  frame = pd.read_parquet(convergence_run / "results.parquet")
  timing_file = convergence_run / "tables" / TIMING_FILE
  stored = json.loads(timing_file.read_text())
  assert set(stored) == {label for s in gxfp.SCHEDULES for role, label in
                         gxfp.schedule_roles(s).items()
                         if role in ("CFR", "XFP", "GXFP")}
  fake = {label: 1e-3 for label in stored}
  fake["XFP"] = 5e-3
  timing_file.write_text(json.dumps(fake))
  try:
    claims = judge(gxfp.GXFP_CONVERGENCE.claims,
                   RunResults(frame, settings, convergence_run),
                   "gxfp_convergence", command_for(settings))
  finally:
    timing_file.write_text(json.dumps(stored))
  cost = {claim.setting: claim for claim in claims
          if "cost per iteration" in claim.claim}
  # The cost claim reads XFP, so its setting names what our XFP runs.
  simultaneous, alternating = (
      f"paper setting ({schedule}), XFP without eq. 18's renormalisation"
      for schedule in ("simultaneous", "alternating"))
  assert set(cost) == {simultaneous, alternating}
  assert cost[simultaneous].verdict == "does not hold"
  assert "XFP 5" in cost[simultaneous].ours
  assert cost[alternating].verdict == "holds"
  assert "timed after the run" in cost[alternating].ours


@pytest.mark.slow
def test_every_convergence_claim_names_its_setting(convergence_run):
  """Each paper-setting claim on each schedule; each ablation its own row,
  saying how far it moves the result; integer counting as a consistency
  check."""
  settings = stored_settings(convergence_run)
  frame = pd.read_parquet(convergence_run / "results.parquet")
  claims = judge(gxfp.GXFP_CONVERGENCE.claims,
                 RunResults(frame, settings, convergence_run),
                 "gxfp_convergence", command_for(settings))
  labels = {variant.label for variant in gxfp.GXFP_CONVERGENCE.variants}
  # A setting may name what the run puts in place of the paper's XFP.
  substitution = ", XFP without eq. 18's renormalisation"
  for claim in claims:
    assert (claim.setting.replace(substitution, "") in labels or
            " vs " in claim.setting), claim
  by_setting = {}
  for claim in claims:
    by_setting.setdefault(claim.setting.replace(substitution, ""),
                          []).append(claim)
  for variant in gxfp.GXFP_CONVERGENCE.variants:
    assert variant.label in by_setting, variant.label
  for name in ("ablation: heavy CFR start", "ablation: uniform CFR start"):
    (claim,) = by_setting[name]
    assert "->" in claim.ours
  (integer,) = by_setting["ablation: integer counting"]
  assert "consistency check" in integer.claim


def test_quick_scale_settings_fit_the_runner():
  for experiment in EXPERIMENTS:
    for scale in ("quick", "paper"):
      settings = settings_for(experiment, scale)
      assert [v.name for v in experiment.variants_run(settings)] == [
          v.name for v in experiment.variants]


@pytest.mark.parametrize("plain,perturbed,verdict", [
    (0.52, 0.0, "holds"), (0.46, 0.02, "holds"), (0.4, 0.1, "holds partly"),
    (0.01, 0.0, "does not hold"), (0.0, 0.0, "does not hold"),
    (0.1, 0.0, "holds partly")])
def test_fig1_mixing_verdict_needs_unperturbed_mixing(plain, perturbed,
                                                      verdict):
  """Player 2 mixing on 1% of hands unperturbed is no drift among mixed
  equilibria, whatever the perturbed run does."""
  assert drift_verdict((plain, perturbed)) == verdict
