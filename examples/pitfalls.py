"""Three everyday graph breaks: a data-dependent branch, a print, an .item()."""

import torch


@torch.compile
def normalize(x):
    if x.sum() > 0:  # the branch depends on a tensor's value
        return x / x.sum()
    return x


@torch.compile
def noisy(x):
    y = x * 2
    print("y computed")  # print is a side effect Dynamo cannot put in a graph
    return y + 1


@torch.compile
def scaled_loss(x):
    loss = (x**2).mean()
    value = loss.item()  # a Python float out of a tensor
    return loss * value


def main():
    x = torch.randn(8)
    normalize(x)
    noisy(x)
    scaled_loss(x)


if __name__ == "__main__":
    main()
