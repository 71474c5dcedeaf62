"""``python -m spiel_ext``: the ``spiel-ext`` command, with the same flags."""

from spiel_ext.cli import entry_point

if __name__ == "__main__":
  entry_point("python -m spiel_ext")
