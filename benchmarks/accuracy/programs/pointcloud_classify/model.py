"""PointNet-style classifier with an input T-Net and a DGCNN edge-conv block."""

from __future__ import annotations

from typing import Optional, Sequence, Tuple

import torch
import torch.nn as nn


class SharedMLP(nn.Sequential):
    """Point-wise MLP implemented as 1x1 convolutions over [B, C, N]."""

    def __init__(self, channels: Sequence[int], last_act: bool = True) -> None:
        layers = []
        for i in range(len(channels) - 1):
            layers.append(nn.Conv1d(channels[i], channels[i + 1], kernel_size=1, bias=False))
            layers.append(nn.BatchNorm1d(channels[i + 1]))
            if i < len(channels) - 2 or last_act:
                layers.append(nn.ReLU(inplace=True))
        super().__init__(*layers)


class TNet(nn.Module):
    """Predicts a k x k alignment matrix, initialised around the identity."""

    def __init__(self, k: int = 3, mlp: Tuple[int, ...] = (32, 64), fc: Tuple[int, ...] = (32,)) -> None:
        super().__init__()
        self.k = k
        self.mlp = SharedMLP((k,) + mlp)
        fc_layers = []
        in_dim = mlp[-1]
        for width in fc:
            fc_layers += [nn.Linear(in_dim, width), nn.BatchNorm1d(width), nn.ReLU(inplace=True)]
            in_dim = width
        self.fc = nn.Sequential(*fc_layers)
        self.out = nn.Linear(in_dim, k * k)
        nn.init.zeros_(self.out.weight)
        nn.init.zeros_(self.out.bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch_size = x.size(0)
        feat = self.mlp(x).max(dim=2)[0]
        mat = self.out(self.fc(feat)).view(batch_size, self.k, self.k)
        identity = torch.eye(self.k, dtype=x.dtype, device=x.device)
        return mat + identity


def knn(x: torch.Tensor, k: int) -> torch.Tensor:
    """Indices of the k nearest neighbours of every point. x: [B, C, N] -> [B, N, k]."""
    inner = -2 * torch.matmul(x.transpose(2, 1), x)
    xx = torch.sum(x**2, dim=1, keepdim=True)
    pairwise_distance = -xx - inner - xx.transpose(2, 1)
    return pairwise_distance.topk(k=k, dim=-1)[1]


def get_graph_feature(x: torch.Tensor, k: int, idx: Optional[torch.Tensor] = None) -> torch.Tensor:
    """Edge features [x_j - x_i, x_i] for each of the k neighbours: [B, 2C, N, k]."""
    batch_size, num_dims, num_points = x.size()
    if idx is None:
        idx = knn(x, k=k)
    idx_base = torch.arange(0, batch_size, device=x.device).view(-1, 1, 1) * num_points
    idx = (idx + idx_base).view(-1)
    x = x.transpose(2, 1).contiguous()
    feature = x.view(batch_size * num_points, -1)[idx, :]
    feature = feature.view(batch_size, num_points, k, num_dims)
    x = x.view(batch_size, num_points, 1, num_dims).repeat(1, 1, k, 1)
    return torch.cat((feature - x, x), dim=3).permute(0, 3, 1, 2).contiguous()


class EdgeConv(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, k: int = 8, negative_slope: float = 0.2) -> None:
        super().__init__()
        self.k = k
        self.conv = nn.Sequential(
            nn.Conv2d(in_channels * 2, out_channels, kernel_size=1, bias=False),
            nn.BatchNorm2d(out_channels),
            nn.LeakyReLU(negative_slope),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = get_graph_feature(x, k=self.k)
        return self.conv(x).max(dim=-1, keepdim=False)[0]


class PointCloudClassifier(nn.Module):
    def __init__(
        self,
        num_classes: int,
        k: int = 8,
        feature_transform: bool = True,
        mlp1: Tuple[int, ...] = (3, 32, 32),
        mlp2: Tuple[int, ...] = (64, 128),
        dropout: float = 0.3,
    ) -> None:
        super().__init__()
        self.feature_transform = feature_transform
        self.input_transform = TNet(k=3)
        self.mlp1 = SharedMLP(mlp1)
        self.feat_tnet = TNet(k=mlp1[-1]) if feature_transform else None
        self.edge_conv = EdgeConv(mlp1[-1], mlp2[0], k=k)
        self.mlp2 = SharedMLP(mlp2)
        self.head = nn.Sequential(
            nn.Linear(mlp2[-1], 64),
            nn.BatchNorm1d(64),
            nn.ReLU(inplace=True),
            nn.Dropout(dropout),
            nn.Linear(64, num_classes),
        )

    def forward(self, points: torch.Tensor) -> Tuple[torch.Tensor, Optional[torch.Tensor]]:
        # points: [B, N, 3]
        x = points.transpose(1, 2)
        trans = self.input_transform(x)
        x = torch.bmm(trans.transpose(1, 2), x)
        x = self.mlp1(x)
        trans_feat = None
        if self.feat_tnet is not None:
            trans_feat = self.feat_tnet(x)
            x = torch.bmm(trans_feat.transpose(1, 2), x)
        x = self.edge_conv(x)
        x = self.mlp2(x)
        x = torch.max(x, dim=2)[0]  # global max pooling, order invariant
        return self.head(x), trans_feat


def feature_transform_regularizer(trans: torch.Tensor) -> torch.Tensor:
    """Encourage the feature transform to stay close to orthogonal."""
    d = trans.size(1)
    identity = torch.eye(d, device=trans.device, dtype=trans.dtype)[None, :, :]
    diff = torch.bmm(trans, trans.transpose(2, 1)) - identity
    return torch.mean(torch.norm(diff, dim=(1, 2)))
