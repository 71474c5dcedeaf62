"""Pref-CFR (Ju, Tellier, Sun, Fang, Luo, ICML 2025, arXiv:2411.01217): rules
by hand, reduction to CFR, the Kuhn alpha test."""

import numpy as np
import pyspiel
import pytest

from spiel_ext import eval as se
from spiel_ext.algorithms import (CFRPlusSolver, CFRSolver, DCFRSolver,
                                  FirstDecisions, PrefCFRSolver,
                                  preference_degrees, vulnerability_degrees)
from spiel_ext.algorithms.pref_cfr import (preference_best_response,
                                           preference_regret_matching)
from spiel_ext.engine import compile_game

LEGAL = np.array([[True, True, True]])
REGRETS = np.array([[3.0, 1.0, -2.0]])
DELTA = np.array([[1.0, 5.0, 1.0]])


def _rule(kernel, regrets=REGRETS, delta=DELTA, beta=0.0, t=1.0,
          legal=LEGAL):
  out = np.empty_like(regrets)
  kernel(regrets, legal, delta, np.array([beta * t]), out)
  return out[0]


def test_rules_by_hand():
  # delta * R+ = [3, 5, 0] -> RM: [3/8, 5/8, 0]; BR: argmax [3, 5, -2] = 1.
  np.testing.assert_allclose(_rule(preference_regret_matching),
                             [3 / 8, 5 / 8, 0])
  np.testing.assert_array_equal(_rule(preference_best_response), [0, 1, 0])
  # beta = 1 at T = 2: B = R/2 - 1 = [0.5, -0.5, -2] -> only action 0 left.
  np.testing.assert_allclose(
      _rule(preference_regret_matching, beta=1.0, t=2.0), [1, 0, 0])
  np.testing.assert_array_equal(
      _rule(preference_best_response, beta=1.0, t=2.0), [1, 0, 0])
  # No positive B: (delta - 1) / sum(delta - 1) = [0, 1, 0].
  for kernel in (preference_regret_matching, preference_best_response):
    np.testing.assert_allclose(_rule(kernel, beta=5.0), [0, 1, 0])
    np.testing.assert_allclose(
        _rule(kernel, regrets=-np.ones((1, 3)), delta=np.ones((1, 3))),
        [1 / 3, 1 / 3, 1 / 3])
  # Ties in BR go to the lowest action id; illegal actions get nothing.
  np.testing.assert_array_equal(
      _rule(preference_best_response, regrets=np.array([[2.0, 2.0, 9.0]]),
            delta=np.ones((1, 3)), legal=np.array([[True, True, False]])),
      [1, 0, 0])


@pytest.mark.parametrize("game_name", ["kuhn_poker", "leduc_poker",
                                       "kuhn_poker(players=3)"])
@pytest.mark.parametrize("base,reference_class",
                         [("cfr", CFRSolver), ("cfr+", CFRPlusSolver),
                          ("dcfr", DCFRSolver)])
def test_neutral_preferences_reproduce_the_base_exactly(game_name, base,
                                                        reference_class):
  preferred = PrefCFRSolver(game_name, variant="rm", base=base)
  plain = reference_class(game_name)
  for _ in range(30):
    preferred.iteration()
    plain.iteration()
  np.testing.assert_array_equal(preferred.current_strategy(),
                                plain.current_strategy())
  np.testing.assert_array_equal(preferred.average_strategy(),
                                plain.average_strategy())


def _kuhn_alpha(solver):
  return solver.average_policy().policy_for_key("0")[1]  # J, first, Bet


# The Pref-CFR paper's Kuhn settings (section 5.1) with delta <= 5, plus the
# delta = 10 ones.
PAPER_SETTINGS = [
    ("br", {"Bet": 5}), ("rm", {"Bet": 5}), ("rm", {"Pass": 5}),
    ("br", {"Pass": 5}), ("br", {"Bet": 10}), ("br", {"Pass": 10}),
]


@pytest.mark.parametrize("variant,preference", PAPER_SETTINGS)
def test_pref_cfr_converges_on_kuhn(variant, preference):
  game = pyspiel.load_game("kuhn_poker")
  solver = PrefCFRSolver(game, preference=preference, variant=variant,
                         where=FirstDecisions(player=0), random_init=True,
                         seed=1)
  for _ in range(10_000):
    solver.iteration()
  assert se.nash_conv(game, solver.average_policy()) < 0.01


