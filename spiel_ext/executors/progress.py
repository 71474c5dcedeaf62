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
  """A line per ~10% of the work: iterations done, rate, time left.

  The work is the iterations, or each unit's iterations weighted by what
  one costs (``total_work`` and the ``work`` of :meth:`update`): the share
  done and the time left are read from the work, so that a unit of costly
  iterations counts for what it costs. Work a resumed run finds done
  (``resumed``) counts in the share but not in the rate.
  """

  def __init__(self, label: str, total: int, stream: TextIO | None = None,
               steps: int = 10, total_work: float | None = None):
    self.label = label
    self.total = max(int(total), 1)
    self.total_work = (float(self.total) if total_work is None
                       else max(float(total_work), 1e-300))
    self.stream = stream
    self.steps = steps
    self.done = 0
    self.work = 0.0
    self.resumed_iterations = 0
    self.resumed_work = 0.0
    self._next_step = 1
    self._start = time.perf_counter()

  def update(self, count: int, work: float | None = None,
             resumed: bool = False) -> None:
    """Adds ``count`` iterations done, worth ``work`` (default: count);
    ``resumed``: done before this run (found on disk)."""
    amount = count if work is None else work
    self.done += count
    self.work += amount
    if resumed:
      self.resumed_iterations += count
      self.resumed_work += amount
    # The last iteration ends the work whatever the sums' rounding.
    share = 1.0 if self.done >= self.total else self.work / self.total_work
    reached = min(int(share * self.steps), self.steps)
    if reached >= self._next_step:
      self._next_step = reached + 1
      self._write(share)

  def _write(self, share: float) -> None:
    elapsed = time.perf_counter() - self._start
    rate = (self.done - self.resumed_iterations) / elapsed if (
        elapsed > 0) else 0.0
    new_work = self.work - self.resumed_work
    left = (elapsed * self.total_work * (1.0 - share) / new_work
            if new_work > 0 and elapsed > 0 else float("nan"))
    stream = self.stream or sys.stderr
    print(f"{self.label}: {int(100 * min(share, 1.0))}% "
          f"({self.done:,}/{self.total:,} iterations), {rate:,.0f} it/s, "
          f"{_duration(elapsed)} elapsed, about {_duration(left)} left",
          file=stream, flush=True)

  def close(self) -> None:
    pass


class _WorkBar:
  """A tqdm bar of the work (see :class:`ProgressLines`)."""

  def __init__(self, bar: tqdm):
    self.bar = bar

  def update(self, count: int, work: float | None = None,
             resumed: bool = False) -> None:
    amount = count if work is None else work
    if not resumed:
      self.bar.update(amount)
      return
    # Found done on disk: moves the bar without entering tqdm's rate.
    self.bar.initial += amount
    self.bar.n += amount
    self.bar.last_print_n += amount
    self.bar.refresh()

  def close(self) -> None:
    self.bar.close()


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
  def update(self, count: int, work: float | None = None,
             resumed: bool = False) -> None:
    del count, work, resumed

  def close(self) -> None:
    pass


def progress_reporters(label: str, units: int, iterations: int, quiet: bool,
                       stream: TextIO | None = None,
                       work: float | None = None):
  """(units, iterations) progress reporters, each with ``update(count)``
  (the iterations' also takes the ``work`` they are worth and whether
  they were ``resumed``, found done on disk) and
  ``close()``: bars when ``stream`` (standard error by default) is a
  terminal, lines at each tenth of the work otherwise, nothing when
  ``quiet``. ``work`` is the total work, when iterations are weighted by
  their cost (in estimated seconds); None counts iterations."""
  if quiet:
    return _Silent(), _Silent()
  stream = stream or sys.stderr
  if not stream.isatty():
    return _Silent(), ProgressLines(label, iterations, stream,
                                    total_work=work)
  units_bar = tqdm(total=units, desc="units", unit="unit", position=0,
                   file=stream)
  if work is None:
    return units_bar, _WorkBar(tqdm(total=iterations, desc="iterations",
                                    unit="it", position=1, smoothing=0.05,
                                    file=stream))
  return units_bar, _WorkBar(tqdm(
      total=work, desc="work", position=1, smoothing=0.3, file=stream,
      bar_format="{l_bar}{bar}| {n:.0f}/{total:.0f} estimated s "
      "[{elapsed}<{remaining}]"))
