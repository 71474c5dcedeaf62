"""CFR, CFR+ and DCFR as drop-in replacements for OpenSpiel's solvers.

- :class:`CFRSolver`: Martin Zinkevich, Michael Johanson, Michael Bowling,
  Carmelo Piccione, "Regret Minimization in Games with Incomplete
  Information", NeurIPS 2007 (regret matching on counterfactual regrets,
  uniform average), with alternating updates as OpenSpiel's
  ``cfr.CFRSolver``.
- :class:`CFRPlusSolver`: Oskari Tammelin, "Solving Large Imperfect
  Information Games Using CFR+", 2014, arXiv:1407.5042 (regret matching+,
  linear averaging, alternating updates), as OpenSpiel's
  ``cfr.CFRPlusSolver``.
- :class:`DCFRSolver`: Noam Brown, Tuomas Sandholm, "Solving
  Imperfect-Information Games via Discounted Regret Minimization", AAAI
  2019, arXiv:1809.04040 (DCFR with alpha = 3/2, beta = 0, gamma = 2 by
  default), as OpenSpiel's ``discounted_cfr.DCFRSolver``; and
  :class:`LCFRSolver`, that paper's Linear CFR (DCFR with alpha = beta =
  gamma = 1), as OpenSpiel's ``discounted_cfr.LCFRSolver``.
  ``spiel_ext.algorithms.discounted_cfr`` holds both under OpenSpiel's
  module name.

Swap the import and nothing else::

    # was: from open_spiel.python.algorithms import cfr
    from spiel_ext.algorithms import cfr
    solver = cfr.CFRSolver(game)
    for _ in range(100):
      solver.evaluate_and_update_policy()
    policy = solver.average_policy()

Each is a choice of rules (:data:`regret_rules.CFR_BASES`) for
:class:`RegretMinimizationSolver`. The numba kernels compile on first use
(about 20 s once; the compiled code is cached on disk).
"""

from __future__ import annotations

import pyspiel

from spiel_ext.algorithms.regret import RegretMinimizationSolver
from spiel_ext.algorithms.regret_rules import (CFR_BASES, RegretMatching,
                                               check_dcfr_parameters)
from spiel_ext.engine import GameTree

_POLICIES = """
  ``current_policy()`` returns the same TabularPolicy on every call, updated
  in place by each iteration; ``average_policy()`` a fresh one (both as
  OpenSpiel's Python CFR). ``pyspiel.exploitability(game, policy)`` accepts
  either; ``tabular_average_policy()`` gives a ``pyspiel.TabularPolicy``.
"""

_COMMON_ARGS = """
    alternating_updates: True (default, as OpenSpiel) to update players in
      turn, each against the strategies the previous update left; False to
      update all players from the same profile.
    random_init: False (default, OpenSpiel's start: zero regrets, uniform
      strategy) or True to start from cumulative regrets and cumulative
      policies drawn from U(0, init_scale) with ``seed``.
    init_scale: the random start's upper end, in (0, 1e6] (default 1, the
      Pref-CFR authors' U(0, 1)); a start of scale s weighs about as much
      as s / (payoff range) iterations of regret.
    seed: an int in 0..2**63 - 1 (default 0) or None, seeding
      ``random_init``.
"""


class _FixedRulesSolver(RegretMinimizationSolver):
  """A CFR_BASES entry with fixed parameters and regret matching; the
  subclass names the entry in ``_BASE = (name, parameters)``."""

  _BASE: tuple[str, tuple[float, ...]] = ("cfr", ())

  def __init__(self, game: pyspiel.Game | str | GameTree, *,
               alternating_updates: bool = True, random_init: bool = False,
               init_scale: float = 1.0, seed: int | None = 0):
    name, parameters = self._BASE
    regret_rule, averaging = CFR_BASES[name](*parameters)
    super().__init__(game, regret_rule=regret_rule, averaging=averaging,
                     strategy_rule=RegretMatching(),
                     alternating_updates=alternating_updates,
                     random_init=random_init, init_scale=init_scale,
                     seed=seed, hyperparameters=dict(
                         alternating_updates=alternating_updates,
                         random_init=random_init, init_scale=init_scale))


