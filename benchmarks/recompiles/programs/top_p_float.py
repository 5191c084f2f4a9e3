"""Nucleus (top-p) filtering with a per-request p."""

import torch


@torch.compile
def top_p_filter(logits, top_p):
    sorted_logits, sorted_idx = torch.sort(logits, descending=True, dim=-1)
    cumulative = torch.softmax(sorted_logits, dim=-1).cumsum(dim=-1)
    remove = cumulative > top_p
    remove[..., 1:] = remove[..., :-1].clone()
    remove[..., 0] = False
    sorted_logits = sorted_logits.masked_fill(remove, float("-inf"))
    return torch.empty_like(logits).scatter_(-1, sorted_idx, sorted_logits)


def main():
    torch.manual_seed(0)
    for top_p in (0.9, 0.95, 0.8, 0.5):
        filtered = top_p_filter(torch.randn(4, 64), top_p)
        print(top_p, torch.isfinite(filtered).sum().item())


if __name__ == "__main__":
    main()
