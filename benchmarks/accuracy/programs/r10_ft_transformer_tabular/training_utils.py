import copy
import functools
import math
import time

import torch


def log_duration(label):
    def decorator(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            start = time.perf_counter()
            result = fn(*args, **kwargs)
            print(f"  [{label}] {fn.__name__} took {time.perf_counter() - start:.1f}s")
            return result
        return wrapper
    return decorator


def cosine_lr(step, total_steps, base_lr, warmup_steps, min_ratio=0.05):
    if step < warmup_steps:
        return base_lr * (step + 1) / warmup_steps
    progress = (step - warmup_steps) / max(1, total_steps - warmup_steps)
    return base_lr * (min_ratio + (1 - min_ratio) * 0.5 * (1 + math.cos(math.pi * min(progress, 1.0))))


def roc_auc(scores, labels):
    order = scores.argsort()
    ranks = torch.empty_like(scores).index_put_((order,), torch.arange(1, len(scores) + 1, dtype=scores.dtype))
    n_pos = labels.sum()
    n_neg = labels.numel() - n_pos
    return ((ranks[labels == 1].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)).item()


class EarlyStopping:
    def __init__(self, patience, mode="max"):
        self.patience, self.mode = patience, mode
        self.best, self.best_state, self.bad_epochs = None, None, 0

    def step(self, metric, model):
        improved = self.best is None or (metric > self.best if self.mode == "max" else metric < self.best)
        if improved:
            self.best, self.bad_epochs = metric, 0
            self.best_state = copy.deepcopy(model.state_dict())
        else:
            self.bad_epochs += 1
        return improved

    @property
    def should_stop(self):
        return self.bad_epochs >= self.patience
