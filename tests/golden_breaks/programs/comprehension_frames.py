import torch

FLAGS = {"a": 1, "b": 2}
NAMES = ["a", "b"]
KINDS = {"a", "b"}


def skipped(x):
    try:
        print("eager")  # expect: GB0059
    except Exception:
        pass
    # the frame runs eagerly: each comprehension (Python 3.11) is a frame Dynamo compiles, `.0` its input
    by_key = {f"out_{k}": x + FLAGS[k] for k in FLAGS}  # expect: GB4347
    by_item = {k: x * v for k, v in FLAGS.items()}  # expect: GB4347
    by_value = [x + v for v in FLAGS.values()]  # expect: GB4347
    listed = [x + len(n) for n in NAMES]  # expect: GB4347
    by_set = [x + len(k) for k in KINDS]  # expect: GB4347
    zipped = [x * a for a, b in zip((1, 2), (3, 4))]  # expect: GB4347
    counted = [x * i for i, k in enumerate((5, 6))]  # expect: GB4347
    chars = [x + len(c) for c in "ab"]  # expect: GB4347
    return by_key, by_item, by_value, listed, by_set, zipped, counted, chars


f = torch.compile(skipped)


def run():
    f(torch.randn(3))
