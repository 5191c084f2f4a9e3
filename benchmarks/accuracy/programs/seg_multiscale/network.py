from __future__ import annotations

import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvBNReLU(nn.Sequential):
    def __init__(self, in_ch: int, out_ch: int, kernel_size: int = 3, stride: int = 1, dilation: int = 1) -> None:
        padding = dilation * (kernel_size - 1) // 2
        super().__init__(
            nn.Conv2d(in_ch, out_ch, kernel_size, stride=stride, padding=padding, dilation=dilation, bias=False),
            nn.BatchNorm2d(out_ch),
            nn.ReLU(inplace=True),
        )


class ASPP(nn.Module):
    def __init__(self, in_ch: int, out_ch: int, rates: list[int], dropout: float = 0.1) -> None:
        super().__init__()
        branches: list[nn.Module] = [ConvBNReLU(in_ch, out_ch, kernel_size=1)]
        for rate in rates:
            branches.append(ConvBNReLU(in_ch, out_ch, kernel_size=3, dilation=rate))
        self.branches = nn.ModuleList(branches)
        self.image_pool = nn.Sequential(
            nn.AdaptiveAvgPool2d(1),
            nn.Conv2d(in_ch, out_ch, 1, bias=False),
            nn.ReLU(inplace=True),
        )
        self.project = nn.Sequential(
            ConvBNReLU(out_ch * (len(rates) + 2), out_ch, kernel_size=1),
            nn.Dropout2d(dropout),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        size = x.shape[-2:]
        feats = [branch(x) for branch in self.branches]
        pooled = self.image_pool(x)
        feats.append(F.interpolate(pooled, size=size, mode="bilinear", align_corners=False))
        return self.project(torch.cat(feats, dim=1))


class SegNet(nn.Module):
    """DeepLabV3+-style network: strided encoder, ASPP head, low-level skip decoder."""

    def __init__(
        self,
        num_classes: int,
        width: int = 16,
        aspp_rates: list[int] | tuple[int, ...] = (6, 12, 18),
        aux_head: bool = True,
        align_corners: bool = False,
    ) -> None:
        super().__init__()
        self.align_corners = align_corners
        self.stem = ConvBNReLU(3, width, stride=2)
        self.layer1 = nn.Sequential(ConvBNReLU(width, width * 2, stride=2), ConvBNReLU(width * 2, width * 2))
        self.layer2 = nn.Sequential(
            ConvBNReLU(width * 2, width * 4, stride=2),
            ConvBNReLU(width * 4, width * 4, dilation=2),
        )
        self.aspp = ASPP(width * 4, width * 4, list(aspp_rates))
        self.low_proj = ConvBNReLU(width * 2, width, kernel_size=1)
        self.fuse = ConvBNReLU(width * 5, width * 4)
        self.classifier = nn.Conv2d(width * 4, num_classes, 1)
        self.aux = (
            nn.Sequential(ConvBNReLU(width * 4, width * 2), nn.Conv2d(width * 2, num_classes, 1)) if aux_head else None
        )

    def forward(self, x: torch.Tensor) -> dict[str, torch.Tensor]:
        input_size = x.shape[-2:]
        low = self.layer1(self.stem(x))
        high = self.layer2(low)
        feat = self.aspp(high)
        feat = F.interpolate(feat, size=low.shape[-2:], mode="bilinear", align_corners=self.align_corners)
        feat = self.fuse(torch.cat([feat, self.low_proj(low)], dim=1))
        out = F.interpolate(self.classifier(feat), size=input_size, mode="bilinear", align_corners=self.align_corners)
        result = {"out": out}
        if self.training and self.aux is not None:
            result["aux"] = F.interpolate(
                self.aux(high), size=input_size, mode="bilinear", align_corners=self.align_corners
            )
        return result
