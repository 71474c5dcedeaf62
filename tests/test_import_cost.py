"""What importing spiel_ext pulls in: the solvers and the OpenSpiel-style
modules import no data-frame, plotting, cluster or deep-learning library,
and the package's public names stay importable from where they were."""

import importlib
import subprocess
import sys

import pytest

HEAVY = ("pandas", "matplotlib", "pyarrow", "ray", "torch")

# What an OpenSpiel user's script does with our imports: OpenSpiel's CFR
# example with spiel_ext's solver and exploitability module, one iteration.
KUHN_CFR = """
import sys
import pyspiel
import spiel_ext
from spiel_ext import exploitability
from spiel_ext.algorithms import cfr
solver = cfr.CFRSolver(pyspiel.load_game("kuhn_poker"))
solver.evaluate_and_update_policy()
exploitability.nash_conv(pyspiel.load_game("kuhn_poker"),
                         solver.average_policy())
print(" ".join(sorted(name for name in {heavy!r}
                      if name in sys.modules)))
"""


def _heavy_modules_after(script: str) -> list[str]:
  result = subprocess.run(
      [sys.executable, "-c", script.format(heavy=HEAVY)],
      capture_output=True, text=True, timeout=300, check=False)
  assert result.returncode == 0, result.stderr
  return result.stdout.split()


def test_import_spiel_ext_imports_no_heavy_library():
  assert _heavy_modules_after(
      "import sys\nimport spiel_ext\n"
      "print(' '.join(n for n in {heavy!r} if n in sys.modules))") == []


def test_openspiel_cfr_example_imports_no_heavy_library():
  assert _heavy_modules_after(KUHN_CFR) == []


def test_one_solver_does_not_import_the_others():
  script = ("import sys\nfrom spiel_ext.algorithms import CFRSolver\n"
            "print(' '.join(n for n in ('spiel_ext.algorithms.fictitious_play',"
            " 'spiel_ext.algorithms.pref_cfr', 'spiel_ext.algorithms.mmd',"
            " 'spiel_ext.eval.styles') if n in sys.modules))  # {heavy!r}")
  assert _heavy_modules_after(script) == []


@pytest.mark.parametrize("package", ["spiel_ext.algorithms", "spiel_ext.eval"])
def test_every_public_name_is_importable_from_its_package(package):
  module = importlib.import_module(package)
  for name in module.__all__:
    value = getattr(module, name)
    assert name in dir(module)
    defining = importlib.import_module(value.__module__)
    assert getattr(defining, name) is value, name


def test_unknown_name_is_an_attribute_error():
  import spiel_ext.algorithms  # pylint: disable=g-import-not-at-top
  with pytest.raises(AttributeError, match="no_such_solver"):
    spiel_ext.algorithms.no_such_solver  # pylint: disable=pointless-statement
  with pytest.raises(ImportError):
    from spiel_ext.algorithms import no_such_solver  # pylint: disable=g-import-not-at-top,unused-import  # noqa: F401


def test_a_base_class_restores_a_solver_not_imported_yet(tmp_path):
  """A state names its class; restoring it through a base class in a fresh
  process imports that solver (the package imports solvers on first use)."""
  state_file = tmp_path / "state.pkl"
  subprocess.run(
      [sys.executable, "-c",
       "import pickle, sys\nfrom spiel_ext.algorithms import PCFRPlusSolver\n"
       "solver = PCFRPlusSolver('kuhn_poker')\n"
       "solver.evaluate_and_update_policy()\n"
       "pickle.dump(solver.state_dict(), open(sys.argv[1], 'wb'))",
       str(state_file)], check=True, timeout=300)
  result = subprocess.run(
      [sys.executable, "-c",
       "import pickle, sys\n"
       "from spiel_ext.algorithms.regret import RegretMinimizationSolver\n"
       "state = pickle.load(open(sys.argv[1], 'rb'))\n"
       "solver = RegretMinimizationSolver.from_state_dict(state)\n"
       "print(type(solver).__name__, solver.iteration_count)",
       str(state_file)], capture_output=True, text=True, timeout=300,
      check=False)
  assert result.returncode == 0, result.stderr
  assert result.stdout.split() == ["PCFRPlusSolver", "1"]
