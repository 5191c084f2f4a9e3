import torch


@torch.compile
def route(x):
    out = torch.zeros_like(x)
    hit = torch.greater(x.sum(dim=-1), 0).nonzero()  # expect: GB0036
    for row in hit:  # the resume function's input: its rows, as many as the data gave
        index = row[0]
        if index == 3:  # expect: GB0170 loop
            continue
        out[index] += 1
    return out


def run():
    route(torch.ones(5, 4))
