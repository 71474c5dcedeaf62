"""Algorithm entries: a solver class and its config, a stable id."""

import pytest

from spiel_ext.algorithms import CFRSolver, XFPSolver
from spiel_ext.experiments.entries import AlgorithmEntry, registry
from spiel_ext.experiments.solvers import ALGORITHMS


def test_a_config_entry_records_the_options_that_differ_from_defaults():
  entry = AlgorithmEntry(CFRSolver, CFRSolver.Config(
      random_init=True, alternating_updates=True, seed=9), "CFR (random)")
  # alternating_updates=True is CFR's default and the seed is the unit's.
  assert entry.hyperparameters == (("random_init", True),)
  assert entry.label == "CFR (random)"
  solver = entry.build("kuhn_poker", seed=3)
  assert solver.config == CFRSolver.Config(random_init=True, seed=3)


def test_an_options_entry_records_its_options_as_given():
  entry = AlgorithmEntry(XFPSolver, {"initial_policy": "random",
                                     "alternating_updates": False}, "XFP")
  assert entry.hyperparameters == (("alternating_updates", False),
                                   ("initial_policy", "random"))
  assert entry.build("kuhn_poker", seed=1).config.initial_policy == "random"


def test_the_registry_keys_entries_by_id_and_refuses_a_repeated_id():
  first = AlgorithmEntry(CFRSolver, {}, "same")
  with pytest.raises(ValueError, match="'same' is declared twice"):
    registry((first,), (AlgorithmEntry(XFPSolver, {}, "same"),))
  with pytest.raises(ValueError, match="id must be a non-empty string"):
    AlgorithmEntry(CFRSolver, {}, " ")
  assert all(key == entry.id for key, entry in ALGORITHMS.items())


def test_shared_entries_build_the_solver_their_config_names():
  entry = ALGORITHMS["CFR (simultaneous)"]
  solver = entry.build("kuhn_poker", seed=5)
  assert isinstance(solver, CFRSolver)
  assert solver.config == CFRSolver.Config(random_init=True,
                                           alternating_updates=False, seed=5)
