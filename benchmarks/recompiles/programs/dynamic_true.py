"""Compiled with dynamic=True up front: changing scalars and shapes should not recompile."""

import torch


@torch.compile(dynamic=True)
def rms_norm(x, eps, scale):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * scale


def main():
    for n, eps, scale in ((8, 1e-5, 1.0), (16, 1e-6, 2.0), (12, 1e-5, 0.5)):
        print(n, rms_norm(torch.randn(n, 32), eps, scale).std().item())


if __name__ == "__main__":
    main()
