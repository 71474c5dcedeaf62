"""Property test: whatever flags a user types, the runner gives a clear
error or a valid run, never a traceback or a hang.

The flags are parsed on a fresh ``absl.flags.FlagValues`` and planned in
this process (``run_experiments.plan``); plans small enough to run in well
under a second are run for real.
"""

import sys
import tempfile
from pathlib import Path

import hypothesis
import pytest
from absl import flags
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import run_experiments  # pylint: disable=g-import-not-at-top,wrong-import-position

from spiel_ext.results.store import load_results  # pylint: disable=g-import-not-at-top,wrong-import-position

_HUGE = st.integers(10**8, 10**30)
_SMALL = st.integers(1, 12)
# Half of the draws are sensible values, so that valid runs are common.
_INTEGER_TEXT = st.one_of(_SMALL, st.one_of(
    st.integers(-5, 0), _HUGE, st.integers(-10**30, -6),
    st.sampled_from(["", "x", "1.5", "1e3", " 3", "0x10", "--", "nan"])))
_OPTIONS = {
    "experiment": st.one_of(st.just("pref_cfr_kuhn_alpha"), st.sampled_from(
        ["quickstart", "", "nope", "quickstart,", ",", "report",
         "quickstart,pref_cfr_kuhn_alpha"])),
    "scale": st.sampled_from(["quick", "huge", ""]),
    "iterations": _INTEGER_TEXT, "seeds": _INTEGER_TEXT,
    "seed": st.one_of(_INTEGER_TEXT, st.integers(2**32 - 3, 2**32 + 3),
                      st.just(2**63 - 1)),
    "eval_every": _INTEGER_TEXT, "checkpoint_every": _INTEGER_TEXT,
    "workers": _INTEGER_TEXT,
    "algorithms": st.one_of(st.sampled_from(["CFR", "CFR,XFP"]),
                            st.sampled_from(["", "Magic", ",", "CFR,,XFP",
                                             "XFP (eps=0.01)"])),
    "games": st.one_of(st.just("kuhn_poker"), st.sampled_from(
        ["", "no_such_game", "kuhn_poker(players=3)", "kuhn_poker(foo=1)",
         "kuhn_pokr", "leduc_poker(", "tic_tac_toe"])),
    "executor": st.sampled_from(["local", "dask", ""]),
    "output_dir": st.sampled_from(["", "out", "   "]),
}
_SWITCHES = ["resume", "overwrite", "quiet"]


# A run small enough to do at once; each drawn argv changes some of it.
_SMALL_RUN = {"experiment": "pref_cfr_kuhn_alpha", "iterations": "4",
              "seeds": "1", "games": "kuhn_poker", "algorithms": "CFR"}


@st.composite
def _argv(draw):
  argv = []
  for name in sorted(_OPTIONS):
    choice = draw(st.integers(0, 5))
    if choice == 4:
      argv.append(f"--{name}={draw(_OPTIONS[name])}")
    elif choice < 4 and name in _SMALL_RUN:
      argv.append(f"--{name}={_SMALL_RUN[name]}")
  argv += [f"--{name}" for name in draw(st.lists(st.sampled_from(_SWITCHES),
                                                 unique=True))]
  return argv


def _runs_in_a_moment(plans) -> bool:
  return all(set(settings.games) <= {"kuhn_poker()"} and
             settings.iterations * settings.seeds * len(settings.algorithms)
             <= 200 for _, settings in plans)


_SETTINGS = {"deadline": None, "derandomize": True,
             "suppress_health_check": list(hypothesis.HealthCheck)}


@hypothesis.settings(max_examples=300, **_SETTINGS)
@hypothesis.given(argv=_argv())
def test_any_flags_give_a_clear_error_or_a_valid_plan(argv):
  _check(argv, run=False)


@pytest.mark.slow
@hypothesis.settings(max_examples=25, **_SETTINGS)
@hypothesis.given(argv=_argv())
def test_any_flags_give_a_clear_error_or_a_valid_run(argv):
  _check(argv, run=True)


def _check(argv, run: bool) -> None:
  flag_values = flags.FlagValues()
  run_experiments.define_flags(flag_values)
  with tempfile.TemporaryDirectory() as folder:
    # Relative output folders land in a fresh folder, not the checkout.
    argv = [arg.replace("--output_dir=out", f"--output_dir={folder}/out")
            for arg in argv]
    if not any(arg.startswith("--output_dir") for arg in argv):
      argv.append(f"--output_dir={folder}/out")
    try:
      flag_values(["run_experiments.py", *argv])
    except flags.Error as error:
      hypothesis.event("refused by the flag parser")
      # absl names the flag: "flag --iterations=0: ..." or "Unknown ...".
      assert "--" in str(error) or "flag" in str(error), str(error)
      return
    try:
      plans = run_experiments.plan(flag_values)
    except SystemExit as error:
      hypothesis.event("refused by the plan")
      _assert_one_line(error)
      return
    flag_values.quiet = True
    if not run:
      return
    if plans and not _runs_in_a_moment(plans):
      hypothesis.event("valid, too long to run here")
      return
    try:
      run_experiments.run(flag_values)
    except SystemExit as error:
      hypothesis.event("refused while running")
      _assert_one_line(error)
      return
    hypothesis.event("ran")
    for name, settings in plans:
      frame = load_results(Path(flag_values.output_dir) / name)
      assert set(frame.algorithm) == set(settings.algorithms)
      assert frame.iteration.max() == settings.iterations


def _assert_one_line(error: SystemExit) -> None:
  message = error.code
  assert isinstance(message, str), message
  assert message.startswith("run_experiments.py: error: "), message
  assert "\n" not in message.strip(), message
  assert "Available games" not in message


@pytest.mark.parametrize("argv", [
    ["--experiment=quickstart", "--iterations=3", "--seeds=1",
     "--games=kuhn_poker", "--algorithms=CFR"],
])
def test_the_property_test_does_run_valid_plans(argv, tmp_path):
  """The property's run branch is reachable (a plan that small runs)."""
  flag_values = flags.FlagValues()
  run_experiments.define_flags(flag_values)
  flag_values(["run_experiments.py", *argv, f"--output_dir={tmp_path}",
               "--quiet"])
  plans = run_experiments.plan(flag_values)
  assert _runs_in_a_moment(plans)
  run_experiments.run(flag_values)
  assert (tmp_path / "quickstart" / "results.parquet").exists()
