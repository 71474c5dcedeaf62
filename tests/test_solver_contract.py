"""The solver contract (spiel_ext.algorithms.protocol) on every solver:
configs, keyword shortcuts, state dicts as plain data that resume exactly,
the renamed Pref-CFR keywords, and OpenSpiel's own CFR behind an adapter."""

import dataclasses
import json
import pickle

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import cfr as openspiel_cfr

from spiel_ext import algorithms
from spiel_ext.algorithms import (BUFPSolver, CFRPlusSolver, CFRSolver,
                                  ChanceSampledCFRSolver, DCFRSolver,
                                  FictitiousPlaySolver, FirstDecisions,
                                  GXFPSolver, LCFRSolver, OpenSpielCFRAdapter,
                                  PrefCFRSolver, RegretMinimizationSolver,
                                  XFPSolver, preference_degrees)
from spiel_ext.algorithms.base import Solver
from spiel_ext.algorithms.pref_cfr import (PreferenceGroup,
                                           normalise_preference)
from spiel_ext.algorithms.protocol import (STATE_VERSION, Progress,
                                           SolverProtocol, from_plain,
                                           to_plain)
from spiel_ext.algorithms.regret_rules import (DiscountedRegrets,
                                               PowerAveraging, RegretMatching)
from spiel_ext.engine import compile_game

KUHN = "kuhn_poker"

# Each solver class with options that exercise its config (random starts,
# so that a resumed run must restore the arrays to match).
SOLVERS = {
    "CFRSolver": (CFRSolver, dict(random_init=True, seed=3)),
    "CFRPlusSolver": (CFRPlusSolver, dict(alternating_updates=False)),
    "DCFRSolver": (DCFRSolver, dict(alpha=1.2, beta=0.3, gamma=3.0)),
    "LCFRSolver": (LCFRSolver, dict(random_init=True, init_scale=2.0)),
    "ChanceSampledCFRSolver": (ChanceSampledCFRSolver, dict(seed=5)),
    "PCFRPlusSolver": (algorithms.PCFRPlusSolver, dict(
        averaging="linear", random_init=True, seed=2)),
    "DCFRPlusSolver": (algorithms.DCFRPlusSolver, dict(
        discount_offset=1.5, alternating_updates=False)),
    "ExternalSamplingSolver": (algorithms.ExternalSamplingSolver, dict(
        average_type="full", seed=4)),
    "MMDSolver": (algorithms.MMDSolver, dict(alpha=0.1, stepsize=0.5)),
    "PDCFRPlusSolver": (algorithms.PDCFRPlusSolver, dict(
        alpha=2.0, gamma=3.0, random_init=True)),
    "PrefCFRSolver": (PrefCFRSolver, dict(
        preference={"Bet": 5}, vulnerability={0: 0.1},
        where=FirstDecisions(player=0), base="dcfr", dcfr_gamma=1.0,
        variant="rm", random_init=True)),
    "RegretMinimizationSolver": (RegretMinimizationSolver, dict(
        regret_rule=DiscountedRegrets(1.0, 0.5),
        averaging=PowerAveraging(1.5), strategy_rule=RegretMatching())),
    "XFPSolver": (XFPSolver, dict(initial_policy="random", renormalize=True)),
    "GXFPSolver": (GXFPSolver, dict(integer_counting=True,
                                    initial_policy="random")),
    "BUFPSolver": (BUFPSolver, dict(stepsize="x", first_step_one=True,
                                    alternating_updates=True)),
    "FictitiousPlaySolver": (FictitiousPlaySolver, dict(
        decision="belief", step="realization", continuation="best_response",
        initial_policy="random")),
}


def _assert_plain(value, where="state"):
  """``value`` holds only plain data: numbers, strings, None, arrays, and
  lists and dicts of them."""
  if isinstance(value, dict):
    for key, item in value.items():
      assert isinstance(key, (str, int)), (where, key)
      _assert_plain(item, f"{where}[{key!r}]")
  elif isinstance(value, list):
    for index, item in enumerate(value):
      _assert_plain(item, f"{where}[{index}]")
  else:
    assert value is None or isinstance(
        value, (bool, int, float, str, np.ndarray)), (where, type(value))


