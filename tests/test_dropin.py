"""OpenSpiel's own examples, run with our solvers swapped in.

Each ``*_main`` below is the body of an OpenSpiel example
(``open_spiel/python/examples/cfr_example.py``, ``fictitious_play_example.py``,
``cfr_cpp_example.py``) line for line; only where the solver comes from is a
parameter (the import a user swaps). Both versions run and print; the
printed numbers must agree to 1e-9.
"""

import functools
import inspect
import os
import pickle
import re
import sys
import tempfile
import types

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as openspiel_policy
from open_spiel.python.algorithms import cfr as openspiel_cfr
from open_spiel.python.algorithms import discounted_cfr
from open_spiel.python.algorithms import exploitability
from open_spiel.python.algorithms import fictitious_play as openspiel_fp

from spiel_ext import eval as se
from spiel_ext.algorithms import cfr as our_cfr
from spiel_ext.algorithms import discounted_cfr as our_discounted_cfr
from spiel_ext.algorithms import fictitious_play as our_fp
from spiel_ext.algorithms import (BUFPSolver, CFRPlusSolver, CFRSolver,
                                  DCFRPlusSolver, DCFRSolver,
                                  ExternalSamplingSolver, FirstDecisions,
                                  GXFPSolver, LCFRSolver, MMDSolver,
                                  PCFRPlusSolver, PDCFRPlusSolver,
                                  PrefCFRSolver, XFPSolver)
from spiel_ext.policy import TabularPolicy

NUMBER = re.compile(r"-?\d+\.\d+(?:e-?\d+)?")


def _numbers(text):
  return [float(x) for x in NUMBER.findall(text)]


# ------------------------------------------------ open_spiel/python/examples
def cfr_example_main(cfr, FLAGS):  # pylint: disable=invalid-name
  game = pyspiel.load_game(FLAGS.game, {"players": FLAGS.players})
  cfr_solver = cfr.CFRSolver(game)

  for i in range(FLAGS.iterations):
    cfr_solver.evaluate_and_update_policy()
    if i % FLAGS.print_freq == 0:
      conv = exploitability.exploitability(game, cfr_solver.average_policy())
      print("Iteration {} exploitability {}".format(i, conv))


# pylint: disable-next=invalid-name
def fictitious_play_example_main(fictitious_play, FLAGS):
  game = pyspiel.load_game(FLAGS.game, {"players": FLAGS.players})
  xfp_solver = fictitious_play.XFPSolver(game)
  for i in range(FLAGS.iterations):
    xfp_solver.iteration()
    conv = exploitability.exploitability(game, xfp_solver.average_policy())
    if i % FLAGS.print_freq == 0:
      print("Iteration: {} Conv: {}".format(i, conv))
      sys.stdout.flush()


def cfr_cpp_example_main(solvers, FLAGS):  # pylint: disable=invalid-name
  # The example reads pyspiel.CFRSolver / pyspiel.CFRPlusSolver; ``solvers``
  # is pyspiel itself or a namespace with ours under the same names.
  game = pyspiel.load_game(
      FLAGS.game,
      {"players": FLAGS.players},
  )

  solver = None
  if FLAGS.solver == "cfr":
    solver = solvers.CFRSolver(game)
  elif FLAGS.solver == "cfrplus":
    solver = solvers.CFRPlusSolver(game)
  elif FLAGS.solver == "cfrbr":
    solver = solvers.CFRBRSolver(game)
  else:
    print("Unknown solver")
    sys.exit(0)

  for i in range(int(FLAGS.iterations / 2)):
    solver.evaluate_and_update_policy()
    print("Iteration {} exploitability: {:.6f}".format(
        i, pyspiel.exploitability(game, solver.average_policy())))

  filename = os.path.join(
      tempfile.gettempdir(), "{}_solver.pickle".format(FLAGS.solver)
  )
  print("Persisting the model...")
  with open(filename, "wb") as file:
    pickle.dump(solver, file, pickle.HIGHEST_PROTOCOL)

  print("Loading the model...")
  with open(filename, "rb") as file:
    loaded_solver = pickle.load(file)
  print("Exploitability of the loaded model: {:.6f}".format(
      pyspiel.exploitability(game, loaded_solver.average_policy())))

  for i in range(int(FLAGS.iterations / 2)):
    loaded_solver.evaluate_and_update_policy()
    tabular_policy = loaded_solver.tabular_average_policy()
    print(f"Tabular policy length: {len(tabular_policy)}")
    print("Iteration {} exploitability: {:.6f}".format(
        int(FLAGS.iterations / 2) + i,
        pyspiel.exploitability(game, loaded_solver.average_policy())))


