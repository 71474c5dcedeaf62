"""Argument checks shared by the solvers: one clear error per bad input.

Each check names the parameter and the values it accepts, and runs once, at
construction, so that a bad value never reaches numpy or numba.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Collection
from typing import Any

import numpy as np


def check_bool(name: str, value: Any) -> bool:
  """``value`` as a bool; TypeError unless it is a bool or numpy bool.

  Strings such as "no" are refused rather than read as truthy.
  """
  if not isinstance(value, (bool, np.bool_)):
    raise TypeError(f"{name} must be True or False; got {value!r}.")
  return bool(value)


def check_seed(seed: Any) -> int | None:
  """``seed`` as an int >= 0 or None, the seeds numpy's generators take."""
  if seed is None:
    return None
  if (isinstance(seed, (bool, np.bool_)) or
      not isinstance(seed, numbers.Integral)):
    raise TypeError(f"seed must be an int >= 0 or None; got {seed!r}.")
  if seed < 0:
    raise ValueError(f"seed must be an int >= 0 or None; got {seed!r}.")
  return int(seed)


def check_choice(name: str, value: Any, choices: Collection[str]) -> str:
  """``value`` unless it is not one of ``choices`` (ValueError)."""
  if not isinstance(value, str) or value not in choices:
    raise ValueError(f"{name} must be one of {sorted(choices)}; got {value!r}.")
  return value


def check_real(name: str, value: Any, low: float = -math.inf,
               high: float = math.inf, *, low_inclusive: bool = True,
               high_inclusive: bool = True) -> float:
  """``value`` as a finite float in the range; ValueError otherwise.

  Bools, strings, NaN and infinities are refused, whatever the range.
  """
  wanted = (f"{name} must be a finite number"
            f"{_range(low, high, low_inclusive, high_inclusive)}")
  if (isinstance(value, (bool, np.bool_)) or
      not isinstance(value, numbers.Real)):
    raise ValueError(f"{wanted}; got {value!r}.")
  number = float(value)
  below = number < low if low_inclusive else number <= low
  above = number > high if high_inclusive else number >= high
  if not math.isfinite(number) or below or above:
    raise ValueError(f"{wanted}; got {value!r}.")
  return number


def _range(low: float, high: float, low_inclusive: bool,
           high_inclusive: bool) -> str:
  if math.isinf(low) and math.isinf(high):
    return ""
  if math.isinf(high):
    return f" {'>=' if low_inclusive else '>'} {low:g}"
  if math.isinf(low):
    return f" {'<=' if high_inclusive else '<'} {high:g}"
  return (f" in {'[' if low_inclusive else '('}{low:g}, "
          f"{high:g}{']' if high_inclusive else ')'}")


def short_repr(value: Any, limit: int = 80) -> str:
  """repr(value) for messages and reprs: arrays by shape, long text cut."""
  if isinstance(value, np.ndarray):
    return f"<array of shape {value.shape}>"
  text = repr(value)
  return text if len(text) <= limit else text[:limit - 3] + "..."
