"""Message-passing layers written with plain index_add_ / scatter_add_."""

from __future__ import annotations

import torch
import torch.nn as nn


def add_self_loops(edge_index: torch.Tensor, num_nodes: int) -> torch.Tensor:
    loops = torch.arange(num_nodes, device=edge_index.device)
    loops = torch.stack([loops, loops], dim=0)
    return torch.cat([edge_index, loops], dim=1)


def degree(index: torch.Tensor, num_nodes: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    out = torch.zeros(num_nodes, dtype=dtype, device=index.device)
    return out.scatter_add_(0, index, torch.ones_like(index, dtype=dtype))


class GCNLayer(nn.Module):
    """Kipf & Welling GCN: D^-1/2 (A + I) D^-1/2 X W."""

    def __init__(self, in_dim: int, out_dim: int, self_loops: bool = True, bias: bool = True):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim, bias=False)
        self.self_loops = self_loops
        self.bias = nn.Parameter(torch.zeros(out_dim)) if bias else None

    def forward(self, x: torch.Tensor, edge_index: torch.Tensor) -> torch.Tensor:
        num_nodes = x.size(0)
        if self.self_loops:
            edge_index = add_self_loops(edge_index, num_nodes)
        src, dst = edge_index[0], edge_index[1]

        deg = degree(dst, num_nodes, dtype=x.dtype)
        deg_inv_sqrt = deg.pow(-0.5)
        deg_inv_sqrt = deg_inv_sqrt.masked_fill(torch.isinf(deg_inv_sqrt), 0.0)
        norm = deg_inv_sqrt[src] * deg_inv_sqrt[dst]

        h = self.lin(x)
        msg = h[src] * norm.unsqueeze(-1)
        out = torch.zeros_like(h).index_add_(0, dst, msg)
        if self.bias is not None:
            out = out + self.bias
        return out


class SAGELayer(nn.Module):
    """GraphSAGE-style layer: combine self features with aggregated neighbours."""

    def __init__(self, in_dim: int, out_dim: int, aggr: str = "mean", normalize: bool = False):
        super().__init__()
        if aggr not in ("mean", "sum", "max"):
            raise ValueError(f"unsupported aggregation: {aggr}")
        self.aggr = aggr
        self.normalize = normalize
        self.lin_self = nn.Linear(in_dim, out_dim)
        self.lin_neigh = nn.Linear(in_dim, out_dim, bias=False)

    def aggregate(self, x: torch.Tensor, edge_index: torch.Tensor) -> torch.Tensor:
        src, dst = edge_index[0], edge_index[1]
        msg = x[src]
        num_nodes, dim = x.shape
        if self.aggr == "max":
            out = torch.full((num_nodes, dim), float("-inf"), dtype=x.dtype, device=x.device)
            idx = dst.unsqueeze(-1).expand(-1, dim)
            out = out.scatter_reduce(0, idx, msg, reduce="amax", include_self=True)
            return out.masked_fill(torch.isinf(out), 0.0)
        out = torch.zeros_like(x).index_add_(0, dst, msg)
        if self.aggr == "mean":
            cnt = degree(dst, num_nodes, dtype=x.dtype).clamp(min=1.0)
            out = out / cnt.unsqueeze(-1)
        return out

    def forward(self, x: torch.Tensor, edge_index: torch.Tensor) -> torch.Tensor:
        neigh = self.aggregate(x, edge_index)
        out = self.lin_self(x) + self.lin_neigh(neigh)
        if self.normalize:
            out = nn.functional.normalize(out, p=2.0, dim=-1)
        return out

    def extra_repr(self) -> str:
        return f"aggr={self.aggr!r}, normalize={self.normalize}"


LAYER_TYPES = {"gcn": GCNLayer, "sage": SAGELayer}
