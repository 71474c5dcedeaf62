"""The checkpoint of the network reward model as plain data.

The pieces of :meth:`spiel_ext.algorithms.bnn.BNNRewardModel.state_dict`
and its ``load_state_dict`` that translate between torch and numpy: Adam's
moments by parameter name, and the checks of a state's parameters against
the model that loads it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spiel_ext.algorithms.bnn_setup import import_torch


def adam_moments(optimizer: Any, names: list[str]) -> dict[str, dict]:
  """Adam's moments and step counts of the parameters it has stepped.

  Args:
    optimizer: the model's torch Adam.
    names: the names of its parameters, in its order.

  Returns:
    {parameter name: {key: numpy array}} (copies).
  """
  state = optimizer.state_dict()["state"]
  adam = {}
  for index, name in enumerate(names):
    if index in state:
      adam[name] = {key: value.detach().numpy().copy()
                    for key, value in state[index].items()}
  return adam


def load_adam_moments(optimizer: Any, names: list[str],
                      adam: dict[str, dict]) -> None:
  """Restores what :func:`adam_moments` returned, in place.

  Args:
    optimizer: the model's torch Adam.
    names: the names of its parameters, in its order.
    adam: {parameter name: {key: array}}.
  """
  torch, _ = import_torch()
  state = optimizer.state_dict()
  state["state"] = {
      names.index(name): {key: torch.from_numpy(np.array(value))
                          for key, value in moments.items()}
      for name, moments in adam.items()}
  optimizer.load_state_dict(state)


def checked_parameters(state: dict[str, Any], seed: int,
                       parameters: dict) -> tuple[dict, int]:
  """A state's parameter values and outcome count, checked against the
  model that loads it.

  Args:
    state: a model's ``state_dict()``.
    seed: the loading model's seed.
    parameters: {name: tensor} of the loading model.

  Returns:
    ({name: numpy array}, the number of recorded outcomes).

  Raises:
    ValueError: the state is of a model with another seed or sizes, or
      its outcomes are not as many as it records.
  """
  if state["seed"] != seed:
    raise ValueError(f"checkpoint network has seed {state['seed']}, not "
                     f"{seed}.")
  values = {name: np.asarray(state["parameters"][name])
            for name in parameters}
  for name, tensor in parameters.items():
    if values[name].shape != tuple(tensor.shape):
      raise ValueError(f"checkpoint network parameter {name} has shape "
                       f"{values[name].shape}, not {tuple(tensor.shape)}.")
  observations = int(state["observations"])
  if len(state["data_terminal"]) != observations:
    raise ValueError("checkpoint network records "
                     f"{len(state['data_terminal'])} outcomes, not "
                     f"{observations}.")
  return values, observations
