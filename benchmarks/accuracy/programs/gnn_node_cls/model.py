"""Stacked GNN for node classification."""

from __future__ import annotations

from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import LAYER_TYPES, GCNLayer, SAGELayer

ACTIVATIONS = {
    "relu": nn.ReLU,
    "gelu": nn.GELU,
    "elu": nn.ELU,
    "leaky_relu": nn.LeakyReLU,
}


class GNN(nn.Module):
    def __init__(
        self,
        in_dim: int,
        hidden_dim: int,
        num_classes: int,
        num_layers: int = 3,
        layer_type: str = "sage",
        aggr: str = "mean",
        activation: str = "relu",
        dropout: float = 0.5,
        residual: bool = True,
        norm: Optional[str] = "layer",
    ):
        super().__init__()
        self.dropout = dropout
        self.residual = residual
        self.input_proj = nn.Linear(in_dim, hidden_dim)

        layer_cls = LAYER_TYPES[layer_type]
        self.convs = nn.ModuleList()
        self.norms = nn.ModuleList()
        for i in range(num_layers):
            if layer_cls is SAGELayer:
                # only l2-normalise the last hidden layer, as in the GraphSAGE paper
                conv = SAGELayer(hidden_dim, hidden_dim, aggr=aggr, normalize=(i == num_layers - 1))
            else:
                conv = GCNLayer(hidden_dim, hidden_dim)
            self.convs.append(conv)
            self.norms.append(nn.LayerNorm(hidden_dim) if norm == "layer" else nn.Identity())
        self.act = ACTIVATIONS[activation]()
        self.classifier = nn.Linear(hidden_dim, num_classes)

    def forward(self, x: torch.Tensor, edge_index: torch.Tensor) -> torch.Tensor:
        h = self.input_proj(x)
        h = F.dropout(h, p=self.dropout, training=self.training)
        for conv, norm in zip(self.convs, self.norms):
            out = self.act(norm(conv(h, edge_index)))
            out = F.dropout(out, p=self.dropout, training=self.training)
            h = h + out if self.residual else out
        return self.classifier(h)

    def embed(self, x: torch.Tensor, edge_index: torch.Tensor) -> torch.Tensor:
        h = self.input_proj(x)
        for conv, norm in zip(self.convs, self.norms):
            out = self.act(norm(conv(h, edge_index)))
            h = h + out if self.residual else out
        return h
