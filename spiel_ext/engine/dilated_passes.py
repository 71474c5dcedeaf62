"""Sequence-form passes with the dilated entropy (numba kernels).

A player's sequence-form strategy x assigns every sequence (I, a) the
player's own reach of I times sigma(I, a); the empty sequence is 1. The
dilated entropy (Hoda, Gilpin, Pena, Sandholm, "Smoothing Techniques for
Computing Nash Equilibria of Sequential Games", Mathematics of Operations
Research 2010; Kroer, Waugh, Kilinc-Karzan, Sandholm, "Faster algorithms
for extensive-form game solving via improved smoothing functions",
Mathematical Programming 2020) is

  psi(x) = sum_I x_{p(I)} sum_a sigma(I, a) log sigma(I, a),
  sigma(I, a) = x_{Ia} / x_{p(I)},

with p(I) the player's previous own sequence before I. Its gradient is

  d psi / d x_{Ia} = log sigma(I, a) + 1 - |C(I, a)|        (x_{p(I)} > 0)

where C(I, a) is the set of the player's infosets whose previous own
sequence is (I, a). Its proximal step, the minimiser over the treeplex of
<g, x> + psi(x), is computed bottom-up (as in Hoda et al.): at each
infoset J, deepest first, sigma(J) = softmax(-g_J), and the parent
sequence's entry g_{p(J)} grows by the value of that softmax,
sum_b sigma(J, b) (g_{Jb} + log sigma(J, b)) = -logsumexp(-g_J).

The kernels work on a tree's flat arrays (see
:mod:`spiel_ext.engine.layout`): a player's infosets are the contiguous
rows ``start..stop-1``, ``own_sequence[I]`` is the flat index
p(I) = I' * A + a' of I's parent sequence (-1 for the empty sequence), and
a parent sequence's infoset precedes its children in row order, so a
backward loop over the rows is bottom-up. They reuse the engine's forward
pass (:func:`spiel_ext.engine.passes.forward_others`) for the opponents'
reach.
"""

from __future__ import annotations

import numpy as np

from spiel_ext.engine import passes
from spiel_ext.engine.passes import jit

__all__ = ["children_per_sequence", "dilated_entropy_gradient",
           "dilated_entropy_prox", "dilated_entropy_value",
           "mirror_descent_step", "sequence_payoff_gradient"]


def children_per_sequence(own_sequence: np.ndarray, num_infosets: int,
                          num_actions: int) -> np.ndarray:
  """|C(I, a)|: how many infosets have (I, a) as their parent sequence, as
  a [infosets, actions] float array."""
  parents = own_sequence[own_sequence >= 0]
  counts = np.bincount(parents, minlength=num_infosets * num_actions)
  return counts.reshape(num_infosets, num_actions).astype(np.float64)


@jit
def sequence_payoff_gradient(parent, parent_slot, policy_index, chance_prob,
                             policy, player, terminals, terminal_sequence,
                             terminal_payoff, row_offset, out):
  """The gradient of the sequence-form payoff x^T A y in ``player``'s
  sequences, for the player's rows.

  Adds sum_z x_{-i}(z) terminal_payoff[k] over the terminals z =
  terminals[k] whose last own sequence of ``player`` is (I, a) =
  terminal_sequence[k] (a flat index, -1 for the empty sequence, which is
  skipped) into out[I - row_offset, a]. x_{-i}(z) is the reach by chance
  and the other players (the engine's forward pass).
  """
  num_histories = parent.shape[0]
  weight = np.empty(num_histories)
  others = np.empty(num_histories)
  passes.forward_others(parent, parent_slot, policy_index, chance_prob,
                        policy, player, weight, others)
  flat = out.reshape(-1)
  offset = np.int64(row_offset) * policy.shape[1]
  for k in range(terminals.shape[0]):
    sequence = terminal_sequence[k]
    if sequence >= 0:
      flat[sequence - offset] += others[terminals[k]] * terminal_payoff[k]


@jit
def dilated_entropy_gradient(policy, own_reach, num_children, legal, start,
                             stop, out):
  """d psi / d x for rows start..stop-1 into out[row - start]:
  log sigma(I, a) + 1 - |C(I, a)| where x_i(I) > 0, else 0 (psi does not
  depend on sequences below an unreached infoset). Illegal entries are 0."""
  for row in range(start, stop):
    local = row - start
    for a in range(policy.shape[1]):
      if legal[row, a] and own_reach[row] > 0.0:
        out[local, a] = (np.log(policy[row, a]) + 1.0 -
                         num_children[row, a])
      else:
        out[local, a] = 0.0


