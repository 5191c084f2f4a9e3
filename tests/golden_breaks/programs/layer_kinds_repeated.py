import torch


class Config:
    def __init__(self, layers):
        self.layers = layers
        # the first layer dense, the others routed: a list repeated to the layer count
        self.kinds = ["dense"] + ["routed"] * (layers - 1)


class Dense(torch.nn.Module):
    def forward(self, x):
        return x * 2


class Routed(torch.nn.Module):
    def forward(self, x):
        hit = (x > 0).nonzero()  # expect: GB0036 loop
        return x + hit.shape[0]


class Model(torch.nn.Module):
    def __init__(self, config):
        super().__init__()
        self.layers = torch.nn.ModuleList(
            [Routed() if config.kinds[i] == "routed" else Dense() for i in range(config.layers)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def run():
    model = torch.compile(Model(Config(2)))
    model(torch.randn(4))