def _arrays(solver):
  return {name: value for name, value in solver.state_dict().items()
          if isinstance(value, np.ndarray)}


def _assert_same_run(first, second, iterations=5):
  for _ in range(iterations):
    first.evaluate_and_update_policy()
    second.evaluate_and_update_policy()
  for name, value in _arrays(first).items():
    np.testing.assert_array_equal(value, _arrays(second)[name], err_msg=name)
  assert first.iteration_count == second.iteration_count


# ------------------------------------------------------------------ configs
@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_the_three_ways_to_build_a_solver_are_one_solver(name):
  solver_class, options = SOLVERS[name]
  by_keywords = solver_class(KUHN, **options)
  config = solver_class.Config(**options)
  by_config = solver_class(KUHN, config)
  by_keyword_config = solver_class(KUHN, config=config)
  assert type(by_keywords.config) is solver_class.Config
  assert by_keywords.config == by_config.config == config
  assert by_keyword_config.config is config
  assert by_keywords.hyperparameters == {
      field.name: getattr(config, field.name)
      for field in dataclasses.fields(config)} or name == "BUFPSolver"
  _assert_same_run(by_keywords, by_config)
  assert by_keywords.progress() == Progress(5, None)
  assert isinstance(by_keywords, SolverProtocol)


def test_shortcuts_replace_the_configs_fields():
  base = CFRSolver.Config(random_init=True, seed=4)
  solver = CFRSolver(KUHN, base, alternating_updates=False)
  assert solver.config == CFRSolver.Config(alternating_updates=False,
                                           random_init=True, seed=4)


def test_configs_are_frozen_checked_and_compared_by_value():
  config = DCFRSolver.Config(alpha=1)
  assert config.alpha == 1.0 and isinstance(config.alpha, float)
  with pytest.raises(dataclasses.FrozenInstanceError):
    config.alpha = 2.0  # pytype: disable=not-writable
  with pytest.raises(ValueError, match=r"^gamma must be a finite number in "
                     r"\[0, 1000\]; got 1e\+308\.$"):
    DCFRSolver.Config(gamma=1e308)
  with pytest.raises(TypeError, match="random_init must be True or False"):
    CFRSolver.Config(random_init="no")
  assert config.replace(alpha=2.0) == DCFRSolver.Config(alpha=2.0)
  assert hash(config) == hash(DCFRSolver.Config(alpha=1.0))
  array = np.full((12, 2), 2.0)
  first = PrefCFRSolver.Config(preference=array)
  assert first == PrefCFRSolver.Config(preference=array.copy())
  assert first != PrefCFRSolver.Config(preference=array + 1)
  assert hash(first) == hash(PrefCFRSolver.Config(preference=array.copy()))
  # Sibling variants are different configs, not interchangeable.
  assert CFRSolver.Config() != CFRPlusSolver.Config()
  with pytest.raises(TypeError, match="config must be a CFRConfig"):
    CFRSolver(KUHN, CFRPlusSolver.Config())


def test_bad_configs_and_keywords_are_refused():
  with pytest.raises(TypeError, match=r"CFRSolver\(\) got unexpected keyword "
                     r"argument\(s\) alpha; accepted: alternating_updates"):
    CFRSolver(KUHN, alpha=1.0)
  with pytest.raises(TypeError, match="CFRSolver: config must be a CFRConfig "
                     "or None; got int"):
    CFRSolver(KUHN, 5)
  with pytest.raises(TypeError, match="at most 3 positional arguments"):
    DCFRSolver(KUHN, 1.5, 0, 2, 7)
  with pytest.raises(TypeError, match="multiple values for argument 'alpha'"):
    DCFRSolver(KUHN, 1.5, alpha=2.0)


