"""run_experiments.py as a user runs it: outputs, resume, usage errors."""

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from spiel_ext.experiments import EXPERIMENTS, settings_for
from spiel_ext.experiments.solvers import ALGORITHMS
from spiel_ext.experiments.spec import build_jobs, evaluation_points
from spiel_ext.results import COLUMNS, load_results
from spiel_ext.results.report import report_text

ROOT = Path(__file__).resolve().parent.parent


def _run(*flags, check=True):
  result = subprocess.run(
      [sys.executable, str(ROOT / "run_experiments.py"), "--quiet", *flags],
      capture_output=True, text=True, cwd=ROOT, timeout=600)
  if check and result.returncode != 0:
    raise AssertionError(result.stdout + result.stderr)
  return result


@pytest.mark.slow
def test_small_quickstart_writes_results_figure_and_table(tmp_path):
  result = _run("--experiment=quickstart", f"--output_dir={tmp_path}",
                "--iterations=40", "--seeds=2",
                "--algorithms=CFR (uniform),OpenSpiel CFR (Python),CFR+")
  folder = tmp_path / "quickstart"
  for name in ["results.parquet", "results.csv", "figures/nash_conv.png",
               "figures/nash_conv.pdf", "tables/summary.md",
               "tables/summary.tex"]:
    assert (folder / name).exists(), name
    assert str(folder / name) in result.stdout or name.startswith("results")
  frame = pd.read_parquet(folder / "results.parquet")
  assert list(frame.columns) == list(COLUMNS)
  pd.testing.assert_frame_equal(frame, load_results(folder))
  # Our CFR from the uniform start equals OpenSpiel's, iteration for
  # iteration (OpenSpiel's runs 30 iterations at quick scale).
  ours = frame[frame.algorithm == "CFR (uniform)"].set_index("iteration")
  theirs = frame[frame.algorithm == "OpenSpiel CFR (Python)"].set_index(
      "iteration")
  common = ours.index.intersection(theirs.index)
  assert 30 in common
  assert ours.loc[common, "value"].values == pytest.approx(
      theirs.loc[common, "value"].values, abs=1e-9)
  assert frame[frame.algorithm == "CFR+"].seed.nunique() == 2


@pytest.mark.slow
@pytest.mark.parametrize("flags,message", [
    (["--experiment=nope"], "--experiment: unknown"),
    (["--iterations=0"], "--iterations"),
    (["--seeds=-2"], "--seeds"),
    (["--seed=-1"], "--seed"),
    (["--algorithms=Magic"], "unknown algorithm"),
    (["--games=no_such_game"], "no_such_game"),
    (["--scale=huge"], "--scale"),
    (["--executor=dask"], "--executor"),
    (["--iterations=1000000000000"], "--iterations"),
    (["--iterations=100000000000000000000000"], "--iterations"),
    (["--seed=9223372036854775807", "--seeds=2"], "--seed"),
    (["--seed=9223372036854775806", "--seeds=3"], "--seed"),
    (["--iterations=1000000000", "--eval_every=1"], "--eval_every"),
    (["--algorithms="], "--algorithms"),
    (["--games="], "--games"),
    (["--experiment="], "--experiment"),
    (["--output_dir="], "--output_dir"),
    (["--workers=100000"], "--workers"),
    (["--games=no_such_gmae"], "unknown game 'no_such_gmae'"),
    (["--games=kuhn_poker", "--games=kuhn_poker()"], "more than once"),
    (["--algorithms=CFR,CFR"], "more than once"),
    (["--experiment=quickstart,quickstart"], "more than once"),
    (["--experiment=quickstart,report"], "runs alone"),
    (["--experiment=report", "--report_path=/tmp"], "--report_path"),
    (["--experiment=report", "--report_path= "], "--report_path"),
    (["--algorithms=cfr"], "--algorithms: unknown algorithm"),
    # Refused by the solver, before the run folder is touched.
    (["--games=leduc_poker(players=10)", "--algorithms=CFR"],
     "too large to compile"),
    (["--games=kuhn_poker", "--algorithms=MCCFR-OS"], "MCCFR-OS on kuhn"),
])
def test_bad_flags_are_one_line_usage_errors(tmp_path, flags, message):
  """Refused at once: the flag named, a line or two, no traceback, no
  game list, nothing written."""
  output = [] if any(f.startswith("--output_dir") for f in flags) else [
      f"--output_dir={tmp_path}"]
  result = _run(*output, *flags, check=False)
  assert result.returncode != 0
  assert message in result.stderr
  assert "Traceback" not in result.stderr
  assert len(result.stderr.splitlines()) <= 3, result.stderr
  assert not list(tmp_path.iterdir())