def test_preferences_move_kuhn_alpha_the_papers_way():
  """The Pref-CFR paper's Fig. 4: delta(Bet) pushes alpha up, delta(Pass)
  down."""
  game = pyspiel.load_game("kuhn_poker")
  alphas = {}
  for name, preference in [("cfr", None), ("bet", {"Bet": 10}),
                           ("pass", {"Pass": 10})]:
    solver = PrefCFRSolver(game, preference=preference, variant="br",
                           where=FirstDecisions(player=0))
    for _ in range(10_000):
      solver.iteration()
    alphas[name] = _kuhn_alpha(solver)
    # Every member of the equilibrium family has alpha in [0, 1/3].
    assert -1e-9 <= alphas[name] <= 1 / 3 + 0.02
  assert alphas["bet"] > alphas["cfr"] > alphas["pass"]


def test_vulnerability_keeps_play_near_equilibrium():
  """With beta > 0 the average is an approximate equilibrium, not an exact one."""
  game = pyspiel.load_game("kuhn_poker")
  solver = PrefCFRSolver(game, preference={"Bet": 5}, vulnerability=0.01,
                         variant="br")
  for _ in range(5_000):
    solver.iteration()
  assert se.nash_conv(game, solver.average_policy()) < 0.1


def _first_decision_frequencies(game_name, **kwargs):
  solver = PrefCFRSolver(game_name, where=FirstDecisions(player=0), **kwargs)
  for _ in range(1000):
    solver.iteration()
  rows = FirstDecisions(player=0)(solver.tree)
  return solver.average_strategy()[rows].mean(axis=0)


@pytest.mark.parametrize("game_name,base,aggressive,passive,action", [
    ("leduc_poker", "cfr+", "Raise", "Call", 2),
    ("kuhn_poker(players=3)", "dcfr", "Bet", "Pass", 1),
])
def test_play_styles_move_first_decisions(game_name, base, aggressive,
                                          passive, action):
  """An aggressive style raises more at the first decision, a passive less."""
  neutral = _first_decision_frequencies(game_name, base=base)
  more = _first_decision_frequencies(game_name, base=base,
                                     preference={aggressive: 5},
                                     vulnerability=0.05)
  less = _first_decision_frequencies(game_name, base=base,
                                     preference={passive: 5},
                                     vulnerability=0.05)
  assert more[action] > neutral[action] > less[action]


def test_degree_specs_resolve_to_the_right_cells():
  tree = compile_game("kuhn_poker")
  first = FirstDecisions(player=0)(tree)
  assert sorted(tree.infoset_keys[r] for r in first) == ["0", "1", "2"]
  delta = preference_degrees(tree, {"Bet": 10}, where=FirstDecisions(0))
  assert np.all(delta[first, 1] == 10) and np.sum(delta != 1) == 3
  by_player = preference_degrees(tree, {1: {"Pass": 4}})
  assert np.sum(by_player == 4) == 6
  by_key = preference_degrees(tree, {"0pb": {"Bet": 2, 0: 3}})
  np.testing.assert_array_equal(by_key[tree.key_to_infoset["0pb"]], [3, 2])
  beta = vulnerability_degrees(tree, 0.05, where=["1", "2"])
  assert beta.sum() == pytest.approx(0.1)
  assert vulnerability_degrees(tree, {"0": 0.5})[tree.key_to_infoset["0"]] == 0.5


@pytest.mark.parametrize("kwargs,message", [
    (dict(preference={"Bet": 0.5}), r"preference\['Bet'\] must be a finite number in \[1, "),
    (dict(preference={"Bet": float("nan")}), "must be a finite number"),
    (dict(preference={"Raise": 5}), r"action 'Raise' is not legal .* known labels: \['Bet', 'Pass'\]"),
    (dict(preference={"zz": {"Bet": 2}}), "unknown infoset key 'zz'"),
    (dict(preference={7: {"Bet": 2}}), "unknown player 7"),
    (dict(vulnerability=-0.1), r"vulnerability must be a finite number in \[0, "),
    (dict(vulnerability={0: float("nan")}), "must be a finite number"),
    (dict(variant="xx"), r"variant must be one of \['br', 'rm'\]"),
    (dict(base="cfr++"), "base must be one of"),
    (dict(where="first"), "where must be None, a callable"),
])
def test_bad_pref_cfr_inputs(kwargs, message):
  with pytest.raises(ValueError, match=message):
    PrefCFRSolver("kuhn_poker", **kwargs)


def test_non_sequential_game_is_refused():
  with pytest.raises(ValueError, match="simultaneous-move"):
    PrefCFRSolver("matrix_rps", preference={"Rock": 2})