class CFRSolver(_FixedRulesSolver):
  __doc__ = f"""Vanilla CFR; matches OpenSpiel's ``cfr.CFRSolver`` (and
  pyspiel's C++ ``CFRSolver``) iterate for iterate.
  {_POLICIES}
  Args:
    game: a pyspiel game, a game string (``"leduc_poker"``) or a compiled
      GameTree: any sequential game with perfect-recall infostate strings,
      any number of players, zero-sum or not.{_COMMON_ARGS}
  Raises:
    TypeError: a bool option that is not a bool, or ``seed`` not an int.
    ValueError: ``seed`` outside 0..2**63 - 1 or a game the engine cannot
      compile.

  Example::

    solver = CFRSolver(pyspiel.load_game("kuhn_poker"))
    for _ in range(1000):
      solver.evaluate_and_update_policy()
    spiel_ext.eval.nash_conv(solver.game, solver.average_policy())  # ~2e-3
  """

  _BASE = ("cfr", ())


class CFRPlusSolver(_FixedRulesSolver):
  __doc__ = f"""CFR+; matches OpenSpiel's ``cfr.CFRPlusSolver`` (and pyspiel's
  C++ ``CFRPlusSolver``) iterate for iterate.
  {_POLICIES}
  Args:
    game: as for :class:`CFRSolver`.{_COMMON_ARGS}
  Raises:
    TypeError, ValueError: as :class:`CFRSolver`.

  Example::

    solver = CFRPlusSolver("leduc_poker")
    for _ in range(500):
      solver.evaluate_and_update_policy()
  """

  _BASE = ("cfr+", ())


class DCFRSolver(RegretMinimizationSolver):
  __doc__ = f"""Discounted CFR; matches
  ``open_spiel.python.algorithms.discounted_cfr.DCFRSolver`` iterate for
  iterate, with the same positional arguments: ``DCFRSolver(game, 1.5, 0,
  2)``.

  At iteration t, after adding the instantaneous regrets, positive
  cumulative regrets are multiplied by t^alpha / (t^alpha + 1) and negative
  ones by t^beta / (t^beta + 1); iteration t's contribution to the average
  strategy is weighted by t^gamma. The factors are computed without
  overflow for any finite alpha and beta, and the average stays finite for
  any gamma in [0, 1000] and any number of iterations.
  {_POLICIES}
  Args:
    game: as for :class:`CFRSolver`.
    alpha: exponent of the positive-regret discount, any finite number
      (default 1.5).
    beta: exponent of the negative-regret discount, any finite number
      (default 0: negative regrets are halved).
    gamma: exponent of the averaging weight, a number in [0, 1000] (default
      2; see ``regret_rules.MAX_GAMMA``).{_COMMON_ARGS}
  Raises:
    TypeError: as :class:`CFRSolver`.
    ValueError: alpha or beta not a finite number, gamma not in [0, 1000],
      and as :class:`CFRSolver`.

  Example::

    solver = DCFRSolver(pyspiel.load_game("leduc_poker"), 1.5, 0, 2)
    for _ in range(500):
      solver.evaluate_and_update_policy()
  """

  def __init__(self, game: pyspiel.Game | str | GameTree,
               alpha: float = 1.5, beta: float = 0.0, gamma: float = 2.0, *,
               alternating_updates: bool = True, random_init: bool = False,
               init_scale: float = 1.0, seed: int | None = 0):
    alpha, beta, gamma = check_dcfr_parameters(alpha, beta, gamma)
    regret_rule, averaging = CFR_BASES["dcfr"](alpha, beta, gamma)
    super().__init__(game, regret_rule=regret_rule, averaging=averaging,
                     strategy_rule=RegretMatching(),
                     alternating_updates=alternating_updates,
                     random_init=random_init, init_scale=init_scale,
                     seed=seed, hyperparameters=dict(
                         alpha=alpha, beta=beta, gamma=gamma,
                         alternating_updates=alternating_updates,
                         random_init=random_init, init_scale=init_scale))


class LCFRSolver(_FixedRulesSolver):
  __doc__ = f"""Linear CFR; matches
  ``open_spiel.python.algorithms.discounted_cfr.LCFRSolver`` iterate for
  iterate: DCFR with alpha = beta = gamma = 1, so iteration t's regrets and
  average contribution weigh t.
  {_POLICIES}
  Args:
    game: as for :class:`CFRSolver`.{_COMMON_ARGS}
  Raises:
    TypeError, ValueError: as :class:`CFRSolver`.

  Example::

    solver = LCFRSolver("leduc_poker")
    for _ in range(500):
      solver.evaluate_and_update_policy()
  """

  _BASE = ("dcfr", (1.0, 1.0, 1.0))
