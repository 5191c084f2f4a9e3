import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 3)

    @torch.compiler.disable
    def log_stats(self, y):
        return y.mean()

    def forward(self, x):
        y = self.lin(x)
        self.log_stats(y)  # expect: GB0099
        return y * 2


def run():
    torch.compile(Net())(torch.randn(2, 3))
