"""Results are never lost: one writer per run folder, no silent overwrite,
a report that keeps what it had, atomic files, clear errors, provenance.

Each test reproduces a way results were lost or corrupted, run as a user
runs ``run_experiments.py``.
"""

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

import spiel_ext
from conftest import one_line_error
from spiel_ext.experiments import EXPERIMENTS, settings_for
from spiel_ext.experiments.spec import build_jobs
from spiel_ext.files import OutputError, atomic_write
from spiel_ext.results.lock import FolderLocked, RunLock
from spiel_ext.results.report import report_text
from spiel_ext.results.store import load_results
from spiel_ext.results.tables import to_markdown

ROOT = Path(__file__).resolve().parent.parent
RUNNER = str(ROOT / "run_experiments.py")
SMALL = ["--experiment=quickstart", "--games=kuhn_poker", "--seeds=2",
         "--algorithms=CFR,XFP", "--checkpoint_every=100"]


def _run(*flags, check=True, quiet=True, env=None):
  result = subprocess.run(
      [sys.executable, RUNNER, *(["--quiet"] if quiet else []), *flags],
      capture_output=True, text=True, cwd=ROOT, timeout=600, env=env)
  if check and result.returncode != 0:
    raise AssertionError(result.stdout + result.stderr)
  return result


def _rows(folder):
  return load_results(folder).drop(columns="wall_time")


def _files(folder):
  return {path: path.read_bytes() for path in sorted(folder.rglob("*"))
          if path.is_file() and path.name != ".lock"}


# ------------------------------------------------------ one writer per folder
def _start_paused(flags, folder):
  """A runner stopped (SIGSTOP) once it holds the folder's lock."""
  process = subprocess.Popen([sys.executable, RUNNER, "--quiet", *flags,
                              f"--output_dir={folder}"], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, start_new_session=True)
  lock = folder / "quickstart" / ".lock"
  deadline = time.time() + 120
  while time.time() < deadline and process.poll() is None:
    if lock.exists() and f'"pid": {process.pid}' in lock.read_text():
      os.kill(process.pid, signal.SIGSTOP)
      return process
    time.sleep(0.005)
  raise AssertionError("the first runner never took the lock: " +
                       process.communicate()[1])


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["fresh", "resume"])
def test_a_second_runner_is_refused_and_the_first_completes_exactly(
    tmp_path, mode):
  flags = SMALL + ["--iterations=3000"]
  folder = tmp_path / "shared"
  if mode == "resume":
    # A run whose units are half done: two of them lose their files.
    _run(*flags, f"--output_dir={folder}")
    for unit in sorted((folder / "quickstart" / "units").iterdir())[:2]:
      for path in unit.iterdir():
        path.unlink()
    flags = flags + ["--resume"]
  first = _start_paused(flags, folder)
  try:
    second = _run(*flags, f"--output_dir={folder}", check=False)
  finally:
    os.kill(first.pid, signal.SIGCONT)
  _, stderr = first.communicate(timeout=600)
  assert first.returncode == 0, stderr
  one_line_error(second, "is being written by", f"pid {first.pid}",
                  "--output_dir")
  _run(*SMALL, "--iterations=3000", f"--output_dir={tmp_path / 'alone'}")
  shared = _rows(folder / "quickstart")
  assert not shared.duplicated().any()
  pd.testing.assert_frame_equal(_rows(tmp_path / "alone" / "quickstart"),
                                shared)