# ------------------------------------------------------------------ tests
def _run(capsys, main, *args):
  main(*args)
  return capsys.readouterr().out


@pytest.mark.parametrize("game,players", [
    ("kuhn_poker", 2),
    pytest.param("leduc_poker", 2, marks=pytest.mark.slow)])
def test_cfr_example_with_our_cfr(capsys, game, players):
  flags = types.SimpleNamespace(iterations=30, game=game, players=players,
                                print_freq=5)
  reference = _run(capsys, cfr_example_main, openspiel_cfr, flags)
  ours = _run(capsys, cfr_example_main, our_cfr, flags)
  assert len(_numbers(ours)) == 6
  np.testing.assert_allclose(_numbers(ours), _numbers(reference), atol=1e-9)


def test_fictitious_play_example_with_our_xfp(capsys):
  flags = types.SimpleNamespace(iterations=12, game="kuhn_poker", players=2,
                                print_freq=3)
  reference = _run(capsys, fictitious_play_example_main, openspiel_fp, flags)
  ours = _run(capsys, fictitious_play_example_main, our_fp, flags)
  assert len(_numbers(ours)) == 4
  np.testing.assert_allclose(_numbers(ours), _numbers(reference), atol=1e-9)


@pytest.mark.parametrize("solver", ["cfr", "cfrplus"])
def test_cfr_cpp_example_with_our_solvers(capsys, monkeypatch, tmp_path,
                                          solver):
  monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
  flags = types.SimpleNamespace(solver=solver, iterations=20,
                                game="kuhn_poker", players=2)
  ours_module = types.SimpleNamespace(CFRSolver=CFRSolver,
                                      CFRPlusSolver=CFRPlusSolver)
  ours = _run(capsys, cfr_cpp_example_main, ours_module, flags)
  assert ours.count("Tabular policy length: 12") == 10
  # The exploitability after each of the 20 iterations of an uninterrupted
  # C++ run (and after the 10th again, for the loaded model).
  game = pyspiel.load_game("kuhn_poker")
  cpp = (pyspiel.CFRSolver if solver == "cfr" else pyspiel.CFRPlusSolver)(game)
  expected = []
  for _ in range(20):
    cpp.evaluate_and_update_policy()
    expected.append(pyspiel.exploitability(game, cpp.average_policy()))
  expected.insert(10, expected[9])
  printed = [float(x) for x in
             re.findall(r"exploitability.*: (\S+)", ours, re.IGNORECASE)]
  np.testing.assert_allclose(printed, expected, atol=1e-6)  # 6 decimals
  if solver == "cfr":
    # OpenSpiel's own example prints the same text. (Its CFRPlusSolver
    # does not resume exactly after pickling, so there only the first half
    # of its output would agree.)
    assert ours == _run(capsys, cfr_cpp_example_main, pyspiel, flags)


@pytest.mark.parametrize("construct", [
    lambda module, game: module.DCFRSolver(game, 1.2, 0.3, 3),
    lambda module, game: module.DCFRSolver(game, alpha=3 / 2, beta=0,
                                           gamma=2),
    lambda module, game: module.LCFRSolver(game)],
                         ids=["dcfr-positional", "dcfr-keywords", "lcfr"])
def test_discounted_cfr_module_swaps_in(construct):
  game = pyspiel.load_game("kuhn_poker")
  ours = construct(our_discounted_cfr, game)
  reference = construct(discounted_cfr, game)
  for _ in range(20):
    ours.evaluate_and_update_policy()
    reference.evaluate_and_update_policy()
  np.testing.assert_allclose(
      ours.average_policy().action_probability_array,
      reference.average_policy().action_probability_array, atol=1e-9)


