"""Poker's units: chips per hand in milli-big-blinds per hand (mb/h)."""

from __future__ import annotations

from spiel_ext.engine import load_game


def big_blind(game) -> float:
  """The chips of one big blind, the unit of mb/h.

  universal_poker: its largest blind; spiel_ext_leduc: its big blind, or
  the ante without blinds; leduc_poker and kuhn_poker: the ante, 1 chip.

  Raises:
    ValueError: another game.
  """
  loaded = load_game(game)
  name = loaded.get_type().short_name
  parameters = loaded.get_parameters()
  if name == "universal_poker":
    return float(max(int(x) for x in str(parameters["blind"]).split()))
  if name == "spiel_ext_leduc":
    blinds = str(parameters.get("blinds", "")).split()
    return float(max(int(x) for x in blinds)) if blinds else float(
        parameters["ante"])
  if name in ("leduc_poker", "kuhn_poker"):
    return 1.0
  raise ValueError(f"big_blind: no big blind known for {name!r}; mb/h is "
                   "defined for universal_poker, spiel_ext_leduc, "
                   "leduc_poker and kuhn_poker.")


def mbh(chips: float, blind: float) -> float:
  """Milli-big-blinds per hand: 1000 x chips / big blind."""
  return 1000.0 * chips / blind


def chips_from_mbh(value: float, blind: float) -> float:
  """Chips per hand from milli-big-blinds per hand (inverse of :func:`mbh`)."""
  return value * blind / 1000.0
