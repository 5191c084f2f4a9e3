"""A segmentation head whose behaviour is selected by an Enum phase."""

import enum

import torch
import torch.nn as nn
import torch.nn.functional as F


class Phase(enum.Enum):
    TRAIN = "train"
    VAL = "val"
    TEST = "test"


class SegHead(nn.Module):
    def __init__(self, channels=8, classes=3):
        super().__init__()
        self.conv = nn.Conv2d(channels, classes, 1)

    def forward(self, feats, phase):
        logits = self.conv(feats)
        if phase is Phase.TRAIN:
            return logits
        if phase is Phase.VAL:
            return logits.softmax(1)
        return F.interpolate(logits, scale_factor=2, mode="bilinear").argmax(1)


def main():
    torch.manual_seed(0)
    head = torch.compile(SegHead())
    feats = torch.randn(2, 8, 16, 16)
    for phase in (Phase.TRAIN, Phase.VAL, Phase.TRAIN, Phase.TEST):
        print(phase.value, head(feats, phase).shape)


if __name__ == "__main__":
    main()
