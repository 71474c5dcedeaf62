"""Work units: one algorithm x game x hyperparameters x seed, run resumably.

A unit advances its solver iteration by iteration, measures its metrics at
the evaluation points and hands back a checkpoint (the solver's
``state_dict()``, plain data; the iteration and the solver seconds so far)
at every checkpoint boundary. A unit resumes by building its solver with
the unit's factory and giving it that state: the solver contract of
:mod:`spiel_ext.algorithms.protocol`. Executors decide where the rows and
checkpoints are written: a local worker writes them itself, a Ray task
returns them to the driver.
"""

from __future__ import annotations

import dataclasses
import hashlib
import time
from typing import Any, Callable, Iterator, Protocol, Sequence

import numpy as np

from spiel_ext.results.store import Row, canonical_json

SolverFactory = Callable[..., Any]
Metric = Callable[[Any, Any], "float | dict[str, float]"]


# The snapshot "metric" that means an iteration count, not a measurement.
ITERATION_SNAPSHOT = "iteration"


@dataclasses.dataclass(frozen=True)
class WorkUnit:
  """Everything that determines one unit's rows.

  Attributes:
    experiment: the experiment's name.
    game: the game string.
    algorithm: a label of :data:`ALGORITHMS`' kind (the experiment's registry).
    hyperparameters: keyword arguments of the solver factory (JSON-able).
    seed: the solver's seed.
    iterations: iterations to run.
    eval_points: iterations after which the metrics are measured.
    metrics: names of the metrics to measure.
    snapshots: (name, metric, threshold): keep the average strategy the
      first time ``metric`` <= ``threshold`` at an evaluation point (with
      metric ``"iteration"``: at the first evaluation point at or after
      iteration ``threshold``); the strategy at the last iteration is
      always kept as "final".
  """
  experiment: str
  game: str
  algorithm: str
  hyperparameters: tuple[tuple[str, Any], ...]
  seed: int
  iterations: int
  eval_points: tuple[int, ...]
  metrics: tuple[str, ...]
  snapshots: tuple[tuple[str, str, float], ...] = ()

  @property
  def hyperparameter_json(self) -> str:
    return canonical_json(dict(self.hyperparameters))

  @property
  def unit_id(self) -> str:
    """A short stable id: the hash of every field."""
    text = canonical_json(dataclasses.asdict(self))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()

  def label(self) -> str:
    return f"{self.algorithm} on {self.game} seed {self.seed}"


@dataclasses.dataclass
class Checkpoint:
  """A unit's state between checkpoint intervals.

  Attributes:
    iteration: iterations completed.
    solver_seconds: solver time so far (evaluation excluded).
    solver_state: the solver's ``state_dict()`` (plain data).
    snapshots_taken: names of the snapshots already kept.
    evaluation_seconds: time so far spent measuring the metrics and
      keeping snapshots (0 in checkpoints written before it was recorded).
  """
  iteration: int
  solver_seconds: float
  solver_state: dict[str, Any]
  snapshots_taken: tuple[str, ...] = ()
  evaluation_seconds: float = 0.0

  def as_dict(self) -> dict[str, Any]:
    """The checkpoint as plain data (the state is not copied)."""
    return {"iteration": self.iteration,
            "solver_seconds": self.solver_seconds,
            "solver_state": self.solver_state,
            "snapshots_taken": list(self.snapshots_taken),
            "evaluation_seconds": self.evaluation_seconds}

  def seconds(self) -> dict[str, float]:
    """{"solver_seconds", "evaluation_seconds"}: the time so far."""
    return {"solver_seconds": self.solver_seconds,
            "evaluation_seconds": self.evaluation_seconds}

  @classmethod
  def from_dict(cls, data: dict[str, Any]) -> "Checkpoint":
    """The checkpoint :meth:`as_dict` wrote.

    Raises:
      KeyError, TypeError: ``data`` is not one.
    """
    state = data["solver_state"]
    if not isinstance(state, dict):
      raise TypeError(f"the checkpoint's solver state is a "
                      f"{type(state).__name__}, not a state_dict")
    return cls(int(data["iteration"]), float(data["solver_seconds"]),
               state, tuple(data.get("snapshots_taken", ())),
               float(data.get("evaluation_seconds", 0.0)))


class Sink(Protocol):
  """Where a running unit sends what it produces."""

  def rows(self, rows: Sequence[Row]) -> None:
    """The rows of one evaluation point, as soon as they are measured."""

  def snapshot(self, name: str, iteration: int, strategy: np.ndarray) -> None:
    """An average strategy to keep (see WorkUnit.snapshots)."""

  def progress(self, iterations: int) -> None:
    """Iterations done since the last call."""


