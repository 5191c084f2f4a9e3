"""Small VAE for mixed numeric / categorical tabular data."""
from dataclasses import dataclass, field
from typing import List

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class TabularVAEConfig:
    num_numeric: int = 6
    cat_cardinalities: List[int] = field(default_factory=lambda: [4, 7, 3])
    cat_embed_dim: int = 4
    hidden_dim: int = 32
    latent_dim: int = 8
    num_blocks: int = 2
    dropout: float = 0.1
    layer_norm_eps: float = 1e-5
    logvar_clamp: float = 6.0
    free_bits: float = 0.05


class ResidualMLPBlock(nn.Module):
    def __init__(self, dim: int, dropout: float, eps: float):
        super().__init__()
        self.norm = nn.LayerNorm(dim, eps=eps)
        self.fc1 = nn.Linear(dim, dim * 2)
        self.fc2 = nn.Linear(dim * 2, dim)
        self.drop = nn.Dropout(dropout)
        self.res_scale = 0.5

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.norm(x)
        h = F.silu(self.fc1(h))
        h = self.drop(self.fc2(h))
        return x + self.res_scale * h


class CategoricalEmbedder(nn.Module):
    def __init__(self, cardinalities: List[int], dim: int):
        super().__init__()
        self.embeds = nn.ModuleList([nn.Embedding(c, dim) for c in cardinalities])

    def forward(self, x_cat: torch.Tensor) -> torch.Tensor:
        parts = [emb(x_cat[:, i]) for i, emb in enumerate(self.embeds)]
        return torch.cat(parts, dim=-1)


class Encoder(nn.Module):
    def __init__(self, cfg: TabularVAEConfig):
        super().__init__()
        in_dim = cfg.num_numeric + cfg.cat_embed_dim * len(cfg.cat_cardinalities)
        self.cat_embed = CategoricalEmbedder(cfg.cat_cardinalities, cfg.cat_embed_dim)
        self.proj = nn.Linear(in_dim, cfg.hidden_dim)
        self.blocks = nn.ModuleList(
            [ResidualMLPBlock(cfg.hidden_dim, cfg.dropout, cfg.layer_norm_eps) for _ in range(cfg.num_blocks)]
        )
        self.out_norm = nn.LayerNorm(cfg.hidden_dim, eps=cfg.layer_norm_eps)
        self.to_mu = nn.Linear(cfg.hidden_dim, cfg.latent_dim)
        self.to_logvar = nn.Linear(cfg.hidden_dim, cfg.latent_dim)
        self.logvar_clamp = cfg.logvar_clamp

    def forward(self, x_num: torch.Tensor, x_cat: torch.Tensor):
        h = torch.cat([x_num, self.cat_embed(x_cat)], dim=-1)
        h = self.proj(h)
        for blk in self.blocks:
            h = blk(h)
        h = self.out_norm(h)
        mu = self.to_mu(h)
        logvar = self.to_logvar(h).clamp(-self.logvar_clamp, self.logvar_clamp)
        return mu, logvar


class Decoder(nn.Module):
    def __init__(self, cfg: TabularVAEConfig):
        super().__init__()
        self.inp = nn.Linear(cfg.latent_dim, cfg.hidden_dim)
        self.blocks = nn.ModuleList(
            [ResidualMLPBlock(cfg.hidden_dim, cfg.dropout, cfg.layer_norm_eps) for _ in range(cfg.num_blocks)]
        )
        self.norm = nn.LayerNorm(cfg.hidden_dim, eps=cfg.layer_norm_eps)
        self.num_mean = nn.Linear(cfg.hidden_dim, cfg.num_numeric)
        self.num_logscale = nn.Parameter(torch.zeros(cfg.num_numeric))
        self.cat_heads = nn.ModuleList([nn.Linear(cfg.hidden_dim, c) for c in cfg.cat_cardinalities])

    def forward(self, z: torch.Tensor):
        h = F.silu(self.inp(z))
        for blk in self.blocks:
            h = blk(h)
        h = self.norm(h)
        num_mean = self.num_mean(h)
        cat_logits = [head(h) for head in self.cat_heads]
        return num_mean, cat_logits


class TabularVAE(nn.Module):
    def __init__(self, cfg: TabularVAEConfig):
        super().__init__()
        self.cfg = cfg
        self.encoder = Encoder(cfg)
        self.decoder = Decoder(cfg)
        self.free_bits = cfg.free_bits
        self.sample_latent = True

    def reparameterize(self, mu: torch.Tensor, logvar: torch.Tensor) -> torch.Tensor:
        if self.training and self.sample_latent:
            std = torch.exp(0.5 * logvar)
            return mu + std * torch.randn_like(std)
        return mu

    def kl_per_dim(self, mu: torch.Tensor, logvar: torch.Tensor) -> torch.Tensor:
        kl = -0.5 * (1.0 + logvar - mu.pow(2) - logvar.exp())
        kl = kl.mean(dim=0)
        # free-bits: don't push each latent dim below a floor
        return torch.clamp(kl, min=self.free_bits)

    def reconstruction_nll(self, x_num, x_cat, num_mean, cat_logits):
        log_scale = self.decoder.num_logscale
        num_nll = 0.5 * ((x_num - num_mean) / log_scale.exp()).pow(2) + log_scale
        num_nll = num_nll.sum(dim=-1).mean()
        cat_nll = sum(F.cross_entropy(logits, x_cat[:, i]) for i, logits in enumerate(cat_logits))
        return num_nll, cat_nll

    def forward(self, x_num: torch.Tensor, x_cat: torch.Tensor, beta: float):
        mu, logvar = self.encoder(x_num, x_cat)
        z = self.reparameterize(mu, logvar)
        num_mean, cat_logits = self.decoder(z)
        num_nll, cat_nll = self.reconstruction_nll(x_num, x_cat, num_mean, cat_logits)
        kl = self.kl_per_dim(mu, logvar).sum()
        loss = num_nll + cat_nll + beta * kl
        return loss, num_nll.detach(), cat_nll.detach(), kl.detach()
