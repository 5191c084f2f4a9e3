"""DCGAN generator and discriminator assembled from lists of layer specs."""

from __future__ import annotations

from typing import List, NamedTuple

import torch
import torch.nn as nn


class LayerSpec(NamedTuple):
    in_ch: int
    out_ch: int
    kernel: int
    stride: int
    padding: int
    norm: bool
    act: str


def generator_specs(nz: int, ngf: int, nc: int, num_levels: int) -> List[LayerSpec]:
    """1x1 latent -> 4x4 -> ... -> (4 * 2**num_levels) image."""
    mult = 2 ** (num_levels - 1)
    specs = [LayerSpec(nz, ngf * mult, 4, 1, 0, True, "relu")]
    for _ in range(num_levels - 1):
        specs.append(LayerSpec(ngf * mult, ngf * mult // 2, 4, 2, 1, True, "relu"))
        mult //= 2
    specs.append(LayerSpec(ngf * mult, nc, 4, 2, 1, False, "tanh"))
    return specs


def discriminator_specs(nc: int, ndf: int, num_levels: int) -> List[LayerSpec]:
    specs = [LayerSpec(nc, ndf, 4, 2, 1, False, "lrelu")]
    mult = 1
    for _ in range(num_levels - 1):
        specs.append(LayerSpec(ndf * mult, ndf * mult * 2, 4, 2, 1, True, "lrelu"))
        mult *= 2
    # final 4x4 -> 1x1 logit, no activation
    specs.append(LayerSpec(ndf * mult, 1, 4, 1, 0, False, "none"))
    return specs


def _activation(name: str, negative_slope: float) -> nn.Module:
    if name == "relu":
        return nn.ReLU(inplace=True)
    if name == "lrelu":
        return nn.LeakyReLU(negative_slope, inplace=True)
    if name == "tanh":
        return nn.Tanh()
    return nn.Identity()


def weights_init(m: nn.Module) -> None:
    classname = m.__class__.__name__
    if classname.find("Conv") != -1:
        nn.init.normal_(m.weight, 0.0, 0.02)
    elif classname.find("BatchNorm") != -1:
        nn.init.normal_(m.weight, 1.0, 0.02)
        nn.init.zeros_(m.bias)


class Generator(nn.Module):
    def __init__(self, nz: int = 16, ngf: int = 8, nc: int = 3, num_levels: int = 2) -> None:
        super().__init__()
        self.nz = nz
        layers: List[nn.Module] = []
        for spec in generator_specs(nz, ngf, nc, num_levels):
            layers.append(
                nn.ConvTranspose2d(spec.in_ch, spec.out_ch, spec.kernel, spec.stride, spec.padding, bias=not spec.norm)
            )
            if spec.norm:
                layers.append(nn.BatchNorm2d(spec.out_ch))
            layers.append(_activation(spec.act, 0.0))
        self.main = nn.Sequential(*layers)

    def forward(self, z: torch.Tensor) -> torch.Tensor:
        if z.dim() == 2:
            z = z[:, :, None, None]
        return self.main(z)


class Discriminator(nn.Module):
    def __init__(
        self,
        nc: int = 3,
        ndf: int = 8,
        num_levels: int = 2,
        negative_slope: float = 0.2,
        use_spectral_norm: bool = False,
    ) -> None:
        super().__init__()
        self.use_spectral_norm = use_spectral_norm
        layers: List[nn.Module] = []
        for spec in discriminator_specs(nc, ndf, num_levels):
            # spectral norm replaces batch norm as the stabiliser when enabled
            use_bn = spec.norm and not use_spectral_norm
            conv = nn.Conv2d(spec.in_ch, spec.out_ch, spec.kernel, spec.stride, spec.padding, bias=not use_bn)
            if use_spectral_norm:
                conv = nn.utils.spectral_norm(conv)
            layers.append(conv)
            if use_bn:
                layers.append(nn.BatchNorm2d(spec.out_ch))
            layers.append(_activation(spec.act, negative_slope))
        self.main = nn.Sequential(*layers)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.main(x).view(x.size(0))
