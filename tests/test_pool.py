"""Several experiments' units in one pool (``--experiment=all``): the same
rows as each experiment run alone, resumable after kill -9, each unit's
time recorded, progress weighed by measured cost."""

import importlib.util
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from absl import flags

from spiel_ext import cli
from spiel_ext.engine import threads
from spiel_ext.executors import local
from spiel_ext.executors import progress
from spiel_ext.executors.progress import ProgressLines
from spiel_ext.executors.units import WorkUnit
from spiel_ext.experiments import EXPERIMENTS, REPRODUCTION, costs
from spiel_ext.results.rows import Row
from spiel_ext.results.store import UnitStore, load_results

ROOT = Path(__file__).resolve().parent.parent
RUNNER = str(ROOT / "run_experiments.py")
# Two experiments that share a game and an algorithm label, made small.
POOL = ["--experiment=quickstart,pref_cfr_kuhn_alpha", "--games=kuhn_poker",
        "--algorithms=CFR", "--seeds=2", "--checkpoint_every=100"]


def _run(*flags):
  result = subprocess.run([sys.executable, RUNNER, "--quiet", *flags],
                          capture_output=True, text=True, cwd=ROOT,
                          timeout=600)
  assert result.returncode == 0, result.stdout + result.stderr
  return result


def _rows(folder):
  return load_results(folder).drop(columns="wall_time")


def test_all_is_every_experiment_but_the_league():
  assert set(REPRODUCTION) == set(EXPERIMENTS) - {"solver_league"}
  assert REPRODUCTION[0] == "quickstart"


@pytest.fixture(name="alone", scope="module")
def _alone(tmp_path_factory):
  """Each experiment of POOL run by itself, in one process."""
  folder = tmp_path_factory.mktemp("alone")
  for name in ("quickstart", "pref_cfr_kuhn_alpha"):
    _run(f"--experiment={name}", *POOL[1:], "--iterations=400",
         f"--output_dir={folder}")
  return {name: _rows(folder / name)
          for name in ("quickstart", "pref_cfr_kuhn_alpha")}


@pytest.mark.slow
def test_a_pool_gives_each_experiment_its_own_rows(tmp_path, alone):
  result = _run(*POOL, "--iterations=400", "--workers=2",
                f"--output_dir={tmp_path}")
  for name, rows in alone.items():
    pd.testing.assert_frame_equal(rows, _rows(tmp_path / name))
    assert f"{name}: " in result.stdout and "evaluating" in result.stdout
    session = json.loads((tmp_path / name / "manifest.json").read_text()
                         )["sessions"][-1]
    # Every unit recorded its time, and the share comes from it.
    seconds = session["unit_seconds"]
    assert seconds["units"] == len(list((tmp_path / name).glob(
        "units/*/done.json")))
    assert seconds["solver_seconds"] > 0 and seconds["evaluation_seconds"] > 0
    for done in (tmp_path / name).glob("units/*/done.json"):
      record = json.loads(done.read_text())
      assert record["solver_seconds"] > 0 <= record["evaluation_seconds"]


@pytest.mark.slow
def test_kill_minus_nine_of_a_pool_then_resume(tmp_path, alone):
  process = subprocess.Popen(
      [sys.executable, RUNNER, "--quiet", *POOL, "--iterations=400",
       "--workers=2", f"--output_dir={tmp_path}"], cwd=ROOT,
      start_new_session=True, stdout=subprocess.DEVNULL,
      stderr=subprocess.DEVNULL)
  deadline = time.time() + 300
  while time.time() < deadline and process.poll() is None:
    if list(tmp_path.glob("*/units/*/checkpoint.npz")):
      break
    time.sleep(0.002)
  killed = process.poll() is None
  os.killpg(process.pid, signal.SIGKILL)
  process.wait()
  _run(*POOL, "--iterations=400", "--workers=2", f"--output_dir={tmp_path}",
       "--resume")
  assert killed, "the run ended before the kill"
  for name, rows in alone.items():
    resumed = _rows(tmp_path / name)
    assert not resumed.duplicated().any()
    pd.testing.assert_frame_equal(rows, resumed)


def _unit(game, algorithm, experiment="quickstart", iterations=100):
  return WorkUnit(experiment, game, algorithm, (), 0, iterations, (iterations,),
                  ("nash_conv",), ())


def test_measured_seconds_per_iteration_and_their_fallbacks(monkeypatch):
  monkeypatch.setattr(costs, "SECONDS_PER_ITERATION", {
      "quickstart": {"leduc_poker()|CFR": 2e-3},
      "bufp_tables": {"kuhn_poker()|XFP": 5e-5}})
  assert costs.seconds_per_iteration(_unit("leduc_poker()", "CFR")) == 2e-3
  # The same game and algorithm measured in another experiment.
  assert costs.seconds_per_iteration(_unit("kuhn_poker()", "XFP")) == 5e-5
  # Another algorithm on the same game: the median of those measured.
  assert costs.seconds_per_iteration(_unit("kuhn_poker()", "CFR")) == 5e-5
  assert (costs.seconds_per_iteration(_unit("goofspiel()", "CFR")) ==
          costs.UNMEASURED_SECONDS_PER_ITERATION)


def test_evaluation_share_is_read_from_the_units_time():
  assert costs.evaluation_share({"solver_seconds": 3.0,
                                 "evaluation_seconds": 1.0}) == 0.25
  assert costs.evaluation_share({"solver_seconds": 0.0,
                                 "evaluation_seconds": 0.0}) is None


