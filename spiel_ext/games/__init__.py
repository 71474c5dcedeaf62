"""The papers' games as pyspiel games, registered when this package is imported.

    import pyspiel, spiel_ext.games
    pyspiel.load_game("spiel_ext_leduc(ranks=5)")

- ``spiel_ext_leduc``: parameterized Leduc hold'em (:mod:`.leduc`).
- ``spiel_ext_vnm_poker``: von Neumann-Morgenstern poker (:mod:`.vnm_poker`).
- ``spiel_ext_unknown_env``: unknown chance and rewards (:mod:`.unknown_env`).
"""

from spiel_ext.games import leduc  # pylint: disable=unused-import
from spiel_ext.games import vnm_poker  # pylint: disable=unused-import
from spiel_ext.games import unknown_env  # pylint: disable=unused-import