@pytest.mark.slow
def test_workers_die_with_a_killed_runner(tmp_path):
  """kill -9 of the runner alone (not its process group) while its two
  workers are mid-unit: they stop writing at once, so the next --resume is
  the only writer and completes every unit."""
  flags = ["--experiment=quickstart", "--games=kuhn_poker", "--seeds=1",
           "--algorithms=CFR,XFP", "--iterations=40000", "--eval_every=1000",
           "--checkpoint_every=700", "--workers=2"]
  process = subprocess.Popen([sys.executable, RUNNER, "--quiet", *flags,
                              f"--output_dir={tmp_path}"], cwd=ROOT,
                             stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
  units = tmp_path / "quickstart" / "units"
  deadline = time.time() + 300
  while time.time() < deadline and len(list(
      units.glob("*/checkpoint.npz"))) < 2:
    time.sleep(0.005)
  os.kill(process.pid, signal.SIGKILL)
  process.wait()
  time.sleep(0.5)
  sizes = {path: path.stat().st_size for path in units.glob("*/rows.csv")}
  time.sleep(2.0)
  assert len(sizes) == 2 and sizes == {
      path: path.stat().st_size for path in units.glob("*/rows.csv")}
  assert not list(units.glob("*/done.json"))
  _run(*flags, f"--output_dir={tmp_path}", "--resume")
  frame = _rows(tmp_path / "quickstart")
  assert not frame.duplicated().any()
  settings = settings_for(EXPERIMENTS["quickstart"], "quick",
                          iterations=40000, seeds=1, games=["kuhn_poker"],
                          algorithms=["CFR", "XFP"], eval_every=1000)
  for job in build_jobs(settings):
    points = frame[frame.algorithm == job.unit.algorithm].iteration
    assert tuple(points) == job.unit.eval_points


def test_garbage_in_the_lock_file_is_ignored(tmp_path):
  for garbage in ("42", "[1, 2]", "\"text\"", "not json"):
    (tmp_path / ".lock").write_text(garbage)
    with RunLock(tmp_path):
      pass


def test_a_lock_left_by_a_killed_process_is_taken_over(tmp_path, caplog):
  script = textwrap.dedent(f"""
      import time
      from spiel_ext.results.lock import RunLock
      lock = RunLock({str(tmp_path)!r})
      lock.acquire()
      print("locked", flush=True)
      time.sleep(600)
  """)
  holder = subprocess.Popen([sys.executable, "-c", script],
                            stdout=subprocess.PIPE, text=True)
  assert holder.stdout.readline().strip() == "locked"
  with pytest.raises(FolderLocked, match=f"pid {holder.pid} on "):
    RunLock(tmp_path).acquire()
  holder.kill()
  holder.wait()
  with RunLock(tmp_path):
    assert f"pid {holder.pid}" in caplog.text and "no longer running" in (
        caplog.text)
    record = json.loads((tmp_path / ".lock").read_text())
    assert record["pid"] == os.getpid()
  assert (tmp_path / ".lock").read_text() == ""


# ------------------------------------------------ never delete unasked
@pytest.mark.slow
def test_a_rerun_without_flags_is_refused_and_keeps_the_results(tmp_path):
  flags = SMALL + ["--iterations=20", f"--output_dir={tmp_path}"]
  _run(*flags)
  before = _files(tmp_path)
  result = _run(*flags, check=False)
  one_line_error(result, "already holds results", "--resume", "--overwrite")
  assert _files(tmp_path) == before
  both = _run(*flags, "--resume", "--overwrite", check=False)
  one_line_error(both, "--resume and --overwrite")
  assert _files(tmp_path) == before


@pytest.mark.slow
def test_overwrite_deletes_the_run_and_starts_over(tmp_path):
  _run(*SMALL, "--iterations=20", f"--output_dir={tmp_path}")
  stray = tmp_path / "quickstart" / "units" / "feedfacefeedface"
  stray.mkdir()
  (stray / "rows.csv").write_text("x\n")
  result = _run(*SMALL, "--iterations=30", f"--output_dir={tmp_path}",
                "--overwrite", quiet=True)
  assert "deleted the previous run" in result.stderr
  assert not stray.exists()
  frame = _rows(tmp_path / "quickstart")
  assert frame.iteration.max() == 30


@pytest.mark.slow
def test_a_refused_value_with_overwrite_keeps_the_old_run(tmp_path):
  _run(*SMALL, "--iterations=20", f"--output_dir={tmp_path}")
  before = _files(tmp_path)
  result = _run("--experiment=quickstart", "--games=leduc_poker(players=10)",
                "--algorithms=CFR", f"--output_dir={tmp_path}", "--overwrite",
                check=False)
  one_line_error(result, "too large to compile")
  assert _files(tmp_path) == before


@pytest.mark.slow
def test_a_missing_or_wrong_config_falls_back_to_the_manifest(tmp_path):
  flags = SMALL + ["--iterations=20", f"--output_dir={tmp_path}"]
  _run(*flags)
  before = _rows(tmp_path / "quickstart")
  config = tmp_path / "quickstart" / "config.json"
  for damage in (config.unlink, lambda: config.write_text("[1]"),
                 lambda: config.write_text('{"a": 1}')):
    damage()
    result = _run(*flags, "--resume")
    assert "manifest.json" in result.stderr
    pd.testing.assert_frame_equal(before, _rows(tmp_path / "quickstart"))
  config.write_text("[1]")
  (tmp_path / "quickstart" / "manifest.json").unlink()
  one_line_error(_run(*flags, "--resume", check=False), str(config))
  # The report names the damage in that experiment's section.
  other = tmp_path / "other"
  _run("--experiment=pref_cfr_kuhn_alpha", "--iterations=20", "--seeds=1",
       f"--output_dir={other}")
  (other / "pref_cfr_kuhn_alpha" / "config.json").write_text("[1]")
  (other / "pref_cfr_kuhn_alpha" / "manifest.json").unlink()
  report = _run("--experiment=report", f"--output_dir={other}")
  section = report_text(other / "reproduction.md").split(
      "## pref_cfr_kuhn_alpha", 1)[1].split("\n## ", 1)[0]
  assert "config.json is damaged" in section
  assert "Traceback" not in report.stderr


@pytest.mark.slow
def test_one_experiment_s_partial_results_do_not_stop_the_report(tmp_path):
  """bufp_convergence's results file is damaged after its run: its
  section says why it has no claims, and the other sections are written."""
  _run("--experiment=bufp_convergence", "--algorithms=CFR",
       "--games=kuhn_poker", "--seeds=1", "--iterations=20",
       f"--output_dir={tmp_path}")
  (tmp_path / "bufp_convergence" / "results.parquet").write_bytes(b"PAR1")
  _run("--experiment=pref_cfr_kuhn_alpha", "--iterations=20", "--seeds=2",
       f"--output_dir={tmp_path}")
  _run("--experiment=report", f"--output_dir={tmp_path}")
  text = report_text(tmp_path / "reproduction.md")
  assert "its claims could not be read" in text.split(
      "## bufp_convergence", 1)[1].split("\n## ", 1)[0]
  assert 'class="verdict verdict-' in text.split(
      "## pref_cfr_kuhn_alpha", 1)[1].split("\n## ", 1)[0]


@pytest.mark.slow
def test_a_unit_folder_of_another_run_is_not_merged(tmp_path):
  ours, theirs = tmp_path / "ours", tmp_path / "theirs"
  _run(*SMALL, "--iterations=20", f"--output_dir={ours}")
  _run(*SMALL, "--iterations=30", f"--output_dir={theirs}")
  before = _rows(ours / "quickstart")
  for unit in (theirs / "quickstart" / "units").iterdir():
    shutil.copytree(unit, ours / "quickstart" / "units" / unit.name)
  _run(*SMALL, "--iterations=20", f"--output_dir={ours}", "--resume")
  merged = pd.read_parquet(ours / "quickstart" / "results.parquet")
  pd.testing.assert_frame_equal(before, merged.drop(columns="wall_time"))


@pytest.mark.slow
def test_a_torn_config_is_named_or_recovered_from_the_manifest(tmp_path):
  flags = SMALL + ["--iterations=20", f"--output_dir={tmp_path}"]
  _run(*flags)
  folder = tmp_path / "quickstart"
  config = folder / "config.json"
  config.write_text(config.read_text()[:25])
  # A temporary file a kill -9 left mid-write.
  leftover = next((folder / "units").iterdir()) / ".checkpoint.npz.x.tmp"
  leftover.write_bytes(b"half")
  # The manifest holds the settings too: --resume carries on.
  recovered = _run(*flags, "--resume")
  assert not leftover.exists()
  assert "damaged" in recovered.stderr and "manifest.json" in recovered.stderr
  config.write_text(config.read_text()[:25])
  (folder / "manifest.json").write_text("{\"units\": [")
  result = _run(*flags, "--resume", check=False)
  one_line_error(result, str(config), "damaged", "--overwrite")


# ------------------------------------------------ the report
@pytest.mark.slow
def test_the_report_goes_to_the_output_dir_and_keeps_sections(tmp_path):
  committed = ROOT / "docs" / "reproduction"
  report = tmp_path / "report.md"
  shutil.copytree(committed, tmp_path / "report",
                  ignore=shutil.ignore_patterns("files"))
  empty = tmp_path / "empty"
  _run("--experiment=report", f"--output_dir={empty}",
       f"--report_path={report}")
  for page in committed.glob("*.md"):
    assert (tmp_path / "report" / page.name).read_text().split(
        "\n## ", 1)[1] == page.read_text().split("\n## ", 1)[1], page.name
  # By default the report is written inside --output_dir, never to docs/.
  result = _run("--experiment=report", f"--output_dir={empty}")
  assert (empty / "reproduction.md").exists()
  assert str(empty / "reproduction.md") in result.stdout
  assert "No results yet" in report_text(empty / "reproduction.md")


@pytest.mark.slow
def test_the_report_says_where_each_result_came_from(tmp_path):
  _run("--experiment=pref_cfr_kuhn_alpha", "--iterations=20", "--seeds=2",
       f"--output_dir={tmp_path}")
  _run("--experiment=report", f"--output_dir={tmp_path}")
  text = report_text(tmp_path / "reproduction.md")
  section = text.split("## pref_cfr_kuhn_alpha", 1)[1].split("\n## ", 1)[0]
  assert f"spiel_ext {spiel_ext.__version__}" in section
  assert "--experiment=pref_cfr_kuhn_alpha" in section
  assert "--output_dir=<results>" in section
  assert str(tmp_path) not in text
  assert "## bufp_convergence (no scale)" in text


# ------------------------------------------------ provenance and output
@pytest.mark.slow
def test_results_record_where_they_came_from(tmp_path):
  result = _run(*SMALL, "--iterations=20", f"--output_dir={tmp_path}")
  folder = tmp_path / "quickstart"
  manifest = json.loads((folder / "manifest.json").read_text())
  session, = manifest["sessions"]
  for key in ("spiel_ext", "open_spiel", "numpy", "numba", "python",
              "git_commit", "command", "host", "started_utc",
              "finished_utc"):
    assert key in session, key
  assert session["spiel_ext"] == spiel_ext.__version__
  assert session["python"] == ".".join(map(str, sys.version_info[:3]))
  assert "--iterations=20" in session["command"]
  assert session["finished_utc"] >= session["started_utc"]
  assert len(manifest["units"]) == 4
  # The Parquet file carries them (pandas restores them as attrs), and so
  # does load_results.
  metadata = pq.read_schema(folder / "results.parquet").metadata
  assert spiel_ext.__version__.encode() in metadata[b"PANDAS_ATTRS"]
  assert pd.read_parquet(folder / "results.parquet").attrs[
      "provenance"] == manifest["sessions"]
  assert load_results(folder).attrs["provenance"] == manifest["sessions"]
  # A closing summary says what ran and where the files are.
  assert f"4 work units" in result.stdout and str(folder) in result.stdout


@pytest.mark.slow
def test_redirected_progress_is_a_line_per_tenth(tmp_path):
  result = _run(*SMALL, "--iterations=2000", f"--output_dir={tmp_path}",
                quiet=False)
  progress = [line for line in result.stderr.splitlines()
              if line.startswith("quickstart: ") and "it/s" in line]
  assert 1 <= len(progress) <= 10, result.stderr
  assert "100%" in progress[-1] and "left" in progress[-1]
  assert "\r" not in result.stderr
  assert len(result.stderr) < 5000


def test_help_lists_experiments_and_algorithm_labels():
  from spiel_ext.experiments.solvers import ALGORITHMS  # pylint: disable=g-import-not-at-top
  result = _run("--help", quiet=False, check=False)  # absl exits 1.
  for name in EXPERIMENTS:
    assert name in result.stdout
  for label in ALGORITHMS:
    assert label in result.stdout, label


@pytest.mark.parametrize("mask", [0o022, 0o077])
def test_files_get_the_users_umask(tmp_path, mask):
  previous = os.umask(mask)
  try:
    path = atomic_write(tmp_path / "f.csv", "x")
  finally:
    os.umask(previous)
  assert path.stat().st_mode & 0o777 == 0o666 & ~mask


@pytest.mark.slow
def test_results_are_readable_by_the_group_under_umask_022(tmp_path):
  _run(*SMALL, "--iterations=10", f"--output_dir={tmp_path}")
  for name in ("results.csv", "results.parquet", "manifest.json",
               "figures/nash_conv.png", "tables/summary.md"):
    mode = (tmp_path / "quickstart" / name).stat().st_mode & 0o777
    assert mode == 0o666 & ~0o022, (name, oct(mode))


def test_markdown_tables_escape_pipes():
  frame = pd.DataFrame({"P(a | b)": ["x|y"], "v": [1.5]})
  header, rule, row = to_markdown(frame).splitlines()
  assert header == "| P(a \\| b) | v |"
  assert rule.count("|") == 3 and row == "| x\\|y | 1.5 |"


# ------------------------------------------------ failures while writing
def test_a_full_disk_is_one_line_and_leaves_no_temporary_file(tmp_path,
                                                             monkeypatch):
  def no_space(fd):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
  monkeypatch.setattr(os, "fsync", no_space)
  with pytest.raises(OutputError, match="cannot write .*f.bin: No space"):
    atomic_write(tmp_path / "f.bin", b"data")
  assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_the_runner_on_a_full_disk(tmp_path):
  """ENOSPC from the first fsync: a one-line error naming the file."""
  script = textwrap.dedent(f"""
      import errno, os, runpy, sys
      def no_space(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
      os.fsync = no_space
      sys.argv = [{RUNNER!r}, "--quiet", *{SMALL!r}, "--iterations=10",
                  "--output_dir={tmp_path}"]
      runpy.run_path({RUNNER!r}, run_name="__main__")
  """)
  result = subprocess.run([sys.executable, "-c", script], capture_output=True,
                          text=True, cwd=ROOT, timeout=600)
  one_line_error(result, "cannot write", str(tmp_path / "quickstart"),
                  "No space left on device")
  assert not list(tmp_path.rglob("*.tmp"))


@pytest.mark.slow
def test_a_file_where_a_unit_folder_goes(tmp_path):
  _run(*SMALL, "--iterations=10", f"--output_dir={tmp_path}")
  units = tmp_path / "quickstart" / "units"
  victim = sorted(units.iterdir())[0]
  for path in victim.iterdir():
    path.unlink()
  victim.rmdir()
  victim.write_text("in the way")
  result = _run(*SMALL, "--iterations=10", f"--output_dir={tmp_path}",
                "--resume", check=False)
  one_line_error(result, "cannot write", victim.name)
  assert not list(tmp_path.rglob("*.tmp"))


# ------------------------------------------------ kill -9 at every phase
_KILL_FLAGS = SMALL + ["--iterations=3000"]
# When to kill: the first file of this pattern (under the run folder) exists.
_KILL_POINTS = {
    "lock taken, no unit yet": ".lock",
    "first checkpoint written": "units/*/checkpoint.npz",
    "first unit finished": "units/*/done.json",
    "merging and drawing": "results.parquet",
}


@pytest.fixture(name="uninterrupted", scope="module")
def _uninterrupted(tmp_path_factory):
  folder = tmp_path_factory.mktemp("uninterrupted")
  _run(*_KILL_FLAGS, f"--output_dir={folder}")
  return _rows(folder / "quickstart")


@pytest.mark.slow
@pytest.mark.parametrize("moment", sorted(_KILL_POINTS))
def test_kill_minus_nine_at_any_moment_then_resume(tmp_path, uninterrupted,
                                                   moment):
  process = subprocess.Popen(
      [sys.executable, RUNNER, "--quiet", *_KILL_FLAGS,
       f"--output_dir={tmp_path}"], cwd=ROOT, start_new_session=True,
      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
  folder = tmp_path / "quickstart"
  deadline = time.time() + 300
  while time.time() < deadline and process.poll() is None:
    if list(folder.glob(_KILL_POINTS[moment])):
      break
    time.sleep(0.002)
  killed = process.poll() is None
  os.killpg(process.pid, signal.SIGKILL)
  process.wait()
  # The stale lock is taken over by --resume, which also removes any
  # temporary file the kill left mid-write.
  _run(*_KILL_FLAGS, f"--output_dir={tmp_path}", "--resume")
  assert not list(tmp_path.rglob("*.tmp"))
  resumed = _rows(folder)
  assert not resumed.duplicated().any()
  pd.testing.assert_frame_equal(uninterrupted, resumed)
  if moment != "merging and drawing":  # That one may finish first.
    assert killed, "the run ended before the kill"
