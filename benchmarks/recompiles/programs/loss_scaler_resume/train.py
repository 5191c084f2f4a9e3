import torch
import torch.nn.functional as F

from model import Regressor


class DynamicLossScaler:
    def __init__(self, init_scale=2.0 ** 8, backoff=0.5):
        self.scale = init_scale
        self.backoff = backoff


@torch.compile
def scaled_backward(model, x, y, scaler):
    loss = F.mse_loss(model(x), y)
    (loss * scaler.scale).backward()
    grad_sq = sum(p.grad.pow(2).sum() for p in model.parameters())
    overflow = not torch.isfinite(grad_sq).item()
    if overflow:
        scaler.scale *= scaler.backoff
    return loss, overflow


def main():
    torch.manual_seed(0)
    model = Regressor()
    scaler = DynamicLossScaler()
    for step in range(4):
        loss, overflow = scaled_backward(model, torch.randn(8, 6), torch.randn(8, 1), scaler)
        model.zero_grad()
        print(step, round(loss.item(), 4), overflow, scaler.scale)


if __name__ == "__main__":
    main()