def test_unwritable_output_dir_is_a_usage_error(tmp_path):
  blocker = tmp_path / "file"
  blocker.write_text("x")
  result = _run(f"--output_dir={blocker}/sub", check=False)
  assert result.returncode != 0 and "--output_dir" in result.stderr
  assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_resume_refuses_a_different_run(tmp_path):
  _run("--experiment=quickstart", f"--output_dir={tmp_path}",
       "--iterations=10", "--seeds=1", "--algorithms=CFR")
  result = _run("--experiment=quickstart", f"--output_dir={tmp_path}",
                "--iterations=20", "--seeds=1", "--algorithms=CFR",
                "--resume", check=False)
  assert result.returncode != 0
  assert "different settings (iterations)" in result.stderr


def test_list_names_every_experiment():
  result = _run("--list")
  for name in EXPERIMENTS:
    assert name in result.stdout


def test_evaluation_points():
  assert evaluation_points(10, 3) == (3, 6, 9, 10)
  points = evaluation_points(1000, None)
  assert points[0] == 1 and points[-1] == 1000 and len(points) >= 20
  assert evaluation_points(100, None, extra=(30,)).count(30) == 1


def test_jobs_cover_games_algorithms_and_seeds():
  settings = settings_for(EXPERIMENTS["bufp_convergence"], "quick",
                          iterations=5, seeds=2)
  jobs = build_jobs(settings)
  seeded = [a for a in settings.algorithms if ALGORITHMS[a].seeded]
  assert len(seeded) < len(settings.algorithms)  # Uniform CFR runs once.
  assert len(jobs) == len(settings.games) * (
      len(seeded) * 2 + len(settings.algorithms) - len(seeded))
  assert len({job.unit.unit_id for job in jobs}) == len(jobs)


@pytest.mark.slow
@pytest.mark.ray
def test_ray_executor_writes_the_local_rows(tmp_path):
  pytest.importorskip("ray")
  common = ["--experiment=quickstart", "--iterations=12", "--seeds=2",
            "--algorithms=CFR,XFP", "--checkpoint_every=5"]
  _run(*common, f"--output_dir={tmp_path / 'local'}")
  _run(*common, f"--output_dir={tmp_path / 'ray'}", "--executor=ray",
       "--workers=2")
  local, ray = (load_results(tmp_path / name / "quickstart").drop(
      columns="wall_time") for name in ("local", "ray"))
  assert len(local) == 2 * 2 * len(evaluation_points(12, None))
  pd.testing.assert_frame_equal(local, ray)


@pytest.mark.slow
def test_bufp_experiments_and_the_report(tmp_path):
  """Tiny runs of the BUFP experiments write their figures and tables, and
  the report has a row for each of their claims."""
  _run("--experiment=bufp_tables,bufp_convergence", f"--output_dir={tmp_path}",
       "--iterations=30", "--seeds=1",
       "--games=spiel_ext_leduc(blinds=1 2,fold_always=true,"
       "round2_first=after_last)", "--algorithms=CFR,BUFP(EF),BUFP(X)")
  tables = tmp_path / "bufp_tables" / "tables"
  for name in ["table1_final.md", "table2_final.md", "recovered_final.md",
               "table1_final.tex"]:
    assert (tables / name).exists(), name
  assert "CFR P1" in (tables / "table1_final.md").read_text()
  figures = tmp_path / "bufp_convergence" / "figures"
  assert (figures / "fig2_sequential_gap.png").exists()
  report = tmp_path / "reproduction.md"
  _run("--experiment=report", f"--output_dir={tmp_path}",
       f"--report_path={report}")
  text = report_text(report)
  assert "## bufp_tables (quick scale)" in text
  assert "recovered loss %" in text and "Fig. 2" in text


