"""A feature extractor whose pooling is chosen per call by a mode string."""

import torch


@torch.compile
def pool_features(hidden, mask, pooling="mean"):
    if pooling == "mean":
        summed = (hidden * mask[..., None]).sum(1)
        return summed / mask.sum(1, keepdim=True).clamp(min=1)
    if pooling == "max":
        return hidden.masked_fill(mask[..., None] == 0, -1e4).max(1).values
    return hidden[:, 0]


def main():
    torch.manual_seed(0)
    hidden, mask = torch.randn(4, 10, 32), torch.ones(4, 10)
    for pooling in ("mean", "max", "cls", "mean"):
        print(pooling, pool_features(hidden, mask, pooling=pooling).norm().item())


if __name__ == "__main__":
    main()
