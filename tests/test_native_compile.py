"""Native tree builders: the games' own builders make exactly the walked tree.

Each builder (``spiel_ext.engine.native``) must return what the engine's
generic walk of the game's states returns: the same histories in the same
pre-order, the same infosets, keys, chance probabilities and utilities,
array for array, with the same dtypes.
"""

from pathlib import Path

import numpy as np
import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spiel_ext  # pylint: disable=unused-import
from spiel_ext.engine import compile_game, compiler, fingerprint, native
from spiel_ext.engine.admission import SizeLimit
from spiel_ext.engine.layout import STORED_ARRAYS
from spiel_ext.games import card_tree
from spiel_ext.games.leduc_tree import LeducCards

LEDUC_GAMES = [
    "spiel_ext_leduc()",
    "spiel_ext_leduc(ranks=2,suits=3)",
    # RLCard's rules.
    "spiel_ext_leduc(blinds=1 2,fold_always=True,round2_first=after_last)",
    # Bet cap, raise sizes, more raises.
    "spiel_ext_leduc(bet_cap=5,max_raises=3,raise_sizes=1 3,ante=2)",
    "spiel_ext_leduc(players=3,ranks=2,suits=2)",
    "spiel_ext_leduc(players=3,ranks=2,suits=2,blinds=1 2,fold_always=True,"
    "round2_first=after_last,bet_cap=6)",
    "spiel_ext_leduc(players=4,ranks=5,suits=1,max_raises=0)",
    # 12 cards: chance outcomes in str order (10 and 11 before 2).
    "spiel_ext_leduc(ranks=6,suits=2,max_raises=0)",
    "spiel_ext_leduc(suits=1,ranks=4,max_raises=0)",
]
BID_LEDUC_GAMES = [f"spiel_ext_bid_leduc(max_bid={k})" for k in (1, 2, 3, 4)]
VNM_GAMES = [
    "spiel_ext_vnm_poker(hands=2)",
    "spiel_ext_vnm_poker(hands=3,variant=asymmetric)",
    "spiel_ext_vnm_poker()",
    # Payoffs that are not sums of small integers; 13 hands in str order.
    "spiel_ext_vnm_poker(hands=13,ante=0.1,bet=0.2,raise_size=0.7)",
    "spiel_ext_vnm_poker(hands=13,ante=0.3,bet=0.7,variant=asymmetric)",
]
UNKNOWN_ENV_GAMES = [
    "spiel_ext_unknown_env()",
    "spiel_ext_unknown_env(game=nim(pile_sizes=1;2),env_seed=5)",
    "spiel_ext_unknown_env(game=spiel_ext_bid_leduc(max_bid=2),env_seed=1)",
    "spiel_ext_unknown_env(game=leduc_poker(),env_seed=3,chance=dirichlet)",
    "spiel_ext_unknown_env(game=spiel_ext_leduc(ranks=6,suits=2,"
    "max_raises=0),env_seed=2,chance=dirichlet)",
]


def assert_native_is_walked(game_string: str) -> None:
  game = pyspiel.load_game(game_string)
  builder = native.native_builder(game)
  assert builder is not None
  limit = SizeLimit.for_request(None)
  built, built_keys = builder(game, limit)
  walked, walked_keys = compiler._walk(game, limit)  # pylint: disable=protected-access
  assert sorted(built) == sorted(walked) == sorted(STORED_ARRAYS)
  for name in STORED_ARRAYS:
    assert built[name].dtype == walked[name].dtype, name
    assert built[name].shape == walked[name].shape, name
    assert np.array_equal(built[name], walked[name]), name
  assert built_keys == walked_keys


@pytest.mark.parametrize("game_string", LEDUC_GAMES)
def test_leduc_native_tree_is_the_walked_tree(game_string):
  assert_native_is_walked(game_string)


@pytest.mark.parametrize("game_string", BID_LEDUC_GAMES)
def test_bid_leduc_native_tree_is_the_walked_tree(game_string):
  assert_native_is_walked(game_string)


@pytest.mark.parametrize("game_string", VNM_GAMES)
def test_vnm_poker_native_tree_is_the_walked_tree(game_string):
  assert_native_is_walked(game_string)


@pytest.mark.parametrize("game_string", UNKNOWN_ENV_GAMES)
def test_unknown_env_native_tree_is_the_walked_tree(game_string):
  assert_native_is_walked(game_string)


@settings(max_examples=12, deadline=None, derandomize=True)
@given(players=st.sampled_from([2, 2, 3]), ranks=st.integers(2, 4),
       suits=st.integers(1, 2), max_raises=st.integers(0, 2),
       raise_sizes=st.sampled_from(["2 4", "1 3", "3 1"]),
       bet_cap=st.sampled_from([0, 3, 5]), blinds=st.sampled_from(["", "1 2"]),
       fold_always=st.booleans(),
       round2_first=st.sampled_from(["first", "after_last"]))
