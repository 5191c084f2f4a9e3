import torch


@torch.compile
def lookup(x):
    table = {"a": 1}
    try:
        value = table["a"]
        raise IndexError("nope")
    except KeyError:
        return x
    except IndexError:
        print("index")  # expect: GB0059
        return x + value


def run():
    lookup(torch.randn(3))