def test_conditional_unit_divides_by_the_hand_worked_reach():
  """Kuhn, one simultaneous iteration from the uniform start: player 2's
  Queen after a Pass is reached by the deals J-Q and K-Q (1/6 each) times
  player 1's Pass (1/2), so W = 1/6; player 1's Jack by chance alone,
  W = 1/3 per iteration. The strategy is regret matching on R - beta W."""
  beta = 0.3
  solver = PrefCFRSolver("kuhn_poker", vulnerability=beta, variant="rm",
                         alternating_updates=False)
  solver.iteration()
  tree = solver.tree
  row = tree.key_to_infoset["1p"]
  assert solver.cumulative_reach[row] == pytest.approx(1 / 6)
  for _ in range(2):
    solver.iteration()
  assert solver.cumulative_reach[tree.key_to_infoset["0"]] == pytest.approx(1.0)
  for row in range(tree.num_infosets):
    shifted = np.maximum(solver.cumulative_regret[row] -
                         beta * solver.cumulative_reach[row], 0.0)
    legal = tree.infoset_legal[row]
    expected = (shifted / shifted.sum() if shifted.sum() > 0 else
                legal / legal.sum())
    np.testing.assert_allclose(solver.current_strategy()[row], expected)


@pytest.mark.parametrize("game_name,hands", [("kuhn_poker", 3),
                                             ("leduc_poker", 6)])
def test_reach_weighted_beta_is_conditional_beta_over_hands(game_name, hands):
  """At player 1's first decisions only chance acts before, with
  probability 1/k, so W = T / k: a reach-weighted beta b and a conditional
  beta k b give the same iterates."""
  common = dict(preference={"Bet" if game_name == "kuhn_poker" else "Raise":
                            5}, where=FirstDecisions(player=0), variant="rm")
  conditional = PrefCFRSolver(game_name, vulnerability=0.05 * hands,
                              **common)
  reach_weighted = PrefCFRSolver(game_name, vulnerability=0.05,
                                 vulnerability_unit="reach_weighted",
                                 **common)
  for _ in range(300):
    conditional.iteration()
    reach_weighted.iteration()
  rows = FirstDecisions(player=0)(conditional.tree)
  np.testing.assert_allclose(conditional.cumulative_reach[rows],
                             300 / hands)
  np.testing.assert_allclose(conditional.average_strategy(),
                             reach_weighted.average_strategy(), atol=1e-9)
  # The same beta in both units is not the same solver.
  same_number = PrefCFRSolver(game_name, vulnerability=0.05, **common)
  for _ in range(300):
    same_number.iteration()
  assert not np.allclose(same_number.average_strategy(),
                         reach_weighted.average_strategy(), atol=1e-3)


def test_init_scale_scales_the_random_start():
  light = CFRSolver("kuhn_poker", random_init=True, seed=3)
  heavy = CFRSolver("kuhn_poker", random_init=True, init_scale=100.0, seed=3)
  np.testing.assert_allclose(heavy.cumulative_regret,
                             100 * light.cumulative_regret)
  np.testing.assert_allclose(heavy.cumulative_policy,
                             100 * light.cumulative_policy)
  with pytest.raises(ValueError, match=r"init_scale must be a finite number"):
    CFRSolver("kuhn_poker", random_init=True, init_scale=0.0)


def _pickled_before_versioned_states(solver):
  """What ``solver.__getstate__()`` returned before state formats were
  versioned: the arrays, iteration, generator state and the constructor's
  keywords as ``hyperparameters`` (DCFR's exponents as alpha, beta,
  gamma), no version and no config."""
  state = {key: value for key, value in solver.state_dict().items()
           if key not in ("version", "config")}
  hyperparameters = dict(solver.hyperparameters)
  for name in ("alpha", "beta", "gamma"):
    hyperparameters[name] = hyperparameters.pop(f"dcfr_{name}")
  state["hyperparameters"] = hyperparameters
  return {"state": state, "class": type(solver)}


def test_a_checkpoint_from_before_the_unit_resumes_reach_weighted():
  """A solver pickled before ``cumulative_reach`` and ``vulnerability_unit``
  existed (beta was compared with R / T) resumes with that meaning,
  iterate for iterate."""
  common = dict(preference={"Bet": 5}, vulnerability=0.05,
                where=FirstDecisions(player=0), variant="rm")
  old = PrefCFRSolver("kuhn_poker", vulnerability_unit="reach_weighted",
                      **common)
  reference = PrefCFRSolver("kuhn_poker", vulnerability_unit="reach_weighted",
                            **common)
  for _ in range(20):
    old.iteration()
    reference.iteration()
  pickled = _pickled_before_versioned_states(old)
  del pickled["state"]["cumulative_reach"]
  del pickled["state"]["hyperparameters"]["vulnerability_unit"]
  resumed = PrefCFRSolver.__new__(PrefCFRSolver)
  resumed.__setstate__(pickled)
  assert resumed.vulnerability_unit == "reach_weighted"
  for _ in range(50):
    resumed.iteration()
    reference.iteration()
  np.testing.assert_array_equal(resumed.average_strategy(),
                                reference.average_strategy())
