"""Character-level language model built on a hand-rolled LSTM cell.

The recurrent cell is written from plain nn.Linear layers and unrolled over
time in ``forward`` so that the whole sequence is visible to the compiler.
"""
import json
import math
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class CharRNNConfig:
    vocab_size: int = 32
    embed_dim: int = 24
    hidden_dim: int = 32
    num_layers: int = 2
    dropout: float = 0.1
    forget_bias: float = 1.0
    layer_norm_gates: bool = True
    ln_eps: float = 1e-5
    head_mult: int = 2
    tie_embeddings: bool = False
    extra: dict = field(default_factory=dict)

    @classmethod
    def from_json(cls, text):
        raw = json.loads(text)
        known = {k: v for k, v in raw.items() if k in cls.__dataclass_fields__}
        extra = {k: v for k, v in raw.items() if k not in cls.__dataclass_fields__}
        cfg = cls(**known)
        cfg.extra.update(extra)
        return cfg


def split_gates(gates, hidden_dim):
    # order: input, forget, cell candidate, output
    return gates.split(hidden_dim, dim=-1)


def lstm_update(gates, c_prev, forget_bias):
    i, f, g, o = split_gates(gates, c_prev.shape[-1])
    i = torch.sigmoid(i)
    f = torch.sigmoid(f + forget_bias)
    g = torch.tanh(g)
    o = torch.sigmoid(o)
    c = f * c_prev + i * g
    h = o * torch.tanh(c)
    return h, c


class FreeLSTMCell(nn.Module):
    """LSTM cell built from two linear maps, optional layer norm on the gates."""

    def __init__(self, input_dim, hidden_dim, forget_bias=1.0, layer_norm=True, eps=1e-5):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.forget_bias = forget_bias
        self.use_ln = layer_norm
        self.eps = eps
        self.x2h = nn.Linear(input_dim, 4 * hidden_dim)
        self.h2h = nn.Linear(hidden_dim, 4 * hidden_dim, bias=False)
        if layer_norm:
            self.gate_norm = nn.LayerNorm(4 * hidden_dim, eps=eps)
            self.cell_norm = nn.LayerNorm(hidden_dim, eps=eps)
        self.reset_parameters()

    def reset_parameters(self):
        std = 1.0 / math.sqrt(self.hidden_dim)
        for w in (self.x2h.weight, self.h2h.weight):
            nn.init.uniform_(w, -std, std)
        nn.init.zeros_(self.x2h.bias)

    def forward(self, x, state):
        h_prev, c_prev = state
        gates = self.x2h(x) + self.h2h(h_prev)
        if self.use_ln:
            gates = self.gate_norm(gates)
        h, c = lstm_update(gates, c_prev, self.forget_bias)
        if self.use_ln:
            h = torch.sigmoid(gates[..., 3 * self.hidden_dim:]) * torch.tanh(self.cell_norm(c))
        return h, c


class GatedHead(nn.Module):
    """Small gated MLP in front of the vocabulary projection."""

    def __init__(self, dim, mult, dropout, eps):
        super().__init__()
        inner = dim * mult
        self.norm = nn.LayerNorm(dim, eps=eps)
        self.up = nn.Linear(dim, 2 * inner)
        self.down = nn.Linear(inner, dim)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        a, b = self.up(self.norm(x)).chunk(2, dim=-1)
        return x + self.drop(self.down(F.silu(a) * b))


class CharRNN(nn.Module):
    def __init__(self, cfg: CharRNNConfig):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.vocab_size, cfg.embed_dim)
        self.in_drop = nn.Dropout(cfg.dropout)
        dims = [cfg.embed_dim] + [cfg.hidden_dim] * cfg.num_layers
        self.cells = nn.ModuleList(
            FreeLSTMCell(dims[i], cfg.hidden_dim, cfg.forget_bias, cfg.layer_norm_gates, cfg.ln_eps)
            for i in range(cfg.num_layers)
        )
        self.layer_drop = nn.Dropout(cfg.dropout)
        self.head = GatedHead(cfg.hidden_dim, cfg.head_mult, cfg.dropout, cfg.ln_eps)
        self.out_norm = nn.LayerNorm(cfg.hidden_dim, eps=cfg.ln_eps)
        self.lm_head = nn.Linear(cfg.hidden_dim, cfg.vocab_size, bias=False)
        self.logit_scale = 1.0 / math.sqrt(cfg.hidden_dim) * cfg.extra.get("logit_mult", 4.0)
        self.residual = cfg.extra.get("residual_layers", True)
        self.steps = 0

    def init_state(self, batch_size, device=None):
        z = torch.zeros(batch_size, self.cfg.hidden_dim, device=device)
        return [(z, z) for _ in self.cells]

    def step(self, x_t, state):
        """One time step through all layers. x_t: [B, embed_dim]."""
        new_state = []
        inp = x_t
        for li, cell in enumerate(self.cells):
            h, c = cell(inp, state[li])
            new_state.append((h, c))
            out = self.layer_drop(h)
            if self.residual and li > 0:
                out = out + inp
            inp = out
        return inp, new_state

    def project(self, h):
        h = self.head(h)
        return self.lm_head(self.out_norm(h)) * self.logit_scale

    def forward(self, tokens, state=None):
        bsz, seq_len = tokens.shape
        if state is None:
            state = self.init_state(bsz, tokens.device)
        emb = self.in_drop(self.embed(tokens))
        outs = []
        for t in range(seq_len):
            h, state = self.step(emb[:, t], state)
            outs.append(h)
        hs = torch.stack(outs, dim=1)
        return self.project(hs), state


def sequence_loss(logits, targets, label_smoothing=0.0):
    return F.cross_entropy(
        logits.reshape(-1, logits.size(-1)), targets.reshape(-1), label_smoothing=label_smoothing
    )
