import torch
import torch.nn.functional as F

from model import Classifier


def dropout_for_epoch(epoch, start=0.5, end=0.1, epochs=4):
    return start + (end - start) * epoch / (epochs - 1)


def main():
    torch.manual_seed(0)
    model = Classifier()
    compiled = torch.compile(model)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(4):
        model.dropout.p = dropout_for_epoch(epoch)
        x, y = torch.randn(32, 20), torch.randint(0, 4, (32,))
        loss = F.cross_entropy(compiled(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(epoch, round(model.dropout.p, 3), round(loss.item(), 4))


if __name__ == "__main__":
    main()