def _strategy_array(policy: Any) -> np.ndarray:
  return np.array(policy.action_probability_array, dtype=np.float64)


def measure(unit: WorkUnit, metrics: dict[str, Metric],
            policy: Any) -> dict[str, float]:
  """Every metric the unit asks for, each computed once: a metric function
  may return a dict holding several metrics it computes together."""
  measured: dict[str, float] = {}
  for name in unit.metrics:
    if name in measured:
      continue
    value = metrics[name](unit.game, policy)
    if isinstance(value, dict):
      measured.update({key: float(item) for key, item in value.items()})
    else:
      measured[name] = float(value)
  return measured


def advance(unit: WorkUnit, checkpoint: Checkpoint | None, until: int,
            make_solver: SolverFactory, metrics: dict[str, Metric],
            sink: Sink) -> Checkpoint:
  """Runs ``unit`` from ``checkpoint`` (or from scratch) to iteration ``until``
  and returns the checkpoint there; rows, snapshots and progress go to
  ``sink`` as they happen.

  The solver is built by ``make_solver(unit.game, seed=unit.seed,
  **hyperparameters)`` and, from a checkpoint, given its state with
  ``load_state_dict`` (a ValueError if the state is of another format
  version or solver).
  """
  solver = make_solver(unit.game, seed=unit.seed,
                       **dict(unit.hyperparameters))
  if checkpoint is None:
    checkpoint = Checkpoint(0, 0.0, {})
  else:
    solver.load_state_dict(checkpoint.solver_state)
  seconds, evaluation_seconds = (checkpoint.solver_seconds,
                                 checkpoint.evaluation_seconds)
  taken = set(checkpoint.snapshots_taken)
  # The solver counts its iterations; the checkpoint's count is what the
  # executors read without building the solver, and must agree.
  iteration = solver.iteration_count
  if iteration != checkpoint.iteration:
    raise ValueError(f"{unit.label()}: the checkpoint says iteration "
                     f"{checkpoint.iteration}, its solver state "
                     f"{iteration}.")
  eval_points = set(unit.eval_points)
  reported = iteration
  while iteration < until:
    start = time.perf_counter()
    solver.evaluate_and_update_policy()
    seconds += time.perf_counter() - start
    iteration = solver.iteration_count
    if iteration in eval_points or iteration == unit.iterations:
      start = time.perf_counter()
      _evaluate(unit, metrics, solver, seconds, taken, sink)
      evaluation_seconds += time.perf_counter() - start
    if iteration - reported >= 50 or iteration == until:
      sink.progress(iteration - reported)
      reported = iteration
  return Checkpoint(iteration, seconds, solver.state_dict(),
                    tuple(sorted(taken)), evaluation_seconds)


def _evaluate(unit: WorkUnit, metrics: dict[str, Metric], solver: Any,
              seconds: float, taken: set[str], sink: Sink) -> None:
  """At an evaluation point or the unit's last iteration: the rows of the
  metrics (at evaluation points), the snapshots reached (added to
  ``taken``) and, at the end, the final strategy."""
  iteration = solver.iteration_count
  policy = solver.average_policy()
  measured = measure(unit, metrics, policy)
  if iteration in unit.eval_points:
    # Learners in unknown environments count the episodes they played.
    episodes = solver.progress().episodes
    sink.rows([Row(unit.experiment, unit.game, unit.algorithm,
                   unit.hyperparameter_json, unit.seed, iteration,
                   episodes, seconds, name, measured[name])
               for name in unit.metrics])
  for name, metric, threshold in unit.snapshots:
    reached = (iteration >= threshold if metric == ITERATION_SNAPSHOT
               else measured.get(metric, np.inf) <= threshold)
    if name not in taken and reached:
      sink.snapshot(name, iteration, _strategy_array(policy))
      taken.add(name)
  if iteration == unit.iterations:
    sink.snapshot("final", iteration, _strategy_array(policy))


def next_chunk_end(position: int, iterations: int,
                   checkpoint_every: int) -> int:
  """The iteration of the next checkpoint after ``position``."""
  return min((position // checkpoint_every + 1) * checkpoint_every,
             iterations)


def chunk_ends(start: int, iterations: int,
               checkpoint_every: int) -> Iterator[int]:
  """The iterations after ``start`` at which a checkpoint is taken (lazily:
  a run of 10^9 iterations does not build a list)."""
  position = start
  while position < iterations:
    position = next_chunk_end(position, iterations, checkpoint_every)
    yield position
