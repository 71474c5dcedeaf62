"""Progress of a run: bars on a terminal, a line per tenth elsewhere.

Progress bars redirected to a file write a line per refresh (92 KB for one
quick run); when standard error is not a terminal a run prints instead one
line at each tenth of its iterations, with the rate and the time left.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from tqdm.auto import tqdm


class ProgressLines:
  """A line per ~10% of ``total`` iterations: done, rate, time left."""

  def __init__(self, label: str, total: int, stream: TextIO | None = None,
               steps: int = 10):
    self.label = label
    self.total = max(int(total), 1)
    self.stream = stream
    self.steps = steps
    self.done = 0
    self._next_step = 1
    self._start = time.perf_counter()

  def update(self, count: int) -> None:
    self.done += count
    reached = min(self.done * self.steps // self.total, self.steps)
    if reached >= self._next_step:
      self._next_step = reached + 1
      self._write()

  def _write(self) -> None:
    elapsed = time.perf_counter() - self._start
    rate = self.done / elapsed if elapsed > 0 else 0.0
    left = (self.total - self.done) / rate if rate > 0 else float("nan")
    stream = self.stream or sys.stderr
    print(f"{self.label}: {100 * min(self.done, self.total) // self.total}% "
          f"({self.done:,}/{self.total:,} iterations), {rate:,.0f} it/s, "
          f"{_duration(elapsed)} elapsed, about {_duration(left)} left",
          file=stream, flush=True)

  def close(self) -> None:
    pass


def _duration(seconds: float) -> str:
  if seconds != seconds:  # NaN: no rate yet.
    return "?"
  seconds = int(round(seconds))
  if seconds < 60:
    return f"{seconds} s"
  minutes, seconds = divmod(seconds, 60)
  if minutes < 60:
    return f"{minutes} min {seconds:02d} s"
  hours, minutes = divmod(minutes, 60)
  return f"{hours} h {minutes:02d} min"


class _Silent:
  def update(self, count: int) -> None:
    del count

  def close(self) -> None:
    pass


def progress_reporters(label: str, units: int, iterations: int, quiet: bool,
                       stream: TextIO | None = None):
  """(units, iterations) progress reporters, each with ``update(count)`` and
  ``close()``: bars when ``stream`` (standard error by default) is a
  terminal, lines at each tenth of the iterations otherwise, nothing when
  ``quiet``."""
  if quiet:
    return _Silent(), _Silent()
  stream = stream or sys.stderr
  if stream.isatty():
    return (tqdm(total=units, desc="units", unit="unit", position=0,
                 file=stream),
            tqdm(total=iterations, desc="iterations", unit="it", position=1,
                 smoothing=0.05, file=stream))
  return _Silent(), ProgressLines(label, iterations, stream)
