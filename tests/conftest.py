"""Shared fixtures: an isolated tree cache and the games the tests use."""

import os
from pathlib import Path

# The compiled numba kernels are shared between test sessions (and the
# subprocesses tests start), in the layout of the default kernel folder;
# the tree cache below stays isolated per session. Set before numba loads.
os.environ.setdefault("NUMBA_CACHE_DIR", str(
    Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") /
    "spiel_ext" / f"numba-{os.getuid()}"))

import contextlib  # pylint: disable=g-import-not-at-top,wrong-import-position
import signal  # pylint: disable=g-import-not-at-top,wrong-import-position

import numpy as np  # pylint: disable=g-import-not-at-top,wrong-import-position
import pytest  # pylint: disable=g-import-not-at-top,wrong-import-position

# universal_poker configured as Leduc hold'em (3 ranks, 2 suits, 2 rounds).
UNIVERSAL_LEDUC = (
    "universal_poker(betting=limit,numPlayers=2,numRounds=2,blind=1 1,"
    "raiseSize=2 4,firstPlayer=1 1,maxRaises=2 2,numSuits=2,numRanks=3,"
    "numHoleCards=1,numBoardCards=0 1,stack=20 20,bettingAbstraction=fcpa)")

CROSS_CHECK_GAMES = ["kuhn_poker", "leduc_poker", "kuhn_poker(players=3)",
                     UNIVERSAL_LEDUC]


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory, monkeypatch):
  """Every test session writes its compiled trees to a temporary folder."""
  folder = tmp_path_factory.getbasetemp() / "spiel_ext_cache"
  monkeypatch.setenv("SPIEL_EXT_CACHE_DIR", str(folder))
  yield folder


def slow_cases(values, *slow_values):
  """``values`` for ``pytest.mark.parametrize``, the ones in ``slow_values``
  marked slow (the larger games of a cross-check run in the slow step)."""
  return [pytest.param(value, marks=pytest.mark.slow)
          if value in slow_values else value for value in values]


def random_strategy(tree, rng: np.random.Generator, concentration=1.0):
  """A Dirichlet-random behaviour strategy over each infoset's legal actions."""
  raw = rng.gamma(concentration, size=tree.infoset_legal.shape)
  raw = np.where(tree.infoset_legal, raw + 1e-300, 0.0)
  return raw / raw.sum(axis=1, keepdims=True)


def pure_strategy(tree, rng: np.random.Generator):
  """A random pure strategy: one legal action per infoset."""
  scores = np.where(tree.infoset_legal, rng.random(tree.infoset_legal.shape),
                    -1.0)
  strategy = np.zeros(tree.infoset_legal.shape)
  strategy[np.arange(tree.num_infosets), scores.argmax(axis=1)] = 1.0
  return strategy


@contextlib.contextmanager
def at_most(seconds: float, what: str = "the block"):
  """Fails the block (TimeoutError) if it runs longer than ``seconds``, so
  that a hang is a failure rather than a stuck test run."""

  def stop(signum, frame):
    del signum, frame
    raise TimeoutError(f"{what}: still running after {seconds} s")

  previous = signal.signal(signal.SIGALRM, stop)
  signal.setitimer(signal.ITIMER_REAL, seconds)
  try:
    yield
  finally:
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)


def one_line_error(result, *needles):
  """Asserts that a finished CLI subprocess failed with one error line (no
  traceback) holding every needle."""
  assert result.returncode != 0, result.stdout + result.stderr
  assert "Traceback" not in result.stderr, result.stderr
  errors = [line for line in result.stderr.splitlines()
            if "error" in line.lower()]
  assert errors, result.stderr
  for needle in needles:
    assert needle in errors[-1], result.stderr
