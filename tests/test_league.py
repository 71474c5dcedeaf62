"""The solver league: its plan, a tiny run's table and figures (with the
"not reached" and "n/a" cells), the claims' measures on hand-made results
and the time to a target on a hand-made curve."""

import math

import pandas as pd
import pytest
from absl import flags

from spiel_ext import cli
from spiel_ext.experiments.league import measures as league
from spiel_ext.analysis.claims import RunResults
from spiel_ext.executors import make_executor
from spiel_ext.experiments import EXPERIMENTS
from spiel_ext.experiments.entries import LastIterate
from spiel_ext.experiments.league import algorithms as entries
from spiel_ext.experiments.league import settings as league_settings
from spiel_ext.experiments.spec import (build_jobs, run_experiment,
                                        settings_for,
                                        write_reproduction_report)
from spiel_ext.experiments.reporting import claim_rows

LEAGUE = EXPERIMENTS["solver_league"]
NA = "n/a (two-player zero-sum only)"


def _plan(*argv):
  flag_values = flags.FlagValues()
  cli.define_flags(flag_values)
  flag_values(["spiel-ext", "--experiment=solver_league", *argv])
  return cli.plan(flag_values)


@pytest.mark.parametrize("scale", ["quick", "paper"])
def test_the_runner_plans_every_solver_on_every_game_it_applies_to(scale):
  [(name, settings)] = _plan(f"--scale={scale}")
  assert name == "solver_league"
  jobs = build_jobs(settings)
  pairs = {(job.unit.algorithm, job.unit.game) for job in jobs}
  three = next(g for g in settings.games if "players=3" in g)
  for algorithm in entries.LEAGUE_ORDER:
    for game in settings.games:
      expected = not (algorithm in (entries.MMD_AVERAGE, entries.MMD_LAST)
                      and game == three)
      assert ((algorithm, game) in pairs) == expected, (algorithm, game)
  iterations = league_settings.ITERATIONS[scale == "paper"]
  seeds = league_settings.SEEDS[scale == "paper"]
  for job in jobs:
    unit = job.unit
    capped = (unit.algorithm == entries.CPP_CFR_PLUS and any(
        unit.game.startswith(prefix) for prefix in (
            "spiel_ext_leduc", "liars_dice", "battleship"))) or (
                scale == "paper" and unit.game.startswith("liars_dice") and
                unit.algorithm in (entries.XFP, entries.BUFP_X))
    assert (unit.iterations < iterations) == capped, unit.label()
    # The C++ reference runs each unit in one go.
    assert job.resumable == (unit.algorithm != entries.CPP_CFR_PLUS)
    if not job.resumable:
      assert job.checkpoint_interval(1000) == unit.iterations
  es_seeds = {job.unit.seed for job in jobs
              if job.unit.algorithm == entries.ES_MCCFR}
  assert es_seeds == set(range(seeds))
  assert {job.unit.seed for job in jobs
          if job.unit.algorithm != entries.ES_MCCFR} == {0}


def test_the_games_compile_and_their_targets():
  settings = settings_for(LEAGUE, "quick")
  ranges = {league.game_name(game): league.payoff_range(game)
            for game in settings.games}
  assert ranges == {"Kuhn": 4.0, "Leduc": 26.0, "Leduc, 5 ranks": 26.0,
                    "Liar's dice, 1 die": 2.0, "Goofspiel, 4 cards": 2.0,
                    "Battleship 2x2": 2.0, "Kuhn, 3 players": 6.0}
  assert league.target("kuhn_poker()") == pytest.approx(0.004)


def test_mmd_last_iterate_is_evaluated_as_its_current_policy():
  solver = entries.build_mmd_last_iterate("kuhn_poker")
  assert isinstance(solver, LastIterate)
  for _ in range(5):
    solver.evaluate_and_update_policy()
  assert solver.iteration_count == 5
  current = solver.solver.current_policy().action_probability_array
  average = solver.solver.average_policy().action_probability_array
  evaluated = solver.average_policy().action_probability_array
  assert (evaluated == current).all() and not (evaluated == average).all()
  assert evaluated is not current  # a copy: the iterate moves on


