"""Feature-pyramid fusion over however many levels the backbone returns."""

import torch
import torch.nn.functional as F


@torch.compile
def fuse_levels(features, weights):
    target = features[0].shape[-2:]
    fused = torch.zeros_like(features[0])
    for feat, w in zip(features, weights):
        fused = fused + w * F.interpolate(feat, size=target, mode="nearest")
    return fused


def main():
    torch.manual_seed(0)
    pyramid = [torch.randn(1, 8, 32 // 2 ** i, 32 // 2 ** i) for i in range(4)]
    for levels in (3, 4, 3, 2):
        weights = torch.softmax(torch.randn(levels), 0)
        print(levels, fuse_levels(pyramid[:levels], weights).shape)


if __name__ == "__main__":
    main()
