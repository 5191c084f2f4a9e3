import torch

params = [torch.nn.Parameter(torch.ones(3))]
opt = torch.optim.SGD(params, lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1)


@torch.compile
def step(x):
    sched.step()  # expect: GB0008
    return x + 1


def run():
    step(torch.randn(3))
