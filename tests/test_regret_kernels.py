"""The fused CFR / CFR+ update equals the rules' separate steps, bit for bit."""

import numpy as np
import pytest

from spiel_ext.algorithms import (CFRPlusSolver, CFRSolver, DCFRSolver,
                                  regret, regret_kernels)
from spiel_ext.algorithms.regret_rules import (PlainRegrets, PlusRegrets,
                                               RegretMatching)


def run(solver_class, game, iterations, fused, monkeypatch, **config):
  monkeypatch.setattr(regret, "fuses",
                      regret_kernels.fuses if fused else lambda *_: False)
  solver = solver_class(game, **config)
  for _ in range(iterations):
    solver.evaluate_and_update_policy()
  return {name: np.array(getattr(solver, name)) for name in
          ("cumulative_regret", "cumulative_policy", "_current")}


@pytest.mark.parametrize("solver_class", [CFRSolver, CFRPlusSolver])
@pytest.mark.parametrize("game,config", [
    ("kuhn_poker", {}),
    ("leduc_poker", {"random_init": True, "seed": 3}),
    ("kuhn_poker(players=3)", {"alternating_updates": False}),
])
@pytest.mark.parametrize("parallel_rows", [False, True])
def test_fused_update_equals_the_rules_bit_for_bit(
    solver_class, game, config, parallel_rows, monkeypatch):
  if parallel_rows:
    monkeypatch.setattr(regret_kernels, "PARALLEL_MIN_ROWS", 0)
  expected = run(solver_class, game, 7, False, monkeypatch, **config)
  actual = run(solver_class, game, 7, True, monkeypatch, **config)
  for name, array in expected.items():
    assert array.tobytes() == actual[name].tobytes(), (
        f"{name} differs by up to {np.max(np.abs(array - actual[name]))}")


def test_only_the_plain_and_plus_rules_with_regret_matching_fuse():
  assert regret_kernels.fuses(PlainRegrets(), RegretMatching())
  assert regret_kernels.fuses(PlusRegrets(), RegretMatching())
  rules = DCFRSolver("kuhn_poker").config.rules()
  assert not regret_kernels.fuses(rules[0], rules[2])

  class Subclass(PlainRegrets):
    pass
  assert not regret_kernels.fuses(Subclass(), RegretMatching())


def test_plus_floor_keeps_numpy_maximum_signs():
  # np.maximum(R, 0) turns -0 into +0 and keeps NaN; the fused kernel must.
  cfv = np.array([[-0.0, 0.5, 0.0, -2.0]])
  legal = np.ones_like(cfv, dtype=bool)
  policy = np.zeros_like(cfv)  # So sum_b sigma(b) v(b) = +0.
  for rule in (PlainRegrets(), PlusRegrets()):
    regrets = np.array([[-0.0, -1.0, np.nan, 1.0]])
    expected = regrets + (cfv - 0.0)
    if isinstance(rule, PlusRegrets):
      np.maximum(expected, 0.0, out=expected)
    assert np.signbit(expected[0, 0]) == isinstance(rule, PlainRegrets)
    regret_kernels.fused_update(rule, cfv, policy.copy(), legal,
                                np.zeros(1), 1.0, regrets, np.zeros_like(cfv))
    assert regrets.tobytes() == expected.tobytes()
