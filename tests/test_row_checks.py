"""Every damaged row is found: units left mid-run or finished, then damaged
(deleted, truncated, edited, duplicated, extra or foreign rows), resume to
exactly the rows of a run never interrupted.

The interrupted unit is made the way a kill leaves it: rows and a checkpoint
up to iteration 20, then rows up to 30 with no checkpoint after them.
"""

import shutil
import warnings

import numpy as np

import pandas as pd
import pytest

from spiel_ext.executors import Job, WorkUnit, make_executor, run_jobs
from spiel_ext.executors.local import _StoreSink
from spiel_ext.executors.resume import unit_store
from spiel_ext.executors.units import advance
from spiel_ext.results.manifest import write_manifest
from spiel_ext.results.store import (UnitStore, encode_checkpoint,
                                     load_results, row_check)

import platform_fakes

ITERATIONS = 40


def _job(seed=0, scale=1.0):
  # The value passes 5 between iterations 5 and 15: the snapshot
  # "past_5" is taken before the interrupted unit's checkpoint at 20.
  unit = WorkUnit("fake", "counting_game", f"count x{scale:g}",
                  (("scale", scale),), seed, ITERATIONS,
                  tuple(range(5, ITERATIONS + 1, 5)), ("value", "doubled"),
                  snapshots=(("past_5", "value", 5.0),))
  return Job(unit, platform_fakes.CountingSolver,
             {"value": platform_fakes.value_metric,
              "doubled": platform_fakes.doubled_metric})


def _rows(folder):
  return load_results(folder).drop(columns="wall_time").reset_index(drop=True)


def _snapshots(folder):
  store = unit_store(folder, _job().unit)
  return {name: store.load_snapshot(name) for name in ("past_5", "final")}


@pytest.fixture(name="reference")
def _reference(tmp_path):
  folder = tmp_path / "reference"
  run_jobs([_job()], folder, make_executor("local"), 10, quiet=True)
  return _rows(folder)


def _interrupted(folder):
  """A unit killed after its checkpoint at 20 and the rows up to 30."""
  job = _job()
  store = unit_store(folder, job.unit)
  sink = _StoreSink(store, None)
  checkpoint = advance(job.unit, None, 20, job.make_solver, job.metrics, sink)
  store.save_checkpoint(checkpoint.as_dict())
  advance(job.unit, checkpoint, 30, job.make_solver, job.metrics, sink)
  return store


def _finished(folder):
  run_jobs([_job()], folder, make_executor("local"), 10, quiet=True)
  return unit_store(folder, _job().unit)


def _lines(store):
  return store.rows_path.read_text().splitlines(keepends=True)


def _flip_digit(line):
  fields = line.split(",")
  value = fields[9]
  digit = next(i for i, char in enumerate(value) if char.isdigit() and
               char != "9")
  fields[9] = value[:digit] + str(int(value[digit]) + 1) + value[digit + 1:]
  return ",".join(fields)


