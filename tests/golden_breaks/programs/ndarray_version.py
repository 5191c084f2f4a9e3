import torch


@torch.compile
def versioned(x):
    a = (x * 2).numpy()
    v = a.__version__  # expect: GB0159
    return a + 1, v


def run():
    try:
        versioned(torch.randn(3))
    except AttributeError:  # run eagerly, the read fails: no ndarray has a __version__
        pass
