"""The command line: --help lists the tool's flags, ``python -m spiel_ext``,
the quickstart's printed result table, --quiet, the refusal's next step and
a time left that counts the work after the last iteration."""

import io
import itertools
import logging
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest
from absl import logging as absl_logging

from conftest import one_line_error
from spiel_ext.executors import progress, run_jobs
from spiel_ext.executors.progress import ProgressLines

ROOT = Path(__file__).resolve().parents[1]
TOOL_FLAGS = ("--experiment", "--scale", "--workers", "--resume",
              "--output_dir", "--iterations", "--seeds", "--quiet",
              "--overwrite", "--executor")
# A quickstart small enough for a test: every algorithm, one start, Kuhn.
TINY_QUICKSTART = ["--experiment=quickstart", "--games=kuhn_poker",
                   "--seeds=1", "--iterations=20"]


def _shown(flag: str, text: str) -> bool:
  """Whether ``text`` lists ``flag`` with its help (a boolean flag as
  --[no]name)."""
  name = flag.lstrip("-")
  return re.search(rf"^  --(\[no\])?{name}: \S", text, re.M) is not None


def _command(*arguments, module=("spiel_ext",)):
  return subprocess.run([sys.executable, "-m", *module, *arguments],
                        capture_output=True, text=True, cwd=ROOT,
                        timeout=600)


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_lists_the_tools_own_flags_and_exits_0(flag):
  result = _command(flag, module=("spiel_ext.cli",))
  assert result.returncode == 0, result.stderr
  for name in TOOL_FLAGS:
    assert _shown(name, result.stdout), (name, result.stdout)
  # Each flag with its help text, absl's own flags left to --helpfull.
  assert "Continue the run in --output_dir" in result.stdout
  assert "--helpfull" in result.stdout
  assert "--logtostderr" not in result.stdout
  assert "quickstart" in result.stdout  # The experiments it runs.


def test_python_m_spiel_ext_is_the_command():
  result = _command("--help")
  assert result.returncode == 0, result.stderr
  assert "python -m spiel_ext" in result.stdout.splitlines()[0]
  for name in TOOL_FLAGS:
    assert _shown(name, result.stdout), name
  refused = _command("--experiment=nonesuch")
  one_line_error(refused, "--experiment", "quickstart")


def test_quiet_logging_keeps_warnings():
  from spiel_ext import cli  # pylint: disable=g-import-not-at-top
  root = logging.getLogger()
  level, verbosity = root.level, absl_logging.get_verbosity()
  try:
    cli.quiet_logging()
    assert not root.isEnabledFor(logging.INFO)
    assert root.isEnabledFor(logging.WARNING)
    assert absl_logging.get_verbosity() == absl_logging.WARNING
  finally:
    root.setLevel(level)
    absl_logging.set_verbosity(verbosity)


@pytest.fixture(scope="module")
def tiny_quickstart(tmp_path_factory):
  folder = tmp_path_factory.mktemp("quickstart")
  result = _command(*TINY_QUICKSTART, "--quiet", f"--output_dir={folder}")
  assert result.returncode == 0, result.stdout + result.stderr
  return folder, result


def _table_rows(stdout: str) -> dict[str, list[str]]:
  """{algorithm: [iterations, NashConv, speed]} of the printed table."""
  rows = {}
  for line in stdout.splitlines():
    match = re.match(r"^  (.+?)\s+([\d,]+)\s+(\S+)\s+(\S+)$", line)
    if match and match.group(1) != "algorithm":
      rows[match.group(1)] = list(match.groups()[1:])
  return rows


