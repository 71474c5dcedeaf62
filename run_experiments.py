"""Runs spiel_ext's named experiments: the ``spiel-ext`` command, as a script.

    python run_experiments.py --experiment=quickstart
    python run_experiments.py --list

takes exactly the flags of ``spiel-ext`` (``spiel-ext --help`` lists them);
both run :mod:`spiel_ext.cli`. Results go to
``<output_dir>/<experiment>/``.
"""

from spiel_ext.cli import FLAGS, define_flags, entry_point, plan, run  # noqa: F401  pylint: disable=unused-import

if __name__ == "__main__":
  entry_point("run_experiments.py")
