"""Unknown-environment learners and their conjugate model.

References: scipy's special functions and numerical KL integrals, the
hidden parameters of the environment (read by the test only), and CFR on
the true game.
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import spiel_ext  # pylint: disable=unused-import
from spiel_ext import eval as se
from spiel_ext.algorithms import CFRSolver
from spiel_ext.algorithms.learners import (FSPLearner, NaiveCFRLearner,
                                           OutcomeSamplingLearner,
                                           VFSPLearner,
                                           PSRLCFRLearner, RandomLearner,
                                           VCFRLearner, environment_of)
from spiel_ext.algorithms.posterior import (ConjugatePosterior,
                                            beta_kl_after_one, digamma,
                                            dirichlet_kl_after_one)
from spiel_ext.engine import compile_game
from spiel_ext.games.unknown_env import true_game_string

special = pytest.importorskip("scipy.special")
integrate = pytest.importorskip("scipy.integrate")
stats = pytest.importorskip("scipy.stats")


def test_digamma_matches_scipy():
  x = np.array([1e-3, 0.5, 1.0, 2.5, 5.999, 6.0, 7.3, 100.0, 1e6])
  np.testing.assert_allclose(digamma(x), special.digamma(x), atol=1e-10,
                             rtol=1e-12)


@pytest.mark.parametrize("alpha,beta", [(1.0, 1.0), (3.0, 7.0), (2.5, 0.7)])
def test_beta_kl_after_one_matches_numerical_integration(alpha, beta):
  for win in (True, False):
    after = stats.beta(alpha + win, beta + (not win))
    before = stats.beta(alpha, beta)
    numeric = integrate.quad(
        lambda q: after.pdf(q) * (after.logpdf(q) - before.logpdf(q)), 0, 1,
        limit=200)[0]
    assert beta_kl_after_one(np.array(alpha), np.array(beta), win) == (
        pytest.approx(numeric, abs=1e-7))


def test_dirichlet_kl_after_one_reduces_to_the_beta_case():
  counts, totals = np.array([2.0, 5.0]), np.array([7.0, 7.0])
  np.testing.assert_allclose(
      dirichlet_kl_after_one(counts, totals),
      [beta_kl_after_one(np.array(2.0), np.array(5.0), True),
       beta_kl_after_one(np.array(5.0), np.array(2.0), True)], atol=1e-12)


def test_posterior_mean_approaches_the_hidden_parameters():
  """Many uniform episodes on unknown Kuhn: the posterior mean game nears
  the hidden chance probabilities and expected rewards (read here from the
  true game, never by a learner)."""
  game = true_game_string("kuhn_poker", 4)
  environment = environment_of(game)
  rules = environment.rules
  posterior = ConjugatePosterior(rules)
  rng = np.random.default_rng(0)
  uniform = rules.uniform_policy()
  for _ in range(20_000):
    episode = environment.play_episode(uniform, rng)
    posterior.observe(episode.histories, episode.reward)
  chance_prob, utility = posterior.mean_game()
  true_tree = compile_game(game)
  # The true game's value of the uniform profile from the model's arrays
  # vs exact: close after 20,000 episodes.
  model_value = rules.root_values(uniform, chance_prob=chance_prob,
                                  utility=utility)[0]
  assert model_value == pytest.approx(
      true_tree.root_values(true_tree.uniform_policy())[0], abs=0.02)
  np.testing.assert_allclose(
      chance_prob[rules.parent >= 0][:6], rules.chance_prob[
          rules.parent >= 0][:6], atol=0.02)


def test_model_games_are_distributions_and_seeded():
  rules = environment_of(true_game_string("kuhn_poker", 1)).rules
  posterior = ConjugatePosterior(rules)
  first = posterior.sample_game(np.random.default_rng(3))
  again = posterior.sample_game(np.random.default_rng(3))
  np.testing.assert_array_equal(first[0], again[0])
  np.testing.assert_array_equal(first[1], again[1])
  # The engine accepts them (it checks distributions and utilities).
  rules.root_values(rules.uniform_policy(), chance_prob=first[0],
                    utility=first[1])
  gain = posterior.information_gain()
  assert (gain[rules.terminals] > 0).all()
  assert np.all(gain[~rules.is_terminal & (rules.parent < 0)] == 0)


def test_a_terminal_bonus_is_added_to_both_players_only_at_terminals():
  rules = environment_of(true_game_string("kuhn_poker", 1)).rules
  posterior = ConjugatePosterior(rules)
  bonus = np.random.default_rng(5).random(len(rules.terminals))
  for plain, with_bonus in (
      (posterior.mean_game(), posterior.mean_game(bonus)),
      (posterior.sample_game(np.random.default_rng(2)),
       posterior.sample_game(np.random.default_rng(2), bonus))):
    np.testing.assert_array_equal(with_bonus[0], plain[0])
    expected = plain[1].copy()
    expected[rules.terminals] += bonus[:, None]
    np.testing.assert_array_equal(with_bonus[1], expected)
  with pytest.raises(ValueError, match=r"terminal_bonus must have shape "
                     r"\(30,\)"):
    posterior.mean_game(bonus[:-1])


@pytest.mark.parametrize("learner", [NaiveCFRLearner, PSRLCFRLearner,
                                     VCFRLearner, RandomLearner])
def test_learners_count_episodes_and_improve(learner):
  game = true_game_string("kuhn_poker", 2)
  agent = learner(game, seed=0)
  start = se.nash_conv(game, agent.average_policy())
  for _ in range(600):
    agent.evaluate_and_update_policy()
  assert agent.episodes == 1200
  assert se.nash_conv(game, agent.average_policy()) < start / 2


def test_naive_cfr_with_many_episodes_approaches_cfr_on_the_true_game():
  """The gap between Naive-CFR's NashConv on the true game and CFR's (run on
  the true game itself) shrinks as episodes accumulate."""
  game = true_game_string("kuhn_poker", 5)
  agent = NaiveCFRLearner(game, seed=1)
  reference = CFRSolver(game)
  gaps = []
  for iteration in range(1, 10_001):
    agent.evaluate_and_update_policy()
    reference.evaluate_and_update_policy()
    if iteration in (1000, 10_000):
      gaps.append(se.nash_conv(game, agent.average_policy()) -
                  se.nash_conv(game, reference.average_policy()))
  assert gaps[1] < gaps[0] / 2 and gaps[1] < 0.03


def test_learners_refuse_a_game_that_is_not_an_unknown_environment():
  with pytest.raises(ValueError, match="spiel_ext_unknown_env"):
    NaiveCFRLearner("kuhn_poker")
  with pytest.raises(ValueError, match="base"):
    NaiveCFRLearner(true_game_string("kuhn_poker", 0), base="cfr+")
  with pytest.raises(ValueError, match="eta"):
    VCFRLearner(true_game_string("kuhn_poker", 0), eta=-1.0)
  assert pyspiel.load_game(true_game_string("kuhn_poker", 0))


def test_information_gain_updated_in_place_equals_a_fresh_computation():
  environment = environment_of(
      true_game_string("spiel_ext_bid_leduc(max_bid=2)", 0))
  rules = environment.rules
  running, reference = ConjugatePosterior(rules), ConjugatePosterior(rules)
  rng = np.random.default_rng(0)
  for number in range(300):
    episode = environment.play_episode(rules.uniform_policy(), rng)
    running.observe(episode.histories, episode.reward)
    reference.observe(episode.histories, episode.reward)
    if number % 7 == 0:
      running.information_gain()
  fresh = ConjugatePosterior(rules)
  fresh.wins, fresh.losses = reference.wins, reference.losses
  fresh.chance_counts = reference.chance_counts
  np.testing.assert_array_equal(running.information_gain(),
                                fresh.information_gain())


@pytest.mark.parametrize("learner", [NaiveCFRLearner, PSRLCFRLearner,
                                     VCFRLearner, RandomLearner,
                                     OutcomeSamplingLearner, FSPLearner,
                                     VFSPLearner])
def test_learners_see_the_hidden_parameters_only_through_episodes(learner):
  """Swapping the environment's hidden episode sampler for another
  instance's after construction gives exactly the other instance's
  learner: nothing but the episodes carries the hidden parameters."""
  base = "spiel_ext_bid_leduc(max_bid=1)"
  swapped = learner(true_game_string(base, 0), seed=7)
  other = learner(true_game_string(base, 1), seed=7)
  swapped._environment._sample = other._environment._sample  # pylint: disable=protected-access
  for _ in range(40):
    swapped.evaluate_and_update_policy()
    other.evaluate_and_update_policy()
  np.testing.assert_array_equal(swapped.average_strategy(),
                                other.average_strategy())
  assert swapped.episodes == other.episodes == 80


@pytest.mark.parametrize("learner", [OutcomeSamplingLearner, FSPLearner,
                                     VFSPLearner])
def test_model_free_learners_converge_on_unknown_kuhn(learner):
  game = true_game_string("kuhn_poker", 2)
  agent = learner(game, seed=0)
  start = se.nash_conv(game, agent.average_policy())
  for _ in range(5000):
    agent.evaluate_and_update_policy()
  assert agent.episodes == 10_000
  assert se.nash_conv(game, agent.average_policy()) < min(0.15, start / 3)
  with pytest.raises(ValueError, match="epsilon"):
    learner(game, epsilon=-1.0)


@pytest.mark.parametrize("learner", [VCFRLearner, OutcomeSamplingLearner,
                                     VFSPLearner])
def test_a_pickled_learner_continues_exactly(learner):
  """Checkpoints: a learner pickled mid-run and restored continues with the
  same episodes and strategies as one never interrupted."""
  import pickle  # pylint: disable=g-import-not-at-top
  game = true_game_string("spiel_ext_bid_leduc(max_bid=1)", 3)
  straight, interrupted = learner(game, seed=2), learner(game, seed=2)
  for _ in range(30):
    straight.evaluate_and_update_policy()
    interrupted.evaluate_and_update_policy()
  restored = pickle.loads(pickle.dumps(interrupted))
  for _ in range(30):
    straight.evaluate_and_update_policy()
    restored.evaluate_and_update_policy()
  assert restored.episodes == straight.episodes == 120
  np.testing.assert_array_equal(restored.average_strategy(),
                                straight.average_strategy())


def test_vcfr_experiment_records_episodes_and_writes_its_outputs(tmp_path):
  from test_runner import _run  # pylint: disable=g-import-not-at-top
  from spiel_ext.results.store import load_results  # pylint: disable=g-import-not-at-top
  _run("--experiment=vcfr_unknown_env", f"--output_dir={tmp_path}",
       "--iterations=20", "--games=spiel_ext_unknown_env(game=kuhn_poker(),"
       "env_seed=0)", "--games=spiel_ext_unknown_env(game=kuhn_poker(),"
       "env_seed=1)")
  folder = tmp_path / "vcfr_unknown_env"
  frame = load_results(folder)
  assert set(frame.algorithm) == {"VCFR", "PSRLCFR", "FSP", "MCCFR-OS",
                                  "Naive-CFR", "Random"}
  last = frame[frame.iteration == 20]
  assert (last.episodes == 40).all()
  assert (folder / "figures" / "nash_conv_vs_episodes.png").exists()
  assert "unknown Kuhn" in (folder / "tables" / "final.md").read_text()


def test_lead_counts_the_points_below_and_where_the_lead_starts():
  from spiel_ext.experiments.vcfr import lead  # pylint: disable=g-import-not-at-top
  import pandas as pd  # pylint: disable=g-import-not-at-top
  iterations = [1, 2, 3, 4, 5]
  curves = pd.DataFrame({
      "environment": "E", "algorithm": ["A"] * 5 + ["B"] * 5,
      "iteration": iterations * 2, "episodes": [2 * i for i in iterations] * 2,
      # A is below B at iterations 2, 4 and 5: from 8 episodes on.
      "value": [3, 1, 3, 1, 1] + [2, 2, 2, 2, 2]})
  assert lead(curves, "E", "A", "B") == ("below at 3/5 evaluation points, "
                                         "from 8 episodes on")
  assert lead(curves, "E", "B", "A") == "below at 2/5 evaluation points"
  assert lead(curves, "E", "A", "C") == "no shared evaluation points"


def test_an_algorithm_needing_a_missing_extra_is_refused_before_running(
    monkeypatch):
  import importlib.util  # pylint: disable=g-import-not-at-top
  from spiel_ext.experiments import solvers  # pylint: disable=g-import-not-at-top
  real = importlib.util.find_spec
  monkeypatch.setattr(importlib.util, "find_spec", lambda name, *rest: (
      None if name == "torch" else real(name, *rest)))
  with pytest.raises(ImportError, match=r"'VCFR-BNN \(eta=0.5\)' needs the "
                     r"optional extra 'bnn'.*pip install"):
    solvers.check_algorithms(["VCFR", "VCFR-BNN (eta=0.5)"])
  solvers.check_algorithms(["VCFR", "PSRLCFR"])  # No extra needed.


def test_vcfr_information_experiment_compares_models(tmp_path):
  pytest.importorskip("torch")
  from test_runner import _run  # pylint: disable=g-import-not-at-top
  from spiel_ext.results.store import load_results  # pylint: disable=g-import-not-at-top
  from spiel_ext.experiments import EXPERIMENTS  # pylint: disable=g-import-not-at-top
  from spiel_ext.experiments.spec import stored_settings  # pylint: disable=g-import-not-at-top
  _run("--experiment=vcfr_information", f"--output_dir={tmp_path}",
       "--iterations=12", "--algorithms=PSRLCFR,VCFR,VCFR-BNN (eta=0.005)")
  folder = tmp_path / "vcfr_information"
  frame = load_results(folder)
  assert set(frame.algorithm) == {"PSRLCFR", "VCFR", "VCFR-BNN (eta=0.005)"}
  claims = EXPERIMENTS["vcfr_information"].claims(
      frame, stored_settings(folder), folder)
  assert [claim.claim for claim in claims] == [
      "The information gain helps CFR: VCFR vs PSRLCFR (no bonus)",
      "The information gain helps CFR: VCFR-BNN (eta=0.005) vs PSRLCFR "
      "(no bonus)",
      "The paper's neural model vs the exact conjugate model at eta = 0.005"]
  assert (folder / "figures" / "nash_conv_vs_episodes.png").exists()


def test_the_leduc5_claim_compares_with_the_papers_numbers():
  import pandas as pd  # pylint: disable=g-import-not-at-top
  from spiel_ext.experiments import EXPERIMENTS, settings_for  # pylint: disable=g-import-not-at-top
  from spiel_ext.experiments.vcfr import PAPER_LEDUC5, main_claims  # pylint: disable=g-import-not-at-top
  game = ("spiel_ext_unknown_env(game=spiel_ext_bid_leduc(max_bid=5),"
          "env_seed=0)")
  # Hand-made finals: PSRLCFR 0.05 off the paper, VCFR 0.5 off; the rest
  # are missing. 10^(x) is NashConv when log10 NashConv is x.
  finals = {"PSRLCFR": PAPER_LEDUC5["PSRLCFR"] + 0.05,
            "VCFR": PAPER_LEDUC5["VCFR"] + 0.5}
  frame = pd.DataFrame([
      {"game": game, "algorithm": name, "iteration": 20_000,
       "episodes": 40_000, "metric": "nash_conv", "value": 10 ** value,
       "seed": 0} for name, value in finals.items()])
  settings = settings_for(EXPERIMENTS["vcfr_unknown_env"], "paper")
  claim = main_claims(frame, settings, None)[0]
  assert claim.verdict == "holds partly"
  assert "VCFR -0.730 (+0.500), PSRLCFR -0.930 (+0.050)" in claim.ours
  assert "within 0.1 for 1 of 2" in claim.ours
  short = frame.assign(episodes=600)  # Quick scale: no comparison.
  assert main_claims(short, settings, None)[0].claim.startswith("VCFR "
                                                                "reaches")


def test_paired_difference_is_over_environment_seeds():
  import pandas as pd  # pylint: disable=g-import-not-at-top
  from spiel_ext.experiments.vcfr import paired_difference  # pylint: disable=g-import-not-at-top
  games = [f"spiel_ext_unknown_env(game=kuhn_poker(),env_seed={seed})"
           for seed in range(3)]
  # log10 differences A - B per environment: -1, -2, -3 (mean -2, sample
  # standard deviation 1, standard error 1 / sqrt(3)).
  values = {"A": [0.1, 0.01, 0.001], "B": [1.0, 1.0, 1.0]}
  frame = pd.DataFrame([
      {"game": game, "algorithm": name, "iteration": 7, "metric": "nash_conv",
       "value": values[name][k]} for name in values
      for k, game in enumerate(games)])
  mean, error, count = paired_difference(frame, "unknown Kuhn", "A", "B", 7)
  assert count == 3
  assert mean == pytest.approx(-2.0)
  assert error == pytest.approx(1 / np.sqrt(3))
