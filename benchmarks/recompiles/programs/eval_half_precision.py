"""Evaluation in bfloat16 after training in float32, through the same compiled function."""

import torch
import torch.nn.functional as F


@torch.compile
def score(x, w, b):
    return F.softmax(x @ w + b, dim=-1).max(-1).values.mean()


def main():
    torch.manual_seed(0)
    w, b = torch.randn(12, 5), torch.randn(5)
    x = torch.randn(16, 12)
    print("fp32", score(x, w, b).item())
    print("bf16", score(x.bfloat16(), w.bfloat16(), b.bfloat16()).item())
    print("fp32", score(x, w, b).item())


if __name__ == "__main__":
    main()
