"""A run's folder: what a run writes there, the settings it records, and
the checks that keep one run from overwriting another.

A run folder may come from someone else: no symbolic link in it is followed
(:class:`spiel_ext.files.LinkRefused` names one), so that resuming or
reporting on it reads and writes nothing outside it."""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import shutil
from pathlib import Path
from typing import Any


from spiel_ext.files import (TEMPORARY_SUFFIX, atomic_write, check_inside,
                             read_inside)
from spiel_ext.results.manifest import MANIFEST, read_manifest

from spiel_ext.experiments.declaration import Settings


# What a run writes into its folder; --overwrite deletes exactly these.
RUN_FILES = ("units", "results.parquet", "results.csv", "config.json",
             MANIFEST, "figures", "tables")


def remove_temporaries(folder: Path) -> None:
  """Deletes the temporary files a killed writer left in the run folder
  (safe under the folder's lock: no other writer can be mid-write)."""
  for path in folder.rglob(f".*{TEMPORARY_SUFFIX}"):
    try:
      path.unlink()
    except OSError:
      pass


def holds_results(folder: Path) -> bool:
  """True when ``folder`` holds (part of) a run."""
  units = folder / "units"
  return (any(units.iterdir()) if units.is_dir() else False) or any(
      (folder / name).exists()
      for name in ("results.parquet", "results.csv", MANIFEST))


def read_json(path: Path) -> Any:
  """The JSON in ``path``, a file of a run folder (not a symbolic link:
  LinkRefused); ValueError naming the path if it is damaged."""
  try:
    return json.loads(read_inside(path.parent, path))
  except OSError as error:
    raise ValueError(f"cannot read {path}: {error.strerror}") from None
  except ValueError as error:
    raise ValueError(f"{path} is damaged ({error})") from None


def _settings_record(data: Any, source: Path) -> dict[str, Any]:
  """``data`` if it is a settings record; ValueError naming ``source``."""
  fields = {field.name for field in dataclasses.fields(Settings)}
  if not isinstance(data, dict) or not {"experiment", "iterations", "games",
                                        "algorithms"} <= set(data) or (
                                            set(data) - fields):
    raise ValueError(f"{source} is damaged (not a record of a run's "
                     "settings)")
  return data


def _stored_settings_json(folder: Path) -> dict[str, Any] | None:
  """The settings of the run in ``folder``: config.json, or the manifest's
  copy when config.json is missing or damaged; None if neither exists."""
  config = folder / "config.json"
  try:
    if os.path.lexists(config):
      return _settings_record(read_json(config), config)
    problem = None
  except ValueError as error:
    problem = error
  try:
    manifest = read_manifest(folder)
  except ValueError:
    manifest = None
  if manifest is None or "settings" not in manifest:
    if problem is None:
      return None
    raise ValueError(f"{problem}; the run's settings are unknown: use "
                     "--overwrite to start it again or another "
                     "--output_dir")
  settings = _settings_record(manifest["settings"], folder / MANIFEST)
  logging.warning("%s; using the settings recorded in %s.",
                  problem or f"{config} is missing", folder / MANIFEST)
  return settings


def prepare_folder(folder: Path, settings: Settings, resume: bool,
                   overwrite: bool = False) -> None:
  """Checks ``folder`` can take this run and records its settings.

  Never deletes results unless ``overwrite``: a folder holding a run is
  resumed (``resume``, same settings only) or refused.

  Raises:
    LinkRefused: one of the run's files or folders (``RUN_FILES``) in
      ``folder`` is a symbolic link (``overwrite`` deletes such a link,
      not what it points to).
    ValueError: the folder holds another run, or ``resume`` and
      ``overwrite`` are both given.
  """
  if resume and overwrite:
    raise ValueError("--resume and --overwrite contradict each other: "
                     "choose one.")
  remove_temporaries(folder)
  if overwrite and holds_results(folder):
    for name in RUN_FILES:
      path = folder / name
      if path.is_symlink():
        path.unlink()  # The link, not what it points to.
      elif path.is_dir():
        shutil.rmtree(path)
      elif path.exists():
        path.unlink()
    logging.warning("--overwrite: deleted the previous run in %s.", folder)
  elif resume:
    stored = _stored_settings_json(folder)
    if stored is None and holds_results(folder):
      raise ValueError(
          f"--resume: {folder} holds results but no record of their "
          "settings; use --overwrite to start again or another --output_dir.")
    current = json.loads(settings.as_json())
    if stored is not None and stored != current:
      differences = sorted(key for key in current
                           if stored.get(key) != current[key])
      raise ValueError(
          f"--resume: {folder} holds a run with different settings "
          f"({', '.join(differences)}); use another --output_dir, or "
          "--overwrite to delete it and start over.")
  elif holds_results(folder):
    raise ValueError(
        f"{folder} already holds results of an earlier run; add --resume to "
        "continue it (finished units are kept), --overwrite to delete it and "
        "start over, or choose another --output_dir.")
  # What the run writes (the summaries' figures and tables too) goes into
  # the folder itself, never through a link out of it.
  for name in RUN_FILES:
    check_inside(folder, folder / name)
  atomic_write(folder / "config.json", settings.as_json(), inside=folder)


def stored_settings(folder: Path) -> Settings | None:
  """The settings of the run stored in ``folder``, if any; ValueError
  naming the file if it is damaged."""
  data = _stored_settings_json(folder)
  if data is None:
    return None
  data = dict(data)
  try:
    for key in ("games", "algorithms", "metrics"):
      data[key] = tuple(data[key])
    data["iteration_caps"] = tuple(tuple(pair)
                                   for pair in data["iteration_caps"])
    data["snapshots"] = tuple(tuple(item)
                              for item in data.get("snapshots", ()))
    return Settings(**data)
  except (KeyError, TypeError, ValueError) as error:
    raise ValueError(f"{folder / 'config.json'} is damaged ({error!r})"
                     ) from None
