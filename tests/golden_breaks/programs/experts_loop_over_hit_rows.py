import torch


class Experts(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        self.n = n
        self.weight = torch.nn.Parameter(torch.randn(n, 4, 4))

    def forward(self, x, index):
        out = torch.zeros_like(x)
        mask = torch.nn.functional.one_hot(index, num_classes=self.n + 1).permute(1, 0)
        hit = torch.greater(mask.sum(dim=-1), 0).nonzero()  # expect: GB0036
        for row in hit:  # as many rows as experts some token was routed to: only the data knows
            expert = row[0]
            if expert == self.n:  # expect: GB0170 loop
                continue
            (token,) = torch.where(mask[expert])
            out[token] += x[token] @ self.weight[expert]
        return out


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.router = torch.nn.Linear(4, 3)
        self.experts = Experts(3)

    def forward(self, x):
        index = self.router(x).argmax(dim=-1)
        return self.experts(x, index) + x


def run():
    model = torch.compile(Block())
    model(torch.randn(6, 4))
