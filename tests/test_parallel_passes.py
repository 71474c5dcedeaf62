"""The block passes: every core, the serial passes' bits, any thread count.

The serial passes are the reference (they are checked against OpenSpiel's
solvers and evaluators elsewhere); here every block pass must equal them
bit for bit, with one thread and with two, on small games sent through the
blocks (the size threshold lowered) and on a game above the threshold.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import multiprocessing
import os

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import slow_cases
from spiel_ext.algorithms.cfr import CFRSolver
from spiel_ext.algorithms.pcfr_plus import PCFRPlusSolver
from spiel_ext import eval as spiel_eval
from spiel_ext.engine import (compile_game, regret_passes, stack_passes,
                              threads)
from spiel_ext.engine.schedules import parallel_blocks
from spiel_ext.executors import local

SMALL_GAMES = ("kuhn_poker", "leduc_poker", "kuhn_poker(players=3)",
               "tic_tac_toe", "spiel_ext_leduc(ranks=3,players=3)")
# Above the default threshold (294,883 histories): no setting changed.
LARGE_GAME = "liars_dice(numdice=1)"


@contextlib.contextmanager
def blocks_from(min_histories: int, num_threads: int | None = None):
  """The passes with the parallel threshold (and thread count) given."""
  saved_min, saved_threads = (threads.PARALLEL_MIN_HISTORIES,
                              numba.get_num_threads())
  threads.PARALLEL_MIN_HISTORIES = min_histories
  if num_threads is not None:
    threads.set_num_threads(min(num_threads, threads.max_threads()))
  try:
    yield
  finally:
    threads.PARALLEL_MIN_HISTORIES = saved_min
    numba.set_num_threads(saved_threads)


SERIAL = 10**15


def random_policy(tree, seed: int, zero_fraction: float = 0.25):
  """A random profile with some legal actions at probability 0."""
  rng = np.random.default_rng(seed)
  raw = rng.gamma(1.0, size=tree.policy_shape) * tree.infoset_legal
  raw[rng.random(tree.policy_shape) < zero_fraction] = 0.0
  empty = raw.sum(axis=1) == 0.0
  raw[empty] = tree.infoset_legal[empty]
  return raw / raw.sum(axis=1, keepdims=True)


def every_pass(tree, policy) -> dict[str, np.ndarray]:
  out = {}
  for player in range(tree.num_players):
    update = tree.player_counterfactual_values(policy, player)
    out[f"cfv{player}"] = update.cfv
    out[f"own{player}"] = update.own_reach
    out[f"others{player}"] = update.others_reach
    value, best, q = tree.best_response(policy, player)
    out[f"br{player}"] = np.array([value])
    out[f"best{player}"] = best
    out[f"q{player}"] = q
    out[f"belief{player}"] = tree.beliefs(policy, player)[0]
  reach = tree.reach(policy)
  out["reach"] = reach
  out["values"] = tree.values(policy)
  out["counterfactual_values"] = tree.counterfactual_values(policy)
  out["infoset_own"], out["infoset_others"] = tree.infoset_reach(reach)
  out["edge_weights"] = tree.edge_weights(policy)
  out["terminal_others"], out["root_values"] = regret_passes.terminal_reaches(
      tree, reach)
  nash_conv = spiel_eval.nash_conv(tree, policy, return_only_nash_conv=False)
  out["player_improvements"] = nash_conv.player_improvements
  return out


def assert_same_bits(expected: dict, actual: dict, label: str) -> None:
  for name, array in expected.items():
    assert array.dtype == actual[name].dtype, (label, name)
    assert array.tobytes() == actual[name].tobytes(), (
        f"{label}: {name} differs from the serial pass by up to "
        f"{np.max(np.abs(array - actual[name]))}")


@pytest.mark.parametrize("game", slow_cases(SMALL_GAMES, "tic_tac_toe"))
def test_block_passes_equal_serial_passes_bit_for_bit(game, monkeypatch):
  tree = compile_game(game)
  policy = random_policy(tree, seed=3)
  with blocks_from(SERIAL):
    assert tree.pass_blocks() is None
    serial = every_pass(tree, policy)
  for num_threads, prefetch_bytes in ((1, None), (2, None), (2, 0)):
    if prefetch_bytes is not None:  # The large-policy path, on any game.
      monkeypatch.setattr(stack_passes, "PREFETCH_MIN_BYTES", prefetch_bytes)
    with blocks_from(0, num_threads):
      assert tree.pass_blocks() is not None
      assert_same_bits(serial, every_pass(tree, policy),
                       f"{game}, {num_threads} threads")


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1),
       zero_fraction=st.sampled_from([0.0, 0.3, 0.7]),
       target=st.integers(2, 64))
def test_any_cut_of_leduc_gives_the_serial_bits(seed, zero_fraction, target):
  tree = compile_game("leduc_poker")
  policy = random_policy(tree, seed, zero_fraction)
  with blocks_from(SERIAL):
    serial = every_pass(tree, policy)
  saved = tree.__dict__.pop("parallel_blocks", None)
  try:
    tree.__dict__["parallel_blocks"] = parallel_blocks(
        tree.subtree_end, tree.node_player, target)
    with blocks_from(0, 2):
      assert_same_bits(serial, every_pass(tree, policy), f"target {target}")
  finally:
    tree.__dict__.pop("parallel_blocks", None)
    if saved is not None:
      tree.__dict__["parallel_blocks"] = saved


@pytest.mark.parametrize("game", ["leduc_poker", "kuhn_poker(players=3)",
                                  "liars_dice(numdice=1)"])
def test_blocks_partition_the_tree(game):
  tree = compile_game(game)
  blocks = parallel_blocks(tree.subtree_end, tree.node_player)
  end = tree.subtree_end
  covered = np.zeros(tree.num_histories, dtype=int)
  covered[blocks.top] += 1
  for root in blocks.roots:
    covered[root:end[root]] += 1
  assert (covered == 1).all()
  assert blocks.top[0] == 0 and (np.diff(blocks.top) > 0).all()
  # Every split history's parent was split too, and each root's parent.
  assert np.isin(tree.parent[blocks.top[1:]], blocks.top).all()
  assert np.isin(tree.parent[blocks.roots], blocks.top).all()
  assert (np.diff(blocks.tail) < 0).all()
  assert sorted(blocks.tail) == sorted(
      set(blocks.top[1:].tolist()) | set(blocks.roots.tolist()))
  assert len(blocks.roots) >= 256 or tree.num_histories < 256 * 2
  internal = np.flatnonzero(~tree.is_terminal)
  assert (blocks.internal == internal).all()
  for root, first, stop in zip(blocks.roots, blocks.first, blocks.stop):
    inside = internal[(internal >= root) & (internal < end[root])]
    assert (blocks.internal[first:stop] == inside).all()
  assert (internal[blocks.top_position] == blocks.top).all()


@pytest.mark.parametrize("game", ["leduc_poker", "kuhn_poker(players=3)",
                                  "liars_dice(numdice=1)"])
def test_stack_layout_links_parents_children_and_edge_weights(game):
  tree = compile_game(game)
  stack = tree.stack_layout
  internal = np.flatnonzero(~tree.is_terminal)
  children = tree.children_lists()
  counts = np.diff(children.start)
  assert (stack.num_children == counts[internal]).all()
  assert stack.max_children == counts.max()
  assert stack.parent_position[0] == -1
  assert (internal[stack.parent_position[1:]] ==
          tree.parent[internal[1:]]).all()
  assert (stack.node_kind == tree.node_player).all()
  # Each edge's probability through weight_index, against edge_weights.
  policy = random_policy(tree, 5, 0.3)
  table = np.concatenate([policy.reshape(-1), stack_passes.chance_weights(
      tree.chance_prob, stack.chance_edges)])
  assert (table[stack.weight_index] == tree.edge_weights(policy)).all()
  assert (stack.internal_weight_index == stack.weight_index[internal]).all()
  assert (stack.internal_parent_slot == tree.parent_slot[internal]).all()
  # The stack holds, when h is pushed, h and the later siblings of h and of
  # each of its ancestors (pushed before them, popped by their parents).
  later = np.zeros(tree.num_histories, dtype=int)
  for h in range(tree.num_histories):
    kids = children.members[children.start[h]:children.start[h + 1]]
    later[kids] = np.arange(len(kids) - 1, -1, -1)
  held = np.zeros(tree.num_histories, dtype=int)
  for h in range(1, tree.num_histories):
    held[h] = held[tree.parent[h]] + later[h]
  assert stack.stack_size == held.max() + 1


def solver_states(solver_class, game, iterations):
  solver = solver_class(compile_game(game).game)
  for _ in range(iterations):
    solver.iteration()
  return {name: np.asarray(value) for name, value in
          solver.state_dict().items() if isinstance(value, np.ndarray)}


@pytest.mark.parametrize("solver_class", [CFRSolver, PCFRPlusSolver])
def test_solver_iterates_identical_for_one_and_two_threads(solver_class):
  tree = compile_game(LARGE_GAME)
  assert tree.num_histories >= threads.PARALLEL_MIN_HISTORIES
  assert tree.pass_blocks() is not None
  runs = {}
  for num_threads in (1, 2):
    with blocks_from(threads.PARALLEL_MIN_HISTORIES, num_threads):
      runs[num_threads] = solver_states(solver_class, LARGE_GAME, 3)
  with blocks_from(SERIAL):
    runs["serial"] = solver_states(solver_class, LARGE_GAME, 3)
  assert runs[1].keys() == runs[2].keys() and runs[1]
  for name in runs[1]:
    assert runs[1][name].tobytes() == runs[2][name].tobytes(), name
    assert runs[1][name].tobytes() == runs["serial"][name].tobytes(), name


def test_nash_conv_of_a_large_game_is_the_same_for_any_thread_count():
  tree = compile_game(LARGE_GAME)
  policy = random_policy(tree, seed=11)
  with blocks_from(SERIAL):
    serial = spiel_eval.nash_conv(tree, policy, return_only_nash_conv=False)
  for num_threads in (1, 2):
    with blocks_from(threads.PARALLEL_MIN_HISTORIES, num_threads):
      result = spiel_eval.nash_conv(tree, policy, return_only_nash_conv=False)
    assert result.nash_conv == serial.nash_conv
    assert (result.player_improvements.tobytes() ==
            serial.player_improvements.tobytes())


def test_map_serial_kernels_keeps_the_order():
  assert threads.map_serial_kernels(lambda k: k * k, range(5), 10**12) == [
      0, 1, 4, 9, 16]


@pytest.mark.parametrize("bad", [0, -1, 1.5, "2", True, 10**6])
def test_bad_thread_counts_are_refused_in_one_line(bad):
  with pytest.raises(ValueError) as error:
    threads.set_num_threads(bad)
  message = str(error.value)
  assert "\n" not in message
  assert "threads" in message and "NUMBA_NUM_THREADS" in message


def test_thread_count_is_set_and_read():
  saved = numba.get_num_threads()
  try:
    threads.set_num_threads(1)
    assert threads.get_num_threads() == 1
  finally:
    numba.set_num_threads(saved)


@pytest.mark.parametrize("workers, cores, expected",
                         [(1, 2, 2), (2, 2, 1), (3, 2, 1), (2, 8, 4),
                          (3, 8, 2)])
def test_each_worker_gets_its_share_of_the_cores(workers, cores, expected):
  assert threads.threads_per_worker(workers, cores) == expected


def test_bad_threshold_in_the_environment_is_refused(monkeypatch):
  monkeypatch.setenv("SPIEL_EXT_PARALLEL_MIN_HISTORIES", "many")
  # pylint: disable-next=protected-access
  with pytest.raises(ValueError, match="SPIEL_EXT_PARALLEL_MIN_HISTORIES"):
    threads._min_histories_from_env()
  monkeypatch.setenv("SPIEL_EXT_PARALLEL_MIN_HISTORIES", "1000")
  assert threads._min_histories_from_env() == 1000  # pylint: disable=protected-access


def test_local_workers_run_on_their_share_of_the_cores():
  share = threads.threads_per_worker(2)
  with concurrent.futures.ProcessPoolExecutor(
      max_workers=1, mp_context=multiprocessing.get_context("spawn"),
      initializer=local._start_worker,  # pylint: disable=protected-access
      initargs=(os.getpid(), share)) as pool:
    assert pool.submit(threads.get_num_threads).result() == min(
        share, threads.max_threads())
