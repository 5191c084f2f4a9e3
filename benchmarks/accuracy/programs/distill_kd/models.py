from dataclasses import dataclass, field

import torch
import torch.nn as nn


@dataclass
class NetConfig:
    in_channels: int = 3
    num_classes: int = 10
    widths: list[int] = field(default_factory=lambda: [32, 64, 128])
    dropout: float = 0.1
    use_bn: bool = True


class ConvBlock(nn.Module):
    def __init__(self, c_in: int, c_out: int, use_bn: bool = True, pool: bool = True) -> None:
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, kernel_size=3, padding=1, bias=not use_bn)
        self.norm = nn.BatchNorm2d(c_out) if use_bn else nn.Identity()
        self.act = nn.ReLU(inplace=True)
        self.pool = nn.MaxPool2d(2) if pool else nn.Identity()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(self.act(self.norm(self.conv(x))))


class ConvNet(nn.Module):
    def __init__(self, cfg: NetConfig) -> None:
        super().__init__()
        self.cfg = cfg
        blocks = []
        c_in = cfg.in_channels
        for i, w in enumerate(cfg.widths):
            blocks.append(ConvBlock(c_in, w, use_bn=cfg.use_bn, pool=i < len(cfg.widths) - 1))
            c_in = w
        self.blocks = nn.ModuleList(blocks)
        self.head = nn.Sequential(
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Dropout(cfg.dropout),
            nn.Linear(c_in, cfg.num_classes),
        )

    def forward(
        self, x: torch.Tensor, return_features: bool = False
    ) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
        for block in self.blocks:
            x = block(x)
        logits = self.head(x)
        if return_features:
            return logits, x
        return logits


def teacher_config(num_classes: int) -> NetConfig:
    return NetConfig(num_classes=num_classes, widths=[32, 64, 96], dropout=0.2)


def student_config(num_classes: int) -> NetConfig:
    return NetConfig(num_classes=num_classes, widths=[8, 16, 32], dropout=0.0)


def count_params(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters() if p.requires_grad)
