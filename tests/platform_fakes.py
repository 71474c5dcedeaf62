"""A tiny deterministic solver and metric for executor tests (no engine).

Module-level so that worker processes and Ray tasks can unpickle them.
"""

import os
import time

import numpy as np


class CountingSolver:
  """x_t = x_{t-1} + scale * U(0, 1) from a seeded generator.

  Sleeps $FAKE_SOLVER_DELAY seconds per iteration (not a hyperparameter, so
  slow and fast runs are the same work units).
  """

  def __init__(self, game, seed=0, scale=1.0):
    self.game = game
    self.delay = float(os.environ.get("FAKE_SOLVER_DELAY", "0"))
    self.scale = scale
    self.rng = np.random.default_rng(seed)
    self.value = 0.0

  def evaluate_and_update_policy(self):
    if self.delay:
      time.sleep(self.delay)
    self.value += self.scale * self.rng.random()

  def average_policy(self):
    return FakePolicy(self.value)


class FakePolicy:
  """What the platform reads of a policy: its probability array."""

  def __init__(self, value):
    self.value = value
    self.action_probability_array = np.array([[value, 1.0]])


def value_metric(game, policy):
  del game
  return float(policy.value)


def doubled_metric(game, policy):
  del game
  return 2.0 * float(policy.value)
