"""A run folder's manifest: which units belong to the run, and where its
results came from.

``manifest.json`` holds the experiment's name, its settings, the ids of the
run's work units (the merge reads only these) and one *session* per time the
run was started or resumed: the versions of spiel_ext, OpenSpiel, numpy,
numba and Python, the git commit of the spiel_ext checkout when there is one,
the command line, the host and the start and end times in UTC.
"""

from __future__ import annotations

import datetime
import importlib.metadata
import json
import os
import platform
import shlex
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any, Sequence

import spiel_ext
from spiel_ext.files import atomic_write, read_inside

MANIFEST = "manifest.json"
_PACKAGES = {"open_spiel": "open_spiel", "numpy": "numpy", "numba": "numba"}


def utc_now() -> str:
  """The time now in UTC, ISO 8601 to the second."""
  return datetime.datetime.now(datetime.timezone.utc).isoformat(
      timespec="seconds")


def _version(distribution: str) -> str | None:
  try:
    return importlib.metadata.version(distribution)
  except importlib.metadata.PackageNotFoundError:
    return None


def git_revision() -> dict[str, Any]:
  """{"git_commit", "git_dirty"} of the checkout spiel_ext runs from; both
  None when it is not a git checkout (an installed wheel)."""
  root = Path(spiel_ext.__file__).resolve().parent.parent
  if not (root / ".git").exists():
    return {"git_commit": None, "git_dirty": None}
  try:
    commit = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"],
                            capture_output=True, text=True, timeout=10,
                            check=True).stdout.strip()
    status = subprocess.run(["git", "-C", str(root), "status", "--porcelain",
                             "--untracked-files=no"], capture_output=True,
                            text=True, timeout=10, check=True).stdout
  except (OSError, subprocess.SubprocessError):
    return {"git_commit": None, "git_dirty": None}
  return {"git_commit": commit or None, "git_dirty": bool(status.strip())}


def process_record(argv: Sequence[str] | None = None) -> dict[str, Any]:
  """This process: its command line, host, pid and the time now (UTC)."""
  return {"command": shlex.join(sys.argv if argv is None else argv),
          "host": socket.gethostname(), "pid": os.getpid(),
          "started_utc": utc_now()}


def session_record(argv: Sequence[str] | None = None,
                   resumed: bool = False) -> dict[str, Any]:
  """Where and with what this process runs, and when it started."""
  record = {"spiel_ext": spiel_ext.__version__}
  record.update({name: _version(distribution)
                 for name, distribution in _PACKAGES.items()})
  record["python"] = platform.python_version()
  record.update(git_revision())
  record.update(process_record(argv))
  record.update({"finished_utc": None, "resumed": resumed})
  return record


def read_manifest(folder: str | os.PathLike) -> dict[str, Any] | None:
  """The manifest of the run in ``folder``, or None if there is none.

  Raises:
    LinkRefused: ``manifest.json`` is a symbolic link (never followed).
    ValueError: the file exists but is not a manifest (names the path).
  """
  path = Path(folder) / MANIFEST
  try:
    text = read_inside(folder, path).decode("utf-8", errors="replace")
  except FileNotFoundError:
    return None
  except OSError as error:
    raise ValueError(f"cannot read {path}: {error.strerror}") from None
  try:
    manifest = json.loads(text)
    if not isinstance(manifest, dict) or not isinstance(
        manifest.get("units"), list):
      raise ValueError("no list of units")
  except ValueError as error:
    raise ValueError(f"{path} is damaged ({error}); the run's units are "
                     "unknown") from None
  return manifest


def write_manifest(folder: str | os.PathLike, manifest: dict[str, Any]) -> Path:
  """Writes ``manifest.json`` atomically."""
  return atomic_write(Path(folder) / MANIFEST,
                      json.dumps(manifest, indent=1, sort_keys=True) + "\n",
                      inside=folder)


# The command-line programs that run experiments, by the name they run as.
_PROGRAMS = {"spiel-ext": "spiel-ext", "run_experiments.py":
             "python -m spiel_ext.cli", "cli.py": "python -m spiel_ext.cli"}
# Flags that a resume of the same run must not repeat.
_NOT_REPEATED = ("--resume", "--noresume", "--overwrite", "--nooverwrite",
                 "--output_dir")


def resume_command(folder: str | os.PathLike) -> str | None:
  """The command that resumes the run in ``folder``: the command line of
  its last session with ``--resume``, without ``--overwrite``, and with
  the run's output folder as an absolute ``--output_dir`` (so it works
  from any directory). None when the manifest records no command of the
  spiel_ext command-line program (a run started from Python)."""
  try:
    manifest = read_manifest(folder)
  except (ValueError, OSError):
    return None
  sessions = (manifest or {}).get("sessions") or []
  try:
    argv = shlex.split(sessions[-1]["command"])
  except (IndexError, KeyError, TypeError, ValueError, AttributeError):
    return None
  program = _PROGRAMS.get(Path(argv[0]).name) if argv else None
  if program is None:
    return None
  flags, skip = [], False
  for argument in argv[1:]:
    if skip:
      skip = False
      continue
    name = argument.split("=", 1)[0]
    if name in _NOT_REPEATED:
      # "--output_dir results" takes the next argument as its value.
      skip = name == "--output_dir" and "=" not in argument
      continue
    flags.append(argument)
  output_dir = Path(os.path.abspath(folder)).parent
  return " ".join([program, shlex.join(
      flags + [f"--output_dir={output_dir}", "--resume"])])
