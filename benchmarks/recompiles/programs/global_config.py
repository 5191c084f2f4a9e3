"""Module-level config object whose fields a script changes between phases."""

import torch
import torch.nn.functional as F


class Config:
    label_smoothing = 0.0
    focal_gamma = 2.0
    use_focal = False


cfg = Config()


@torch.compile
def criterion(logits, targets):
    ce = F.cross_entropy(logits, targets, reduction="none", label_smoothing=cfg.label_smoothing)
    if cfg.use_focal:
        pt = torch.exp(-ce)
        ce = (1 - pt) ** cfg.focal_gamma * ce
    return ce.mean()


def main():
    torch.manual_seed(0)
    logits, targets = torch.randn(16, 4), torch.randint(0, 4, (16,))
    print(criterion(logits, targets).item())
    cfg.label_smoothing = 0.1
    print(criterion(logits, targets).item())
    cfg.use_focal = True
    print(criterion(logits, targets).item())


if __name__ == "__main__":
    main()
