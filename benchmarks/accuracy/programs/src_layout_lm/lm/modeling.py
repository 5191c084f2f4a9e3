"""The decoder-only transformer and the `build_model` entry point."""

from __future__ import annotations

import torch
import torch.nn as nn

from lm.config import ModelConfig, get_config
from lm.layers import Attention, KVCache, RMSNorm, RotaryEmbedding, SwiGLU


class TransformerBlock(nn.Module):
    def __init__(self, cfg: ModelConfig, layer_idx: int) -> None:
        super().__init__()
        self.attention_norm = RMSNorm(cfg.dim, eps=cfg.norm_eps)
        self.attention = Attention(cfg, layer_idx)
        self.ffn_norm = RMSNorm(cfg.dim, eps=cfg.norm_eps)
        self.feed_forward = SwiGLU(cfg.dim, cfg.hidden_dim)

    def forward(self, x: torch.Tensor, rope: RotaryEmbedding, cache: KVCache | None) -> torch.Tensor:
        h = x + self.attention(self.attention_norm(x), rope, cache)
        return h + self.feed_forward(self.ffn_norm(h))


class Transformer(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.config = cfg
        self.tok_embeddings = nn.Embedding(cfg.vocab_size, cfg.dim)
        self.rope = RotaryEmbedding(cfg.head_dim, cfg.max_seq_len, cfg.rope_theta)
        self.layers = nn.ModuleList([TransformerBlock(cfg, i) for i in range(cfg.n_layers)])
        self.norm = RMSNorm(cfg.dim, eps=cfg.norm_eps)
        self.output = nn.Linear(cfg.dim, cfg.vocab_size, bias=False)
        if cfg.tie_embeddings:
            self.output.weight = self.tok_embeddings.weight
        self.apply(self._init_weights)

    @staticmethod
    def _init_weights(module: nn.Module) -> None:
        if isinstance(module, (nn.Linear, nn.Embedding)):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)

    def new_cache(self, batch_size: int) -> KVCache:
        dtype = self.tok_embeddings.weight.dtype
        return KVCache(self.config, batch_size, dtype=dtype)

    def forward(self, tokens: torch.Tensor, cache: KVCache | None = None) -> torch.Tensor:
        h = self.tok_embeddings(tokens)
        for layer in self.layers:
            h = layer(h, self.rope, cache)
        if cache is not None:
            cache.pos += tokens.shape[1]
        return self.output(self.norm(h)).float()

    def prefill(self, prompt: torch.Tensor, cache: KVCache) -> torch.Tensor:
        """Run the whole prompt through the model; returns logits for the last position."""
        return self.forward(prompt, cache)[:, -1, :]

    def decode_step(self, token: torch.Tensor, cache: KVCache) -> torch.Tensor:
        """One token per sequence: (B, 1) -> (B, vocab) logits, advancing the cache by one."""
        return self.forward(token, cache)[:, -1, :]


def build_model(name: str = "tiny", **overrides) -> Transformer:
    cfg = get_config(name, **overrides)
    return Transformer(cfg)
