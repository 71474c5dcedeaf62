"""Solver and learner checkpoints read as untrusted input.

``load_state_dict`` refuses, in one line naming the field, a state whose
iteration or episode count is negative or not a whole number, whose
generator state does not fit, or whose arrays hold what they cannot
(non-finite entries, negative counts or sums of weights, probabilities
outside [0, 1], strategies whose rows do not sum to 1, replay-buffer
indices outside the learner's tables). A refused state changes nothing the
header governs.
"""

import numpy as np
import pytest

from spiel_ext.algorithms import CFRSolver
from spiel_ext.algorithms.external_sampling import ExternalSamplingSolver
from spiel_ext.algorithms.fictitious_play import FictitiousPlaySolver
from spiel_ext.algorithms.learners import (FSPLearner,
                                           OutcomeSamplingLearner)
from spiel_ext.algorithms.mmd import MMDSolver
from spiel_ext.experiments import solvers
from spiel_ext.games.unknown_env import true_game_string

UNKNOWN_KUHN = true_game_string("kuhn_poker", 0)


def _cfr_state():
  solver = CFRSolver("kuhn_poker")
  for _ in range(3):
    solver.iteration()
  return solver.state_dict()


@pytest.mark.parametrize("iteration", [-1, -(2**40), np.int64(-3)])
def test_negative_iteration_is_refused(iteration):
  state = _cfr_state()
  state["iteration"] = iteration
  solver = CFRSolver("kuhn_poker")
  with pytest.raises(ValueError,
                     match=r"^CFRSolver: checkpoint field iteration must be "
                     r">= 0; got -\d+\.$"):
    solver.load_state_dict(state)
  assert solver.iteration_count == 0
  with pytest.raises(ValueError, match="iteration must be >= 0"):
    CFRSolver.from_state_dict(state)


@pytest.mark.parametrize("iteration", [2.5, "3", None, True])
def test_iteration_that_is_not_a_whole_number_is_refused(iteration):
  state = _cfr_state()
  state["iteration"] = iteration
  with pytest.raises(ValueError, match="checkpoint field iteration must be "
                     "an integer >= 0"):
    CFRSolver("kuhn_poker").load_state_dict(state)


def test_negative_iteration_is_refused_by_a_learner():
  learner = OutcomeSamplingLearner(UNKNOWN_KUHN, seed=1)
  learner.iteration()
  state = learner.state_dict()
  state["iteration"] = -5
  with pytest.raises(ValueError, match="field iteration must be >= 0"):
    OutcomeSamplingLearner(UNKNOWN_KUHN, seed=1).load_state_dict(state)


def test_negative_episode_count_is_refused():
  learner = OutcomeSamplingLearner(UNKNOWN_KUHN, seed=1)
  learner.iteration()
  state = learner.state_dict()
  state["episodes"] = -1
  with pytest.raises(ValueError, match="field episodes must be >= 0"):
    OutcomeSamplingLearner(UNKNOWN_KUHN, seed=1).load_state_dict(state)


def test_generator_state_that_does_not_fit_is_refused_before_any_change():
  solver = ExternalSamplingSolver("kuhn_poker", seed=3)
  for _ in range(4):
    solver.iteration()
  state = solver.state_dict()
  state["rng_state"] = {"bit_generator": "PCG64", "state": "garbage"}
  fresh = ExternalSamplingSolver("kuhn_poker", seed=3)
  before = fresh.state_dict()
  with pytest.raises(ValueError, match="checkpoint field rng_state"):
    fresh.load_state_dict(state)
  after = fresh.state_dict()
  assert after["iteration"] == before["iteration"] == 0
  np.testing.assert_array_equal(after["cumulative_regret"],
                                before["cumulative_regret"])


@pytest.mark.parametrize("name,value,pattern", [
    ("cumulative_policy", -1.0, r"cumulative_policy is corrupt: negative"),
    ("_current", 1.5, r"_current is corrupt: entries outside \[0, 1\]"),
    ("_current", 0.25, r"_current is corrupt: not a strategy, row 0"),
    ("cumulative_regret", np.inf, r"cumulative_regret is corrupt: "
     r"non-finite"),
])
def test_cfr_arrays_outside_what_they_hold_are_refused(name, value, pattern):
  state = _cfr_state()
  state[name] = state[name].copy()
  state[name][0, 0] = value
  with pytest.raises(ValueError, match=r"^checkpoint array " + pattern):
    CFRSolver("kuhn_poker").load_state_dict(state)


def test_mmd_reach_above_one_is_refused():
  solver = MMDSolver("kuhn_poker")
  solver.iteration()
  state = solver.state_dict()
  state["own_reach"] = state["own_reach"] * 3.0
  with pytest.raises(ValueError, match=r"own_reach is corrupt: entries "
                     r"outside \[0, 1\]"):
    MMDSolver("kuhn_poker").load_state_dict(state)


