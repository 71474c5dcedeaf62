"""GameTree.sample_chance: one outcome per chance node, drawn from the
game's own distribution (checked by frequencies against OpenSpiel's
chance_outcomes), and unbiased sampled values."""

import numpy as np
import pytest

from spiel_ext.engine import compile_game


def test_outcome_frequencies_follow_the_game():
  tree = compile_game("leduc_poker")
  rng = np.random.default_rng(7)
  draws = 4000
  counts = np.zeros(tree.num_histories)
  for _ in range(draws):
    sample = tree.sample_chance(rng)
    counts += sample
  chance_nodes = np.flatnonzero(tree.node_player == -1)
  start, members = tree.children_lists()
  for node in chance_nodes[:12]:
    children = members[start[node]:start[node + 1]]
    # Exactly one outcome per draw at every chance node.
    assert counts[children].sum() == draws
    state = tree.state(int(node))
    expected = dict(state.chance_outcomes())
    for child in children:
      p = expected[int(tree.action[child])]
      sigma = np.sqrt(draws * p * (1 - p))
      assert abs(counts[child] - draws * p) <= 5 * sigma + 1e-9


def test_sampled_values_are_unbiased():
  tree = compile_game("kuhn_poker")
  rng = np.random.default_rng(3)
  policy = tree.uniform_policy()
  samples = np.array([
      tree.with_model(chance_prob=tree.sample_chance(rng)).root_values(
          policy)[0] for _ in range(20000)])
  exact = tree.root_values(policy)[0]
  assert abs(samples.mean() - exact) <= 5 * samples.std() / np.sqrt(20000)


def test_rng_must_be_a_generator():
  with pytest.raises(TypeError, match="rng"):
    compile_game("kuhn_poker").sample_chance(0)
