"""What keeping results safe costs: checked rows beside plain appends.

    python benchmarks/bench_store.py

A unit appends the rows of each evaluation point with a check that chains
them (``UnitStore.append``); resuming and merging verify the chain. This
prints, in one process on the same temporary folder:
- the time per evaluation point of a checked append against a plain CSV
  append with the same flush to disk (the work the store did before);
- the time to verify a unit's rows against parsing them unchecked;
- both beside one evaluation of NashConv on Leduc, the work an evaluation
  point exists for.
"""

import csv
import io
import os
import tempfile
from pathlib import Path

import pyspiel
from absl import app

from spiel_ext.algorithms import CFRSolver
from spiel_ext.eval import nash_conv
from spiel_ext.files import append_text
from spiel_ext.results.store import Row, UnitStore
from timing import median_seconds

ROWS_PER_POINT = 2
POINTS = 200


def _rows(point: int) -> list[Row]:
  return [Row("bench", "leduc_poker()", "CFR", "{}", 0, point, None,
              0.001 * point, metric, 0.5 / point)
          for metric in ("nash_conv", "exploitability")[:ROWS_PER_POINT]]


def _plain_append(path: Path, rows: list[Row]) -> None:
  buffer = io.StringIO()
  writer = csv.writer(buffer, lineterminator="\n")
  for row in rows:
    writer.writerow(row.as_record())
  append_text(path, buffer.getvalue())


def _plain_read(path: Path) -> list[Row]:
  with open(path, encoding="utf-8") as handle:
    return [Row.from_record(record) for record in csv.reader(handle)]


def main(argv):
  del argv
  with tempfile.TemporaryDirectory() as folder:
    folder = Path(folder)
    counter = iter(range(10**9))

    def checked_append():
      store = UnitStore(folder / "units" / f"{next(counter):016x}")
      for point in range(1, POINTS + 1):
        store.append(_rows(point))
      return store

    def plain_append():
      path = folder / "plain" / f"{next(counter)}.csv"
      for point in range(1, POINTS + 1):
        _plain_append(path, _rows(point))
      return path

    checked = median_seconds(checked_append, 5) / POINTS
    plain = median_seconds(plain_append, 5) / POINTS
    store, path = checked_append(), plain_append()
    verify = median_seconds(lambda: store.read(), 20)
    parse = median_seconds(lambda: _plain_read(path), 20)
    os.sync()

  game = pyspiel.load_game("leduc_poker")
  solver = CFRSolver(game)
  for _ in range(10):
    solver.evaluate_and_update_policy()
  policy = solver.average_policy()
  evaluation = median_seconds(lambda: nash_conv(game, policy), 20)

  print(f"results store, {POINTS} evaluation points of {ROWS_PER_POINT} rows")
  print(f"  append a point, checked   {checked * 1e3:8.3f} ms   "
        f"checked / plain = {checked / plain:5.2f}x")
  print(f"  append a point, plain     {plain * 1e3:8.3f} ms   (fsync each)")
  print(f"  verify {POINTS * ROWS_PER_POINT} rows             "
        f"{verify * 1e3:8.3f} ms   verified / unchecked parse = "
        f"{verify / parse:5.2f}x")
  print(f"  NashConv on leduc_poker   {evaluation * 1e3:8.3f} ms   "
        f"(checks' extra cost per point / one evaluation = "
        f"{(checked - plain) / evaluation:5.2f}x)")


if __name__ == "__main__":
  app.run(main)
