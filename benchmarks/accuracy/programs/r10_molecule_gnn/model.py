import torch
import torch.nn as nn

from config import ModelConfig
from layers import LAYER_REGISTRY, VirtualNode, scatter


class MoleculeMPNN(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.cfg = cfg
        self.encoder = nn.Sequential(nn.Linear(cfg.node_feat_dim, cfg.hidden_dim), nn.SiLU())
        layer_cls = LAYER_REGISTRY[cfg.layer_kind]
        self.layers = nn.ModuleList([
            layer_cls(cfg.hidden_dim, cfg.num_edge_types, cfg.aggregation, cfg.dropout, cfg.norm_eps)
            for _ in range(cfg.num_layers)
        ])
        self.use_virtual_node = cfg.use_virtual_node
        if self.use_virtual_node:
            self.vn_init = nn.Parameter(torch.zeros(1, cfg.hidden_dim))
            self.vn_layers = nn.ModuleList([VirtualNode(cfg.hidden_dim) for _ in range(cfg.num_layers - 1)])
        self.readout = cfg.readout
        self.head = nn.ModuleDict({
            "proj": nn.Linear(cfg.hidden_dim, cfg.hidden_dim),
            "out": nn.Linear(cfg.hidden_dim, 1),
        })

    @property
    def num_parameters(self):
        return sum(p.numel() for p in self.parameters())

    def pool(self, h, batch, num_graphs):
        return scatter(h, batch, num_graphs, self.readout)

    def forward(self, x, edge_index, edge_type, batch, num_graphs: int):
        h = self.encoder(x)
        vn = self.vn_init.expand(num_graphs, -1) if self.use_virtual_node else None
        for i, layer in enumerate(self.layers):
            h = layer(h, edge_index, edge_type)
            if self.use_virtual_node and i < len(self.layers) - 1:
                h, vn = self.vn_layers[i](h, vn, batch, num_graphs)
        g = self.pool(h, batch, num_graphs)
        g = torch.nn.functional.silu(self.head["proj"](g))
        return self.head["out"](g).squeeze(-1)
