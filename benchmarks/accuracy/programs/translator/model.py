"""An encoder-decoder Transformer for sequence-to-sequence translation."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn


@dataclass
class Seq2SeqConfig:
    src_vocab: int = 120
    tgt_vocab: int = 110
    d_model: int = 64
    nhead: int = 4
    num_encoder_layers: int = 2
    num_decoder_layers: int = 2
    dim_feedforward: int = 128
    dropout: float = 0.1
    max_len: int = 64
    pad_idx: int = 0
    share_embeddings: bool = False


class PositionalEncoding(nn.Module):
    def __init__(self, d_model: int, max_len: int, dropout: float):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, d_model)
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):
        return self.dropout(x + self.pe[: x.size(1)])


class EncoderBlock(nn.Module):
    def __init__(self, cfg: Seq2SeqConfig):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(cfg.d_model, cfg.nhead, dropout=cfg.dropout, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(cfg.d_model, cfg.dim_feedforward), nn.ReLU(),
                                nn.Linear(cfg.dim_feedforward, cfg.d_model))
        self.norm1 = nn.LayerNorm(cfg.d_model)
        self.norm2 = nn.LayerNorm(cfg.d_model)
        self.dropout = nn.Dropout(cfg.dropout)

    def forward(self, x, pad_mask):
        x = self.norm1(x + self.dropout(self.self_attn(x, x, x, key_padding_mask=pad_mask)[0]))
        return self.norm2(x + self.dropout(self.ff(x)))


class DecoderBlock(nn.Module):
    def __init__(self, cfg: Seq2SeqConfig):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(cfg.d_model, cfg.nhead, dropout=cfg.dropout, batch_first=True)
        self.cross_attn = nn.MultiheadAttention(cfg.d_model, cfg.nhead, dropout=cfg.dropout, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(cfg.d_model, cfg.dim_feedforward), nn.ReLU(),
                                nn.Linear(cfg.dim_feedforward, cfg.d_model))
        self.norms = nn.ModuleList([nn.LayerNorm(cfg.d_model) for _ in range(3)])
        self.dropout = nn.Dropout(cfg.dropout)

    def forward(self, y, memory, causal_mask, memory_pad_mask):
        y = self.norms[0](y + self.dropout(self.self_attn(y, y, y, attn_mask=causal_mask)[0]))
        y = self.norms[1](y + self.dropout(self.cross_attn(y, memory, memory,
                                                           key_padding_mask=memory_pad_mask)[0]))
        return self.norms[2](y + self.dropout(self.ff(y)))


class Translator(nn.Module):
    def __init__(self, cfg: Seq2SeqConfig):
        super().__init__()
        self.cfg = cfg
        self.src_embed = nn.Embedding(cfg.src_vocab, cfg.d_model, padding_idx=cfg.pad_idx)
        self.tgt_embed = self.src_embed if cfg.share_embeddings else nn.Embedding(cfg.tgt_vocab, cfg.d_model)
        self.pos = PositionalEncoding(cfg.d_model, cfg.max_len, cfg.dropout)
        self.encoder = nn.ModuleList([EncoderBlock(cfg) for _ in range(cfg.num_encoder_layers)])
        self.decoder = nn.ModuleList([DecoderBlock(cfg) for _ in range(cfg.num_decoder_layers)])
        self.generator = nn.Linear(cfg.d_model, cfg.tgt_vocab)
        self.embed_scale = math.sqrt(cfg.d_model)

    def encode(self, src):
        pad_mask = src == self.cfg.pad_idx
        x = self.pos(self.src_embed(src) * self.embed_scale)
        for block in self.encoder:
            x = block(x, pad_mask)
        return x, pad_mask

    def decode(self, tgt, memory, memory_pad_mask):
        t = tgt.size(1)
        causal = torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1)
        y = self.pos(self.tgt_embed(tgt) * self.embed_scale)
        for block in self.decoder:
            y = block(y, memory, causal, memory_pad_mask)
        return self.generator(y)

    def forward(self, src, tgt):
        memory, pad_mask = self.encode(src)
        return self.decode(tgt, memory, pad_mask)