@pytest.mark.slow  # A whole quickstart run in a subprocess.
def test_quickstart_prints_its_result_table(tiny_quickstart):
  """The NashConv printed for OpenSpiel's CFR is OpenSpiel's own, and the
  speed column is against it."""
  import pyspiel  # pylint: disable=g-import-not-at-top
  from open_spiel.python.algorithms import cfr, exploitability  # pylint: disable=g-import-not-at-top
  _, result = tiny_quickstart
  rows = _table_rows(result.stdout)
  assert set(rows) == {"CFR", "CFR+", "XFP", "BUFP(EF)", "CFR (uniform)",
                       "OpenSpiel CFR (Python)"}, result.stdout
  game = pyspiel.load_game("kuhn_poker")
  solver = cfr.CFRSolver(game)
  for _ in range(20):
    solver.evaluate_and_update_policy()
  expected = exploitability.nash_conv(game, solver.average_policy())
  iterations, nash_conv, speed = rows["OpenSpiel CFR (Python)"]
  assert iterations == "20" and speed == "1x"
  assert float(nash_conv) == pytest.approx(expected, rel=1e-3)
  # Our CFR from the same uniform start matches it iterate for iterate.
  assert float(rows["CFR (uniform)"][1]) == pytest.approx(expected, rel=1e-3)
  assert float(rows["CFR"][2].rstrip("x").replace(",", "")) > 1


@pytest.mark.slow  # A whole quickstart run in a subprocess.
def test_quiet_prints_no_info_log_lines(tiny_quickstart):
  _, result = tiny_quickstart
  assert not re.search(r"^I\d{4} ", result.stderr, re.M), result.stderr
  assert "%" not in result.stderr  # No progress lines either.


@pytest.mark.slow  # A whole quickstart run in a subprocess.
def test_rerun_refusal_and_readme_show_the_next_step(tiny_quickstart):
  folder, _ = tiny_quickstart
  refused = _command(*TINY_QUICKSTART, "--quiet", f"--output_dir={folder}")
  one_line_error(refused, "--resume", "--output_dir")
  readme = (ROOT / "README.md").read_text()
  first_part = readme[:readme.index("**spiel_ext**")]
  assert "spiel-ext --experiment=quickstart --resume" in first_part
  assert "--output_dir" in first_part


def test_time_left_counts_the_work_after_the_last_iteration(monkeypatch):
  """90 s of iterations then 10 s of results, figures and tables, at one
  unit of work a second: at 81 s there are 19 s left, not 9; once the
  iterations are done, 10 s of writing."""
  clock = iter([0.0, 81.0, 90.0, 100.0])
  monkeypatch.setattr(progress.time, "perf_counter", lambda: next(clock))
  stream = io.StringIO()
  lines = ProgressLines("run", 90, stream, total_work=90.0, finishing=10.0)
  lines.update(81)
  assert stream.getvalue().splitlines()[-1].startswith("run: 81% ")
  assert "about 19 s left" in stream.getvalue().splitlines()[-1]
  lines.update(9)
  last = stream.getvalue().splitlines()[-1]
  assert last.startswith("run: 90% (90/90 iterations)")
  assert "about 10 s left (writing results, figures and tables)" in last
  lines.finish(10.0)
  last = stream.getvalue().splitlines()[-1]
  assert last.startswith("run: 100% (90/90 iterations)")
  assert "1 min 40 s elapsed, about 0 s left" in last
  assert len(stream.getvalue().splitlines()) == 3


class _Executor:
  """Runs each job's iterations at once."""

  def run(self, jobs, output_dir, checkpoint_every, on_iterations,
          on_unit_done):
    del output_dir, checkpoint_every
    for job in jobs:
      on_iterations(job.unit.unit_id, job.unit.iterations)
      on_unit_done(job.unit.unit_id)


def test_run_jobs_counts_its_finishing_steps(monkeypatch, capsys):
  """The finishing steps run after the units, their results come back and
  the progress reaches 100% only once they are done."""
  clock = itertools.count()
  monkeypatch.setattr(progress.time, "perf_counter",
                      lambda: float(next(clock)))
  jobs = [types.SimpleNamespace(unit=types.SimpleNamespace(
      unit_id=name, iterations=5)) for name in ("a", "b")]
  steps = []

  def step(name):
    assert not steps or steps[-1] != name
    printed = capsys.readouterr().err  # Before the step: only writing left.
    assert "(10/10 iterations)" in printed and "writing results" in printed
    assert "100%" not in printed
    steps.append(name)
    return name

  results = run_jobs(jobs, "unused", _Executor(), 100, label="run",
                     finishing=[(2.5, lambda: step("first")),
                                (2.5, lambda: "second")])
  assert results == ["first", "second"]
  last = capsys.readouterr().err.splitlines()[-1]
  assert last.startswith("run: 100% (10/10 iterations)"), last
