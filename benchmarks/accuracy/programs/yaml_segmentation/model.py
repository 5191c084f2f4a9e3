"""A small U-Net whose blocks are assembled from the nested config dicts."""

from __future__ import annotations

import torch
import torch.nn as nn
import torch.nn.functional as F


def make_norm(kind: str, channels: int, cfg: dict) -> nn.Module:
    if kind == "bn":
        return nn.BatchNorm2d(channels, momentum=cfg.get("bn_momentum", 0.1))
    elif kind == "gn":
        groups = min(cfg.get("gn_groups", 8), channels)
        return nn.GroupNorm(groups, channels)
    elif kind in ("none", None):
        return nn.Identity()
    raise ValueError(f"unknown norm type: {kind!r}")


def make_act(cfg: dict) -> nn.Module:
    act_cls = getattr(nn, cfg.get("act", "ReLU"))
    return act_cls(**cfg.get("act_kwargs", {}))


class ConvNormAct(nn.Sequential):
    def __init__(self, in_ch: int, out_ch: int, cfg: dict, kernel_size: int = 3) -> None:
        norm = cfg.get("norm", "bn")
        super().__init__(
            nn.Conv2d(in_ch, out_ch, kernel_size, padding=kernel_size // 2, bias=norm == "none"),
            make_norm(norm, out_ch, cfg),
            make_act(cfg),
        )


class Encoder(nn.Module):
    def __init__(self, in_channels: int, cfg: dict) -> None:
        super().__init__()
        self.stages = nn.ModuleList()
        prev = in_channels
        for i, ch in enumerate(cfg["channels"]):
            layers: list[nn.Module] = [nn.MaxPool2d(2)] if i > 0 else []
            for j in range(cfg.get("blocks_per_stage", 1)):
                layers.append(ConvNormAct(prev if j == 0 else ch, ch, cfg))
                prev = ch
            self.stages.append(nn.Sequential(*layers))
        self.out_channels = list(cfg["channels"])

    def forward(self, x: torch.Tensor) -> list[torch.Tensor]:
        feats = []
        for stage in self.stages:
            x = stage(x)
            feats.append(x)
        return feats


class UpBlock(nn.Module):
    def __init__(self, in_ch: int, skip_ch: int, out_ch: int, cfg: dict) -> None:
        super().__init__()
        self.mode = cfg.get("upsample", "bilinear")
        if self.mode == "transposed":
            self.up = nn.ConvTranspose2d(in_ch, in_ch, kernel_size=2, stride=2)
        self.conv1 = ConvNormAct(in_ch + skip_ch, out_ch, cfg)
        self.conv2 = ConvNormAct(out_ch, out_ch, cfg)

    def forward(self, x: torch.Tensor, skip: torch.Tensor) -> torch.Tensor:
        if self.mode == "transposed":
            x = self.up(x)
        else:
            x = F.interpolate(x, size=skip.shape[-2:], mode=self.mode, align_corners=False)
        return self.conv2(self.conv1(torch.cat([x, skip], dim=1)))


class UNet(nn.Module):
    def __init__(self, cfg: dict, num_classes: int) -> None:
        super().__init__()
        enc_cfg, dec_cfg, head_cfg = cfg["encoder"], cfg["decoder"], cfg.get("head", {})
        self.encoder = Encoder(cfg["in_channels"], enc_cfg)
        enc_ch = self.encoder.out_channels
        assert len(dec_cfg["channels"]) == len(enc_ch) - 1, "one decoder stage per skip connection"
        self.decoder = nn.ModuleList()
        prev = enc_ch[-1]
        for skip_ch, out_ch in zip(reversed(enc_ch[:-1]), dec_cfg["channels"]):
            self.decoder.append(UpBlock(prev, skip_ch, out_ch, dec_cfg))
            prev = out_ch
        self.dropout = nn.Dropout2d(head_cfg.get("dropout", 0.0))
        self.classifier = nn.Conv2d(prev, num_classes, kernel_size=1)
        self.aux_head = None
        if head_cfg.get("aux_weight", 0.0) > 0:
            self.aux_head = nn.Conv2d(enc_ch[-1], num_classes, kernel_size=1)

    def forward(self, x: torch.Tensor) -> dict[str, torch.Tensor]:
        feats = self.encoder(x)
        y = feats[-1]
        for block, skip in zip(self.decoder, reversed(feats[:-1])):
            y = block(y, skip)
        out = {"out": self.classifier(self.dropout(y))}
        if self.aux_head is not None and self.training:
            aux = self.aux_head(feats[-1])
            out["aux"] = F.interpolate(aux, size=x.shape[-2:], mode="bilinear", align_corners=False)
        return out