@pytest.mark.slow
def test_killed_run_resumes_to_the_uninterrupted_rows(tmp_path):
  """kill -9 in the middle of a real experiment, then --resume: the same
  rows as a run never interrupted, none twice, finished units untouched."""
  import os  # pylint: disable=g-import-not-at-top
  import signal  # pylint: disable=g-import-not-at-top
  import time  # pylint: disable=g-import-not-at-top
  common = ["--experiment=quickstart", "--iterations=4000", "--seeds=2",
            "--algorithms=XFP,CFR", "--checkpoint_every=300",
            "--games=kuhn_poker", "--quiet"]
  killed = tmp_path / "killed"
  process = subprocess.Popen(
      [sys.executable, str(ROOT / "run_experiments.py"), *common,
       f"--output_dir={killed}"], cwd=ROOT, start_new_session=True,
      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
  units = killed / "quickstart" / "units"
  deadline = time.time() + 120
  while time.time() < deadline:
    done = list(units.glob("*/done.json"))
    if done and len(done) < 4:
      break
    time.sleep(0.02)
  os.killpg(process.pid, signal.SIGKILL)
  process.wait()
  finished = {path.parent: path.stat().st_mtime_ns
              for path in units.glob("*/done.json")}
  assert 0 < len(finished) < 4, "the kill did not land mid-run"
  _run(*common, f"--output_dir={killed}", "--resume")
  for folder, stamp in finished.items():
    assert (folder / "done.json").stat().st_mtime_ns == stamp
  _run(*common, f"--output_dir={tmp_path / 'clean'}")
  resumed = load_results(killed / "quickstart").drop(columns="wall_time")
  clean = load_results(tmp_path / "clean" / "quickstart").drop(
      columns="wall_time")
  assert not resumed.duplicated().any()
  pd.testing.assert_frame_equal(clean, resumed)


@pytest.mark.slow
def test_pref_cfr_kuhn_alpha_writes_the_distribution_of_alpha(tmp_path):
  _run("--experiment=pref_cfr_kuhn_alpha", f"--output_dir={tmp_path}",
       "--iterations=40", "--seeds=3")
  folder = tmp_path / "pref_cfr_kuhn_alpha"
  for name in ["figures/alpha.png", "figures/nash_conv.png",
               "figures/final_alpha_histogram.png",
               "figures/final_alpha_histogram_alternating_updates.png",
               "tables/final_alpha.md"]:
    assert (folder / name).exists(), name
  frame = load_results(folder)
  alphas = frame[(frame.metric == "kuhn_alpha") & (frame.iteration == 40)]
  # Quick scale: the paper setting (simultaneous) and alternating updates.
  assert len(alphas) == 6 and alphas.value.between(0, 1).all()
  assert set(alphas.algorithm) == {"CFR (simultaneous)", "CFR"}


@pytest.mark.slow
def test_pref_cfr_kuhn_settings_runs_every_setting(tmp_path):
  _run("--experiment=pref_cfr_kuhn_settings", f"--output_dir={tmp_path}",
       "--iterations=30", "--seeds=2")
  folder = tmp_path / "pref_cfr_kuhn_settings"
  frame = load_results(folder)
  # Quick scale runs the paper setting only: the authors' simultaneous CFR.
  assert frame.algorithm.nunique() == 7
  assert frame.algorithm.str.endswith("(simultaneous)").all()
  assert (folder / "figures" / "alpha.png").exists()
  table = (folder / "tables" / "final_values.md").read_text()
  assert "Pref-CFR(RM) Pass x5 (simultaneous)" in table
