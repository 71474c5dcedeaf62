"""Work units: one algorithm x game x hyperparameters x seed, run resumably.

A unit advances its solver iteration by iteration, measures its metrics at
the evaluation points and hands back a checkpoint (the pickled solver, the
iteration and the solver seconds so far) at every checkpoint boundary.
Executors decide where the rows and checkpoints are written: a local worker
writes them itself, a Ray task returns them to the driver.
"""

from __future__ import annotations

import dataclasses
import hashlib
import pickle
import time
from typing import Any, Callable, Sequence

from spiel_ext.results.store import Row, canonical_json

SolverFactory = Callable[..., Any]
Metric = Callable[[Any, Any], float]


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
  """
  experiment: str
  game: str
  algorithm: str
  hyperparameters: tuple[tuple[str, Any], ...]
  seed: int
  iterations: int
  eval_points: tuple[int, ...]
  metrics: tuple[str, ...]

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
  iteration: int
  solver_seconds: float
  solver: bytes

  def as_dict(self) -> dict[str, Any]:
    return dataclasses.asdict(self)

  @classmethod
  def from_dict(cls, data: dict[str, Any]) -> "Checkpoint":
    return cls(int(data["iteration"]), float(data["solver_seconds"]),
               bytes(data["solver"]))


def advance(unit: WorkUnit, checkpoint: Checkpoint | None, until: int,
            make_solver: SolverFactory, metrics: dict[str, Metric],
            on_rows: Callable[[Sequence[Row]], None],
            on_progress: Callable[[int], None] | None = None) -> Checkpoint:
  """Runs ``unit`` from ``checkpoint`` (or from scratch) to iteration ``until``.

  Calls ``on_rows`` with the rows of each evaluation point as soon as they
  are measured and ``on_progress(iterations)`` every few iterations; returns
  the checkpoint at ``until``.
  """
  if checkpoint is None:
    solver = make_solver(unit.game, seed=unit.seed,
                         **dict(unit.hyperparameters))
    iteration, seconds = 0, 0.0
  else:
    solver = pickle.loads(checkpoint.solver)
    iteration, seconds = checkpoint.iteration, checkpoint.solver_seconds
  eval_points = set(unit.eval_points)
  reported = iteration
  while iteration < until:
    start = time.perf_counter()
    solver.evaluate_and_update_policy()
    seconds += time.perf_counter() - start
    iteration += 1
    if iteration in eval_points:
      policy = solver.average_policy()
      on_rows([Row(unit.experiment, unit.game, unit.algorithm,
                   unit.hyperparameter_json, unit.seed, iteration, None,
                   seconds, name, float(metrics[name](unit.game, policy)))
               for name in unit.metrics])
    if on_progress is not None and (iteration - reported >= 50 or
                                    iteration == until):
      on_progress(iteration - reported)
      reported = iteration
  return Checkpoint(iteration, seconds, pickle.dumps(solver))


def chunk_ends(start: int, iterations: int, checkpoint_every: int) -> list[int]:
  """The iterations after ``start`` at which a checkpoint is taken."""
  ends = list(range((start // checkpoint_every + 1) * checkpoint_every,
                    iterations, checkpoint_every))
  return ends + [iterations] if iterations > start else []