def test_openspiel_positional_forms_are_config_fields():
  assert DCFRSolver(KUHN, 1.2, 0.3, 3).config == DCFRSolver.Config(1.2, 0.3, 3)
  assert DCFRSolver(KUHN, DCFRSolver.Config(1.2)).config.alpha == 1.2
  assert XFPSolver(KUHN, True).config.save_oracles is True


@pytest.mark.parametrize("solver_class,options", [
    (XFPSolver, dict(renormalize=True, initial_policy="random")),
    (GXFPSolver, dict(integer_counting=True, tie_break="even")),
    (BUFPSolver, dict(stepsize="ef", first_step_one=True)),
    (BUFPSolver, dict(stepsize="x", initial_policy="random"))])
def test_named_fictitious_play_is_its_composition(solver_class, options):
  """XFP, GXFP and BUFP are FictitiousPlaySolver running the pair of rules
  their config names."""
  named = solver_class(KUHN, **options)
  composed = FictitiousPlaySolver(KUHN, named.config.composition())
  for _ in range(8):
    named.iteration()
    composed.iteration()
  np.testing.assert_array_equal(named.sigma, composed.sigma)


def test_bufp_continuation_follows_the_stepsize_until_set():
  config = BUFPSolver.Config()
  assert config.resolved_continuation == "average"
  assert config.replace(stepsize="x").resolved_continuation == "best_response"
  assert BUFPSolver(KUHN, stepsize="x").hyperparameters["continuation"] == (
      "best_response")


# ------------------------------------------------------------- state dicts
@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_state_dict_is_plain_versioned_data_that_resumes_exactly(name):
  solver_class, options = SOLVERS[name]
  straight = solver_class(KUHN, **options)
  for _ in range(7):
    straight.iteration()
  state = straight.state_dict()
  _assert_plain(state)
  assert state["version"] == STATE_VERSION
  assert state["solver"] == name and state["game"] == "kuhn_poker()"
  assert json.loads(json.dumps(state["config"], default=lambda a: a.tolist()))
  resumed = Solver.from_state_dict(state)
  assert type(resumed) is solver_class
  assert resumed.config == straight.config
  assert solver_class.from_state_dict(state).iteration_count == 7
  in_place = solver_class(KUHN, **options)
  in_place.load_state_dict(state)
  unpickled = pickle.loads(pickle.dumps(straight))
  for _ in range(5):
    for solver in (straight, resumed, in_place, unpickled):
      solver.iteration()
  for solver in (resumed, in_place, unpickled):
    _assert_same_run(straight, solver, 0)
    assert solver.iteration_count == 12


def test_other_versions_classes_and_configs_are_refused():
  solver = DCFRSolver(KUHN)
  state = solver.state_dict()
  with pytest.raises(ValueError, match="state format 1, not 2"):
    DCFRSolver(KUHN).load_state_dict(dict(state, version=1))
  with pytest.raises(ValueError, match="state format None"):
    Solver.from_state_dict({"solver": "DCFRSolver"})
  with pytest.raises(ValueError, match="checkpoint is from DCFRSolver, not "
                     "CFRSolver"):
    CFRSolver.from_state_dict(state)
  with pytest.raises(ValueError, match=r"config differs in alpha \(alpha=1.5, "
                     r"here 2.0\)"):
    DCFRSolver(KUHN, alpha=2.0).load_state_dict(state)
  # The seed only made the start, which the state replaces.
  DCFRSolver(KUHN, seed=9).load_state_dict(state)


