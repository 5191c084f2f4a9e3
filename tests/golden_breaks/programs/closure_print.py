import torch


def make_model(scale):
    def report(y):
        print("scaled", scale)  # expect: GB0059
        return y

    @torch.compile
    def model(x):
        return report(x * scale)

    return model


model = make_model(3)


def run():
    model(torch.randn(3))
