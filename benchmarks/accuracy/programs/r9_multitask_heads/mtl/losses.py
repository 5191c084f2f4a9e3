import torch
import torch.nn as nn
import torch.nn.functional as F


def pairwise_rank_loss(scores, target, margin=0.1):
    # all pairs i, j with target_i > target_j should have score_i > score_j + margin
    diff_s = scores[:, None] - scores[None, :]
    diff_t = target[:, None] - target[None, :]
    valid = (diff_t > 0).to(scores.dtype)
    loss = F.relu(margin - diff_s) * valid
    return loss.sum() / valid.sum().clamp_min(1.0)


def task_loss(kind, pred, target, label_smoothing=0.0):
    if kind == "cls":
        return F.cross_entropy(pred, target, label_smoothing=label_smoothing)
    if kind == "reg":
        return F.smooth_l1_loss(pred, target)
    if kind == "rank":
        return pairwise_rank_loss(pred, target)
    raise ValueError(kind)


class UncertaintyWeighting(nn.Module):
    """Kendall et al. homoscedastic uncertainty: L = sum exp(-s_t) * L_t + s_t."""

    def __init__(self, task_names, enabled=True):
        super().__init__()
        self.enabled = enabled
        self.index = {n: i for i, n in enumerate(task_names)}
        self.log_vars = nn.Parameter(torch.zeros(len(task_names)))

    def forward(self, loss, task):
        if not self.enabled:
            return loss
        s = self.log_vars[self.index[task]]
        return torch.exp(-s) * loss + 0.5 * s

    def weights(self):
        return {n: float(torch.exp(-self.log_vars[i].detach())) for n, i in self.index.items()}