def test_progress_weighs_iterations_by_their_cost():
  """Half the iterations but nine tenths of the work: 90%, not 50%."""
  stream = io.StringIO()
  lines = ProgressLines("pool", 200, stream, total_work=100.0)
  lines.update(100, 90.0)
  assert stream.getvalue().splitlines()[-1].startswith("pool: 90% ")
  lines.update(99, 9.9)  # The sums' rounding leaves the last tenth...
  assert "100%" not in stream.getvalue()
  lines.update(1, 0.0999999)  # ...to the last iteration.
  last = stream.getvalue().splitlines()[-1]
  assert last.startswith("pool: 100% (200/200 iterations)")
  assert "about 0 s left" in last


def test_work_found_done_counts_in_the_share_but_not_the_rate(monkeypatch):
  """A resumed run that finds 80% of the work done and does 10% in 100 s
  has 100 s of work left at that rate, not 11 s."""
  clock = iter([0.0, 0.0, 100.0])  # Start, resumed line, then 10% later.
  monkeypatch.setattr(progress.time, "perf_counter", lambda: next(clock))
  stream = io.StringIO()
  lines = ProgressLines("pool", 100, stream, total_work=100.0)
  lines.update(80, 80.0, resumed=True)
  lines.update(10, 10.0)
  last = stream.getvalue().splitlines()[-1]
  assert last.startswith("pool: 90% (90/100 iterations), 0 it/s")
  assert "about 1 min 40 s left" in last


class _Running:
  def __init__(self, value):
    self.value = value


@pytest.mark.skipif(threads.max_threads() < 2, reason="one thread only")
def test_a_worker_takes_the_idle_cores(monkeypatch):
  before = threads.get_num_threads()
  try:
    monkeypatch.setattr(local, "_pool_state", (2, _Running(2)))
    local._share_cores()  # pylint: disable=protected-access
    assert threads.get_num_threads() == 1
    monkeypatch.setattr(local, "_pool_state", (2, _Running(1)))
    local._share_cores()  # pylint: disable=protected-access
    assert threads.get_num_threads() == 2
  finally:
    threads.set_num_threads(before)


def test_rows_reach_the_disk_before_a_checkpoint_records_them(tmp_path,
                                                              monkeypatch):
  """An evaluation point's rows are not fsynced one by one (that was most
  of the evaluation time of cheap iterations); the checkpoint and the
  unit's end sync the rows file before they record its rows."""
  synced = []
  real_fsync = os.fsync
  monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(
      os.readlink(f"/proc/self/fd/{fd}")), real_fsync(fd)))
  store = UnitStore(tmp_path / "unit")
  row = Row("quickstart", "kuhn_poker()", "CFR", "{}", 0, 10, None, 0.5,
            "nash_conv", 0.25)
  store.append([row])
  store.append([row])
  assert not synced
  store.save_checkpoint({"iteration": 10, "solver_seconds": 0.5,
                         "solver_state": {}})
  rows_file = str(store.rows_path.resolve())
  assert synced and synced[0] == rows_file
  synced.clear()
  store.mark_done()
  assert synced[0] == rows_file
  assert store.is_done() and len(store.read().rows) == 2


def _plan(*argv):
  flag_values = flags.FlagValues()
  cli.define_flags(flag_values)
  flag_values(["spiel-ext", *argv])
  return [name for name, _ in cli.plan(flag_values)]


def test_all_expands_in_place_without_repeats():
  assert _plan("--experiment=all") == list(REPRODUCTION)
  assert _plan("--experiment=solver_league,all") == ["solver_league",
                                                     *REPRODUCTION]
  # A name also given is kept where it was given, and not run twice.
  assert _plan("--experiment=bufp_tables,all") == ["bufp_tables", *[
      name for name in REPRODUCTION if name != "bufp_tables"]]


def test_all_leaves_out_what_needs_a_missing_extra(monkeypatch, caplog):
  """A newcomer without the bnn extra can run --experiment=all: the
  network learners are left out, with a warning naming them and the
  extra; named alone, the experiment still refuses them."""
  real_find_spec = importlib.util.find_spec
  monkeypatch.setattr(importlib.util, "find_spec", lambda name, *args: (
      None if name == "torch" else real_find_spec(name, *args)))
  flag_values = flags.FlagValues()
  cli.define_flags(flag_values)
  flag_values(["spiel-ext", "--experiment=all", "--scale=paper"])
  plans = dict(cli.plan(flag_values))
  information = plans["vcfr_information"].algorithms
  assert "VCFR" in information
  assert not {"VCFR-BNN", "VCFR-BNN (authors' KL)"} & set(information)
  assert "VCFR-BNN" in caplog.text and "bnn" in caplog.text
  # Experiments that need no extra keep their default settings.
  assert plans["quickstart"] == dict(_plans("--experiment=quickstart",
                                            "--scale=paper"))[
      "quickstart"]
  with pytest.raises(SystemExit, match="needs the optional extra 'bnn'"):
    _plans("--experiment=vcfr_information", "--scale=paper")


def _plans(*argv):
  flag_values = flags.FlagValues()
  cli.define_flags(flag_values)
  flag_values(["spiel-ext", *argv])
  return cli.plan(flag_values)
