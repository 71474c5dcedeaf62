"""A tiny deterministic solver and metric for executor tests (no engine).

Module-level so that worker processes and Ray tasks can unpickle them.
"""

import dataclasses
import os
import time

import numpy as np

from spiel_ext.algorithms.protocol import STATE_VERSION, Progress


class CountingSolver:
  """x_t = x_{t-1} + scale * U(0, 1) from a seeded generator.

  Sleeps $FAKE_SOLVER_DELAY seconds per iteration (not a hyperparameter, so
  slow and fast runs are the same work units).
  """

  @dataclasses.dataclass(frozen=True)
  class Config:
    seed: int = 0
    scale: float = 1.0

  def __init__(self, game, seed=0, scale=1.0):
    self.game = game
    self.config = self.Config(seed, scale)
    self.delay = float(os.environ.get("FAKE_SOLVER_DELAY", "0"))
    self.scale = scale
    self.rng = np.random.default_rng(seed)
    self.value = 0.0
    self.iteration_count = 0

  def evaluate_and_update_policy(self):
    if self.delay:
      time.sleep(self.delay)
    self.value += self.scale * self.rng.random()
    self.iteration_count += 1

  def average_policy(self):
    return FakePolicy(self.value)

  def current_policy(self):
    return FakePolicy(self.value)

  def progress(self):
    return Progress(self.iteration_count, None)

  def state_dict(self):
    return {"version": STATE_VERSION, "value": self.value,
            "iterations": self.iteration_count,
            "rng_state": self.rng.bit_generator.state}

  def load_state_dict(self, state):
    self.value = state["value"]
    self.iteration_count = state["iterations"]
    self.rng.bit_generator.state = state["rng_state"]


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
