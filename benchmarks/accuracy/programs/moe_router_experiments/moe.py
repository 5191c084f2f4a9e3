"""Top-k routed mixture-of-experts feed-forward layer (Switch / GShard style)."""

from __future__ import annotations

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ExpertFFN(nn.Module):
    def __init__(self, d_model: int, d_ff: int, dropout: float = 0.0) -> None:
        super().__init__()
        self.w1 = nn.Linear(d_model, d_ff)
        self.w2 = nn.Linear(d_ff, d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.w2(self.dropout(F.gelu(self.w1(x))))


class TopKRouter(nn.Module):
    def __init__(self, d_model: int, num_experts: int, k: int = 1, capacity_factor: float = 1.25,
                 jitter_noise: float = 0.0) -> None:
        super().__init__()
        assert 1 <= k <= num_experts
        self.num_experts = num_experts
        self.k = k
        self.capacity_factor = capacity_factor
        self.jitter_noise = jitter_noise
        self.gate = nn.Linear(d_model, num_experts, bias=False)
        nn.init.normal_(self.gate.weight, std=0.02)

    def expert_capacity(self, num_tokens: int) -> int:
        return max(1, math.ceil(self.capacity_factor * num_tokens * self.k / self.num_experts))

    def forward(self, x: torch.Tensor):
        """x: (tokens, d_model) -> (topk_weights, topk_idx, aux_loss, router_z_loss)."""
        if self.training and self.jitter_noise > 0:
            # multiplicative jitter on the router input, as in Switch Transformer
            noise = torch.empty_like(x).uniform_(1.0 - self.jitter_noise, 1.0 + self.jitter_noise)
            x = x * noise
        logits = self.gate(x)
        probs = logits.softmax(dim=-1, dtype=torch.float32)
        topk_weights, topk_idx = torch.topk(probs, self.k, dim=-1)
        if self.k > 1:
            topk_weights = topk_weights / topk_weights.sum(dim=-1, keepdim=True)

        # load-balancing loss: fraction of tokens dispatched * mean router probability
        dispatch = F.one_hot(topk_idx, self.num_experts).sum(dim=1).float()   # (tokens, E)
        tokens_per_expert = dispatch.sum(dim=0)
        frac_tokens = tokens_per_expert / (x.shape[0] * self.k)
        frac_probs = probs.mean(dim=0)
        aux_loss = self.num_experts * torch.sum(frac_tokens * frac_probs)
        z_loss = torch.logsumexp(logits, dim=-1).pow(2).mean()

        self.last_tokens_per_expert = tokens_per_expert.detach()
        return topk_weights.to(x.dtype), topk_idx, aux_loss, z_loss


class MoELayer(nn.Module):
    def __init__(self, d_model: int, d_ff: int, num_experts: int = 4, k: int = 1,
                 capacity_factor: float = 1.25, jitter_noise: float = 0.01, dropout: float = 0.0) -> None:
        super().__init__()
        self.num_experts = num_experts
        self.router = TopKRouter(d_model, num_experts, k, capacity_factor, jitter_noise)
        self.experts = nn.ModuleList([ExpertFFN(d_model, d_ff, dropout) for _ in range(num_experts)])

    def forward(self, hidden: torch.Tensor):
        batch, seq, d_model = hidden.shape
        x = hidden.reshape(-1, d_model)
        weights, idx, aux_loss, z_loss = self.router(x)
        capacity = self.router.expert_capacity(x.shape[0])

        out = torch.zeros_like(x)
        dropped = 0
        for expert_id, expert in enumerate(self.experts):
            mask = idx == expert_id                          # (tokens, k) boolean
            token_idx, slot = torch.where(mask)
            if token_idx.numel() == 0:
                continue
            if token_idx.numel() > capacity:
                dropped += token_idx.numel() - capacity
                token_idx, slot = token_idx[:capacity], slot[:capacity]
            expert_out = expert(x[token_idx])
            gate = weights[token_idx, slot].unsqueeze(-1)
            out.index_add_(0, token_idx, expert_out * gate)
        self.last_dropped = dropped
        return out.reshape(batch, seq, d_model), aux_loss, z_loss
