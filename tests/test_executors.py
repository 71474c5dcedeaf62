"""Results store and executors: incremental rows, resume, corruption, Ray.

Uses a pure-Python counting solver (tests/platform_fakes.py) so the tests
check the platform's bookkeeping, not the algorithms: the reference for
every resumed run is the same run done without interruption.
"""

import math
import os
import pickle
import signal
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from spiel_ext.executors import Job, WorkUnit, make_executor, run_jobs
from spiel_ext.executors.resume import unit_store
from spiel_ext.executors.units import Checkpoint, advance
from spiel_ext.results.store import (COLUMNS, CorruptUnit, UnitStore,
                                     decode_checkpoint, encode_checkpoint,
                                     load_results)

import platform_fakes

TESTS = Path(__file__).resolve().parent


def _jobs(iterations=40, seeds=(0, 1)):
  jobs = []
  for seed in seeds:
    for scale in (1.0, 3.0):
      unit = WorkUnit("fake", "counting_game", f"count x{scale:g}",
                      (("scale", scale),), seed, iterations,
                      tuple(range(5, iterations + 1, 5)), ("value", "doubled"),
                      snapshots=(("past_20", "value", 20.0 * scale),))
      jobs.append(Job(unit, platform_fakes.CountingSolver,
                      {"value": platform_fakes.value_metric,
                       "doubled": platform_fakes.doubled_metric}))
  return jobs


def _without_time(frame):
  return frame.drop(columns=["wall_time"]).reset_index(drop=True)


def test_rows_have_the_schema_and_expected_values(tmp_path):
  run_jobs(_jobs(), tmp_path, make_executor("local"), checkpoint_every=10,
           quiet=True)
  frame = load_results(tmp_path)
  assert list(frame.columns) == list(COLUMNS)
  assert len(frame) == 4 * 8 * 2
  # The reference: the same generator draws summed by hand.
  expected = 3.0 * np.cumsum(np.random.default_rng(1).random(40))[19]
  row = frame[(frame.seed == 1) & (frame.algorithm == "count x3") &
              (frame.iteration == 20) & (frame.metric == "value")]
  assert row.value.item() == pytest.approx(expected, rel=1e-12)
  doubled = frame[(frame.seed == 1) & (frame.algorithm == "count x3") &
                  (frame.iteration == 20) & (frame.metric == "doubled")]
  assert doubled.value.item() == pytest.approx(2 * expected, rel=1e-12)
  assert frame.episodes.isna().all()
  # Snapshots: the final strategy, and the first evaluation point where
  # the value reached the threshold.
  job = _jobs()[3]
  store = unit_store(tmp_path, job.unit)
  values = 3.0 * np.cumsum(np.random.default_rng(1).random(40))
  iteration, strategy = store.load_snapshot("final")
  assert iteration == 40 and strategy[0, 0] == pytest.approx(values[39])
  first = min(t for t in range(5, 41, 5) if values[t - 1] <= 60.0)
  iteration, strategy = store.load_snapshot("past_20")
  assert iteration == first


def test_resume_skips_finished_units(tmp_path):
  jobs = _jobs()
  run_jobs(jobs, tmp_path, make_executor("local"), 10, quiet=True)
  first = load_results(tmp_path)
  stamps = {job.unit.unit_id: unit_store(tmp_path, job.unit).rows_path
            .stat().st_mtime_ns for job in jobs}
  run_jobs(jobs, tmp_path, make_executor("local"), 10, quiet=True)
  pd.testing.assert_frame_equal(first, load_results(tmp_path))
  for job in jobs:
    assert unit_store(tmp_path, job.unit).rows_path.stat().st_mtime_ns == (
        stamps[job.unit.unit_id])


def test_torn_and_corrupt_files_are_repaired(tmp_path):
  jobs = _jobs(seeds=(0,))
  reference_dir = tmp_path / "reference"
  run_jobs(jobs, reference_dir, make_executor("local"), 10, quiet=True)
  reference = _without_time(load_results(reference_dir))
  work = tmp_path / "work"
  run_jobs(jobs, work, make_executor("local"), 10, quiet=True)
  torn, corrupt = (unit_store(work, job.unit) for job in jobs[:2])
  # A crash mid-append: unfinished unit with a torn last line.
  torn.done_path.unlink()
  data = torn.rows_path.read_bytes()
  torn.rows_path.write_bytes(data[:-7])
  # A corrupt unit: garbage in its rows.
  corrupt.rows_path.write_text("not,a,row\n")
  with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    run_jobs(jobs, work, make_executor("local"), 10, quiet=True)
  assert any("corrupt" in str(w.message) for w in caught)
  pd.testing.assert_frame_equal(reference, _without_time(load_results(work)))


