import torch


@torch.compiler.disable
def log_stats(x):
    return float(x.mean())


@torch.compile
def forward(x):
    y = x.relu()
    log_stats(y)  # expect: GB0098
    return y * 2


def run():
    forward(torch.randn(6))
