"""No process outlives the runner, and a bad cluster address fails fast.

kill -9 of the runner alone (not its process group) must take every
process it started with it (workers, multiprocessing's helpers), and an
unreachable ``--ray_address`` must fail in seconds with nothing written.
"""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spiel_ext.executors.ray_cluster import check_address

ROOT = Path(__file__).resolve().parent.parent
RUNNER = str(ROOT / "run_experiments.py")
SMALL = ["--experiment=quickstart", "--games=kuhn_poker", "--seeds=1",
         "--algorithms=CFR", "--iterations=50"]

try:
  import psutil
except ImportError:
  psutil = None


def _descendants(pid: int) -> list[int]:
  """The processes ``pid`` started, and theirs."""
  if psutil is not None:
    return [child.pid for child in psutil.Process(pid).children(
        recursive=True)]
  parents = {}
  for entry in Path("/proc").iterdir():
    if entry.name.isdigit():
      try:
        stat = (entry / "stat").read_text()
      except OSError:
        continue
      parents[int(entry.name)] = int(stat.rpartition(")")[2].split()[1])
  found, frontier = [], [pid]
  while frontier:
    parent = frontier.pop()
    children = [child for child, ppid in parents.items() if ppid == parent]
    found += children
    frontier += children
  return found


def _running(pid: int) -> bool:
  """True while ``pid`` runs (a zombie waiting to be reaped does not)."""
  if psutil is not None:
    try:
      return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
      return False
  try:
    stat = Path(f"/proc/{pid}/stat").read_text()
  except OSError:
    return False
  return stat.rpartition(")")[2].split()[0] != "Z"


def _free_port() -> int:
  with socket.socket() as probe:
    probe.bind(("127.0.0.1", 0))
    return probe.getsockname()[1]


@pytest.mark.slow
@pytest.mark.skipif(psutil is None and not Path("/proc/self/stat").exists(),
                    reason="needs psutil or /proc to see the processes")
def test_nothing_outlives_a_killed_runner(tmp_path):
  process = subprocess.Popen(
      [sys.executable, RUNNER, "--quiet", "--experiment=quickstart",
       "--games=kuhn_poker", "--seeds=1", "--algorithms=CFR,XFP",
       "--iterations=40000", "--eval_every=1000", "--checkpoint_every=700",
       "--workers=2", f"--output_dir={tmp_path}"], cwd=ROOT,
      start_new_session=True, stdout=subprocess.DEVNULL,
      stderr=subprocess.DEVNULL)
  try:
    units = tmp_path / "quickstart" / "units"
    deadline = time.time() + 300
    while time.time() < deadline and process.poll() is None and len(
        list(units.glob("*/checkpoint.npz"))) < 2:
      time.sleep(0.01)
    started = _descendants(process.pid)
    assert process.poll() is None, "the run ended before the kill"
    assert len(started) >= 2, "the workers did not start"
    os.kill(process.pid, signal.SIGKILL)  # The runner alone.
    process.wait()
    deadline = time.time() + 5
    while time.time() < deadline and any(map(_running, started)):
      time.sleep(0.05)
    assert [pid for pid in started if _running(pid)] == []
  finally:
    try:
      os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
      pass


@pytest.mark.ray
def test_an_unreachable_ray_address_fails_fast_writing_nothing(tmp_path):
  pytest.importorskip("ray")
  address = f"127.0.0.1:{_free_port()}"
  output_dir = tmp_path / "results"
  process = subprocess.Popen(
      [sys.executable, RUNNER, "--quiet", *SMALL, "--executor=ray",
       f"--ray_address={address}", f"--output_dir={output_dir}"], cwd=ROOT,
      start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
      text=True)
  try:
    # Joining it used to wait for minutes after writing the run folder.
    _, stderr = process.communicate(timeout=60)
  finally:
    try:
      os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
      pass
  assert process.returncode != 0
  assert "Traceback" not in stderr, stderr
  error = [line for line in stderr.splitlines() if "error" in line.lower()]
  assert error and "--ray_address" in error[-1] and address in error[-1], (
      stderr)
  assert not (output_dir / "quickstart").exists()
  assert not output_dir.exists()  # Checked before the folder is made.


def test_ray_addresses_are_checked_as_ray_reads_them(monkeypatch):
  unreachable = f"127.0.0.1:{_free_port()}"
  for address in (unreachable, f"ray://{unreachable}"):
    with pytest.raises(ValueError, match="--ray_address"):
      check_address(address, timeout=2)
  for address in ("nowhere", "host:port", "host:0", ""):
    with pytest.raises(ValueError, match="--ray_address"):
      check_address(address)
  check_address(None)
  check_address("local")  # A new local instance: nothing to reach.
  pytest.importorskip("ray")
  # "auto" is the cluster Ray finds first: RAY_ADDRESS when it is set.
  monkeypatch.setenv("RAY_ADDRESS", unreachable)
  port = unreachable.rpartition(":")[2]
  with pytest.raises(ValueError, match=f"--ray_address=auto .*:{port}\\)"):
    check_address("auto", timeout=2)
