import torch


class Dec(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Linear(4, 4)
        self.rnn = torch.nn.GRU(4, 4, batch_first=True)

    def forward(self, x):
        h = self.emb(x) * 2
        out, _ = self.rnn(h)  # expect: GB0014
        return out + 1


def run():
    torch.compile(Dec())(torch.randn(2, 3, 4))
