"""The program of the VariableTracker article: one compiled function, four kinds
of values, and the two changes that make Dynamo recompile."""

import torch


class Config:
    scale = 2


cfg = Config()


def helper(t):
    return t * 3


def f(x, n, items, cfg=cfg):
    y = helper(x)
    return y * n + items[0] + cfg.scale


g = torch.compile(f)


def main():
    x = torch.randn(8)
    g(x, 3, [1, 2])
    g(x, 4, [1, 2])  # n changes: EQUALS_MATCH L['n'] == 3 fails
    cfg.scale = 5  # the class attribute baked as 2 changes
    g(x, 4, [1, 2])


if __name__ == "__main__":
    main()
