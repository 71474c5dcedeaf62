"""Short, readable labels for game strings (see
:mod:`spiel_ext.analysis.labels`, where they live so that analysis can name
games too)."""

from spiel_ext.analysis.labels import game_label

__all__ = ["game_label"]
