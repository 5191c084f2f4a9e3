"""A decoder block with a top-k routed mixture of experts."""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn


@dataclass
class MoEConfig:
    vocab_size: int = 100
    d_model: int = 64
    n_layers: int = 2
    n_heads: int = 4
    n_experts: int = 4
    top_k: int = 2
    expert_hidden: int = 96
    aux_loss_coef: float = 0.01
    router_jitter: float = 0.0
    dropout: float = 0.0


class Expert(nn.Module):
    def __init__(self, d_model: int, hidden: int):
        super().__init__()
        self.up = nn.Linear(d_model, hidden)
        self.down = nn.Linear(hidden, d_model)

    def forward(self, x):
        return self.down(F.gelu(self.up(x)))


class Router(nn.Module):
    def __init__(self, cfg: MoEConfig):
        super().__init__()
        self.gate = nn.Linear(cfg.d_model, cfg.n_experts, bias=False)
        self.top_k = cfg.top_k
        self.jitter = cfg.router_jitter

    def forward(self, x):
        if self.training and self.jitter > 0:
            x = x * torch.empty_like(x).uniform_(1.0 - self.jitter, 1.0 + self.jitter)
        logits = self.gate(x)
        probs = logits.softmax(dim=-1)
        weights, experts = probs.topk(self.top_k, dim=-1)
        weights = weights / weights.sum(dim=-1, keepdim=True)
        return weights, experts, probs


class MoELayer(nn.Module):
    def __init__(self, cfg: MoEConfig):
        super().__init__()
        self.router = Router(cfg)
        self.experts = nn.ModuleList([Expert(cfg.d_model, cfg.expert_hidden) for _ in range(cfg.n_experts)])
        self.n_experts = cfg.n_experts

    def forward(self, x):
        flat = x.reshape(-1, x.shape[-1])
        weights, experts, probs = self.router(flat)
        out = torch.zeros_like(flat)
        for i, expert in enumerate(self.experts):
            mask = (experts == i).to(flat.dtype)
            gate = (weights * mask).sum(dim=-1, keepdim=True)
            out = out + gate * expert(flat)
        load = F.one_hot(experts[:, 0], self.n_experts).float().mean(0)
        aux = self.n_experts * (load * probs.mean(0)).sum()
        return out.view_as(x), aux


class DecoderLayer(nn.Module):
    def __init__(self, cfg: MoEConfig):
        super().__init__()
        self.ln1 = nn.LayerNorm(cfg.d_model)
        self.attn = nn.MultiheadAttention(cfg.d_model, cfg.n_heads, dropout=cfg.dropout, batch_first=True)
        self.ln2 = nn.LayerNorm(cfg.d_model)
        self.moe = MoELayer(cfg)

    def forward(self, x, causal_mask):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, attn_mask=causal_mask, need_weights=False)[0]
        moe_out, aux = self.moe(self.ln2(x))
        return x + moe_out, aux


class MoELanguageModel(nn.Module):
    def __init__(self, cfg: MoEConfig):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.vocab_size, cfg.d_model)
        self.layers = nn.ModuleList([DecoderLayer(cfg) for _ in range(cfg.n_layers)])
        self.ln_f = nn.LayerNorm(cfg.d_model)
        self.lm_head = nn.Linear(cfg.d_model, cfg.vocab_size, bias=False)

    def forward(self, tokens, targets=None):
        t = tokens.shape[1]
        causal = torch.triu(torch.full((t, t), float("-inf")), diagonal=1)
        x = self.embed(tokens)
        aux_total = 0.0
        for layer in self.layers:
            x, aux = layer(x, causal)
            aux_total = aux_total + aux
        logits = self.lm_head(self.ln_f(x))
        if targets is None:
            return logits, None
        loss = F.cross_entropy(logits.flatten(0, 1), targets.flatten())
        return logits, loss + self.cfg.aux_loss_coef * aux_total
