"""Multi-scale pooling with the kernel size passed as a tuple per scale."""

import torch
import torch.nn.functional as F


@torch.compile
def pooled_features(feature_map, kernel_size):
    pooled = F.avg_pool2d(feature_map, kernel_size=kernel_size, stride=kernel_size)
    return pooled.flatten(1)


def main():
    torch.manual_seed(0)
    fmap = torch.randn(2, 8, 16, 16)
    for kernel_size in ((2, 2), (4, 4), (8, 8), (2, 2)):
        print(kernel_size, pooled_features(fmap, kernel_size).shape)


if __name__ == "__main__":
    main()
