"""Sampling where top_k is optional: None means 'sample from the full distribution'."""

import torch


@torch.compile
def sample(logits, temperature=1.0, top_k=None):
    logits = logits / temperature
    if top_k is not None:
        kth = torch.topk(logits, top_k).values[..., -1, None]
        logits = torch.where(logits < kth, torch.full_like(logits, float("-inf")), logits)
    return torch.multinomial(torch.softmax(logits, dim=-1), 1)


def main():
    torch.manual_seed(0)
    for top_k in (None, 20, None, 20):
        print(top_k, sample(torch.randn(3, 50), 0.8, top_k=top_k).flatten().tolist())


if __name__ == "__main__":
    main()