def test_pref_cfr_dcfr_base_takes_dcfrs_parameter_names():
  preferred = PrefCFRSolver("kuhn_poker", base="dcfr", variant="rm",
                            alpha=1.2, beta=0.3, gamma=3)
  plain = DCFRSolver("kuhn_poker", alpha=1.2, beta=0.3, gamma=3)
  for _ in range(20):
    preferred.iteration()
    plain.iteration()
  np.testing.assert_array_equal(preferred.average_strategy(),
                                plain.average_strategy())


def test_xfp_accepts_save_oracles_and_average_policy_tables_match():
  game = pyspiel.load_game("kuhn_poker")
  ours = XFPSolver(game, True)
  reference = openspiel_fp.XFPSolver(game, save_oracles=True)
  for _ in range(6):
    ours.iteration()
    reference.iteration()
  ours_tables = ours.average_policy_tables()
  reference_tables = reference.average_policy_tables()
  assert len(ours_tables) == len(reference_tables) == 2
  for mine, theirs in zip(ours_tables, reference_tables):
    assert mine.keys() == theirs.keys()
    for key, probs in theirs.items():
      assert mine[key].keys() == probs.keys()
      np.testing.assert_allclose(list(mine[key].values()),
                                 list(probs.values()), atol=1e-9)
  with pytest.raises(NotImplementedError, match="head_to_head_matrix"):
    ours.get_empirical_metagame(10)
  with pytest.raises(NotImplementedError, match="expected_values"):
    ours.sample_episodes([], 10)


@pytest.mark.parametrize("factory", [
    CFRSolver, CFRPlusSolver, DCFRSolver, PrefCFRSolver, XFPSolver,
    GXFPSolver, BUFPSolver, PCFRPlusSolver, DCFRPlusSolver, PDCFRPlusSolver,
    functools.partial(MMDSolver, alpha=0.05), ExternalSamplingSolver])
def test_current_policy_is_one_object_and_average_policy_fresh(factory):
  solver = factory("kuhn_poker")
  current = solver.current_policy()
  average = solver.average_policy()
  before = current.action_probability_array.copy()
  average_before = average.action_probability_array.copy()
  for _ in range(3):
    solver.evaluate_and_update_policy()
  assert solver.current_policy() is current
  np.testing.assert_array_equal(current.action_probability_array,
                                solver.current_strategy())
  assert not np.array_equal(current.action_probability_array, before)
  assert solver.average_policy() is not average
  np.testing.assert_array_equal(average.action_probability_array,
                                average_before)
  restored = pickle.loads(pickle.dumps(solver))
  np.testing.assert_array_equal(
      restored.current_policy().action_probability_array,
      solver.current_strategy())


def test_policies_work_in_pyspiels_cpp_functions():
  game = pyspiel.load_game("leduc_poker")
  solver = CFRPlusSolver(game)
  for _ in range(10):
    solver.iteration()
  average = solver.average_policy()
  assert isinstance(average, TabularPolicy)
  assert isinstance(average, openspiel_policy.TabularPolicy)
  reference = openspiel_policy.python_policy_to_pyspiel_policy(average)
  assert pyspiel.exploitability(game, average) == pytest.approx(
      pyspiel.exploitability(game, reference), abs=1e-12)
  assert pyspiel.nash_conv(game, solver.current_policy()) == pytest.approx(
      se.nash_conv(game, solver.current_policy()), abs=1e-9)
  tabular = solver.tabular_average_policy()
  assert isinstance(tabular, pyspiel.TabularPolicy)
  assert pyspiel.exploitability(game, tabular) == pytest.approx(
      exploitability.exploitability(game, average), abs=1e-9)
  copy = pickle.loads(pickle.dumps(average))
  assert isinstance(copy, TabularPolicy)
  np.testing.assert_array_equal(copy.action_probability_array,
                                average.action_probability_array)
  state = game.new_initial_state()
  while state.is_chance_node():
    state.apply_action(state.legal_actions()[0])
  assert average.sample_action(state) in state.legal_actions()


