"""A small BERT-like encoder with a classification head."""

from __future__ import annotations

import math

import torch
from torch import nn


class EncoderConfig:
    def __init__(self, vocab_size=200, hidden=64, heads=4, layers=2, ffn=128, max_len=32, num_labels=3,
                 dropout=0.1, layer_norm_eps=1e-12, pad_id=0):
        self.vocab_size = vocab_size
        self.hidden = hidden
        self.heads = heads
        self.layers = layers
        self.ffn = ffn
        self.max_len = max_len
        self.num_labels = num_labels
        self.dropout = dropout
        self.layer_norm_eps = layer_norm_eps
        self.pad_id = pad_id

    @property
    def head_dim(self):
        return self.hidden // self.heads


class Embeddings(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.tokens = nn.Embedding(cfg.vocab_size, cfg.hidden, padding_idx=cfg.pad_id)
        self.positions = nn.Embedding(cfg.max_len, cfg.hidden)
        self.norm = nn.LayerNorm(cfg.hidden, eps=cfg.layer_norm_eps)
        self.dropout = nn.Dropout(cfg.dropout)

    def forward(self, input_ids):
        positions = torch.arange(input_ids.shape[1], device=input_ids.device).unsqueeze(0)
        return self.dropout(self.norm(self.tokens(input_ids) + self.positions(positions)))


class SelfAttention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.heads = cfg.heads
        self.head_dim = cfg.head_dim
        self.scale = 1.0 / math.sqrt(cfg.head_dim)
        self.qkv = nn.Linear(cfg.hidden, 3 * cfg.hidden)
        self.out = nn.Linear(cfg.hidden, cfg.hidden)
        self.dropout = nn.Dropout(cfg.dropout)

    def forward(self, x, mask):
        b, t, _ = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        scores = torch.matmul(q, k.transpose(-1, -2)) * self.scale
        scores = scores.masked_fill(mask[:, None, None, :] == 0, torch.finfo(scores.dtype).min)
        probs = self.dropout(scores.softmax(dim=-1))
        context = torch.matmul(probs, v).transpose(1, 2).reshape(b, t, -1)
        return self.out(context)


class EncoderLayer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.attention = SelfAttention(cfg)
        self.attn_norm = nn.LayerNorm(cfg.hidden, eps=cfg.layer_norm_eps)
        self.ffn = nn.Sequential(nn.Linear(cfg.hidden, cfg.ffn), nn.GELU(), nn.Linear(cfg.ffn, cfg.hidden))
        self.ffn_norm = nn.LayerNorm(cfg.hidden, eps=cfg.layer_norm_eps)
        self.dropout = nn.Dropout(cfg.dropout)

    def forward(self, x, mask):
        x = self.attn_norm(x + self.dropout(self.attention(x, mask)))
        return self.ffn_norm(x + self.dropout(self.ffn(x)))


class Classifier(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.embeddings = Embeddings(cfg)
        self.layers = nn.ModuleList(EncoderLayer(cfg) for _ in range(cfg.layers))
        self.pooler = nn.Linear(cfg.hidden, cfg.hidden)
        self.dropout = nn.Dropout(cfg.dropout)
        self.head = nn.Linear(cfg.hidden, cfg.num_labels)

    def forward(self, input_ids, attention_mask=None):
        if attention_mask is None:
            attention_mask = (input_ids != self.cfg.pad_id).long()
        hidden = self.embeddings(input_ids)
        for layer in self.layers:
            hidden = layer(hidden, attention_mask)
        pooled = torch.tanh(self.pooler(hidden[:, 0]))
        return self.head(self.dropout(pooled))
