import torch
import torch.nn.functional as F

from model import DenoisingAutoencoder


def main():
    torch.manual_seed(0)
    model = DenoisingAutoencoder()
    compiled = torch.compile(model)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(4):
        model.noise_std = 0.5 * (0.5 ** epoch)  # anneal the corruption
        x = torch.randn(16, 24)
        loss = F.mse_loss(compiled(x), x)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(epoch, model.noise_std, round(loss.item(), 4))


if __name__ == "__main__":
    main()