@jit
def dilated_entropy_prox(gradient, legal, own_sequence, start, stop, policy):
  """argmin_x <g, x> + psi(x) over the treeplex, bottom-up.

  ``gradient`` holds g on rows start..stop-1 (row I at gradient[I -
  start]) and is overwritten: the parent sequence entries absorb their
  children's values. Writes the behavioural strategy into policy[row] for
  every row (softmax(-g_I) over the legal actions; 0 elsewhere). Returns
  the minimum's value at the empty sequence, sum over the first infosets
  J of -logsumexp(-g_J).
  """
  num_actions = policy.shape[1]
  flat = gradient.reshape(-1)
  offset = np.int64(start) * num_actions
  root_value = 0.0
  for row in range(stop - 1, start - 1, -1):
    local = row - start
    largest = -np.inf
    for a in range(num_actions):
      if legal[row, a] and -gradient[local, a] > largest:
        largest = -gradient[local, a]
    total = 0.0
    for a in range(num_actions):
      if legal[row, a]:
        weight = np.exp(-gradient[local, a] - largest)
        policy[row, a] = weight
        total += weight
      else:
        policy[row, a] = 0.0
    value = 0.0
    for a in range(num_actions):
      if legal[row, a]:
        probability = policy[row, a] / total
        policy[row, a] = probability
        if probability > 0.0:
          value += probability * (gradient[local, a] + np.log(probability))
    sequence = own_sequence[row]
    if sequence >= 0:
      flat[sequence - offset] += value
    else:
      root_value += value
  return root_value


@jit
def dilated_entropy_value(policy, own_reach, legal, start, stop):
  """psi(x) of the sequence form of ``policy`` on rows start..stop-1:
  sum_I x_i(I) sum_a sigma(I, a) log sigma(I, a)."""
  value = 0.0
  for row in range(start, stop):
    if own_reach[row] > 0.0:
      negative_entropy = 0.0
      for a in range(policy.shape[1]):
        probability = policy[row, a]
        if legal[row, a] and probability > 0.0:
          negative_entropy += probability * np.log(probability)
      value += own_reach[row] * negative_entropy
  return value


@jit
def mirror_descent_step(payoff_gradient, policy, own_reach, num_children,
                        legal, own_sequence, start, stop, stepsize, alpha,
                        average_sequence, average_count):
  """One magnetic mirror descent step of one player, in place.

  With G = ``payoff_gradient`` (the player's sequence-form payoff gradient
  on rows start..stop-1), eta = ``stepsize``:

    g       = (-eta G - grad psi(x)) / (1 + eta alpha)
    sigma   = the bottom-up prox of g (:func:`dilated_entropy_prox`)

  then refreshes own_reach (x_i(I)) on the rows, sets rows the player no
  longer reaches to uniform (the behavioural form of a sequence-form
  strategy, as a zero-weight row is read), and adds the new sequence form
  x(I, a) = x_i(I) sigma(I, a) into the running mean
  ``average_sequence`` of ``average_count`` earlier ones.
  """
  num_rows = stop - start
  num_actions = policy.shape[1]
  gradient = np.empty((num_rows, num_actions))
  dilated_entropy_gradient(policy, own_reach, num_children, legal, start,
                           stop, gradient)
  scale = 1.0 / (1.0 + stepsize * alpha)
  for local in range(num_rows):
    for a in range(num_actions):
      gradient[local, a] = ((-stepsize * payoff_gradient[local, a] -
                             gradient[local, a]) * scale)
  dilated_entropy_prox(gradient, legal, own_sequence, start, stop, policy)
  flat = policy.reshape(-1)
  count = float(average_count)
  for row in range(start, stop):
    k = own_sequence[row]
    reach = 1.0 if k < 0 else own_reach[k // num_actions] * flat[k]
    own_reach[row] = reach
    if reach == 0.0:
      legal_count = 0
      for a in range(num_actions):
        if legal[row, a]:
          legal_count += 1
      for a in range(num_actions):
        if legal[row, a]:
          policy[row, a] = 1.0 / legal_count
    for a in range(num_actions):
      if legal[row, a]:
        average_sequence[row, a] = (
            (average_sequence[row, a] * count + reach * policy[row, a]) /
            (count + 1.0))
