"""N-BEATS (Oreshkin et al. 2019) with generic, trend and seasonality blocks."""

from __future__ import annotations

import torch
import torch.nn as nn


def linspace(backcast_length: int, forecast_length: int) -> tuple[torch.Tensor, torch.Tensor]:
    total = backcast_length + forecast_length
    t = torch.arange(total, dtype=torch.float32) / total
    return t[:backcast_length], t[backcast_length:]


class NBeatsBlock(nn.Module):
    def __init__(self, units: int, thetas_dim: int, backcast_length: int, forecast_length: int,
                 share_thetas: bool = False, num_layers: int = 4) -> None:
        super().__init__()
        self.units = units
        self.thetas_dim = thetas_dim
        self.backcast_length = backcast_length
        self.forecast_length = forecast_length
        self.share_thetas = share_thetas
        layers: list[nn.Module] = []
        in_dim = backcast_length
        for _ in range(num_layers):
            layers += [nn.Linear(in_dim, units), nn.ReLU()]
            in_dim = units
        self.fc = nn.Sequential(*layers)
        if share_thetas:
            self.theta_b_fc = self.theta_f_fc = nn.Linear(units, thetas_dim, bias=False)
        else:
            self.theta_b_fc = nn.Linear(units, thetas_dim, bias=False)
            self.theta_f_fc = nn.Linear(units, thetas_dim, bias=False)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        raise NotImplementedError


class GenericBlock(NBeatsBlock):
    def __init__(self, units, thetas_dim, backcast_length, forecast_length, **kwargs) -> None:
        super().__init__(units, thetas_dim, backcast_length, forecast_length, **kwargs)
        self.backcast_fc = nn.Linear(thetas_dim, backcast_length)
        self.forecast_fc = nn.Linear(thetas_dim, forecast_length)

    def forward(self, x):
        h = self.fc(x)
        return self.backcast_fc(torch.relu(self.theta_b_fc(h))), self.forecast_fc(torch.relu(self.theta_f_fc(h)))


class TrendBlock(NBeatsBlock):
    """Polynomial basis of degree ``thetas_dim - 1``."""

    def __init__(self, units, thetas_dim, backcast_length, forecast_length, **kwargs) -> None:
        super().__init__(units, thetas_dim, backcast_length, forecast_length, share_thetas=True, **kwargs)
        b_t, f_t = linspace(backcast_length, forecast_length)
        powers = torch.arange(thetas_dim, dtype=torch.float32)
        self.register_buffer("T_backcast", b_t[None, :] ** powers[:, None])
        self.register_buffer("T_forecast", f_t[None, :] ** powers[:, None])

    def forward(self, x):
        h = self.fc(x)
        theta = self.theta_b_fc(h)
        return theta @ self.T_backcast, self.theta_f_fc(h) @ self.T_forecast


class SeasonalityBlock(NBeatsBlock):
    """Fourier basis; the number of harmonics is derived from the forecast length."""

    def __init__(self, units, thetas_dim, backcast_length, forecast_length, **kwargs) -> None:
        thetas_dim = forecast_length if thetas_dim is None else thetas_dim
        super().__init__(units, thetas_dim, backcast_length, forecast_length, share_thetas=True, **kwargs)
        b_t, f_t = linspace(backcast_length, forecast_length)
        p1, p2 = (thetas_dim // 2, thetas_dim // 2) if thetas_dim % 2 == 0 else (thetas_dim // 2, thetas_dim // 2 + 1)
        self.register_buffer("S_backcast", self._basis(b_t, p1, p2))
        self.register_buffer("S_forecast", self._basis(f_t, p1, p2))

    @staticmethod
    def _basis(t: torch.Tensor, p1: int, p2: int) -> torch.Tensor:
        s1 = torch.stack([torch.cos(2 * torch.pi * i * t) for i in range(p1)])
        s2 = torch.stack([torch.sin(2 * torch.pi * i * t) for i in range(p2)])
        return torch.cat([s1, s2], dim=0)

    def forward(self, x):
        h = self.fc(x)
        return self.theta_b_fc(h) @ self.S_backcast, self.theta_f_fc(h) @ self.S_forecast


class NBeatsNet(nn.Module):
    TREND_BLOCK = "trend"
    SEASONALITY_BLOCK = "seasonality"
    GENERIC_BLOCK = "generic"

    def __init__(self, backcast_length: int = 24, forecast_length: int = 8,
                 stack_types: tuple[str, ...] = ("trend", "seasonality"), nb_blocks_per_stack: int = 2,
                 thetas_dim: tuple[int, ...] = (3, 8), hidden_layer_units: int = 32,
                 share_weights_in_stack: bool = False) -> None:
        super().__init__()
        self.backcast_length = backcast_length
        self.forecast_length = forecast_length
        self.stack_types = stack_types
        self.nb_blocks_per_stack = nb_blocks_per_stack
        self.share_weights_in_stack = share_weights_in_stack
        self.blocks = nn.ModuleList()
        self.block_stack_ids: list[int] = []
        for stack_id, stack_type in enumerate(stack_types):
            first = None
            for _ in range(nb_blocks_per_stack):
                if share_weights_in_stack and first is not None:
                    block = first
                else:
                    block = self.create_block(stack_type, thetas_dim[stack_id], hidden_layer_units)
                    first = block
                self.blocks.append(block)
                self.block_stack_ids.append(stack_id)

    def create_block(self, stack_type: str, thetas_dim: int, units: int) -> NBeatsBlock:
        if stack_type == NBeatsNet.TREND_BLOCK:
            cls = TrendBlock
        elif stack_type == NBeatsNet.SEASONALITY_BLOCK:
            cls = SeasonalityBlock
        elif stack_type == NBeatsNet.GENERIC_BLOCK:
            cls = GenericBlock
        else:
            raise ValueError(f"unknown stack type {stack_type!r}")
        return cls(units, thetas_dim, self.backcast_length, self.forecast_length)

    def forward(self, backcast: torch.Tensor, return_stacks: bool = False):
        forecast = backcast.new_zeros(backcast.shape[0], self.forecast_length)
        stack_outputs = [backcast.new_zeros(backcast.shape[0], self.forecast_length) for _ in self.stack_types]
        for block, stack_id in zip(self.blocks, self.block_stack_ids):
            b, f = block(backcast)
            backcast = backcast - b
            forecast = forecast + f
            stack_outputs[stack_id] = stack_outputs[stack_id] + f
        if return_stacks:
            return forecast, stack_outputs
        return forecast
