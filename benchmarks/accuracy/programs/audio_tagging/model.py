from __future__ import annotations

from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

from features import LogMel, SpecAugment


@dataclass
class TaggerConfig:
    sample_rate: int = 8000
    n_fft: int = 256
    hop_length: int = 128
    n_mels: int = 32
    f_min: float = 50.0
    f_max: float | None = None
    channels: list[int] = field(default_factory=lambda: [16, 32])
    num_classes: int = 6
    dropout: float = 0.2
    pooling: str = "attention"
    time_mask_width: int = 6
    freq_mask_width: int = 4
    num_masks: int = 2


class ConvBlock(nn.Module):
    def __init__(self, in_ch: int, out_ch: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(in_ch, out_ch, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(out_ch)
        self.conv2 = nn.Conv2d(out_ch, out_ch, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(out_ch)

    def forward(self, x: torch.Tensor, pool_size: tuple[int, int] = (2, 2)) -> torch.Tensor:
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.relu(self.bn2(self.conv2(x)))
        return F.avg_pool2d(x, pool_size)


class AudioTagger(nn.Module):
    def __init__(self, cfg: TaggerConfig) -> None:
        super().__init__()
        self.cfg = cfg
        self.frontend = LogMel(cfg.sample_rate, cfg.n_fft, cfg.hop_length, cfg.n_mels, cfg.f_min, cfg.f_max)
        self.spec_augment = SpecAugment(cfg.time_mask_width, cfg.freq_mask_width, cfg.num_masks)
        self.bn0 = nn.BatchNorm2d(cfg.n_mels)
        chans = [1] + list(cfg.channels)
        self.blocks = nn.ModuleList(ConvBlock(chans[i], chans[i + 1]) for i in range(len(cfg.channels)))
        n_pools = len(cfg.channels) - 1
        width = chans[-1]
        self.fc = nn.Linear(width * (cfg.n_mels // 2 ** n_pools), width)
        if cfg.pooling == "attention":
            self.att = nn.Conv1d(width, cfg.num_classes, 1)
            self.cla = nn.Conv1d(width, cfg.num_classes, 1)
        else:
            self.head = nn.Linear(width, cfg.num_classes)

    def forward(self, wave: torch.Tensor) -> torch.Tensor:
        x = self.frontend(wave).unsqueeze(1)  # (B, 1, T, M)
        x = self.bn0(x.transpose(1, 3)).transpose(1, 3)
        x = self.spec_augment(x)
        for i, block in enumerate(self.blocks):
            x = block(x, pool_size=(2, 2) if i < len(self.blocks) - 1 else (1, 1))
            x = F.dropout(x, p=self.cfg.dropout, training=self.training)
        x = x.transpose(1, 2).flatten(2)  # (B, T, C * M')
        x = F.relu(self.fc(x)).transpose(1, 2)  # (B, width, T)
        if self.cfg.pooling == "attention":
            att = torch.softmax(torch.clamp(self.att(x), -10, 10), dim=-1)
            return (att * self.cla(x)).sum(dim=-1)
        if self.cfg.pooling == "max":
            return self.head(x.amax(dim=-1))
        return self.head(x.amax(dim=-1) + x.mean(dim=-1))