# ------------------------------------------------------- time to a target
def _curve(points):
  """A mean_curve of (iteration, value, seconds) points."""
  return pd.DataFrame(
      {"value": [p[1] for p in points], "seconds": [p[2] for p in points]},
      index=pd.Index([p[0] for p in points], name="iteration"))


def test_time_to_target_on_a_hand_made_curve():
  curve = _curve([(1, 1.0, 0.1), (10, 0.05, 0.9), (100, 0.002, 8.0),
                  (1000, 0.0005, 75.0)])
  assert league.time_to_target(curve, 0.01) == (100, 8.0)
  assert league.time_to_target(curve, 0.002) == (100, 8.0)  # at or below
  assert league.time_to_target(curve, 1.0) == (1, 0.1)
  assert league.time_to_target(curve, 1e-4) is None
  # A curve that dips below and rises again is timed at its first dip.
  bumpy = _curve([(1, 1.0, 0.1), (10, 0.001, 1.0), (100, 0.5, 9.0)])
  assert league.time_to_target(bumpy, 0.01) == (10, 1.0)


def _rows(game, algorithm, points, seed=0):
  return [dict(experiment="solver_league", game=game, algorithm=algorithm,
               hyperparameters="{}", seed=seed, iteration=iteration,
               episodes=None, wall_time=seconds, metric="nash_conv",
               value=value) for iteration, value, seconds in points]


def test_mean_curve_averages_seeds_and_the_table_cells():
  rows = (_rows("kuhn_poker()", "ES", [(10, 0.1, 1.0), (100, 0.003, 9.0)],
                seed=0) +
          _rows("kuhn_poker()", "ES", [(10, 0.3, 3.0), (100, 0.007, 11.0)],
                seed=1) +
          _rows("kuhn_poker()", "CFR", [(10, 0.2, 0.5), (100, 0.01, 4.0)]))
  frame = pd.DataFrame(rows)
  curve = league.mean_curve(frame, "kuhn_poker()", "ES")
  assert list(curve["value"]) == pytest.approx([0.2, 0.005])
  assert list(curve["seconds"]) == pytest.approx([2.0, 10.0])
  assert list(curve["seeds"]) == [2, 2]
  table = league.league_table(
      frame, ["kuhn_poker()", "kuhn_poker(players=3)"], ["ES", "CFR", "MMD"],
      {"ES": "ES-MCCFR"}, {("MMD", "kuhn_poker(players=3)"): NA})
  assert list(table.columns) == ["solver", "Kuhn (<= 0.004)",
                                 "Kuhn, 3 players (<= 0.006)"]
  cells = table.set_index("solver")
  # Mean 0.005 > 0.004 at the last point: not reached, though seed 0 is.
  assert cells.loc["ES-MCCFR", "Kuhn (<= 0.004)"] == (
      "not reached (100 it, 10 s, NashConv 0.005)")
  assert cells.loc["CFR", "Kuhn (<= 0.004)"].startswith("not reached")
  assert cells.loc["MMD", "Kuhn, 3 players (<= 0.006)"] == NA
  assert cells.loc["MMD", "Kuhn (<= 0.004)"] == "no results"
  reached = league.league_table(frame, ["kuhn_poker()"], ["ES"], {}, {},
                                fraction=0.01)
  assert reached.iloc[0, 1] == "100 it, 10 s"


# ------------------------------------------------- the claims, by hand
KUHN, LEDUC, LIARS, KUHN3 = ("kuhn_poker()", "leduc_poker()",
                             "liars_dice(numdice=1)", "kuhn_poker(players=3)")


def _finals(values):
  """A results frame whose final NashConv (at 100 iterations, after a
  point at 10) is ``values[(game, algorithm)]``."""
  rows = []
  for (game, algorithm), value in values.items():
    rows += _rows(game, algorithm, [(10, 1.0, 0.1), (100, value, 1.0)])
  return RunResults(pd.DataFrame(rows), None, None)