_KILLED_RUN = textwrap.dedent("""
    import os, sys
    os.environ["FAKE_SOLVER_DELAY"] = "{delay}"
    sys.path.insert(0, {tests!r})
    from spiel_ext.executors import make_executor, run_jobs
    import test_executors
    run_jobs(test_executors._jobs(iterations=60), {out!r},
             make_executor("local", workers={workers}), checkpoint_every=10,
             quiet=True)
""")


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2])
def test_kill_minus_nine_then_resume_equals_uninterrupted(tmp_path, workers):
  out = tmp_path / "killed"
  script = _KILLED_RUN.format(tests=str(TESTS), delay=0.01, out=str(out),
                              workers=workers)
  process = subprocess.Popen([sys.executable, "-c", script],
                             start_new_session=True)
  deadline = time.time() + 60
  while time.time() < deadline:
    rows = sum(1 for _ in out.glob("units/*/rows.csv"))
    if rows >= 2 and any(p.stat().st_size > 200
                         for p in out.glob("units/*/rows.csv")):
      break
    time.sleep(0.05)
  os.killpg(process.pid, signal.SIGKILL)
  process.wait()
  assert len(list(out.glob("units/*/done.json"))) < 4, "killed too late"
  run_jobs(_jobs(iterations=60), out, make_executor("local"), 10,
           quiet=True)
  reference_dir = tmp_path / "reference"
  run_jobs(_jobs(iterations=60), reference_dir,
           make_executor("local"), 10, quiet=True)
  resumed = _without_time(load_results(out))
  assert not resumed.duplicated().any()
  pd.testing.assert_frame_equal(
      _without_time(load_results(reference_dir)), resumed)


@pytest.mark.slow
@pytest.mark.ray
def test_ray_executor_gives_the_local_rows(tmp_path, monkeypatch):
  ray = pytest.importorskip("ray")
  # Ray's workers must import the fake solver from this folder.
  monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
      [str(TESTS)] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
  monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
  local_dir, ray_dir = tmp_path / "local", tmp_path / "ray"
  run_jobs(_jobs(), local_dir, make_executor("local"), 10, quiet=True)
  try:
    run_jobs(_jobs(), ray_dir, make_executor("ray", workers=2), 10,
             quiet=True)
  finally:
    ray.shutdown()
  pd.testing.assert_frame_equal(_without_time(load_results(local_dir)),
                                _without_time(load_results(ray_dir)))
  for job in _jobs():
    for name in ("final", "past_20"):
      local = unit_store(local_dir, job.unit).load_snapshot(name)
      remote = unit_store(ray_dir, job.unit).load_snapshot(name)
      assert (local is None) == (remote is None)
      if local is not None:
        assert local[0] == remote[0]
        np.testing.assert_array_equal(local[1], remote[1])


class _ListSink:
  """Keeps what a unit produces."""

  def __init__(self):
    self.rows_buffer, self.snapshots = [], {}

  def rows(self, rows):
    self.rows_buffer.extend(rows)

  def snapshot(self, name, iteration, strategy):
    self.snapshots[name] = (iteration, strategy)

  def progress(self, iterations):
    del iterations


def _strategy_sum(game, policy):
  del game
  return float(np.sum(policy.action_probability_array))


def test_a_learner_unit_counts_episodes_and_resumes_from_its_file(tmp_path):
  """A learner's unit: rows count the episodes of progress(), and a unit
  resumed from its checkpoint file (the learner rebuilt by the factory,
  then given the state) ends as one run straight."""
  from spiel_ext.algorithms.learners import VCFRLearner  # pylint: disable=g-import-not-at-top
  from spiel_ext.games.unknown_env import true_game_string  # pylint: disable=g-import-not-at-top
  unit = WorkUnit("fake", true_game_string("kuhn_poker", 1), "VCFR",
                  (("design", "exploration_draw"),), 3, 12, (4, 8, 12),
                  ("sum",))
  metrics = {"sum": _strategy_sum}
  straight = _ListSink()
  advance(unit, None, 12, VCFRLearner, metrics, straight)
  resumed = _ListSink()
  store = UnitStore(tmp_path / "unit")
  store.save_checkpoint(
      advance(unit, None, 6, VCFRLearner, metrics, resumed).as_dict())
  checkpoint = Checkpoint.from_dict(store.load_checkpoint())
  assert checkpoint.iteration == 6
  assert checkpoint.solver_state["episodes"] == 12
  advance(unit, checkpoint, 12, VCFRLearner, metrics, resumed)
  assert [row.episodes for row in straight.rows_buffer] == [8, 16, 24]
  assert [(row.iteration, row.episodes, row.value)
          for row in resumed.rows_buffer] == [
              (row.iteration, row.episodes, row.value)
              for row in straight.rows_buffer]
  np.testing.assert_array_equal(resumed.snapshots["final"][1],
                                straight.snapshots["final"][1])


