"""Constants the engine and everything above it share (defined only here).

CHANCE and TERMINAL are OpenSpiel's ``pyspiel.PlayerId`` values as plain
ints, the values ``GameTree.node_player`` holds at chance and terminal
histories (numba kernels read them as compile-time constants).
STRATEGY_TOLERANCE is the largest |sum of a row over the legal actions - 1|
a strategy may have (see :func:`spiel_ext.engine.check_strategy`), and
CHANCE_SUM_TOLERANCE how far a chance node's probabilities may sum from 1.
"""

from __future__ import annotations

import pyspiel

CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)

# Largest |sum of a row over the legal actions - 1| a strategy may have.
STRATEGY_TOLERANCE = 1e-6

# How far a chance node's outcome probabilities may sum from 1 (in a
# compiled game and in a model of it).
CHANCE_SUM_TOLERANCE = 1e-9

__all__ = ["CHANCE", "TERMINAL", "STRATEGY_TOLERANCE",
           "CHANCE_SUM_TOLERANCE"]
