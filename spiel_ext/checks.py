"""Scalar argument checks shared by the whole package: one clear error each.

Each check names the parameter and the values it accepts, so that a bad
value never reaches numpy or numba. Bools are never numbers here (``True``
is not the integer 1, nor the probability 1.0), strings are never read as
truthy, and numpy scalars count as the Python numbers they stand for.

This module imports only numpy and the standard library: the games (which
must load without the engine), the engine, the policies and the solvers all
use it.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Collection
from typing import Any

import numpy as np

__all__ = ["MAX_SEED", "check_bool", "check_choice", "check_hyperparameters",
           "check_int", "check_integer", "check_methods", "check_positive",
           "check_real", "check_seed", "is_integer", "is_real", "short_repr"]

# The largest seed accepted. numpy's generators take any int >= 0, but seeds
# are recorded with results and checkpoints as int64 and torch's generators
# (the ``bnn`` information model) take at most 2**64 - 1.
MAX_SEED = 2**63 - 1


def is_integer(value: Any) -> bool:
  """Whether ``value`` is a Python or numpy integer (bools are not)."""
  return (isinstance(value, numbers.Integral) and
          not isinstance(value, (bool, np.bool_)))


def is_real(value: Any) -> bool:
  """Whether ``value`` is a Python or numpy real number, NaN and infinities
  included (bools are not)."""
  return (isinstance(value, numbers.Real) and
          not isinstance(value, (bool, np.bool_)))


def short_repr(value: Any, limit: int = 80) -> str:
  """repr(value) for messages and reprs: arrays by shape, long text cut."""
  if isinstance(value, np.ndarray):
    return f"<array of shape {value.shape}>"
  text = repr(value)
  return text if len(text) <= limit else text[:limit - 3] + "..."


def check_bool(name: str, value: Any) -> bool:
  """``value`` as a bool; TypeError unless it is a bool or numpy bool.

  Strings such as "no" are refused rather than read as truthy.
  """
  if not isinstance(value, (bool, np.bool_)):
    raise TypeError(f"{name} must be True or False; got "
                    f"{short_repr(value)}.")
  return bool(value)


def check_seed(seed: Any) -> int | None:
  """``seed`` as an int in 0..MAX_SEED (2**63 - 1) or None.

  Raises:
    TypeError: ``seed`` is not an int (bools and floats included) or None.
    ValueError: ``seed`` is an int outside 0..2**63 - 1.
  """
  if seed is None:
    return None
  wanted = "seed must be an int in 0..2**63 - 1 or None"
  if not is_integer(seed):
    raise TypeError(f"{wanted}; got {short_repr(seed)}.")
  if not 0 <= seed <= MAX_SEED:
    raise ValueError(f"{wanted}; got {short_repr(seed)}.")
  return int(seed)


def check_integer(game: str, name: str, value: Any, low: int,
                  high: int | None = None) -> int:
  """``value`` as an int in [low, high] (no upper bound for None);
  ValueError naming it (and ``game``, unless empty) otherwise.

  Python and numpy integers are accepted; bools, floats (even 2.0) and
  strings are not.
  """
  if (not is_integer(value) or value < low or
      (high is not None and value > high)):
    accepted = (f"an integer >= {low}" if high is None else
                f"an integer in {low}..{high}")
    raise ValueError(f"{game + ': ' if game else ''}{name} must be "
                     f"{accepted}; got {short_repr(value)}.")
  return int(value)


def check_int(name: str, value: Any, low: int,
              high: int | None = None) -> int:
  """``value`` as an int in low..high (no upper bound for None); ValueError
  naming ``name`` and the range otherwise (see :func:`check_integer`)."""
  return check_integer("", name, value, low, high)


def check_real(name: str, value: Any, low: float = -math.inf,
               high: float = math.inf, *, low_inclusive: bool = True,
               high_inclusive: bool = True) -> float:
  """``value`` as a finite float in the range; ValueError otherwise.

  Bools, strings, NaN, infinities and ints too large for a float are
  refused, whatever the range.
  """
  wanted = (f"{name} must be a finite number"
            f"{_range(low, high, low_inclusive, high_inclusive)}")
  if not is_real(value):
    raise ValueError(f"{wanted}; got {short_repr(value)}.")
  try:
    number = float(value)
  except OverflowError:  # An int beyond the floats.
    number = math.inf
  below = number < low if low_inclusive else number <= low
  above = number > high if high_inclusive else number >= high
  if not math.isfinite(number) or below or above:
    raise ValueError(f"{wanted}; got {short_repr(value)}.")
  return number


def check_positive(game: str, name: str, value: Any) -> float:
  """``value`` as a float if it is a finite number > 0; ValueError naming it
  (and ``game``) else."""
  try:
    return check_real(name, value, 0.0, low_inclusive=False)
  except ValueError:
    raise ValueError(f"{game}: {name} must be a finite number > 0; got "
                     f"{short_repr(value)}.") from None


def check_choice(name: str, value: Any, choices: Collection[str]) -> str:
  """``value`` unless it is not one of ``choices`` (ValueError)."""
  if not isinstance(value, str) or value not in choices:
    raise ValueError(f"{name} must be one of {sorted(choices)}; got "
                     f"{short_repr(value)}.")
  return value


def check_methods(name: str, value: Any, methods: Collection[str],
                  kind: str) -> Any:
  """``value`` unless it lacks one of the callable ``methods`` (TypeError
  naming ``name`` and ``kind``, the protocol it should follow)."""
  missing = [method for method in methods
             if not callable(getattr(value, method, None))]
  if missing:
    raise TypeError(f"{name} must be a {kind} (with method"
                    f"{'s' if len(methods) > 1 else ''} "
                    f"{', '.join(methods)}); got {short_repr(value)}.")
  return value


def check_hyperparameters(value: Any) -> dict[str, Any]:
  """``value`` as a dict (None: empty); TypeError unless it is a dict with
  string keys."""
  if value is None:
    return {}
  if not isinstance(value, dict) or not all(
      isinstance(key, str) for key in value):
    raise TypeError("hyperparameters must be None or a dict {name: value}; "
                    f"got {short_repr(value)}.")
  return dict(value)


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
