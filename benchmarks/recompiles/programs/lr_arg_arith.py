"""Manual SGD with a step-decay learning rate passed to a compiled update."""

import torch


@torch.compile
def sgd_update(params, grads, lr):
    return [p - lr * g for p, g in zip(params, grads)]


def main():
    torch.manual_seed(0)
    params = [torch.randn(16, 16), torch.randn(16)]
    base_lr = 0.1
    for step in range(6):
        grads = [torch.randn_like(p) for p in params]
        lr = base_lr * (0.5 ** (step // 2))
        params = sgd_update(params, grads, lr)
    print(params[1].sum().item())


if __name__ == "__main__":
    main()
