"""The GXFP paper's experiments: closed forms, vN&M readouts, the runs.

References: OpenSpiel's own NashConv and expected-value evaluators, the
closed-form continuous solutions (restated in the package from von Neumann
and Morgenstern and Schulze 2023), and small cases worked by hand.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyspiel
import pytest
from open_spiel.python.algorithms import exploitability as openspiel_exploit
from open_spiel.python.algorithms import expected_game_score

import spiel_ext  # pylint: disable=unused-import
from spiel_ext import eval as se
from spiel_ext.algorithms import GXFPSolver
from spiel_ext.engine import compile_game
from spiel_ext.eval import vnm
from spiel_ext.experiments.metrics import metric_function
from spiel_ext.games import vnm_solution as continuum
from spiel_ext.policy import mix_in, remove_perturbation, to_tabular_policy
from spiel_ext.results.report import badges_in, report_text
from spiel_ext.results.store import load_results
from test_runner import _run

EPS = 0.01


def _asymmetric(hands: int, bet: float = 2.0) -> str:
  return f"spiel_ext_vnm_poker(hands={hands},variant=asymmetric,bet={bet})"


# ------------------------------------------------------------ closed forms
@pytest.mark.parametrize("bet,hands", [(2.0, 18), (3.0, 28)])
def test_asymmetric_closed_form_is_an_equilibrium_when_thresholds_fall_between_hands(
    bet, hands):
  """B = 2: a, b, c = 1/9, 7/9, 5/9; B = 3: 3/28, 23/28, 18/28. With N a
  multiple of the denominators the thresholds fall between hands, and the
  continuous strategy is an exact equilibrium of the discrete game
  (OpenSpiel's NashConv), worth a to player 1."""
  game = pyspiel.load_game(_asymmetric(hands, bet))
  policy = to_tabular_policy(game, vnm.continuous_solution_policy(game))
  assert openspiel_exploit.nash_conv(game, policy) == pytest.approx(
      0.0, abs=1e-12)
  value = expected_game_score.policy_value(game.new_initial_state(),
                                           [policy, policy])[0]
  assert value == pytest.approx(continuum.asymmetric_solution(bet).value,
                                abs=1e-12)


@pytest.mark.slow
def test_raise_closed_form_approaches_an_equilibrium_as_hands_grow():
  """The raise variant's continuous solution played on N hands: OpenSpiel's
  NashConv falls with N and the value nears -88/1083."""
  nash_convs, values = [], []
  for hands in (19, 38):
    game = pyspiel.load_game(f"spiel_ext_vnm_poker(hands={hands})")
    policy = to_tabular_policy(game, vnm.continuous_solution_policy(game))
    nash_convs.append(openspiel_exploit.nash_conv(game, policy))
    values.append(expected_game_score.policy_value(
        game.new_initial_state(), [policy, policy])[0])
  assert nash_convs[1] < nash_convs[0] / 2 and nash_convs[1] < 0.05
  assert abs(values[1] + 88 / 1083) < abs(values[0] + 88 / 1083) / 10


def test_raise_intervals_tile_the_unit_interval():
  for panel, intervals in continuum.RAISE_INTERVALS.items():
    assert intervals[0][0] == 0 and intervals[-1][1] == 1
    for (_, end, _), (start, _, _) in zip(intervals, intervals[1:]):
      assert end == start, panel
    assert sum(continuum.raise_sequence_masses(panel).values()) == (
        pytest.approx(1.0))


def test_closed_forms_refuse_other_parameters():
  with pytest.raises(ValueError, match="bet"):
    continuum.asymmetric_solution(bet=0.0)
  with pytest.raises(ValueError, match="1 : 2 : 2"):
    vnm.continuous_solution_policy(
        "spiel_ext_vnm_poker(hands=4,raise_size=3.0)")
  with pytest.raises(ValueError, match="spiel_ext_vnm_poker"):
    vnm.sequence_probabilities("kuhn_poker", compile_game(
        "kuhn_poker").uniform_policy())


# --------------------------------------------- the acceptance test (Fig. 1)
@pytest.mark.slow
def test_perturbed_gxfp_matches_the_continuous_thresholds_away_from_them():
  """Perturbed GXFP on N = 45 hands plays the continuous solution's pure
  choice (up to the eps floor) at every hand at least 0.05 (player 1) or
  0.1 (player 2) from a closed-form threshold."""
  hands = 45
  game = _asymmetric(hands)
  solver = GXFPSolver(game, min_action_prob=EPS)
  for _ in range(10_000):
    solver.evaluate_and_update_policy()
  probabilities = vnm.sequence_probabilities(game, solver.average_policy())
  strengths = continuum.hand_strengths(hands)
  solution = continuum.asymmetric_solution()
  bets = (strengths < solution.bluff_below) | (
      strengths > solution.value_bet_above)
  calls = strengths > solution.call_above
  far_p1 = np.min(np.abs(strengths[:, None] - np.array(
      [solution.bluff_below, solution.value_bet_above])), axis=1) >= 0.05
  far_p2 = np.abs(strengths - solution.call_above) >= 0.1
  assert far_p1.sum() >= 35 and far_p2.sum() >= 35
  np.testing.assert_allclose(probabilities["P1"]["bet"][far_p1],
                             np.where(bets, 1 - EPS, EPS)[far_p1], atol=0.01)
  np.testing.assert_allclose(probabilities["P2"]["call"][far_p2],
                             np.where(calls, 1 - EPS, EPS)[far_p2], atol=0.02)


@pytest.mark.slow
def test_perturbed_gxfp_matches_player_2s_raise_variant_thresholds():
  """Raise variant, N = 38: player 2's choices (unique in the continuum)
  away from the closed-form thresholds; facing a bet it converges slowly
  (it is nearly indifferent over a wide range), so the margin is wider."""
  hands = 38
  game = f"spiel_ext_vnm_poker(hands={hands})"
  solver = GXFPSolver(game, min_action_prob=EPS)
  for _ in range(10_000):
    solver.evaluate_and_update_policy()
  readable = vnm.sequence_probabilities(game, solver.average_policy(),
                                        min_action_prob=EPS)
  strengths = continuum.hand_strengths(hands)
  for panel, margin in (("P2 after check", 0.1), ("P2 facing bet", 0.15)):
    names = list(readable[panel])
    stacked = np.stack([readable[panel][name] for name in names], axis=1)
    prescribed = [names.index(continuum.raise_sequence_at(panel, x))
                  for x in strengths]
    distance = np.min(np.abs(strengths[:, None] - np.array(
        continuum.raise_thresholds(panel))[None]), axis=1)
    far = distance >= margin
    assert far.sum() >= 8, panel
    assert (stacked[np.arange(hands), prescribed][far] >= 0.9).all(), panel


# ------------------------------------------------------------- readouts
def _two_hand_policy(tree, bets, calls):
  strategy = tree.uniform_policy().copy()
  for hand, (bet, call) in enumerate(zip(bets, calls), start=1):
    strategy[tree.key_to_infoset[f"P1 hand {hand}/2: "]] = [0, 1 - bet, bet]
    strategy[tree.key_to_infoset[f"P2 hand {hand}/2: b"]] = [1 - call, call,
                                                             0]
  return strategy


def test_action_value_differences_by_hand():
  """Two hands, ante 1, bet 2. P1 bets with hand 1 at 1/2 and always with
  hand 2; P2 folds hand 1 and calls with hand 2. By hand: P1 hand 1 checks
  for -1/2 and bets for (1 - 3)/2 = -1, so -1/2; hand 2: 1/2 vs (1 + 0)/2,
  so 0. P2 facing a bet believes x = 1 w.p. 1/3: hand 1 calls for
  (0 - 3 * 2)/3 = -2 vs folding for -1, so -1; hand 2 calls for 3/3 = 1,
  so 2. If P1 never bets, P2's belief is uniform: hand 1 gets
  (0 - 3)/2 + 1 = -1/2."""
  game = "spiel_ext_vnm_poker(hands=2,variant=asymmetric)"
  tree = compile_game(game)
  differences = vnm.action_value_differences(
      game, _two_hand_policy(tree, (0.5, 1.0), (0.0, 1.0)))
  np.testing.assert_allclose(differences["P1"], [-0.5, 0.0], atol=1e-12)
  np.testing.assert_allclose(differences["P2"], [-1.0, 2.0], atol=1e-12)
  never = vnm.action_value_differences(
      game, _two_hand_policy(tree, (0.0, 0.0), (0.0, 1.0)))
  assert never["P2"][0] == pytest.approx(-0.5)


def test_raise_sequences_are_products_of_the_decisions():
  game = "spiel_ext_vnm_poker(hands=3)"
  tree = compile_game(game)
  strategy = np.where(tree.infoset_legal, np.random.default_rng(4).random(
      tree.infoset_legal.shape), 0.0)
  strategy /= strategy.sum(axis=1, keepdims=True)
  sequences = vnm.sequence_probabilities(game, strategy)
  for panel in ("P1", "P2 after check", "P2 facing bet"):
    total = sum(sequences[panel].values())
    np.testing.assert_allclose(total, np.ones(3), atol=1e-12)
  first = strategy[tree.key_to_infoset["P1 hand 2/3: "]]
  after = strategy[tree.key_to_infoset["P1 hand 2/3: kb"]]
  assert sequences["P1"]["check-raise"][1] == pytest.approx(
      first[1] * after[2])


def test_remove_perturbation_inverts_mix_in():
  tree = compile_game("spiel_ext_vnm_poker(hands=4)")
  rng = np.random.default_rng(0)
  profile = np.where(tree.infoset_legal, rng.random(tree.infoset_legal.shape),
                     0.0)
  profile /= profile.sum(axis=1, keepdims=True)
  mixed = mix_in(profile, tree.infoset_legal, EPS)
  np.testing.assert_allclose(
      remove_perturbation(mixed, tree.infoset_legal, EPS), profile, atol=1e-12)


def test_perturbed_nash_conv_metric_by_name():
  game = "spiel_ext_vnm_poker(hands=5)"
  policy = compile_game(game).uniform_policy()
  assert metric_function("nash_conv[eps=0.01]")(game, policy) == (
      pytest.approx(se.nash_conv(game, policy, min_action_prob=0.01)))
  for name in ("nash_conv[eps=2]", "nash_conv[eps=x]", "nashconv"):
    with pytest.raises(ValueError, match="nash_conv\\[eps=E\\]"):
      metric_function(name)


# ------------------------------------------------------ the experiments
@pytest.mark.slow
def test_gxfp_experiments_write_their_figures_tables_and_claims(tmp_path):
  _run("--experiment=gxfp_vnm_asymmetric", f"--output_dir={tmp_path}",
       "--iterations=200", "--seeds=1",
       "--games=spiel_ext_vnm_poker(hands=9,variant=asymmetric)")
  _run("--experiment=gxfp_vnm_raise", f"--output_dir={tmp_path}",
       "--iterations=200", "--seeds=1",
       "--games=spiel_ext_vnm_poker(hands=8,variant=raise)")
  _run("--experiment=gxfp_convergence", f"--output_dir={tmp_path}",
       "--iterations=60", "--seeds=2",
       "--games=spiel_ext_vnm_poker(hands=6,variant=raise)")
  expected = {
      "gxfp_vnm_asymmetric": [
          f"figures/fig1_strategies_N9_{schedule}.{suffix}"
          for schedule in ("simultaneous", "alternating")
          for suffix in ("png", "pdf")] + ["tables/thresholds.md",
                                           "tables/thresholds.tex"],
      "gxfp_vnm_raise": [
          f"figures/fig{number}_N8_{schedule}.png"
          for number in ("2_gxfp", "3_perturbed")
          for schedule in ("simultaneous", "alternating")] + [
              "tables/thresholds.md"],
      "gxfp_convergence": [
          f"figures/fig{name}_{schedule}.png"
          for name in ("4_cfr_xfp_gxfp", "5_perturbed")
          for schedule in ("simultaneous", "alternating")] + [
              "figures/updates.png", "figures/cfr_start.png",
              "figures/counting.png", "tables/final_values.md",
              "tables/cost_alone.md"]}
  for experiment, names in expected.items():
    for name in names:
      assert (tmp_path / experiment / name).exists(), (experiment, name)
  frame = load_results(tmp_path / "gxfp_convergence")
  # Both schedules of CFR, XFP, GXFP and perturbed XFP, GXFP; CFR's heavy
  # and uniform starts on both schedules; integer-counting GXFP.
  assert frame.algorithm.nunique() == 15
  assert set(frame.metric) == {"nash_conv", "nash_conv[eps=0.01]",
                               "value_player_0"}
  # The value metric is the policy's value by OpenSpiel's evaluator.
  game = pyspiel.load_game(frame.game.iloc[0])
  uniform = compile_game(game).uniform_policy()
  assert metric_function("value_player_0")(frame.game.iloc[0], uniform) == (
      pytest.approx(expected_game_score.policy_value(
          game.new_initial_state(),
          [to_tabular_policy(game, uniform)] * 2)[0]))
  table = pd.read_csv(tmp_path / "gxfp_vnm_asymmetric" / "results.csv")
  assert set(table.algorithm) == {"GXFP", "GXFP (eps=0.01)",
                                  "GXFP (alternating)",
                                  "GXFP (alternating, eps=0.01)"}
  report = tmp_path / "reproduction.md"
  _run("--experiment=report", f"--output_dir={tmp_path}",
       f"--report_path={report}")
  text = report_text(report)
  for section in expected:
    assert f"## {section} (quick scale)" in text, section
  assert "alternating updates" in text and "continuous thresholds" in text
  # Each section's settings table, and every verdict names its setting.
  for section in expected:
    body = text.split(f"## {section} ")[1].split("\n## ")[0]
    assert "| choice | paper text | authors' code |" in body, section
    assert "**paper setting (simultaneous)**" in body, section
    assert "**paper setting (alternating)**" in body, section
    settings = [setting for _, setting in badges_in(body)]
    assert settings, section
    for setting in settings:
      assert setting.startswith(("paper setting (", "ablation: ")), setting
