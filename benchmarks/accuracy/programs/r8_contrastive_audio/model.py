"""Small waveform encoder for contrastive (SimCLR / CLAP-style) pretraining.

conv feature extractor -> (optional) conv positional embedding -> transformer
blocks (hand-written attention + gated MLP) -> attentive pooling -> projection.
"""
import json
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class AudioEncoderConfig:
    """Plain config object, built from a dict (usually parsed from JSON)."""

    defaults = {
        "conv_channels": [16, 32],
        "conv_kernels": [10, 4],
        "conv_strides": [5, 2],
        "dim": 32,
        "num_heads": 4,
        "num_layers": 2,
        "mlp_ratio": 2.0,
        "dropout": 0.1,
        "attn_dropout": 0.0,
        "pos_conv_kernel": 9,
        "proj_dim": 16,
        "norm_eps": 1e-5,
        "l2_eps": 1e-6,
        "pre_norm": True,
        "layer_scale": 0.1,
        "use_pos_conv": False,
    }

    def __init__(self, **overrides):
        values = dict(self.defaults)
        unknown = set(overrides) - set(values)
        if unknown:
            raise KeyError(f"unknown config keys: {sorted(unknown)}")
        values.update(overrides)
        for k, v in values.items():
            setattr(self, k, v)

    @classmethod
    def from_json(cls, text, section="model"):
        return cls(**json.loads(text)[section])

    def to_dict(self):
        return {k: getattr(self, k) for k in self.defaults}


def conv_out_length(length, kernels, strides):
    for k, s in zip(kernels, strides):
        length = (length - k) // s + 1
    return length


class FeatureExtractor(nn.Module):
    """wav2vec2-style conv stack: group norm on the first layer only."""

    def __init__(self, cfg):
        super().__init__()
        layers = []
        in_ch = 1
        for i, (ch, k, s) in enumerate(zip(cfg.conv_channels, cfg.conv_kernels, cfg.conv_strides)):
            layers.append(nn.Conv1d(in_ch, ch, k, stride=s, bias=False))
            if i == 0:
                layers.append(nn.GroupNorm(ch, ch, eps=cfg.norm_eps))
            layers.append(nn.GELU())
            in_ch = ch
        self.convs = nn.Sequential(*layers)
        self.feat_norm = nn.LayerNorm(in_ch, eps=cfg.norm_eps)
        self.proj = nn.Linear(in_ch, cfg.dim)
        self.drop = nn.Dropout(cfg.dropout)

    def forward(self, wav):
        # wav: [B, T] -> [B, frames, dim]
        x = self.convs(wav.unsqueeze(1)).transpose(1, 2)
        return self.drop(self.proj(self.feat_norm(x)))


class ConvPositionalEmbedding(nn.Module):
    def __init__(self, dim, kernel):
        super().__init__()
        self.conv = nn.Conv1d(dim, dim, kernel, padding=kernel // 2, groups=4)

    def forward(self, x):
        return x + F.gelu(self.conv(x.transpose(1, 2))).transpose(1, 2)


def split_heads(x, num_heads):
    b, t, d = x.shape
    return x.view(b, t, num_heads, d // num_heads).transpose(1, 2)


def merge_heads(x):
    b, h, t, hd = x.shape
    return x.transpose(1, 2).reshape(b, t, h * hd)


class SelfAttention(nn.Module):
    def __init__(self, dim, num_heads, attn_dropout, dropout):
        super().__init__()
        assert dim % num_heads == 0
        self.num_heads = num_heads
        self.scale = (dim // num_heads) ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.attn_drop = nn.Dropout(attn_dropout)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (split_heads(t, self.num_heads) for t in (q, k, v))
        scores = torch.matmul(q, k.transpose(-2, -1)) * self.scale
        attn = self.attn_drop(scores.softmax(dim=-1))
        return self.drop(self.out(merge_heads(torch.matmul(attn, v))))


class GatedMLP(nn.Module):
    def __init__(self, dim, ratio, dropout):
        super().__init__()
        hidden = int(dim * ratio)
        self.gate_up = nn.Linear(dim, 2 * hidden)
        self.down = nn.Linear(hidden, dim)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        gate, up = self.gate_up(x).chunk(2, dim=-1)
        return self.drop(self.down(F.gelu(gate) * up))


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.pre_norm = cfg.pre_norm
        self.norm1 = nn.LayerNorm(cfg.dim, eps=cfg.norm_eps)
        self.norm2 = nn.LayerNorm(cfg.dim, eps=cfg.norm_eps)
        self.attn = SelfAttention(cfg.dim, cfg.num_heads, cfg.attn_dropout, cfg.dropout)
        self.mlp = GatedMLP(cfg.dim, cfg.mlp_ratio, cfg.dropout)
        self.gamma1 = nn.Parameter(torch.full((cfg.dim,), cfg.layer_scale))
        self.gamma2 = nn.Parameter(torch.full((cfg.dim,), cfg.layer_scale))

    def forward(self, x):
        if self.pre_norm:
            x = x + self.gamma1 * self.attn(self.norm1(x))
            x = x + self.gamma2 * self.mlp(self.norm2(x))
        else:
            x = self.norm1(x + self.gamma1 * self.attn(x))
            x = self.norm2(x + self.gamma2 * self.mlp(x))
        return x


class AttentivePool(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.score = nn.Linear(dim, 1)

    def forward(self, x):
        w = self.score(x).squeeze(-1).softmax(dim=-1)
        return torch.einsum("bt,btd->bd", w, x)


class ContrastiveAudioEncoder(nn.Module):
    def __init__(self, cfg: AudioEncoderConfig):
        super().__init__()
        self.cfg = cfg
        self.features = FeatureExtractor(cfg)
        self.use_pos_conv = cfg.use_pos_conv
        if self.use_pos_conv:
            self.pos = ConvPositionalEmbedding(cfg.dim, cfg.pos_conv_kernel)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.num_layers))
        self.final_norm = nn.LayerNorm(cfg.dim, eps=cfg.norm_eps)
        self.pool = AttentivePool(cfg.dim)
        self.projector = nn.Sequential(
            nn.Linear(cfg.dim, cfg.dim),
            nn.GELU(),
            nn.Linear(cfg.dim, cfg.proj_dim),
        )
        self.l2_eps = cfg.l2_eps
        self.steps = 0

    def encode(self, wav):
        x = self.features(wav)
        if self.use_pos_conv:
            x = self.pos(x)
        for blk in self.blocks:
            x = blk(x)
        return self.pool(self.final_norm(x))

    def forward(self, wav, return_hidden=False):
        h = self.encode(wav)
        z = F.normalize(self.projector(h), dim=-1, eps=self.l2_eps)
        if return_hidden:
            return z, h
        return z


def info_nce(z_a, z_b, temperature):
    """Symmetric InfoNCE over a batch of paired, L2-normalised embeddings."""
    logits = z_a @ z_b.t() / temperature
    targets = torch.arange(z_a.size(0), device=z_a.device)
    loss = 0.5 * (F.cross_entropy(logits, targets) + F.cross_entropy(logits.t(), targets))
    acc = (logits.argmax(dim=-1) == targets).float().mean()
    return loss, acc
