"""Each evaluation point computes a NashConv once, on a tree compiled once
per process: the exploitability metric brings the NashConv it divides, with
the values the two metrics give apart, and a game string is loaded once."""

import importlib

import numpy as np
import pytest

from conftest import random_strategy
from spiel_ext import eval as se
from spiel_ext.engine import compile_game
from spiel_ext.eval.metrics import exploitability_and_nash_conv
from spiel_ext.executors.units import WorkUnit, measure
from spiel_ext.experiments.metrics import METRICS, metric_function


@pytest.mark.parametrize("game", ["kuhn_poker", "kuhn_poker(players=3)",
                                  "leduc_poker"])
def test_exploitability_brings_the_nash_conv_it_divides(game):
  tree = compile_game(game)
  strategy = random_strategy(tree, np.random.default_rng(3))
  value, total = exploitability_and_nash_conv(game, strategy)
  assert total == se.nash_conv(game, strategy)
  assert value == se.exploitability(game, strategy)
  assert metric_function("exploitability")(game, strategy) == {
      "exploitability": value, "nash_conv": total}


def test_a_unit_asking_for_both_computes_one_nash_conv(monkeypatch):
  calls = []
  original = se.nash_conv

  def counted(*args, **kwargs):
    calls.append(args[0])
    return original(*args, **kwargs)

  monkeypatch.setattr("spiel_ext.eval.metrics.nash_conv", counted)
  monkeypatch.setattr(se, "nash_conv", counted)
  tree = compile_game("kuhn_poker")
  strategy = random_strategy(tree, np.random.default_rng(1))
  unit = WorkUnit("test", "kuhn_poker()", "CFR", (), 0, 10, (10,),
                  ("exploitability", "nash_conv"))
  measured = measure(unit, METRICS, strategy)
  assert len(calls) == 1
  assert measured == {"exploitability": original(tree, strategy) / 2,
                      "nash_conv": original(tree, strategy)}


def test_exploitability_refuses_a_general_sum_game():
  tree = compile_game("turn_based_simultaneous_game(game=matrix_pd())")
  legal = tree.infoset_legal.astype(float)
  uniform = legal / legal.sum(axis=1, keepdims=True)
  with pytest.raises(ValueError, match="zero-sum and constant-sum"):
    exploitability_and_nash_conv(tree, uniform)


def test_a_game_string_is_loaded_once_per_process(monkeypatch):
  game = "spiel_ext_unknown_env(game=kuhn_poker(),env_seed=1)"
  metrics_module = importlib.import_module("spiel_ext.experiments.metrics")
  metrics_module._tree_of_string.cache_clear()  # pylint: disable=protected-access
  tree = compile_game(game)
  strategy = random_strategy(tree, np.random.default_rng(2))
  first = metric_function("nash_conv")(game, strategy)
  assert first == se.nash_conv(game, strategy)

  def refuse(*args, **kwargs):
    raise AssertionError("the game string was loaded again")

  monkeypatch.setattr(metrics_module, "compile_game", refuse)
  assert metric_function("nash_conv")(game, strategy) == first
  assert metric_function("value_player_0")(game, strategy) == (
      se.expected_values(tree, strategy)[0])
