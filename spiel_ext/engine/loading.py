"""Game strings to pyspiel games, with one-line errors.

An unknown name is caught before pyspiel sees it (pyspiel's own error lists
every registered game) and answered with the nearest registered names. Any
other error pyspiel raises (bad parameters) becomes a one-line ValueError;
pyspiel also prints each error to the process's standard error before it
raises, which :func:`load_game` keeps off the terminal.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import re
import sys
import tempfile
import threading
from collections.abc import Iterator

import pyspiel

from spiel_ext.engine.game_tree import GameTree

# The registered names as last read; refreshed when a name is missing, since
# Python games can be registered at any time.
_known_names: frozenset[str] = frozenset()
# A game given as a parameter: "=name(". The name is taken exactly as
# pyspiel reads it (spaces included), so that no unknown name reaches it.
_NESTED_NAME = re.compile(r"=([^=,()]*)\(")
# pyspiel's message for an unknown name, which goes on to list every game.
_UNKNOWN_GAME = re.compile(r"Unknown game '([^']*)'")
# The source location pyspiel's failed checks start with.
_SOURCE_LOCATION = re.compile(r"^\S+\.(?:cc|h):\d+\s+")
# Error messages longer than this are cut.
_MAX_MESSAGE = 300
# Serialises the redirection of file descriptor 2.
_STDERR_LOCK = threading.Lock()
# Game strings pyspiel has loaded: loading them again cannot fail, so their
# loads skip the redirection (which costs ~40 us, on every evaluation).
_loaded_strings: set[str] = set()
_PYSPIEL_PREFIX = b"OpenSpiel exception:"


def _is_registered(name: str) -> bool:
  global _known_names
  if name in _known_names:
    return True
  _known_names = frozenset(pyspiel.registered_names())
  return name in _known_names


def unknown_game_message(name: str) -> str:
  """One line saying ``name`` is not a registered game, with suggestions."""
  _is_registered(name)  # Reads the registered names if they are not yet.
  message = f"unknown game {name!r}"
  close = difflib.get_close_matches(name.strip(), sorted(_known_names), n=1)
  if close:
    message += f"; did you mean {close[0]!r}?"
  if name.startswith("spiel_ext_"):
    ours = sorted(n for n in _known_names if n.startswith("spiel_ext_"))
    message += (" spiel_ext's games are registered by `import spiel_ext` ("
                + (", ".join(ours) if ours else "none is registered yet")
                + ").")
  else:
    message += " (pyspiel.registered_names() lists the games)."
  return message


def _one_line(reason: str) -> str:
  """pyspiel's error message as one short line, without the game list."""
  unknown = _UNKNOWN_GAME.search(reason)
  if unknown:
    return unknown_game_message(unknown.group(1))
  reason = _SOURCE_LOCATION.sub("", " ".join(reason.split()))
  if len(reason) > _MAX_MESSAGE:
    reason = reason[:_MAX_MESSAGE - 3] + "..."
  return reason


@contextlib.contextmanager
def _pyspiel_errors_kept_off_stderr() -> Iterator[None]:
  """Runs the block with file descriptor 2 sent to a temporary file, then
  writes back what was written there except pyspiel's own error print
  (from ``OpenSpiel exception:`` on), which the raised error carries."""
  with _STDERR_LOCK:
    try:
      sys.stderr.flush()
      saved = os.dup(2)
    except (OSError, ValueError, AttributeError):
      yield  # No file descriptor 2 to redirect.
      return
    with tempfile.TemporaryFile() as sink:
      os.dup2(sink.fileno(), 2)
      try:
        yield
      finally:
        os.dup2(saved, 2)
        os.close(saved)
        sink.seek(0)
        written = sink.read().split(_PYSPIEL_PREFIX, 1)[0]
        if written:
          os.write(2, written)


def load_game(game: str | pyspiel.Game | GameTree) -> pyspiel.Game:
  """A pyspiel.Game from a game, a compiled tree or a game string.

  A string may have spaces around it (they are dropped).

  Args:
    game: a pyspiel.Game, a compiled GameTree or a game string such as
      ``"leduc_poker"``.

  Returns:
    The pyspiel.Game (a string's is loaded).

  Raises:
    TypeError: ``game`` is none of these.
    ValueError: an unknown game name or bad parameters, in one line.
  """
  if isinstance(game, pyspiel.Game):
    return game
  if isinstance(game, GameTree):
    return game.game
  if not isinstance(game, str):
    raise TypeError(f"game must be a pyspiel.Game, a compiled GameTree or a "
                    f"game string such as 'leduc_poker'; got "
                    f"{type(game).__name__}.")
  text = game.strip()
  names = [text.split("(", 1)[0]] + _NESTED_NAME.findall(text)
  for name in names:
    if not _is_registered(name):
      raise ValueError(f"cannot load game: {unknown_game_message(name)}")
  if text in _loaded_strings:
    return pyspiel.load_game(text)
  try:
    with _pyspiel_errors_kept_off_stderr():
      game = pyspiel.load_game(text)
    _loaded_strings.add(text)
    return game
  except (pyspiel.SpielError, RuntimeError) as error:
    shown = text if len(text) <= 120 else text[:117] + "..."
    raise ValueError(f"cannot load game {shown!r}: "
                     f"{_one_line(str(error))}") from None
  except ValueError as error:  # A Python game's own parameter check.
    raise ValueError(_one_line(str(error))) from None
