import torch
import torch.nn as nn

from .layers import EncoderBlock, MaskedMeanPool, make_activation


class TaskHead(nn.Module):
    def __init__(self, in_dim, hidden, out_dim, activation, dropout):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(in_dim, hidden),
            nn.BatchNorm1d(hidden),
            make_activation(activation),
            nn.Dropout(dropout),
            nn.Linear(hidden, out_dim),
        )

    def forward(self, h):
        return self.net(h)


class MultiTaskNet(nn.Module):
    """Shared encoder over (numeric features, categorical event sequence) + per-task heads."""

    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.cat_embed = nn.Embedding(cfg.num_categories, cfg.cat_dim)
        self.seq_proj = nn.Linear(cfg.cat_dim, cfg.d_model)
        self.pos = nn.Parameter(torch.zeros(1, cfg.seq_len, cfg.d_model))
        self.num_proj = nn.Sequential(
            nn.Linear(cfg.num_numeric, cfg.d_model),
            nn.LayerNorm(cfg.d_model),
            make_activation(cfg.activation),
        )
        self.blocks = nn.ModuleList([EncoderBlock(cfg) for _ in range(cfg.n_layers)])
        self.ln_f = nn.LayerNorm(cfg.d_model)
        self.pool = MaskedMeanPool()
        self.heads = nn.ModuleDict({
            name: TaskHead(2 * cfg.d_model, cfg.head_hidden, spec.out_dim,
                           cfg.activation, cfg.dropout)
            for name, spec in cfg.tasks.items()
        })
        self.calls = 0

    @property
    def num_params(self):
        return sum(p.numel() for p in self.parameters())

    def encode(self, numeric, cats, mask):
        x = self.seq_proj(self.cat_embed(cats)) + self.pos[:, : cats.shape[1]]
        for blk in self.blocks:
            x = blk(x, mask)
        seq = self.pool(self.ln_f(x), mask)
        return torch.cat([seq, self.num_proj(numeric)], dim=-1)

    def forward(self, numeric, cats, mask, task):
        self.calls += 1
        h = self.encode(numeric, cats, mask)
        out = self.heads[task](h)
        if self.cfg.tasks[task].kind != "cls":
            out = out.squeeze(-1)
        return out
