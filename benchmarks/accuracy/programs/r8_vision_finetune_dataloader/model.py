"""Tiny ResNet-style image classifier used for fine-tuning experiments."""
from dataclasses import dataclass
from typing import Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class VisionConfig:
    in_channels: int = 3
    image_size: int = 16
    stem_channels: int = 8
    stage_channels: Tuple[int, ...] = (8, 16)
    num_classes: int = 5
    head_dropout: float = 0.2
    bn_eps: float = 1e-5
    head_ln_eps: float = 1e-6
    drop_path: float = 0.1
    use_layer_scale: bool = True
    layer_scale_init: float = 0.1


def drop_path(x: torch.Tensor, p: float, training: bool) -> torch.Tensor:
    if p == 0.0 or not training:
        return x
    keep = 1.0 - p
    mask = x.new_empty((x.shape[0],) + (1,) * (x.dim() - 1)).bernoulli_(keep)
    return x * mask / keep


class ConvBNAct(nn.Module):
    def __init__(self, cin: int, cout: int, stride: int, eps: float, act: bool = True):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, kernel_size=3, stride=stride, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(cout, eps=eps)
        self.act = act

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.bn(self.conv(x))
        return F.gelu(x) if self.act else x


class ResidualBlock(nn.Module):
    def __init__(self, cin: int, cout: int, stride: int, cfg: VisionConfig):
        super().__init__()
        self.conv1 = ConvBNAct(cin, cout, stride, cfg.bn_eps)
        self.conv2 = ConvBNAct(cout, cout, 1, cfg.bn_eps, act=False)
        if stride != 1 or cin != cout:
            self.shortcut = nn.Sequential(
                nn.Conv2d(cin, cout, kernel_size=1, stride=stride, bias=False),
                nn.BatchNorm2d(cout, eps=cfg.bn_eps),
            )
        else:
            self.shortcut = nn.Identity()
        self.use_layer_scale = cfg.use_layer_scale
        self.gamma = nn.Parameter(torch.full((cout, 1, 1), cfg.layer_scale_init))
        self.drop_path_p = cfg.drop_path

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.conv2(self.conv1(x))
        if self.use_layer_scale:
            h = self.gamma * h
        h = drop_path(h, self.drop_path_p, self.training)
        return F.gelu(self.shortcut(x) + h)


class Backbone(nn.Module):
    def __init__(self, cfg: VisionConfig):
        super().__init__()
        self.stem = ConvBNAct(cfg.in_channels, cfg.stem_channels, 1, cfg.bn_eps)
        stages = []
        cin = cfg.stem_channels
        for i, cout in enumerate(cfg.stage_channels):
            stages.append(ResidualBlock(cin, cout, stride=1 if i == 0 else 2, cfg=cfg))
            cin = cout
        self.stages = nn.ModuleList(stages)
        self.out_channels = cin

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.stem(x)
        for stage in self.stages:
            x = stage(x)
        return x


class ClassifierHead(nn.Module):
    def __init__(self, in_dim: int, cfg: VisionConfig):
        super().__init__()
        self.norm = nn.LayerNorm(in_dim, eps=cfg.head_ln_eps)
        self.drop = nn.Dropout(cfg.head_dropout)
        self.fc = nn.Linear(in_dim, cfg.num_classes)

    @staticmethod
    def pool(x: torch.Tensor) -> torch.Tensor:
        # concat-free global average pool over H, W
        return x.mean(dim=(2, 3))

    def forward(self, feats: torch.Tensor) -> torch.Tensor:
        return self.fc(self.drop(self.norm(self.pool(feats))))


class ImageClassifier(nn.Module):
    def __init__(self, cfg: VisionConfig):
        super().__init__()
        self.cfg = cfg
        self.backbone = Backbone(cfg)
        self.head = ClassifierHead(self.backbone.out_channels, cfg)
        self.register_buffer("pixel_mean", torch.tensor([0.5, 0.45, 0.4]).view(1, 3, 1, 1))
        self.register_buffer("pixel_std", torch.tensor([0.25, 0.25, 0.25]).view(1, 3, 1, 1))

    def normalize(self, images: torch.Tensor) -> torch.Tensor:
        return (images - self.pixel_mean) / self.pixel_std

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        return self.head(self.backbone(self.normalize(images)))

    def freeze_early_layers(self, num_stages: int) -> None:
        """Freeze stem + the first `num_stages` residual stages (classic fine-tuning)."""
        self.backbone.stem.requires_grad_(False)
        for stage in self.backbone.stages[:num_stages]:
            stage.requires_grad_(False)
        self._frozen_stages = num_stages

    def set_frozen_bn_eval(self) -> None:
        """Keep BatchNorm running stats fixed in frozen parts of the network."""
        self.backbone.stem.eval()
        for stage in self.backbone.stages[: getattr(self, "_frozen_stages", 0)]:
            stage.eval()