def test_pcfr_plus_beats_its_baselines_on_most_games_by_hand():
  # PCFR+ below all three on Kuhn and Liar's dice, above DCFR on Leduc:
  # 2 of 3 games, exactly "most" (2/3).
  results = _finals({
      (KUHN, "PCFR+"): 1e-4, (KUHN, "CFR+"): 1e-3, (KUHN, "DCFR"): 2e-4,
      (KUHN, "LCFR"): 5e-4,
      (LEDUC, "PCFR+"): 1e-3, (LEDUC, "CFR+"): 2e-3, (LEDUC, "DCFR"): 5e-4,
      (LEDUC, "LCFR"): 3e-3,
      (LIARS, "PCFR+"): 1e-5, (LIARS, "CFR+"): 1e-4, (LIARS, "DCFR"): 1e-4,
      (LIARS, "LCFR"): 1e-4})
  found = league.beats_on_most(results, solver="PCFR+",
                               baselines=("CFR+", "DCFR", "LCFR"),
                               labels={}, setting="paper setting")
  assert found.value == pytest.approx(2 / 3)
  assert league.MOST_GAMES.verdict(found.value) == "holds"
  assert "2 of 3 games" in found.ours
  assert "Leduc: /CFR+ 0.5, /DCFR 2, /LCFR 0.333;" in found.ours
  # DCFR vs PCFR+ on the poker games: Kuhn 2 (competitive), Leduc 0.5
  # (better): 2 of 2.
  found = league.competitive_on(results, solver="DCFR", other="PCFR+",
                                games=(KUHN, LEDUC), labels={},
                                setting="paper setting")
  assert found.value == 1.0
  assert "Kuhn 2; Leduc 0.5" in found.ours
  # One baseline missing on every game: nothing to judge.
  assert league.beats_on_most(results, solver="PCFR+", baselines=("XFP",),
                              labels={}, setting="") is None


def test_pdcfr_plus_at_least_as_fast_by_hand():
  results = _finals({
      (KUHN, "PDCFR+"): 1e-4, (KUHN, "PCFR+"): 2e-4, (KUHN, "DCFR+"): 1e-4,
      (LEDUC, "PDCFR+"): 3e-3, (LEDUC, "PCFR+"): 1e-3, (LEDUC, "DCFR+"): 4e-3,
      (KUHN3, "PDCFR+"): 1e-3, (KUHN3, "PCFR+"): 4e-3, (KUHN3, "DCFR+"): 2e-3})
  found = league.at_least_as_fast(results, solver="PDCFR+",
                                  others=("PCFR+", "DCFR+"), labels={},
                                  setting="paper setting")
  # Kuhn 1 (a tie is at least as fast), Leduc 3, 3-player Kuhn 0.5.
  assert found.value == pytest.approx(2 / 3)
  assert "Kuhn 1; Leduc 3; Kuhn, 3 players 0.5" in found.ours
  assert league.EVERY_GAME.verdict(found.value) == "holds partly"


def test_values_at_the_floating_point_floor_tie():
  results = _finals({(KUHN, "PCFR+"): 1e-17, (KUHN, "CFR+"): 0.0})
  found = league.lower_on(results, game="kuhn_poker", solver="PCFR+",
                          other="CFR+", labels={}, setting="")
  assert found.value == 1.0
  assert league.strictly_below_one(found.value) == "does not hold"
  results = _finals({(KUHN, "PCFR+"): 1e-5, (KUHN, "CFR+"): 4e-5})
  found = league.lower_on(results, game="kuhn_poker", solver="PCFR+",
                          other="CFR+", labels={}, setting="")
  assert found.value == pytest.approx(0.25)
  assert league.strictly_below_one(found.value) == "holds"


