"""Attention called with and without a padding mask."""

import torch
import torch.nn.functional as F


@torch.compile
def attend(q, k, v, mask=None):
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask[:, None, :], float("-inf"))
    return F.softmax(scores, dim=-1) @ v


def main():
    torch.manual_seed(0)
    q = k = v = torch.randn(2, 6, 16)
    full = attend(q, k, v)
    mask = torch.ones(2, 6, dtype=torch.bool)
    mask[1, 4:] = False
    padded = attend(q, k, v, mask)
    again = attend(q, k, v, None)
    print(full.shape, padded.shape, again.shape)


if __name__ == "__main__":
    main()