def test_scopes_policies_and_arrays_travel_as_plain_data():
  tree = compile_game(KUHN)
  callable_scope = PrefCFRSolver(KUHN, preference={"Bet": 3},
                                 where=lambda _: [0, 2])
  state = callable_scope.state_dict()
  assert state["config"]["where"] == [0, 2]
  restored = pickle.loads(pickle.dumps(callable_scope))
  np.testing.assert_array_equal(restored.preference,
                                callable_scope.preference)
  first = PrefCFRSolver(KUHN, where=FirstDecisions(1), vulnerability=0.1)
  assert first.state_dict()["config"]["where"] == {
      "__type__": "FirstDecisions", "player": 1}
  assert from_plain(to_plain(FirstDecisions(1))) == FirstDecisions(1)
  rng = np.random.default_rng(0)
  raw = np.where(tree.infoset_legal, rng.random(tree.infoset_legal.shape), 0)
  start = raw / raw.sum(axis=1, keepdims=True)
  policy = algorithms.XFPSolver(KUHN, initial_policy=start).current_policy()
  solver = GXFPSolver(KUHN, initial_policy=policy)
  written = solver.state_dict()["config"]["initial_policy"]
  np.testing.assert_allclose(written, start)
  np.testing.assert_array_equal(
      Solver.from_state_dict(solver.state_dict()).sigma, solver.sigma)
  with pytest.raises(TypeError, match="has no plain-data form"):
    to_plain(lambda: 0, "where")
  with pytest.raises(ValueError, match="unknown value type 'Nope'"):
    from_plain({"__type__": "Nope"})


def test_a_solver_pickled_before_versioned_states_resumes():
  solver = CFRSolver(KUHN, random_init=True, seed=2)
  for _ in range(4):
    solver.iteration()
  state = {key: value for key, value in solver.state_dict().items()
           if key not in ("version", "config")}
  state["hyperparameters"] = solver.hyperparameters
  resumed = CFRSolver.__new__(CFRSolver)
  resumed.__setstate__({"state": state, "class": CFRSolver})
  _assert_same_run(solver, resumed)


# --------------------------------------------------- renamed Pref-CFR names
@pytest.mark.parametrize("old,new", [("alpha", "dcfr_alpha"),
                                     ("beta", "dcfr_beta"),
                                     ("gamma", "dcfr_gamma")])
def test_pref_cfr_dcfr_exponents_old_keywords_warn(old, new):
  with pytest.warns(DeprecationWarning, match=rf"PrefCFRSolver\({old}=\.\.\.\) "
                    rf"is deprecated; use {new}=\.\.\."):
    solver = PrefCFRSolver(KUHN, base="dcfr", **{old: 1.25})
  assert getattr(solver.config, new) == 1.25
  assert solver.config == PrefCFRSolver(KUHN, base="dcfr",
                                        **{new: 1.25}).config
  with pytest.raises(TypeError, match=f"got both {old}= and {new}="):
    PrefCFRSolver(KUHN, **{old: 1.0, new: 1.0})


def test_pref_cfr_on_dcfr_is_dcfr_with_neutral_degrees():
  preferred = PrefCFRSolver(KUHN, base="dcfr", variant="rm", dcfr_alpha=1.2,
                            dcfr_beta=0.3, dcfr_gamma=3)
  plain = DCFRSolver(KUHN, 1.2, 0.3, 3)
  for _ in range(20):
    preferred.iteration()
    plain.iteration()
  np.testing.assert_array_equal(preferred.average_strategy(),
                                plain.average_strategy())


def test_the_five_preference_shapes_normalise_to_groups():
  tree = compile_game(KUHN)
  assert normalise_preference(None) == ()
  assert normalise_preference({"Bet": 2}) == (
      PreferenceGroup("scope", None, (("Bet", 2.0),)),)
  assert normalise_preference({1: {"Pass": 4}}) == (
      PreferenceGroup("player", 1, (("Pass", 4.0),)),)
  assert normalise_preference({"0pb": {"Bet": 2, 0: 3}}) == (
      PreferenceGroup("infoset", "0pb", (("Bet", 2.0), (0, 3.0))),)
  array = np.full((12, 2), 2.0)
  assert normalise_preference(array) is array
  np.testing.assert_array_equal(preference_degrees(tree, array), array)
  with pytest.raises(ValueError, match="preference must be None, a dict or "
                     "an array; got list"):
    normalise_preference([2.0])
  with pytest.raises(ValueError, match=r"preference\['Bet'\] must be"):
    PrefCFRSolver.Config(preference={"Bet": 0.5})