def test_mmd_last_iterate_converges_by_hand():
  # Kuhn: 0.5 at the first point, 0.200 at T/10 = 100, 0.195 at T: fell
  # below half and moved 2.5% in the last decade: converged. Leduc: 0.4 at
  # 150 (the first point at or after T / 10), 0.2 at T: moved 50%, not.
  # Liar's dice: 1.0 at 10, 0.999 at 100 and at T: settled, but moved
  # 0.1% from its first value (less than 1%): not converged.
  rows = (_rows(KUHN, "MMD last", [(10, 0.5, 0.1), (100, 0.2, 1.0),
                                   (1000, 0.195, 10.0)]) +
          _rows(LEDUC, "MMD last", [(10, 0.9, 0.1), (150, 0.4, 1.0),
                                    (1000, 0.2, 10.0)]) +
          _rows(LIARS, "MMD last", [(10, 1.0, 0.1), (100, 0.999, 1.0),
                                    (1000, 0.999, 10.0)]) +
          _rows(KUHN, "MMD", [(1000, 0.01, 10.0)]))
  results = RunResults(pd.DataFrame(rows), None, None)
  found = league.last_iterate_converges(results, last_iterate="MMD last",
                                        setting="paper setting")
  assert found.value == pytest.approx(1 / 3)
  assert ("Kuhn 0.5 -> 0.195, 2.5%; Leduc 0.9 -> 0.2, 50.0%; "
          "Liar's dice, 1 die 1 -> 0.999, 0.0%") in found.ours
  assert league.EVERY_GAME.verdict(found.value) == "does not hold"
  table = league.mmd_table(results.frame, [KUHN, LEDUC, LIARS], "MMD last",
                           "MMD")
  assert list(table["converged"]) == [True, False, False]
  assert table["average at T"].iloc[0] == 0.01
  assert math.isnan(table["average at T"].iloc[1])


# ------------------------------------------------------------ a tiny run
TINY_ALGORITHMS = (entries.PCFR_PLUS, entries.CFR_PLUS, entries.MMD_AVERAGE,
                   entries.MMD_LAST, entries.CPP_CFR_PLUS)


@pytest.mark.slow
def test_a_tiny_run_writes_the_table_figures_and_page(tmp_path):
  settings = settings_for(LEAGUE, "quick", iterations=40,
                          games=("kuhn_poker", "kuhn_poker(players=3)"),
                          algorithms=TINY_ALGORITHMS)
  # Checkpoints every 10 iterations: the C++ CFR+ unit runs in one go
  # (OpenSpiel's restored CFR+ would drift from CFR+), the others resume.
  outputs = run_experiment(LEAGUE, settings, tmp_path,
                           make_executor("local"), quiet=True,
                           checkpoint_every=10)
  folder = outputs.folder
  for game in ("kuhn", "kuhn_3_players"):
    assert (folder / "figures" / f"nash_conv_{game}.png").exists()
  markdown = league.TIME_TO_TARGET.path(folder).read_text()
  assert (folder / "tables" / "time_to_target.tex").exists()
  lines = {line.split(" | ")[0].strip("| "): line.split(" | ")[1:]
           for line in markdown.splitlines() if line.startswith("| ")}
  assert lines["solver"] == ["Kuhn (<= 0.004)",
                             "Kuhn, 3 players (<= 0.006) |"]
  # MMD (alpha 0.05) is far from the target after 40 iterations; it does
  # not run on three players.
  assert lines["MMD (average)"][0].startswith("not reached (40 it, ")
  assert lines["MMD (average)"][1] == f"{NA} |"
  assert lines["MMD (last iterate)"][1] == f"{NA} |"
  # PCFR+ reaches 0.004 on Kuhn within 40 iterations; the C++ CFR+ row is
  # CFR+'s, iterate for iterate, though the run checkpointed every 10.
  assert " it, " in lines["PCFR+"][0] and "not" not in lines["PCFR+"][0]
  final = league.FINAL_NASH_CONV.path(folder).read_text()
  cfr_plus = next(l for l in final.splitlines() if l.startswith("| CFR+ |"))
  cpp = next(l for l in final.splitlines()
             if l.startswith("| OpenSpiel CFR+ (C++) |"))
  assert cfr_plus.split("|")[2:] == cpp.split("|")[2:]
  rows = claim_rows(LEAGUE.claims, LEAGUE.name,
                    pd.read_parquet(folder / "results.parquet"), settings,
                    folder)
  statements = [row.claim for row in rows]
  assert any("kuhn_poker PCFR+" in s for s in statements)
  assert all(row.setting == "paper setting" for row in rows)
  assert any("MMD's last iterate" in s for s in statements)
  report = write_reproduction_report({LEAGUE.name: LEAGUE}, tmp_path)
  page = (report.parent / "which-solver.md").read_text()
  assert "# Which solver?" in page and NA in page
  assert "(which-solver_files/nash_conv_kuhn.png)" in page
  assert (report.parent / "which-solver_files" / "nash_conv_kuhn.png").exists()


