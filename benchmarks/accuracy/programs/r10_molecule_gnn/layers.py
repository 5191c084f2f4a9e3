import torch
import torch.nn as nn

LAYER_REGISTRY = {}


def register_layer(name):
    def deco(cls):
        LAYER_REGISTRY[name] = cls
        cls.kind = name
        return cls
    return deco


def scatter(src, index, dim_size, reduce="sum"):
    out = src.new_zeros(dim_size, src.size(-1))
    out.index_add_(0, index, src)
    if reduce == "mean":
        count = src.new_zeros(dim_size).index_add_(0, index, src.new_ones(index.size(0)))
        out = out / count.clamp(min=1.0).unsqueeze(-1)
    return out


@register_layer("gine")
class GINEConv(nn.Module):
    def __init__(self, hidden_dim, num_edge_types, aggregation="sum", dropout=0.0, eps=1e-5):
        super().__init__()
        self.edge_emb = nn.Embedding(num_edge_types, hidden_dim)
        self.mlp = nn.Sequential(
            nn.Linear(hidden_dim, 2 * hidden_dim),
            nn.SiLU(),
            nn.Linear(2 * hidden_dim, hidden_dim),
        )
        self.self_weight = nn.Parameter(torch.zeros(1))
        self.aggregation = aggregation
        self.norm = nn.LayerNorm(hidden_dim, eps=eps)
        self.dropout = nn.Dropout(dropout)

    def forward(self, h, edge_index, edge_type):
        src, dst = edge_index[0], edge_index[1]
        msg = torch.relu(h[src] + self.edge_emb(edge_type))
        agg = scatter(msg, dst, h.size(0), self.aggregation)
        out = self.mlp((1.0 + self.self_weight) * h + agg)
        return self.norm(h + self.dropout(out))


@register_layer("gated")
class GatedConv(nn.Module):
    def __init__(self, hidden_dim, num_edge_types, aggregation="sum", dropout=0.0, eps=1e-5):
        super().__init__()
        self.edge_emb = nn.Embedding(num_edge_types, hidden_dim)
        self.gate = nn.Linear(3 * hidden_dim, hidden_dim)
        self.value = nn.Linear(hidden_dim, hidden_dim)
        self.update = nn.Linear(2 * hidden_dim, hidden_dim)
        self.aggregation = aggregation
        self.norm = nn.LayerNorm(hidden_dim, eps=eps)
        self.dropout = nn.Dropout(dropout)

    def forward(self, h, edge_index, edge_type):
        src, dst = edge_index[0], edge_index[1]
        e = self.edge_emb(edge_type)
        g = torch.sigmoid(self.gate(torch.cat([h[src], h[dst], e], dim=-1)))
        msg = g * self.value(h[src])
        agg = scatter(msg, dst, h.size(0), self.aggregation)
        out = self.update(torch.cat([h, agg], dim=-1))
        return self.norm(h + self.dropout(torch.nn.functional.gelu(out)))


class VirtualNode(nn.Module):
    """A global node that reads from and broadcasts to every node of its graph."""

    def __init__(self, hidden_dim):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(hidden_dim, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, hidden_dim))

    def forward(self, h, vn, batch, num_graphs):
        pooled = scatter(h, batch, num_graphs, "sum")
        vn = vn + self.mlp(pooled + vn)
        return h + vn[batch], vn
