"""A compiled forward whose keyword arguments depend on the batch (label smoothing only on noisy batches)."""

import torch
import torch.nn.functional as F


@torch.compile
def classification_loss(logits, labels, label_smoothing=0.0, weight=None):
    return F.cross_entropy(logits, labels, weight=weight, label_smoothing=label_smoothing)


def main():
    torch.manual_seed(0)
    class_weight = torch.tensor([1.0, 2.0, 0.5])
    batches = [dict(), dict(label_smoothing=0.1), dict(weight=class_weight), dict(label_smoothing=0.2)]
    for kwargs in batches:
        loss = classification_loss(torch.randn(8, 3), torch.randint(0, 3, (8,)), **kwargs)
        print(sorted(kwargs), round(loss.item(), 4))


if __name__ == "__main__":
    main()
