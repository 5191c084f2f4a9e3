"""A small decoder-only transformer alternating MoE and dense feed-forward layers."""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

from moe import ExpertFFN, MoELayer


@dataclass
class MoEConfig:
    vocab_size: int = 64
    block_size: int = 32
    d_model: int = 64
    n_heads: int = 4
    n_layers: int = 4
    d_ff: int = 128
    num_experts: int = 4
    k: int = 1
    moe_every: int = 2
    capacity_factor: float = 1.25
    jitter_noise: float = 0.01
    dropout: float = 0.0


class SelfAttention(nn.Module):
    def __init__(self, cfg: MoEConfig) -> None:
        super().__init__()
        self.n_heads = cfg.n_heads
        self.qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model)
        self.proj = nn.Linear(cfg.d_model, cfg.d_model)
        self.dropout = cfg.dropout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, c = x.shape
        q, k, v = self.qkv(x).split(c, dim=2)
        q, k, v = (z.view(b, t, self.n_heads, c // self.n_heads).transpose(1, 2) for z in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True,
                                           dropout_p=self.dropout if self.training else 0.0)
        return self.proj(y.transpose(1, 2).contiguous().view(b, t, c))


class Block(nn.Module):
    def __init__(self, cfg: MoEConfig, layer_idx: int) -> None:
        super().__init__()
        self.layer_idx = layer_idx
        self.ln1 = nn.LayerNorm(cfg.d_model)
        self.attn = SelfAttention(cfg)
        self.ln2 = nn.LayerNorm(cfg.d_model)
        self.is_moe = layer_idx % cfg.moe_every == 0
        if self.is_moe:
            self.ffn = MoELayer(cfg.d_model, cfg.d_ff, cfg.num_experts, cfg.k,
                                cfg.capacity_factor, cfg.jitter_noise, cfg.dropout)
        else:
            self.ffn = ExpertFFN(cfg.d_model, cfg.d_ff, cfg.dropout)

    def forward(self, x: torch.Tensor):
        x = x + self.attn(self.ln1(x))
        if self.is_moe:
            h, aux, z = self.ffn(self.ln2(x))
        else:
            h = self.ffn(self.ln2(x))
            aux = z = x.new_zeros(())
        return x + h, aux, z


class MoETransformer(nn.Module):
    def __init__(self, cfg: MoEConfig) -> None:
        super().__init__()
        self.cfg = cfg
        self.tok_emb = nn.Embedding(cfg.vocab_size, cfg.d_model)
        self.pos_emb = nn.Embedding(cfg.block_size, cfg.d_model)
        self.blocks = nn.ModuleList([Block(cfg, i) for i in range(cfg.n_layers)])
        self.ln_f = nn.LayerNorm(cfg.d_model)
        self.head = nn.Linear(cfg.d_model, cfg.vocab_size, bias=False)
        self.head.weight = self.tok_emb.weight
        self.apply(self._init_weights)

    @staticmethod
    def _init_weights(module: nn.Module) -> None:
        if isinstance(module, nn.Linear):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)
            if module.bias is not None:
                nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)

    def moe_layers(self) -> list[MoELayer]:
        return [blk.ffn for blk in self.blocks if blk.is_moe]

    def forward(self, idx: torch.Tensor, targets: torch.Tensor | None = None):
        b, t = idx.shape
        pos = torch.arange(t, device=idx.device)
        x = self.tok_emb(idx) + self.pos_emb(pos)
        aux_total = x.new_zeros(())
        z_total = x.new_zeros(())
        for block in self.blocks:
            x, aux, z = block(x)
            aux_total = aux_total + aux
            z_total = z_total + z
        logits = self.head(self.ln_f(x))
        n_moe = max(1, len(self.moe_layers()))
        aux_total, z_total = aux_total / n_moe, z_total / n_moe
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.reshape(-1))
        return logits, loss, aux_total, z_total
