"""User and item towers for a two-tower retrieval model."""

import torch
import torch.nn as nn
import torch.nn.functional as F

USER_FEATURES = [
    {"name": "country", "vocab": 12, "dim": 4},
    {"name": "age_bucket", "vocab": 8, "dim": 4},
]

ITEM_FEATURES = [
    {"name": "item_id", "vocab": 200, "dim": 16},
    {"name": "genre", "vocab": 20, "dim": 8},
    {"name": "year_bucket", "vocab": 10, "dim": 4},
]


def build_embeddings(specs: list[dict]) -> nn.ModuleDict:
    return nn.ModuleDict({s["name"]: nn.Embedding(s["vocab"], s["dim"]) for s in specs})


def mlp(in_dim: int, hidden: list[int], out_dim: int, dropout: float = 0.0) -> nn.Sequential:
    layers = []
    for h in hidden:
        layers += [nn.Linear(in_dim, h), nn.ReLU(), nn.Dropout(dropout)]
        in_dim = h
    layers.append(nn.Linear(in_dim, out_dim))
    return nn.Sequential(*layers)


class UserTower(nn.Module):
    """Mean-pooled watch history (EmbeddingBag) + categorical user features."""

    def __init__(self, num_items: int, history_dim: int, out_dim: int, feature_specs=USER_FEATURES):
        super().__init__()
        self.feature_specs = feature_specs
        self.history = nn.EmbeddingBag(num_items, history_dim, mode="mean")
        self.embeddings = build_embeddings(feature_specs)
        in_dim = history_dim + sum(s["dim"] for s in feature_specs)
        self.mlp = mlp(in_dim, [32], out_dim, dropout=0.1)

    def forward(self, batch: dict[str, torch.Tensor]) -> torch.Tensor:
        parts = [self.history(batch["hist_ids"], batch["hist_offsets"])]
        for spec in self.feature_specs:
            parts.append(self.embeddings[spec["name"]](batch["user_" + spec["name"]]))
        return F.normalize(self.mlp(torch.cat(parts, dim=-1)), dim=-1)


class ItemTower(nn.Module):
    """Categorical item features + a few dense features (popularity, length, ...)."""

    def __init__(self, num_dense: int, out_dim: int, feature_specs=ITEM_FEATURES):
        super().__init__()
        self.feature_specs = feature_specs
        self.embeddings = build_embeddings(feature_specs)
        self.dense_norm = nn.BatchNorm1d(num_dense)
        self.dense_proj = nn.Linear(num_dense, 8)
        in_dim = 8 + sum(s["dim"] for s in feature_specs)
        self.mlp = mlp(in_dim, [32], out_dim, dropout=0.1)

    def forward(self, batch: dict[str, torch.Tensor]) -> torch.Tensor:
        parts = [emb_name_lookup(self.embeddings, spec["name"], batch) for spec in self.feature_specs]
        parts.append(F.relu(self.dense_proj(self.dense_norm(batch["item_dense"]))))
        return F.normalize(self.mlp(torch.cat(parts, dim=-1)), dim=-1)


def emb_name_lookup(embeddings: nn.ModuleDict, name: str, batch: dict[str, torch.Tensor]) -> torch.Tensor:
    return embeddings[name](batch[name])


class TwoTower(nn.Module):
    def __init__(self, num_items: int, num_dense: int, dim: int = 16):
        super().__init__()
        self.user_tower = UserTower(num_items, history_dim=16, out_dim=dim)
        self.item_tower = ItemTower(num_dense, out_dim=dim)

    def forward(self, batch: dict[str, torch.Tensor]):
        return self.user_tower(batch), self.item_tower(batch)