def test_leduc_parameter_sweep(players, ranks, suits, max_raises, raise_sizes,
                               bet_cap, blinds, fold_always, round2_first):
  if players == 3:  # A small deck keeps the walk short.
    ranks, suits, max_raises = 2, 2, min(max_raises, 1)
  elif ranks * suits < 3:
    suits = 2
  assert_native_is_walked(
      f"spiel_ext_leduc(players={players},ranks={ranks},suits={suits},"
      f"max_raises={max_raises},raise_sizes={raise_sizes},bet_cap={bet_cap},"
      f"blinds={blinds},fold_always={fold_always},"
      f"round2_first={round2_first})")


@pytest.mark.slow
@pytest.mark.parametrize("game_string", [
    "spiel_ext_leduc(players=3)", "spiel_ext_leduc(ranks=5)",
    "spiel_ext_bid_leduc(max_bid=5)",
    "spiel_ext_unknown_env(game=spiel_ext_bid_leduc(max_bid=4),env_seed=0)"])
def test_larger_native_trees_are_the_walked_trees(game_string):
  assert_native_is_walked(game_string)


def test_compile_game_uses_the_native_builder(monkeypatch):
  game = pyspiel.load_game("spiel_ext_leduc(ranks=4)")
  walked = compiler.compile_tree(game, SizeLimit.for_request(None),
                                 native=False)

  def no_walk(*args):
    raise AssertionError("walked a game that has a native builder")

  monkeypatch.setattr(compiler, "_walk", no_walk)
  tree = compile_game(game, use_cache=False)
  assert tree.perfect_recall and walked.perfect_recall
  assert tree.infoset_keys == walked.infoset_keys
  for name, value in walked.arrays().items():
    assert np.array_equal(tree.arrays()[name], value), name


def test_native_builders_refuse_trees_above_the_limit():
  for game_string in ("spiel_ext_leduc()", "spiel_ext_unknown_env()"):
    game = pyspiel.load_game(game_string)
    with pytest.raises(ValueError, match="too large to compile: it has"):
      native.native_builder(game)(game, SizeLimit(max_histories=100,
                                                  max_bytes=0.0))
  game = pyspiel.load_game("spiel_ext_leduc()")
  with pytest.raises(ValueError, match="it has 9.46e"):
    native.native_builder(game)(game, SizeLimit(max_histories=9456,
                                                max_bytes=0.0))
  # A template larger than the limit is refused while it is walked.
  with pytest.raises(ValueError, match="found more than 11 histories"):
    native.native_builder(game)(game, SizeLimit(max_histories=10,
                                                max_bytes=0.0))
  assert len(native.native_builder(game)(
      game, SizeLimit(max_histories=9457, max_bytes=0.0))[0]["parent"]) == 9457


def test_registered_builders_take_precedence(monkeypatch):
  monkeypatch.setattr(native, "_BUILDERS", {})
  calls = []

  def walk_instead(game, limit):
    calls.append(game.get_type().short_name)
    return None  # Leaves the game to the walk.

  native.register_native_builder("kuhn_poker", walk_instead)
  native.register_native_builder("spiel_ext_vnm_poker", walk_instead)
  kuhn = compile_game("kuhn_poker", use_cache=False)
  vnm = compile_game("spiel_ext_vnm_poker(hands=3)", use_cache=False)
  assert calls == ["kuhn_poker", "spiel_ext_vnm_poker"]
  assert kuhn.num_histories == 58 and vnm.num_histories == 139
  with pytest.raises(TypeError, match="callable"):
    native.register_native_builder("kuhn_poker", "not a function")
  with pytest.raises(TypeError, match="short_name"):
    native.register_native_builder(None, walk_instead)


def test_cache_key_hashes_the_builders_source(monkeypatch):
  # The builders live in spiel_ext, whose every source file the disk
  # cache's key hashes: editing one makes new cache files.
  monkeypatch.setattr(fingerprint, "_code_fingerprint", None)
  before = fingerprint.code_fingerprint()
  edited_file = Path(card_tree.__file__).resolve()
  read_bytes = Path.read_bytes

  def edited(path):
    content = read_bytes(path)
    return content + b"\n# edited\n" if path.resolve() == edited_file else (
        content)

  monkeypatch.setattr(Path, "read_bytes", edited)
  monkeypatch.setattr(fingerprint, "_code_fingerprint", None)
  assert fingerprint.code_fingerprint() != before


def test_decks_are_checked_against_the_games_chance_outcomes():
  with pytest.raises(ValueError, match="one card per outcome"):
    card_tree.Deck(copies=(2, 2))
  assert card_tree.Deck(copies=(2, 2), list_empty=True).num_outcomes(1) == 2
  assert card_tree.Deck(copies=(1,) * 6).num_outcomes(2) == 4
  assert card_tree.Deck(copies=(2, 2, 2), list_empty=True).outcomes(
      (1, 1)) == [(0, 0.5), (1, 0.0), (2, 0.5)]
  game = pyspiel.load_game("spiel_ext_leduc()")
  rules = LeducCards(game.rules)
  rules.deck = card_tree.Deck(copies=(1,) * 6, replace=True)
  with pytest.raises(ValueError, match=r"after the deals \[0\] are not"):
    card_tree.build_card_game_tree(game, SizeLimit.for_request(None), rules)
