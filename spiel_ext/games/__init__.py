"""The papers' games as pyspiel games, registered by ``import spiel_ext``.

    import pyspiel, spiel_ext
    pyspiel.load_game("spiel_ext_leduc(ranks=5)")

- ``spiel_ext_leduc``: parameterized Leduc hold'em (:mod:`.leduc`).
- ``spiel_ext_bid_leduc``: the Leduc(k) betting game of the
  unknown-environment papers (:mod:`.bid_leduc`).
- ``spiel_ext_vnm_poker``: von Neumann-Morgenstern poker (:mod:`.vnm_poker`).
- ``spiel_ext_unknown_env``: unknown chance and rewards (:mod:`.unknown_env`).

Every game provides information-state and observation strings and tensors
(OpenSpiel's neural methods read the tensors; layouts in each module).
Importing this package imports only pyspiel, numpy and
:mod:`spiel_ext.checks`: the engine is imported when an unknown-environment
game is loaded.
"""

from spiel_ext.games import leduc  # pylint: disable=unused-import
from spiel_ext.games import bid_leduc  # pylint: disable=unused-import
from spiel_ext.games import vnm_poker  # pylint: disable=unused-import
from spiel_ext.games import unknown_env  # pylint: disable=unused-import
