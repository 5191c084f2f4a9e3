"""A miniature Whisper-style encoder-decoder for speech recognition."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Dict, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F

# layer index -> (self_k, self_v, cross_k, cross_v)
KVCache = Dict[int, Tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]]


@dataclass
class ModelDimensions:
    n_mels: int = 16
    n_audio_ctx: int = 32
    n_audio_state: int = 64
    n_audio_head: int = 4
    n_audio_layer: int = 2
    n_vocab: int = 48
    n_text_ctx: int = 32
    n_text_state: int = 64
    n_text_head: int = 4
    n_text_layer: int = 2


def sinusoids(length: int, channels: int, max_timescale: int = 10000) -> torch.Tensor:
    """Returns sinusoids for positional embedding."""
    assert channels % 2 == 0
    log_timescale_increment = math.log(max_timescale) / (channels // 2 - 1)
    inv_timescales = torch.exp(-log_timescale_increment * torch.arange(channels // 2))
    scaled_time = torch.arange(length)[:, None] * inv_timescales[None, :]
    return torch.cat([torch.sin(scaled_time), torch.cos(scaled_time)], dim=1)


class MultiHeadAttention(nn.Module):
    def __init__(self, n_state: int, n_head: int) -> None:
        super().__init__()
        self.n_head = n_head
        self.query = nn.Linear(n_state, n_state)
        self.key = nn.Linear(n_state, n_state, bias=False)
        self.value = nn.Linear(n_state, n_state)
        self.out = nn.Linear(n_state, n_state)

    def project_kv(self, x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        return self.key(x), self.value(x)

    def forward(
        self,
        x: torch.Tensor,
        k: torch.Tensor,
        v: torch.Tensor,
        mask: Optional[torch.Tensor] = None,
    ) -> torch.Tensor:
        q = self.query(x)
        n_batch, n_ctx, n_state = q.shape
        head_dim = n_state // self.n_head
        q = q.view(n_batch, n_ctx, self.n_head, head_dim).transpose(1, 2)
        k = k.view(n_batch, k.shape[1], self.n_head, head_dim).transpose(1, 2)
        v = v.view(n_batch, v.shape[1], self.n_head, head_dim).transpose(1, 2)
        scores = (q @ k.transpose(-1, -2)) / math.sqrt(head_dim)
        if mask is not None:
            scores = scores + mask[:n_ctx, : k.shape[2]]
        w = F.softmax(scores.float(), dim=-1).to(q.dtype)
        out = (w @ v).transpose(1, 2).reshape(n_batch, n_ctx, n_state)
        return self.out(out)


class EncoderBlock(nn.Module):
    def __init__(self, n_state: int, n_head: int) -> None:
        super().__init__()
        self.attn = MultiHeadAttention(n_state, n_head)
        self.attn_ln = nn.LayerNorm(n_state)
        self.mlp = nn.Sequential(nn.Linear(n_state, 4 * n_state), nn.GELU(), nn.Linear(4 * n_state, n_state))
        self.mlp_ln = nn.LayerNorm(n_state)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.attn_ln(x)
        k, v = self.attn.project_kv(h)
        x = x + self.attn(h, k, v)
        return x + self.mlp(self.mlp_ln(x))


class AudioEncoder(nn.Module):
    def __init__(self, n_mels: int, n_ctx: int, n_state: int, n_head: int, n_layer: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv1d(n_mels, n_state, kernel_size=3, padding=1)
        self.conv2 = nn.Conv1d(n_state, n_state, kernel_size=3, stride=2, padding=1)
        self.register_buffer("positional_embedding", sinusoids(n_ctx, n_state, max_timescale=10000))
        self.blocks = nn.ModuleList([EncoderBlock(n_state, n_head) for _ in range(n_layer)])
        self.ln_post = nn.LayerNorm(n_state)

    def forward(self, mel: torch.Tensor) -> torch.Tensor:
        """mel: [batch, n_mels, 2 * n_ctx] -> [batch, n_ctx, n_state]"""
        x = F.gelu(self.conv1(mel))
        x = F.gelu(self.conv2(x))
        x = x.permute(0, 2, 1)
        assert x.shape[1:] == self.positional_embedding.shape, "incorrect audio shape"
        x = x + self.positional_embedding
        for block in self.blocks:
            x = block(x)
        return self.ln_post(x)


class DecoderBlock(nn.Module):
    def __init__(self, n_state: int, n_head: int) -> None:
        super().__init__()
        self.attn = MultiHeadAttention(n_state, n_head)
        self.attn_ln = nn.LayerNorm(n_state)
        self.cross_attn = MultiHeadAttention(n_state, n_head)
        self.cross_attn_ln = nn.LayerNorm(n_state)
        self.mlp = nn.Sequential(nn.Linear(n_state, 4 * n_state), nn.GELU(), nn.Linear(4 * n_state, n_state))
        self.mlp_ln = nn.LayerNorm(n_state)

    def forward(
        self,
        x: torch.Tensor,
        xa: torch.Tensor,
        layer_idx: int,
        mask: torch.Tensor,
        kv_cache: Optional[KVCache] = None,
    ) -> torch.Tensor:
        h = self.attn_ln(x)
        k, v = self.attn.project_kv(h)
        if kv_cache is not None and layer_idx in kv_cache:
            past_k, past_v, cross_k, cross_v = kv_cache[layer_idx]
            k = torch.cat([past_k, k], dim=1)
            v = torch.cat([past_v, v], dim=1)
        else:
            # audio features do not change while decoding: project them once
            cross_k, cross_v = self.cross_attn.project_kv(xa)
        if kv_cache is not None:
            kv_cache[layer_idx] = (k, v, cross_k, cross_v)

        # queries sit at the end of the key sequence
        offset = k.shape[1] - x.shape[1]
        x = x + self.attn(h, k, v, mask=mask[offset:])
        x = x + self.cross_attn(self.cross_attn_ln(x), cross_k, cross_v)
        return x + self.mlp(self.mlp_ln(x))


class TextDecoder(nn.Module):
    def __init__(self, n_vocab: int, n_ctx: int, n_state: int, n_head: int, n_layer: int) -> None:
        super().__init__()
        self.token_embedding = nn.Embedding(n_vocab, n_state)
        self.positional_embedding = nn.Parameter(torch.empty(n_ctx, n_state).normal_(std=0.02))
        self.blocks = nn.ModuleList([DecoderBlock(n_state, n_head) for _ in range(n_layer)])
        self.ln = nn.LayerNorm(n_state)
        mask = torch.empty(n_ctx, n_ctx).fill_(-float("inf")).triu_(1)
        self.register_buffer("mask", mask, persistent=False)

    def forward(
        self,
        tokens: torch.Tensor,
        xa: torch.Tensor,
        kv_cache: Optional[KVCache] = None,
        offset: int = 0,
    ) -> torch.Tensor:
        """tokens: [batch, n_tokens]; xa: encoded audio [batch, n_audio_ctx, n_state]"""
        x = self.token_embedding(tokens) + self.positional_embedding[offset : offset + tokens.shape[-1]]
        for layer_idx, block in enumerate(self.blocks):
            x = block(x, xa, layer_idx, self.mask, kv_cache=kv_cache)
        x = self.ln(x)
        return x @ self.token_embedding.weight.to(x.dtype).T


class Whisper(nn.Module):
    def __init__(self, dims: ModelDimensions) -> None:
        super().__init__()
        self.dims = dims
        self.encoder = AudioEncoder(
            dims.n_mels, dims.n_audio_ctx, dims.n_audio_state, dims.n_audio_head, dims.n_audio_layer
        )
        self.decoder = TextDecoder(
            dims.n_vocab, dims.n_text_ctx, dims.n_text_state, dims.n_text_head, dims.n_text_layer
        )

    def embed_audio(self, mel: torch.Tensor) -> torch.Tensor:
        return self.encoder(mel)

    def forward(self, mel: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
        return self.decoder(tokens, self.encoder(mel))