# (damage, whether it reaches a row the checkpoint vouched for)
DAMAGE = {
    "deleted": lambda store: store.rows_path.unlink(),
    "truncated": lambda store: store.rows_path.write_text(
        "".join(_lines(store)[:5])),
    "edited": lambda store: store.rows_path.write_text("".join(
        line if i != 3 else _flip_digit(line)
        for i, line in enumerate(_lines(store)))),
    "duplicated": lambda store: store.rows_path.write_text("".join(
        _lines(store)[:4] + _lines(store)[3:])),
    "extra": lambda store: store.rows_path.write_text("".join(
        _lines(store) + _lines(store)[-1:])),
    "torn": lambda store: store.rows_path.write_bytes(
        store.rows_path.read_bytes()[:-9]),
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_damaged_unfinished_unit_resumes_to_the_uninterrupted_rows(
    tmp_path, reference, damage):
  folder = tmp_path / "work"
  store = _interrupted(folder)
  assert len(store.read().rows) == 12  # 6 points x 2 metrics
  DAMAGE[damage](store)
  with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    run_jobs([_job()], folder, make_executor("local"), 10, quiet=True)
  messages = " ".join(str(w.message) for w in caught)
  resumed = _rows(folder)
  assert not resumed.duplicated().any()
  pd.testing.assert_frame_equal(reference, resumed)
  # Damage to rows the checkpoint recorded sends the unit back to the start,
  # saying so; damage past it only drops rows that are recomputed anyway.
  if damage in ("deleted", "truncated", "edited", "duplicated"):
    assert "running the unit again from the start" in messages, messages
  else:
    assert "again from the start" not in messages, messages


@pytest.mark.parametrize("damage", ["deleted", "truncated", "edited",
                                    "duplicated", "extra"])
def test_damaged_finished_unit_is_run_again(tmp_path, reference, damage):
  folder = tmp_path / "work"
  store = _finished(folder)
  assert store.is_done()
  DAMAGE[damage](store)
  assert not store.is_done()
  with pytest.warns(UserWarning, match="again from the start"):
    run_jobs([_job()], folder, make_executor("local"), 10, quiet=True)
  pd.testing.assert_frame_equal(reference, _rows(folder))


@pytest.mark.parametrize("damage", ["edited", "duplicated", "extra"])
def test_the_merge_keeps_only_rows_before_a_bad_one(tmp_path, damage):
  store = _finished(tmp_path)
  good = store.read().rows
  DAMAGE[damage](store)
  with pytest.warns(UserWarning, match="rows"):
    frame = load_results(tmp_path)
  kept = {"edited": 3, "duplicated": 4, "extra": len(good)}[damage]
  assert len(frame) == kept
  assert not frame.duplicated().any()
  assert set(frame.value) <= {row.value for row in good}


def test_rows_of_another_unit_fail_their_checks(tmp_path):
  folder = tmp_path / "work"
  store = _finished(folder)
  stranger = UnitStore(folder / "units" / "0123456789abcdef")
  stranger.folder.mkdir()
  shutil.copy(store.rows_path, stranger.rows_path)
  assert stranger.read().rows == []
  assert "fails its check" in stranger.read().problem


def test_the_merge_reads_only_the_manifest_units(tmp_path):
  """A unit folder left by another run is not merged."""
  run_jobs([_job(seed=0), _job(seed=1)], tmp_path, make_executor("local"), 10,
           quiet=True)
  ours = _job(seed=0).unit.unit_id
  write_manifest(tmp_path, {"units": [ours], "sessions": [{"pid": 1}]})
  frame = load_results(tmp_path)
  assert set(frame.seed) == {0}
  assert frame.attrs["provenance"] == [{"pid": 1}]


def test_a_row_vouches_for_every_row_before_it():
  first = row_check("unit", "a,b")
  assert row_check(first, "c") != row_check(row_check("unit", "a,B"), "c")
  assert row_check("unit", "a,b") != row_check("other", "a,b")


SNAPSHOT_DAMAGE = {
    "deleted": lambda path: path.unlink(),
    "garbage": lambda path: path.write_bytes(b"not a snapshot"),
    "other unit's": lambda path: path.write_bytes(
        path.with_name("snapshot_final.npz").read_bytes()),
}


@pytest.mark.parametrize("damage", sorted(SNAPSHOT_DAMAGE))
@pytest.mark.parametrize("state", ["unfinished", "finished"])
def test_damaged_snapshots_send_the_unit_back_to_the_start(
    tmp_path, reference, damage, state):
  folder = tmp_path / "work"
  store = _interrupted(folder) if state == "unfinished" else _finished(folder)
  snapshot = store.folder / "snapshot_past_5.npz"
  assert snapshot.exists()
  if state == "unfinished":  # Take the final snapshot the other damage uses.
    store.save_snapshot("final", 0, np.zeros((1, 2)))
  SNAPSHOT_DAMAGE[damage](snapshot)
  with pytest.warns(UserWarning, match="snapshot_past_5.npz"):
    run_jobs([_job()], folder, make_executor("local"), 10, quiet=True)
  pd.testing.assert_frame_equal(reference, _rows(folder))
  expected = _snapshots(tmp_path / "reference")
  for name, (iteration, strategy) in _snapshots(folder).items():
    assert iteration == expected[name][0]
    np.testing.assert_array_equal(strategy, expected[name][1])


def test_a_checkpoint_past_the_unit_end_is_not_trusted(tmp_path, reference):
  folder = tmp_path / "work"
  store = _interrupted(folder)
  checkpoint = store.load_checkpoint()
  checkpoint["iteration"] = 10**6
  store.checkpoint_path.write_bytes(encode_checkpoint(checkpoint))
  with pytest.warns(UserWarning, match="outside 0..40"):
    run_jobs([_job()], folder, make_executor("local"), 10, quiet=True)
  pd.testing.assert_frame_equal(reference, _rows(folder))


def test_a_damaged_snapshot_read_names_its_file(tmp_path):
  store = _finished(tmp_path)
  (store.folder / "snapshot_final.npz").write_bytes(b"junk")
  with pytest.raises(ValueError, match="snapshot_final.npz is damaged"):
    store.load_snapshot("final")
