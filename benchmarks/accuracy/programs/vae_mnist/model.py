"""Convolutional VAE: encoder -> (mu, logvar) -> z -> decoder."""

from __future__ import annotations

import torch
import torch.nn as nn

from config import VAEConfig


def conv_block(in_ch: int, out_ch: int, kernel_size: int, batchnorm: bool) -> nn.Sequential:
    layers = [nn.Conv2d(in_ch, out_ch, kernel_size, stride=2, padding=kernel_size // 2)]
    if batchnorm:
        layers.append(nn.BatchNorm2d(out_ch))
    layers.append(nn.LeakyReLU(0.2))
    return nn.Sequential(*layers)


def deconv_block(in_ch: int, out_ch: int, kernel_size: int, batchnorm: bool) -> nn.Sequential:
    layers = [
        nn.ConvTranspose2d(
            in_ch, out_ch, kernel_size, stride=2, padding=kernel_size // 2, output_padding=1
        )
    ]
    if batchnorm:
        layers.append(nn.BatchNorm2d(out_ch))
    layers.append(nn.LeakyReLU(0.2))
    return nn.Sequential(*layers)


class Encoder(nn.Module):
    def __init__(self, cfg: VAEConfig) -> None:
        super().__init__()
        blocks = []
        in_ch = cfg.in_channels
        for ch in cfg.channels:
            blocks.append(conv_block(in_ch, ch, cfg.kernel_size, cfg.use_batchnorm))
            in_ch = ch
        self.features = nn.Sequential(*blocks)
        flat = cfg.channels[-1] * cfg.bottleneck_size ** 2
        self.fc_mu = nn.Linear(flat, cfg.latent_dim)
        self.fc_logvar = nn.Linear(flat, cfg.latent_dim)

    def forward(self, x: torch.Tensor):
        h = self.features(x)
        h = torch.flatten(h, start_dim=1)
        return self.fc_mu(h), self.fc_logvar(h)


class Decoder(nn.Module):
    def __init__(self, cfg: VAEConfig) -> None:
        super().__init__()
        self.bottleneck = cfg.bottleneck_size
        self.top_channels = cfg.channels[-1]
        self.image_size = cfg.image_size
        self.fc = nn.Linear(cfg.latent_dim, self.top_channels * self.bottleneck ** 2)
        blocks = []
        rev = list(reversed(cfg.channels))
        for in_ch, out_ch in zip(rev[:-1], rev[1:]):
            blocks.append(deconv_block(in_ch, out_ch, cfg.kernel_size, cfg.use_batchnorm))
        self.blocks = nn.Sequential(*blocks)
        self.head = nn.ConvTranspose2d(
            rev[-1], cfg.in_channels, cfg.kernel_size, stride=2,
            padding=cfg.kernel_size // 2, output_padding=1,
        )

    def forward(self, z: torch.Tensor) -> torch.Tensor:
        h = self.fc(z).view(-1, self.top_channels, self.bottleneck, self.bottleneck)
        h = self.blocks(h)
        logits = self.head(h)
        # transposed convs may overshoot by a pixel or two (28 -> 14 -> 7 -> 28)
        if logits.shape[-1] != self.image_size:
            logits = logits[..., : self.image_size, : self.image_size]
        return logits


class VAE(nn.Module):
    def __init__(self, cfg: VAEConfig) -> None:
        super().__init__()
        self.cfg = cfg
        self.encoder = Encoder(cfg)
        self.decoder = Decoder(cfg)

    def reparameterize(self, mu: torch.Tensor, logvar: torch.Tensor) -> torch.Tensor:
        if self.training:
            std = torch.exp(0.5 * logvar)
            eps = torch.randn_like(std)
            return mu + eps * std
        # use the posterior mean at eval time
        return mu

    def forward(self, x: torch.Tensor):
        mu, logvar = self.encoder(x)
        z = self.reparameterize(mu, logvar)
        recon_logits = self.decoder(z)
        return recon_logits, mu, logvar

    @torch.no_grad()
    def sample(self, n: int, device: str = "cpu") -> torch.Tensor:
        z = torch.randn(n, self.cfg.latent_dim, device=device)
        return torch.sigmoid(self.decoder(z))