def test_every_game_has_a_short_name():
  names = [league.game_name(game) for game in league_settings.GAMES]
  assert len(set(names)) == len(names)
  assert all("(" not in name for name in names)
  assert league.game_name("kuhn_poker()") == "Kuhn"
  assert league.game_slug(league_settings.GOOFSPIEL) == "goofspiel_4"


def test_iteration_caps_per_algorithm_and_per_game():
  from spiel_ext.experiments.settings import iteration_cap  # pylint: disable=g-import-not-at-top
  caps = (("A", 50), ("B", 10, "kuhn_poker()"), ("B", 30))
  assert iteration_cap(caps, "A", "leduc_poker()", 100) == 50
  assert iteration_cap(caps, "B", "kuhn_poker()", 100) == 10
  assert iteration_cap(caps, "B", "leduc_poker()", 100) == 30
  assert iteration_cap(caps, "C", "kuhn_poker()", 100) == 100
  assert iteration_cap(caps, "A", "kuhn_poker()", 20) == 20


def test_openspiel_cpp_cfr_plus_behind_the_contract():
  import pyspiel  # pylint: disable=g-import-not-at-top
  from spiel_ext import eval as se  # pylint: disable=g-import-not-at-top
  from spiel_ext.algorithms.openspiel import OpenSpielCppCFRAdapter  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game("kuhn_poker")
  adapter = entries.build_openspiel_cpp_cfr_plus("kuhn_poker")
  reference = pyspiel.CFRPlusSolver(game)
  for _ in range(30):
    adapter.evaluate_and_update_policy()
    reference.evaluate_and_update_policy()
  assert adapter.iteration_count == adapter.progress().iterations == 30
  assert se.nash_conv(game, adapter.average_policy()) == pytest.approx(
      pyspiel.nash_conv(game, reference.average_policy()), abs=1e-12)
  # The state reads back exactly (OpenSpiel's hexadecimal floats).
  restored = OpenSpielCppCFRAdapter("kuhn_poker", kind="cfr+")
  restored.load_state_dict(adapter.state_dict())
  assert restored.iteration_count == 30
  assert (restored.average_policy().action_probability_array ==
          adapter.average_policy().action_probability_array).all()
  state = adapter.state_dict()
  with pytest.raises(ValueError, match="config"):
    OpenSpielCppCFRAdapter("kuhn_poker").load_state_dict(state)
  with pytest.raises(ValueError, match="iteration"):
    restored.load_state_dict({**state, "iteration": 7})
  with pytest.raises(ValueError, match="cannot read"):
    restored.load_state_dict({**state, "serialized": "[SolverSpecificState]"
                              "\n30\n"})
  with pytest.raises(ValueError, match="kind"):
    OpenSpielCppCFRAdapter("kuhn_poker", kind="dcfr")


def test_the_league_declares_its_settings():
  # Every row runs a paper setting; DCFR+ runs both the text's discount and
  # the authors' code's, where the two disagree.
  assert all(variant.is_paper_setting for variant in LEAGUE.variants)
  assert set().union(*(variant.algorithms for variant in LEAGUE.variants)) == (
      set(LEAGUE.paper.algorithms))
  assert LEAGUE.variants[1].algorithms == ("DCFR+ (authors' code)",)
  for choice in LEAGUE.choices:
    assert choice.name and choice.paper_text and choice.authors_code, choice
    assert choice.paper_setting, choice
  caps = next(c for c in LEAGUE.choices if c.name == "iteration caps")
  assert "OpenSpiel CFR+ (C++) on Leduc, 5 ranks: 10" in caps.paper_setting
  assert "XFP on Liar's dice, 1 die: 3,000" in caps.paper_setting
