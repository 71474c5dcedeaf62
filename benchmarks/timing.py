"""Timing helpers the benchmark scripts share."""

import time

import numpy as np


def seconds_per_iteration(step, iterations, warmup=3):
  """Mean wall time of ``step()`` over ``iterations`` calls after warm-up."""
  for _ in range(warmup):
    step()
  start = time.perf_counter()
  for _ in range(iterations):
    step()
  return (time.perf_counter() - start) / iterations


def median_seconds(function, repeats, warmup=1):
  """Median wall time of ``function()`` over ``repeats`` calls."""
  for _ in range(warmup):
    function()
  times = []
  for _ in range(repeats):
    start = time.perf_counter()
    function()
    times.append(time.perf_counter() - start)
  return float(np.median(times))
