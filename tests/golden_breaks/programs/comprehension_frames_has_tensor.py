import torch

FLAGS = {"a": 1, "b": 2}


def skipped(x, kw):
    try:
        print("eager")  # expect: GB0059
    except Exception:
        pass
    plain = {k: v + 1 for k, v in FLAGS.items()}  # no tensor among its locals, no torch global: not compiled
    uses_torch = [torch.ones(1) * v for v in FLAGS.values()]  # expect: GB4347 (torch among its globals)
    kwargs = {k: kw.get(k) for k in FLAGS}  # expect: GB4347 (a dict holding a tensor among its locals)
    return x, plain, uses_torch, kwargs


f = torch.compile(skipped)


def run():
    f(torch.randn(3), {"a": torch.ones(2)})
