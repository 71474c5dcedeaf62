"""A results folder received from someone else stays harmless: nothing
spiel_ext reads from it or writes into it follows a symbolic link out of
it, and a damaged file's message gives the command that repairs it.

Each test reproduces a way a received folder read or wrote outside itself,
run as a user runs ``run_experiments.py`` where that is what went wrong.
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import one_line_error
from spiel_ext.executors import unit_store
from spiel_ext.executors.units import advance
from spiel_ext.experiments import (EXPERIMENTS, settings_for,
                                   write_reproduction_report)
from spiel_ext.experiments.spec import build_jobs
from spiel_ext.files import (LinkRefused, append_text, atomic_write,
                             read_inside)
from spiel_ext.results.lock import RunLock
from spiel_ext.results.manifest import read_manifest
from spiel_ext.results.rows import Row
from spiel_ext.results.store import UnitStore

ROOT = Path(__file__).resolve().parent.parent
RUNNER = str(ROOT / "run_experiments.py")
# A run small enough to take seconds, of an experiment the report covers.
SMALL = ["--experiment=pref_cfr_kuhn_alpha", "--games=kuhn_poker",
         "--algorithms=CFR", "--seeds=1", "--iterations=20", "--eval_every=5",
         "--checkpoint_every=10"]
SECRET = b"a file outside the results folder\n"


def _run(*flags, cwd=ROOT):
  return subprocess.run([sys.executable, RUNNER, "--quiet", *flags],
                        capture_output=True, text=True, cwd=cwd, timeout=600)


def _settings():
  return settings_for(EXPERIMENTS["pref_cfr_kuhn_alpha"], "quick",
                      iterations=20, seeds=1, games=["kuhn_poker"],
                      algorithms=["CFR"], eval_every=5)


def _files_holding(folder: Path, data: bytes) -> list[Path]:
  return [path for path in folder.rglob("*")
          if path.is_file() and data in path.read_bytes()]


@pytest.fixture(name="finished", scope="module")
def _finished(tmp_path_factory) -> Path:
  """The output folder of a finished SMALL run (copied by each test)."""
  folder = tmp_path_factory.mktemp("finished") / "results"
  result = _run(*SMALL, f"--output_dir={folder}")
  assert result.returncode == 0, result.stderr
  return folder


def _copy(finished: Path, tmp_path: Path) -> Path:
  copy = tmp_path / "results"
  shutil.copytree(finished, copy, symlinks=True)
  return copy


@pytest.mark.slow
def test_the_report_refuses_a_linked_figure(tmp_path, finished):
  tmp_path = _copy(finished, tmp_path)
  secret = tmp_path.parent / f"{tmp_path.name}_secret.png"
  secret.write_bytes(SECRET)
  link = tmp_path / "pref_cfr_kuhn_alpha" / "figures" / "extra.png"
  link.symlink_to(secret)
  result = _run("--experiment=report", f"--output_dir={tmp_path}")
  one_line_error(result, str(link), "symbolic link")
  assert [path for path in _files_holding(tmp_path, SECRET)
          if not path.is_symlink()] == []
  assert secret.read_bytes() == SECRET


@pytest.mark.slow
def test_the_report_refuses_a_linked_table_folder(tmp_path, finished):
  tmp_path = _copy(finished, tmp_path)
  elsewhere = tmp_path.parent / f"{tmp_path.name}_elsewhere"
  elsewhere.mkdir()
  (elsewhere / "stolen.md").write_bytes(SECRET)
  tables = tmp_path / "pref_cfr_kuhn_alpha" / "tables"
  for path in tables.iterdir():
    path.unlink()
  tables.rmdir()
  tables.symlink_to(elsewhere, target_is_directory=True)
  with pytest.raises(LinkRefused, match=re.escape(str(tables))):
    write_reproduction_report(EXPERIMENTS, tmp_path)
  assert not (tmp_path / "reproduction").exists() or not (
      _files_holding(tmp_path / "reproduction", SECRET))


class _Sink:
  """What a local worker does with an interval's rows and snapshots."""

  def __init__(self, store):
    self.store = store

  def rows(self, rows):
    self.store.append(rows)

  def snapshot(self, name, iteration, strategy):
    self.store.save_snapshot(name, iteration, strategy)

  def progress(self, iterations):
    pass


def _interrupted_run(output_dir: Path) -> UnitStore:
  """A run folder as a kill -9 after the first checkpoint leaves it (the
  unit's checkpoint at iteration 10 and its rows so far); its unit's
  store."""
  settings = _settings()
  folder = output_dir / "pref_cfr_kuhn_alpha"
  (job,) = build_jobs(settings)
  store = unit_store(folder, job.unit)
  checkpoint = advance(job.unit, None, 10, job.make_solver, job.metrics,
                       _Sink(store))
  store.save_checkpoint(checkpoint.as_dict())
  atomic_write(folder / "config.json", settings.as_json())
  return store


def test_resume_refuses_a_linked_rows_file(tmp_path):
  store = _interrupted_run(tmp_path)
  outside = tmp_path.parent / f"{tmp_path.name}_rows.csv"
  outside.write_bytes(store.rows_path.read_bytes())
  before = outside.read_bytes()
  store.rows_path.unlink()
  store.rows_path.symlink_to(outside)
  result = _run(*SMALL, f"--output_dir={tmp_path}", "--resume")
  one_line_error(result, str(store.rows_path), "symbolic link")
  assert outside.read_bytes() == before
  assert store.rows_path.is_symlink()


