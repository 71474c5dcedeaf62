"""The experiment platform in one import.

An experiment is a short declaration (:mod:`.declaration`: games,
algorithms and metrics at a quick and a paper scale, its settings table,
variants and claims); :mod:`.settings` applies a user's overrides;
:mod:`.runner` turns the declaration into work units, runs them on an
executor (resuming what is on disk) and summarizes the results;
:mod:`.run_folder` guards the folder a run writes; :mod:`.reporting` writes
the reproduction report. This module re-exports their public names.
"""

from spiel_ext.experiments.declaration import (SCALES, Experiment, Outputs,
                                               Scale, Settings)
from spiel_ext.experiments.reporting import (report_section,
                                             write_reproduction_report)
from spiel_ext.experiments.run_folder import (RUN_FILES, holds_results,
                                              prepare_folder, read_json,
                                              remove_temporaries,
                                              stored_settings)
from spiel_ext.experiments.runner import (build_jobs, command_for,
                                          load_snapshots, preflight,
                                          run_experiment, run_experiments,
                                          start_session)
from spiel_ext.experiments.settings import (MAX_EVALUATION_POINTS,
                                            MAX_ITERATIONS, MAX_UNITS,
                                            evaluation_points, settings_for)

__all__ = ["MAX_EVALUATION_POINTS", "MAX_ITERATIONS", "MAX_UNITS",
           "RUN_FILES", "SCALES", "Experiment", "Outputs", "Scale",
           "Settings", "build_jobs", "command_for", "evaluation_points",
           "holds_results", "load_snapshots", "prepare_folder", "preflight",
           "read_json", "remove_temporaries", "report_section",
           "run_experiment", "run_experiments", "settings_for",
           "start_session",
           "stored_settings", "write_reproduction_report"]