# ------------------------------------------------------ OpenSpiel's CFR
@pytest.mark.parametrize("kind,reference_class", [
    ("cfr", openspiel_cfr.CFRSolver), ("cfr+", openspiel_cfr.CFRPlusSolver)])
def test_adapter_iterations_are_openspiels(kind, reference_class):
  game = pyspiel.load_game(KUHN)
  adapter = OpenSpielCFRAdapter(game, kind=kind)
  reference = reference_class(game)
  for _ in range(3):
    adapter.evaluate_and_update_policy()
    reference.evaluate_and_update_policy()
    np.testing.assert_array_equal(
        adapter.current_policy().action_probability_array,
        reference.current_policy().action_probability_array)
    np.testing.assert_array_equal(
        adapter.average_policy().action_probability_array,
        reference.average_policy().action_probability_array)
  assert adapter.iteration_count == 3
  assert adapter.progress() == Progress(3, None)
  assert isinstance(adapter, SolverProtocol)
  assert adapter.average_policy() is not adapter.average_policy()
  assert adapter.current_policy() is adapter.current_policy()


@pytest.mark.parametrize("kind", ["cfr", "cfr+"])
def test_adapter_state_dict_round_trip_continues_exactly(kind):
  straight = OpenSpielCFRAdapter(KUHN, kind=kind)
  for _ in range(4):
    straight.iteration()
  state = straight.state_dict()
  _assert_plain(state)
  assert state["version"] == STATE_VERSION
  assert state["config"] == {"kind": kind}
  resumed = OpenSpielCFRAdapter.from_state_dict(state)
  in_place = OpenSpielCFRAdapter(KUHN, OpenSpielCFRAdapter.Config(kind))
  in_place.load_state_dict(state)
  unpickled = pickle.loads(pickle.dumps(straight))
  for _ in range(4):
    for solver in (straight, resumed, in_place, unpickled):
      solver.iteration()
  for solver in (resumed, in_place, unpickled):
    assert solver.iteration_count == 8
    np.testing.assert_array_equal(
        solver.average_policy().action_probability_array,
        straight.average_policy().action_probability_array)
    np.testing.assert_array_equal(
        solver.current_policy().action_probability_array,
        straight.current_policy().action_probability_array)
  fresh = OpenSpielCFRAdapter(KUHN, kind=kind)
  fresh.load_state_dict(OpenSpielCFRAdapter(KUHN, kind=kind).state_dict())
  fresh.iteration()
  with pytest.raises(ValueError, match="checkpoint is for game kuhn_poker"):
    OpenSpielCFRAdapter("leduc_poker", kind=kind).load_state_dict(state)


def test_adapter_refuses_bad_arguments():
  with pytest.raises(ValueError, match=r"kind must be one of \['cfr', "
                     r"'cfr\+'\]"):
    OpenSpielCFRAdapter(KUHN, kind="dcfr")
  with pytest.raises(ValueError, match="is not sequential"):
    OpenSpielCFRAdapter("matrix_rps")
  with pytest.raises(TypeError, match="game must be"):
    OpenSpielCFRAdapter(3)


def test_two_plain_data_classes_of_one_name_are_refused():
  """A state names a value's class only, so a second class of that name
  (here, CFR's rule name from another module) would silently replace the
  first in every state read afterwards."""
  from spiel_ext.algorithms.protocol import plain_data  # pylint: disable=g-import-not-at-top
  impostor = dataclasses.make_dataclass("PowerAveraging", [("gamma", float)])
  impostor.__module__ = "somewhere_else"
  with pytest.raises(ValueError, match="two classes named PowerAveraging"):
    plain_data(impostor)
  assert from_plain({"__type__": "PowerAveraging", "gamma": 2.0}) == (
      PowerAveraging(2.0))