def test_a_linked_unit_folder_is_neither_read_nor_written(tmp_path):
  store = _interrupted_run(tmp_path)
  elsewhere = tmp_path.parent / f"{tmp_path.name}_unit"
  store.folder.rename(elsewhere)
  store.folder.symlink_to(elsewhere, target_is_directory=True)
  before = {path.name: path.read_bytes() for path in elsewhere.iterdir()}
  result = _run(*SMALL, f"--output_dir={tmp_path}", "--resume")
  one_line_error(result, str(store.folder), "symbolic link")
  assert before == {path.name: path.read_bytes()
                    for path in elsewhere.iterdir()}


ROW = Row("quickstart", "kuhn_poker()", "CFR", "{}", 0, 10, None, 0.5,
          "nash_conv", 0.25)


@pytest.mark.parametrize("name", ["done.json", "checkpoint.npz",
                                  "snapshot_final.npz"])
def test_a_units_linked_file_is_refused(tmp_path, name):
  run = tmp_path / "run"
  store = UnitStore(run / "units" / "unit")
  store.append([ROW])
  store.save_snapshot("final", 10, np.ones(3))
  store.save_checkpoint({"iteration": 10, "solver_seconds": 0.5,
                         "solver_state": {}})
  if name == "done.json":
    store.mark_done()
  outside = tmp_path / name
  (store.folder / name).rename(outside)
  (store.folder / name).symlink_to(outside)
  before = outside.read_bytes()
  read = {"done.json": store.is_done,
          "checkpoint.npz": store.load_checkpoint,
          "snapshot_final.npz": lambda: store.load_snapshot("final")}[name]
  with pytest.raises(LinkRefused, match=re.escape(str(store.folder / name))):
    read()
  write = {"done.json": store.mark_done,
           "checkpoint.npz": lambda: store.save_checkpoint(
               {"iteration": 10, "solver_seconds": 0.5, "solver_state": {}}),
           "snapshot_final.npz": lambda: store.save_snapshot(
               "final", 10, np.zeros(3))}[name]
  with pytest.raises(LinkRefused):
    write()
  assert outside.read_bytes() == before


def test_appends_and_reads_never_leave_the_folder(tmp_path):
  run = tmp_path / "run"
  run.mkdir()
  outside = tmp_path / "outside.txt"
  outside.write_bytes(SECRET)
  (run / "link.txt").symlink_to(outside)
  with pytest.raises(LinkRefused, match="link.txt"):
    read_inside(run, run / "link.txt")
  with pytest.raises(LinkRefused, match="link.txt"):
    append_text(run / "link.txt", "more\n", inside=run)
  with pytest.raises(LinkRefused, match="link.txt"):
    atomic_write(run / "link.txt", "more\n", inside=run)
  assert outside.read_bytes() == SECRET
  # The folder itself may be reached through a link (a linked --output_dir).
  (tmp_path / "alias").symlink_to(run, target_is_directory=True)
  append_text(tmp_path / "alias" / "rows.csv", "a\n", inside=tmp_path / "alias")
  assert read_inside(tmp_path / "alias",
                     tmp_path / "alias" / "rows.csv") == b"a\n"


def test_a_linked_manifest_or_lock_is_refused(tmp_path):
  run = tmp_path / "run"
  run.mkdir()
  outside = tmp_path / "outside.json"
  outside.write_text('{"units": []}')
  (run / "manifest.json").symlink_to(outside)
  with pytest.raises(LinkRefused, match="manifest.json"):
    read_manifest(run)
  (run / ".lock").symlink_to(outside)
  with pytest.raises(LinkRefused, match=r"\.lock"):
    with RunLock(run):
      pass
  assert outside.read_text() == '{"units": []}'


@pytest.mark.slow
def test_a_damaged_snapshot_names_the_command_that_repairs_it(tmp_path,
                                                              finished):
  output_dir = _copy(finished, tmp_path)
  (job,) = build_jobs(_settings())
  store = unit_store(output_dir / "pref_cfr_kuhn_alpha", job.unit)
  expected = store.load_snapshot("final")
  snapshot = store.folder / "snapshot_final.npz"
  snapshot.write_bytes(snapshot.read_bytes()[:100])
  with pytest.raises(ValueError) as damaged:
    store.load_snapshot("final")
  message = str(damaged.value)
  assert "\n" not in message and str(snapshot) in message
  command = re.search(r"`([^`]+)`", message)
  assert command, message
  argv = shlex.split(command.group(1))
  assert "--resume" in argv
  if argv[0] == "python":
    argv[0] = sys.executable
  # The command works from any folder, not only where the run started.
  elsewhere = tmp_path / "elsewhere"
  elsewhere.mkdir()
  repaired = subprocess.run(argv, capture_output=True, text=True,
                            cwd=elsewhere, timeout=600,
                            env=dict(os.environ))
  assert repaired.returncode == 0, repaired.stderr
  iteration, strategy = store.load_snapshot("final")
  assert iteration == expected[0]
  np.testing.assert_array_equal(strategy, expected[1])
