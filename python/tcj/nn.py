# SPDX-License-Identifier: Apache-2.0
# tcj.nn: a drop-in nn.Linear whose forward runs through tcj.linear, and swap_linear, which
# puts it in place of a model's nn.Linear layers keeping their parameters.
"""Modules: ``tcj.nn.Linear`` and ``tcj.nn.swap_linear(model)``.

``Linear`` is a torch.nn.Linear (same parameters, state_dict, init and repr) whose forward
calls ``tcj.linear`` on CUDA inputs (and ``torch.nn.functional.linear`` on others, so a model
still runs on the CPU). ``activation=`` fuses one of tcj's activations into the GEMM.
"""

import torch

from . import ops

__all__ = ["Linear", "swap_linear"]


class Linear(torch.nn.Linear):
    """torch.nn.Linear through tcj.linear: y = activation(x @ weight.T + bias)."""

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None,
                 activation=None):
        super().__init__(in_features, out_features, bias=bias, device=device, dtype=dtype)
        self.activation = activation

    @classmethod
    def from_linear(cls, mod, activation=None):
        """A tcj Linear sharing mod's weight and bias Parameters (no copy)."""
        new = cls.__new__(cls)
        torch.nn.Module.__init__(new)
        new.in_features, new.out_features = mod.in_features, mod.out_features
        new.weight = mod.weight
        new.bias = mod.bias
        new.activation = activation
        new.train(mod.training)
        return new

    def forward(self, x):
        if x.device.type == "cpu":
            y = torch.nn.functional.linear(x, self.weight, self.bias)
            return y if self.activation in (None, "none") else _torch_act(self.activation, y)
        return ops.linear(x, self.weight, self.bias, activation=self.activation)

    def extra_repr(self):
        r = super().extra_repr()
        return r + (f", activation={self.activation!r}" if self.activation else "")


def _torch_act(act, y):
    from ._torch import act_forward
    return act_forward(act, y).to(y.dtype)


def swap_linear(model, filter=None):
    """Replaces every torch.nn.Linear in model (in place; model itself too when it is one) by a
    tcj.nn.Linear sharing its parameters. filter(name, module) -> bool picks which (default
    all). Returns the model (the new module when model was a bare nn.Linear)."""
    if type(model) is torch.nn.Linear:
        return Linear.from_linear(model)
    for name, child in list(model.named_children()):
        if type(child) is torch.nn.Linear and (filter is None or filter(name, child)):
            setattr(model, name, Linear.from_linear(child))
        else:
            swap_linear(child, filter)
    return model
