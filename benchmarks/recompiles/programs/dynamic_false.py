"""Compiled with dynamic=False: every new shape or scalar value gets its own graph."""

import torch


def scaled_residual(x, residual, alpha):
    return x + alpha * residual


compiled = torch.compile(scaled_residual, dynamic=False)


def main():
    for batch, alpha in ((4, 0.5), (8, 0.5), (8, 0.25), (4, 0.125)):
        out = compiled(torch.randn(batch, 16), torch.randn(batch, 16), alpha)
        print(batch, alpha, out.shape)


if __name__ == "__main__":
    main()
