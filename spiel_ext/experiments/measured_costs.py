"""The experiments' measured costs (written by benchmarks/measure_costs.py;
edit by running it, not by hand). See :mod:`spiel_ext.experiments.costs`."""

MACHINE = ""

# {experiment: {scale: {"wall_seconds", "workers", "evaluation_share",
#  "solver_seconds", "evaluation_seconds"}}}
EXPERIMENT_SECONDS: dict[str, dict[str, dict[str, float]]] = {}

# {experiment: {"game|algorithm": seconds per iteration, evaluation
#  included}}
SECONDS_PER_ITERATION: dict[str, dict[str, float]] = {}
