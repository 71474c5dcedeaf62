"""Progress of a run: bars on a terminal, a line per tenth elsewhere.

Progress bars redirected to a file write a line per refresh (92 KB for one
quick run); when standard error is not a terminal a run prints instead one
line at each tenth of its iterations, with the rate and the time left.

The time left covers what follows the last iteration (merging the results,
writing figures and tables): ``finishing``, its estimated work, counts in
the share and the time left, and the line written once every iteration is
done says that only writing results, figures and tables is left.
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
  (``resumed``) counts in the share but not in the rate. ``finishing``
  is the estimated work after the last iteration (:meth:`finish` counts it
  done), in the unit of ``total_work``: the share and the time left
  include it, so 100% is the end of the run, not of its iterations.
  """

  def __init__(self, label: str, total: int, stream: TextIO | None = None,
               steps: int = 10, total_work: float | None = None,
               finishing: float = 0.0):
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
    self.finishing = max(float(finishing), 0.0)
    self.finished = 0.0
    self._said_finishing = False
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
    if self.done >= self.total and self.finishing > 0:
      if not self._said_finishing:  # Only the finishing steps are left.
        self._said_finishing = True
        self._next_step = int(self._share() * self.steps) + 1
        self._write(" (writing results, figures and tables)")
      return
    self._report()

  def finish(self, work: float) -> None:
    """Counts ``work`` of the finishing steps done (see ``finishing``)."""
    self.finished += work
    self._report()

  def _share(self) -> float:
    # The last iteration (and finishing step) ends the work whatever the
    # sums' rounding.
    if self.done >= self.total and self.finished >= self.finishing * (
        1 - 1e-9):
      return 1.0
    return min((self.work + self.finished) /
               (self.total_work + self.finishing), 1.0)

  def _report(self) -> None:
    reached = min(int(self._share() * self.steps), self.steps)
    if reached >= self._next_step:
      self._next_step = reached + 1
      self._write()

  def _write(self, note: str = "") -> None:
    share = self._share()
    elapsed = time.perf_counter() - self._start
    rate = (self.done - self.resumed_iterations) / elapsed if (
        elapsed > 0) else 0.0
    new_work = self.work + self.finished - self.resumed_work
    left = (elapsed * (self.total_work + self.finishing) * (1.0 - share) /
            new_work if new_work > 0 and elapsed > 0 else float("nan"))
    stream = self.stream or sys.stderr
    print(f"{self.label}: {int(100 * share)}% "
          f"({self.done:,}/{self.total:,} iterations), {rate:,.0f} it/s, "
          f"{_duration(elapsed)} elapsed, about {_duration(left)} left{note}",
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

  def finish(self, work: float) -> None:
    self.bar.set_description("writing results", refresh=False)
    self.bar.update(work)

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

  def finish(self, work: float) -> None:
    del work

  def close(self) -> None:
    pass


def progress_reporters(label: str, units: int, iterations: int, quiet: bool,
                       stream: TextIO | None = None,
                       work: float | None = None, finishing: float = 0.0):
  """(units, iterations) progress reporters, each with ``update(count)``
  (the iterations' also takes the ``work`` they are worth and whether
  they were ``resumed``, found done on disk) and
  ``close()``: bars when ``stream`` (standard error by default) is a
  terminal, lines at each tenth of the work otherwise, nothing when
  ``quiet``. ``work`` is the total work, when iterations are weighted by
  their cost (in estimated seconds); None counts iterations. ``finishing``:
  the estimated work after the last iteration, in the same unit, which the
  iterations' reporter's ``finish(work)`` counts done."""
  if quiet:
    return _Silent(), _Silent()
  stream = stream or sys.stderr
  if not stream.isatty():
    return _Silent(), ProgressLines(label, iterations, stream,
                                    total_work=work, finishing=finishing)
  units_bar = tqdm(total=units, desc="units", unit="unit", position=0,
                   file=stream)
  if work is None:
    return units_bar, _WorkBar(tqdm(total=iterations + finishing,
                                    desc="iterations",
                                    unit="it", position=1, smoothing=0.05,
                                    file=stream))
  return units_bar, _WorkBar(tqdm(
      total=work + finishing, desc="work", position=1, smoothing=0.3, file=stream,
      bar_format="{l_bar}{bar}| {n:.0f}/{total:.0f} estimated s "
      "[{elapsed}<{remaining}]"))
