"""Gamma draws with the bits of numba's ``np.random.gamma``, faster.

numba's ``np.random.seed(seed)`` / ``np.random.gamma(shape, 1.0)`` draw from
a Mersenne Twister (Matsumoto, Nishimura, "Mersenne Twister: A
623-Dimensionally Equidistributed Uniform Pseudo-Random Number
Generator", ACM TOMACS, 1998) whose state lives in a thread-local slot
that every uniform draw reads and writes through a call; the Gamma
variates are CPython's ``random.gammavariate`` (Cheng, "The Generation of
Gamma Variables with Non-Integral Shape Parameter", Applied Statistics,
1977, for shape > 1; -log(1 - U) for shape 1; algorithm GS of Kennedy,
Gentle, "Statistical Computing", 1980, for shape < 1). :func:`gamma_draws`
runs the same generator (seeded as ``numba_rnd_init`` seeds it: Knuth's
initialisation of the reference implementation) on a local state, the
uniforms made a block of 624 words at a time, and the same Gamma
algorithms with the same operations, so it returns the same numbers from
the same seed.
"""

from __future__ import annotations

import math

import numba
import numpy as np

__all__ = ["gamma_draws"]

_N = 624
_M = 397
_MATRIX_A = 0x9908B0DF
_UPPER = 0x80000000
_LOWER = 0x7FFFFFFF
_WORD = 0xFFFFFFFF


@numba.njit(cache=True)
def _seeded(seed: int) -> np.ndarray:
  """The generator's words after ``numba_rnd_init(seed)`` (uint64 holding
  32-bit values)."""
  words = np.empty(_N, dtype=np.uint64)
  value = np.uint64(seed) & np.uint64(_WORD)
  for position in range(_N):
    words[position] = value
    value = (np.uint64(1812433253) * (value ^ (value >> np.uint64(30))) +
             np.uint64(position + 1)) & np.uint64(_WORD)
  return words


@numba.njit(cache=True)
def _twist(words: np.ndarray) -> None:
  """``numba_rnd_shuffle``: the next 624 words, in place."""
  upper, lower = np.uint64(_UPPER), np.uint64(_LOWER)
  matrix, one = np.uint64(_MATRIX_A), np.uint64(1)
  for i in range(_N):
    y = (words[i] & upper) | (words[(i + 1) % _N] & lower)
    twisted = words[(i + _M) % _N] ^ (y >> one)
    if y & one:
      twisted ^= matrix
    words[i] = twisted


@numba.njit(cache=True)
def _temper(y: np.uint64) -> np.uint64:
  """The reference implementation's tempering of one 32-bit word."""
  y ^= y >> np.uint64(11)
  y ^= (y << np.uint64(7)) & np.uint64(0x9D2C5680)
  y ^= (y << np.uint64(15)) & np.uint64(0xEFC60000)
  y ^= y >> np.uint64(18)
  return y & np.uint64(_WORD)


@numba.njit(cache=True)
def _refill(words: np.ndarray, uniform: np.ndarray) -> int:
  """Twists ``words`` and fills ``uniform`` with the 312 doubles its 624
  tempered words make, two words a double as numba's
  ``get_next_double``; returns 0, the position of the next double."""
  _twist(words)
  for k in range(_N // 2):
    a = float(_temper(words[2 * k]) >> np.uint64(5))
    b = float(_temper(words[2 * k + 1]) >> np.uint64(6))
    uniform[k] = (b + a * 67108864.0) / 9007199254740992.0
  return 0


@numba.njit(cache=True)
# pylint: disable-next=too-many-branches
def gamma_draws(seed: int, shapes: np.ndarray) -> np.ndarray:
  """Gamma(shape, 1) of each of ``shapes`` in turn, as
  ``np.random.seed(seed)`` and then ``np.random.gamma(shape, 1.0)`` for
  each in numba return them (the same algorithms, operations and uniform
  stream; see the module docstring).

  Args:
    seed: the generator's seed (its low 32 bits are used).
    shapes: [n] float64 shapes, each > 0.

  Returns:
    A new [n] float64 array of draws.
  """
  words = _seeded(seed)
  uniform = np.empty(_N // 2)
  position = uniform.shape[0]
  out = np.empty(shapes.shape[0])
  sg_magic = 1.0 + math.log(4.5)
  for index in range(shapes.shape[0]):
    alpha = shapes[index]
    if alpha > 1.0:
      ainv = math.sqrt(2.0 * alpha - 1.0)
      bbb = alpha - math.log(4.0)
      ccc = alpha + ainv
      while True:
        if position == uniform.shape[0]:
          position = _refill(words, uniform)
        u1 = uniform[position]
        position += 1
        if not 1e-7 < u1 < .9999999:
          continue
        if position == uniform.shape[0]:
          position = _refill(words, uniform)
        u2 = 1.0 - uniform[position]
        position += 1
        v = math.log(u1 / (1.0 - u1)) / ainv
        x = alpha * math.exp(v)
        z = u1 * u1 * u2
        r = bbb + ccc * v - x
        if r + sg_magic - 4.5 * z >= 0.0 or r >= math.log(z):
          out[index] = x * 1.0
          break
    elif alpha == 1.0:
      if position == uniform.shape[0]:
        position = _refill(words, uniform)
      out[index] = -math.log(1.0 - uniform[position]) * 1.0
      position += 1
    else:
      while True:
        if position == uniform.shape[0]:
          position = _refill(words, uniform)
        u = uniform[position]
        position += 1
        b = (math.e + alpha) / math.e
        p = b * u
        if p <= 1.0:
          x = p ** (1.0 / alpha)
        else:
          x = -math.log((b - p) / alpha)
        if position == uniform.shape[0]:
          position = _refill(words, uniform)
        u1 = uniform[position]
        position += 1
        if p > 1.0:
          if u1 <= x ** (alpha - 1.0):
            break
        elif u1 <= math.exp(-x):
          break
      out[index] = x * 1.0
  return out