def test_repr_names_game_hyperparameters_and_iteration():
  solver = CFRSolver(pyspiel.load_game("leduc_poker"))
  for _ in range(3):
    solver.iteration()
  assert repr(solver) == ("CFRSolver(game='leduc_poker()', "
                          "alternating_updates=True, random_init=False, "
                          "init_scale=1.0, seed=0, iteration=3)")
  assert repr(DCFRSolver("kuhn_poker", 1, 0, 2)) == (
      "DCFRSolver(game='kuhn_poker()', alpha=1.0, beta=0.0, gamma=2.0, "
      "alternating_updates=True, random_init=False, init_scale=1.0, seed=0, "
      "iteration=0)")
  assert repr(BUFPSolver("kuhn_poker", stepsize="x")) == (
      "BUFPSolver(game='kuhn_poker()', stepsize='x', "
      "continuation='best_response', alternating_updates=False, "
      "tie_break='lowest', first_step_one=False, min_action_prob=0.0, "
      "initial_policy='uniform', seed=0, iteration=0)")
  array_form = PrefCFRSolver("kuhn_poker", preference=np.full((12, 2), 2.0))
  assert "preference=<array of shape (12, 2)>" in repr(array_form)


@pytest.mark.parametrize("solver_class", [
    CFRSolver, CFRPlusSolver, DCFRSolver, LCFRSolver, PrefCFRSolver,
    XFPSolver, GXFPSolver, BUFPSolver, PCFRPlusSolver, DCFRPlusSolver,
    PDCFRPlusSolver, MMDSolver, ExternalSamplingSolver])
def test_help_documents_every_argument(solver_class):
  doc = inspect.getdoc(solver_class)
  assert "Example::" in doc and "Args:" in doc
  for name in inspect.signature(solver_class.__init__).parameters:
    if name == "self":
      continue
    assert re.search(rf"^\s+(\w+, )*{name}(, \w+)*: ", doc, re.M), (
        f"{solver_class.__name__} does not document {name}")
  assert re.search(r"\bSPEC\b|seed 00|\.\./shared", doc) is None


@pytest.mark.parametrize("solver_class", [
    CFRSolver, CFRPlusSolver, DCFRSolver, LCFRSolver, PrefCFRSolver,
    XFPSolver, GXFPSolver, BUFPSolver, PCFRPlusSolver, DCFRPlusSolver,
    PDCFRPlusSolver, MMDSolver, ExternalSamplingSolver])
def test_docstring_examples_run(solver_class):
  doc = inspect.getdoc(solver_class)
  example = inspect.cleandoc(doc.split("Example::", 1)[1])
  namespace = {"pyspiel": pyspiel, "spiel_ext": sys.modules["spiel_ext"],
               "FirstDecisions": FirstDecisions,
               solver_class.__name__: solver_class}
  exec(example, namespace)  # pylint: disable=exec-used
  solver = namespace["solver"]
  assert solver.iteration_count > 0
  if solver_class is CFRSolver:
    assert se.nash_conv(solver.game, solver.average_policy()) < 3e-3
  if solver_class is PrefCFRSolver:  # "J opens: bets more often" than CFR's.
    plain = CFRSolver("kuhn_poker")
    for _ in range(solver.iteration_count):
      plain.iteration()
    assert (solver.average_policy().policy_for_key("0")[1] >
            plain.average_policy().policy_for_key("0")[1] + 0.05)


@pytest.mark.parametrize("solver_class, options", [
    (PCFRPlusSolver, {}), (DCFRPlusSolver, {}), (PDCFRPlusSolver, {}),
    (MMDSolver, {"alpha": 0.05}), (ExternalSamplingSolver, {"seed": 1})])
def test_todays_baselines_feed_openspiels_evaluators(solver_class, options):
  """The new solvers' policies go into OpenSpiel's Python and C++
  evaluators unchanged, which agree with ours."""
  game = pyspiel.load_game("leduc_poker")
  solver = solver_class(game, **options)
  for _ in range(20):
    solver.evaluate_and_update_policy()
  for policy in (solver.average_policy(), solver.current_policy()):
    ours = se.nash_conv(game, policy)
    assert exploitability.nash_conv(game, policy) == pytest.approx(ours,
                                                                  abs=1e-9)
    assert pyspiel.nash_conv(game, policy) == pytest.approx(ours, abs=1e-9)
