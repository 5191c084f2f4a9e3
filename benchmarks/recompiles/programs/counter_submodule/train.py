import torch
import torch.nn.functional as F

from model import ResNetMLP


@torch.compile
def train_step(model, optimizer, x, y):
    loss = F.mse_loss(model(x), y)
    loss.backward()
    return loss


def main():
    torch.manual_seed(0)
    model = ResNetMLP()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(5):
        loss = train_step(model, optimizer, torch.randn(8, 32), torch.randn(8, 1))
        optimizer.step()
        optimizer.zero_grad()
        print(step, round(loss.item(), 4), model.drop_path.calls)


if __name__ == "__main__":
    main()