def test_checkpoint_files_hold_plain_data_exactly():
  state = {"version": 2, "big": 2**100 + 1, "float": 0.1, "nan": math.nan,
           "negative_zero": -0.0, "inf": -math.inf, "none": None,
           "flag": True, "text": "é", "tuple": (1, (2, "x")),
           "list": [1, [2.5]], "int_keys": {3: "a", 4: [5]},
           "marker_key": {"__array__": 1}, "scalar": np.int64(7),
           "float32": np.float32(0.1), "array": np.arange(6.0).reshape(2, 3),
           "empty": np.zeros((0, 4)), "zero_d": np.array(3.5),
           "uint8": np.arange(3, dtype=np.uint8), "nested": {"a": {"b": [
               np.ones(2, dtype=bool)]}}}
  back = decode_checkpoint(encode_checkpoint(state))
  assert back.keys() == state.keys()
  assert math.isnan(back.pop("nan")) and math.isnan(state["nan"])
  assert math.copysign(1.0, back["negative_zero"]) == -1.0
  for name, value in back.items():
    expected = state[name]
    if isinstance(expected, np.ndarray):
      assert value.dtype == expected.dtype and value.shape == expected.shape
      np.testing.assert_array_equal(value, expected)
    elif name == "nested":
      np.testing.assert_array_equal(value["a"]["b"][0], np.ones(2, bool))
    else:
      assert value == expected and type(value) is type(expected), name
  for bad in ({"x": object()}, {"x": np.array([object()])},
              {"x": [lambda: 0]}):
    with pytest.raises(TypeError, match="checkpoint value"):
      encode_checkpoint(bad)


def _unpickled():
  raise AssertionError("a checkpoint was unpickled")


class _Explosive:
  """Unpickling it would run code (and fail the test)."""

  def __reduce__(self):
    return (_unpickled, ())


def test_the_checkpoint_file_refuses_a_pickle_and_other_formats(
    tmp_path, monkeypatch):
  from spiel_ext.results import store as store_module  # pylint: disable=g-import-not-at-top
  store = UnitStore(tmp_path / "unit")
  store.folder.mkdir()
  document = encode_checkpoint({"iteration": 1})
  with monkeypatch.context() as patch:
    patch.setattr(store_module, "CHECKPOINT_FORMAT_VERSION", 9)
    future = encode_checkpoint({"iteration": 1})
  for data, reason in [
      (pickle.dumps({"iteration": 1, "solver": _Explosive()}),
       "is not a spiel_ext checkpoint file: a pickle, which is never "
       "loaded"),
      (b"not a checkpoint", "not an .npz archive"),
      (document[:len(document) // 2], "cannot be read as a checkpoint"),
      (future, "format version 9, not 1")]:
    store.checkpoint_path.write_bytes(data)
    with pytest.raises(CorruptUnit, match=reason) as refused:
      store.load_checkpoint()
    assert "\n" not in str(refused.value)
    assert str(store.checkpoint_path) in str(refused.value)


def test_a_pickled_checkpoint_of_an_older_spiel_ext_restarts_its_unit(
    tmp_path):
  """As any checkpoint this version cannot read: a warning naming why, and
  the unit runs again from the start, to the same rows."""
  jobs = _jobs(seeds=(0,))
  reference_dir, work = tmp_path / "reference", tmp_path / "work"
  run_jobs(jobs, reference_dir, make_executor("local"), 10, quiet=True)
  run_jobs(jobs, work, make_executor("local"), 10, quiet=True)
  store = unit_store(work, jobs[0].unit)
  store.done_path.unlink()
  store.legacy_checkpoint_path.write_bytes(pickle.dumps(
      {"iteration": 20, "solver": _Explosive()}))
  with pytest.warns(UserWarning, match="checkpoint.pkl is a pickled "
                    "checkpoint of an older spiel_ext, which is never "
                    "loaded.*running the unit again from the start"):
    run_jobs(jobs, work, make_executor("local"), 10, quiet=True)
  assert not store.legacy_checkpoint_path.exists()
  pd.testing.assert_frame_equal(_without_time(load_results(reference_dir)),
                                _without_time(load_results(work)))


def test_unknown_executor_is_refused():
  with pytest.raises(ValueError, match="executor must be one of"):
    make_executor("dask")
