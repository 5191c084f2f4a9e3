"""An MLP block whose activation function is passed in per experiment."""

import torch
import torch.nn.functional as F


@torch.compile
def mlp_block(x, w1, w2, activation):
    return activation(x @ w1) @ w2


def main():
    torch.manual_seed(0)
    w1, w2 = torch.randn(16, 64), torch.randn(64, 16)
    x = torch.randn(8, 16)
    for activation in (F.relu, F.gelu, F.silu, F.relu):
        print(activation.__name__, mlp_block(x, w1, w2, activation).norm().item())


if __name__ == "__main__":
    main()
