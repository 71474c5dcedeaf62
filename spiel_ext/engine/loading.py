"""Game strings to pyspiel games, with one-line errors.

An unknown name is caught before pyspiel sees it (pyspiel's own error lists
every registered game) and answered with the nearest registered names, and
so is a parameter value pyspiel would read as a number and cannot (it reads
integers as 32 bits, and says only ``CHECK_TRUE(success)``): the error names
the parameter and the values it takes. Any other error pyspiel raises (bad
parameters) becomes a one-line ValueError; pyspiel also prints each error
to the process's standard error before it raises, which :func:`load_game`
keeps off the terminal.
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
# Error messages longer than this are cut (a refusal of a nested game
# holds that game's string, its size and the limit).
_MAX_MESSAGE = 500
# Serialises the redirection of file descriptor 2.
_STDERR_LOCK = threading.Lock()
# Game strings pyspiel has loaded: loading them again cannot fail, so their
# loads skip the redirection (which costs ~40 us, on every evaluation).
_loaded_strings: set[str] = set()
_PYSPIEL_PREFIX = b"OpenSpiel exception:"
# pyspiel reads a parameter value made only of these characters as an
# integer (a 32-bit int), and one made of these and "." as a float.
_INTEGER_CHARACTERS = frozenset("+-0123456789")
_FLOAT_CHARACTERS = _INTEGER_CHARACTERS | {"."}
_INTEGER = re.compile(r"[+-]?[0-9]+")
_FLOAT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)")
_INT32 = (-2**31, 2**31 - 1)


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
  unreadable = _unreadable_number(text)
  if unreadable is not None:
    shown = text if len(text) <= 120 else text[:117] + "..."
    raise ValueError(f"cannot load game {shown!r}: "
                     f"{_number_message(*unreadable)}")
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


def _unreadable_number(text: str) -> tuple[str, str, str] | None:
  """(game name, parameter, value) of the first parameter of ``text``
  (nested games included) whose value pyspiel would read as a number and
  cannot: an integer outside 32 bits, or digits and signs that are not a
  number ("1-2", "--", "." and the like); None when there is none."""
  frames: list[list] = []  # [game name, parameter being read] per level.
  start = 0
  value_was_game = False
  for index, character in enumerate(text):
    if character == "(":
      frames.append([text[start:index], None])
      start, value_was_game = index + 1, False
    elif character == "=" and frames and frames[-1][1] is None:
      frames[-1][1] = text[start:index]
      start = index + 1
    elif character in ",)" and frames:
      name, parameter = frames[-1]
      value = text[start:index]
      if parameter is not None and not value_was_game and _unreadable(value):
        return name, parameter, value
      frames[-1][1] = None
      start, value_was_game = index + 1, False
      if character == ")":
        frames.pop()
        value_was_game = True  # The enclosing parameter's value ends here.
  return None


def _unreadable(value: str) -> bool:
  """Whether pyspiel would read ``value`` as a number and fail (an empty
  value is a string to it)."""
  if not value:
    return False
  if set(value) <= _INTEGER_CHARACTERS:
    return not (_INTEGER.fullmatch(value) and len(value) <= 12 and
                _INT32[0] <= int(value) <= _INT32[1])
  if set(value) <= _FLOAT_CHARACTERS:
    return not _FLOAT.fullmatch(value)
  return False


def _number_message(game: str, parameter: str, value: str) -> str:
  """One line on a parameter value pyspiel cannot read, with the values the
  game accepts when it says (its class's ``parameter_ranges``)."""
  shown = value if len(value) <= 40 else value[:37] + "..."
  if _INTEGER.fullmatch(value):
    accepted = _parameter_ranges(game).get(parameter.strip())
    if accepted is not None:
      return (f"{game}: {parameter} must be an integer in {accepted}; got "
              f"{shown}.")
    return (f"{game}: {parameter}={shown} is outside the integers a game "
            f"string holds ({_INT32[0]}..{_INT32[1]}).")
  return (f"{game}: {parameter}={shown!r} is not a number: give an integer "
          "such as 3 or a decimal such as 0.5.")


def _parameter_ranges(name: str) -> dict[str, str]:
  """{integer parameter: accepted values} of a game written in Python that
  declares them (a ``parameter_ranges`` class attribute); {} otherwise."""
  try:
    with _pyspiel_errors_kept_off_stderr():
      game = pyspiel.load_game(name)
  except Exception:  # pylint: disable=broad-except
    return {}  # A game without defaults for every parameter: no ranges.
  ranges = getattr(type(game), "parameter_ranges", None)
  return dict(ranges) if isinstance(ranges, dict) else {}