def test_fictitious_play_strategy_off_the_simplex_is_refused():
  solver = FictitiousPlaySolver("kuhn_poker")
  solver.iteration()
  state = solver.state_dict()
  state["sigma"] = state["sigma"] * 2.0
  with pytest.raises(ValueError, match=r"sigma is corrupt: "):
    FictitiousPlaySolver("kuhn_poker").load_state_dict(state)


def test_learner_strategy_and_counts_are_checked():
  learner = OutcomeSamplingLearner(UNKNOWN_KUHN, seed=1)
  learner.iteration()
  state = learner.state_dict()
  bad = dict(state, sigma=np.full_like(state["sigma"], 0.9))
  with pytest.raises(ValueError, match=r"^OutcomeSamplingLearner: checkpoint "
                     r"array sigma is corrupt: "):
    OutcomeSamplingLearner(UNKNOWN_KUHN, seed=1).load_state_dict(bad)
  bad = dict(state, cumulative_policy=-state["cumulative_policy"] - 1.0)
  with pytest.raises(ValueError, match="cumulative_policy is corrupt: "
                     "negative"):
    OutcomeSamplingLearner(UNKNOWN_KUHN, seed=1).load_state_dict(bad)
  bad = dict(state, cumulative_regret=np.full_like(
      state["cumulative_regret"], np.nan))
  with pytest.raises(ValueError, match="cumulative_regret is corrupt: "
                     "non-finite"):
    OutcomeSamplingLearner(UNKNOWN_KUHN, seed=1).load_state_dict(bad)
  missing = {key: value for key, value in state.items() if key != "sigma"}
  with pytest.raises(ValueError, match="checkpoint has no array sigma"):
    OutcomeSamplingLearner(UNKNOWN_KUHN, seed=1).load_state_dict(missing)


@pytest.mark.parametrize("column,value,what", [
    (0, 10**6, "infoset row"), (1, -1, "action"), (3, 10**6, "following row"),
    (0, 0.5, "infoset row")])
def test_replay_buffer_indices_outside_the_tables_are_refused(column, value,
                                                               what):
  learner = FSPLearner(UNKNOWN_KUHN, seed=2)
  for _ in range(3):
    learner.iteration()
  state = learner.state_dict()
  state["buffer"] = state["buffer"].copy()
  state["buffer"][0, column] = value
  with pytest.raises(ValueError, match=rf"^FSPLearner: checkpoint array "
                     rf"buffer is corrupt: {what}"):
    FSPLearner(UNKNOWN_KUHN, seed=2).load_state_dict(state)


def test_sound_states_still_resume_exactly():
  for make in (lambda: CFRSolver("kuhn_poker"),
               lambda: ExternalSamplingSolver("kuhn_poker", seed=3),
               lambda: MMDSolver("kuhn_poker"),
               lambda: FictitiousPlaySolver("kuhn_poker"),
               lambda: OutcomeSamplingLearner(UNKNOWN_KUHN, seed=1),
               lambda: FSPLearner(UNKNOWN_KUHN, seed=2)):
    straight, interrupted = make(), make()
    for _ in range(3):
      straight.iteration()
      interrupted.iteration()
    resumed = make()
    resumed.load_state_dict(interrupted.state_dict())
    straight.iteration()
    resumed.iteration()
    np.testing.assert_array_equal(resumed.average_strategy(),
                                  straight.average_strategy())



@pytest.mark.parametrize("field,value,message", [
    ("wins", -1.0, "wins must hold finite counts >= 0"),
    ("chance_counts", np.nan, "chance_counts must hold finite counts >= 0"),
    ("observations", -1, "observations must be >= 0"),
])
def test_a_posterior_with_impossible_counts_is_refused(field, value, message):
  entry = solvers.ALGORITHMS["FSP"]
  learner = entry.factory(UNKNOWN_KUHN, seed=0, **dict(entry.hyperparameters))
  learner.iteration()
  state = learner.state_dict()
  before = learner.posterior.counts()
  if field == "observations":
    state["posterior"][field] = value
  else:
    state["posterior"][field] = np.array(state["posterior"][field])
    state["posterior"][field][1] = value
  with pytest.raises(ValueError, match=message):
    learner.load_state_dict(state)
  after = learner.posterior.counts()
  assert after["observations"] == before["observations"]
  np.testing.assert_array_equal(after["wins"], before["wins"])


def test_a_replay_buffer_count_below_zero_is_refused():
  learner = FSPLearner(UNKNOWN_KUHN, seed=1)
  learner.iteration()
  state = learner.state_dict()
  state["stored"] = -1
  with pytest.raises(ValueError, match="stored must be >= 0"):
    learner.load_state_dict(state)
