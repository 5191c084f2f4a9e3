import torch
import torch.nn as nn
import torch.nn.functional as F


class StraightThrough(torch.autograd.Function):
    """Forward returns the quantized codes, backward copies the gradient to z."""

    @staticmethod
    def forward(ctx, z, zq):
        return zq

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out, None


def straight_through(z, zq, mode):
    if mode == "function":
        return StraightThrough.apply(z, zq)
    return z + (zq - z).detach()


class VectorQuantizer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.num_codes = cfg.num_codes
        self.dim = cfg.embedding_dim
        self.beta = cfg.beta
        self.use_ema = cfg.use_ema
        self.decay = cfg.ema_decay
        self.eps = cfg.ema_eps
        self.ste_mode = cfg.ste
        self.codebook = nn.Embedding(cfg.num_codes, cfg.embedding_dim)
        self.codebook.weight.data.uniform_(-1.0 / cfg.num_codes, 1.0 / cfg.num_codes)
        if self.use_ema:
            self.codebook.weight.requires_grad_(False)
            self.register_buffer("cluster_size", torch.zeros(cfg.num_codes))
            self.register_buffer("embed_avg", self.codebook.weight.detach().clone())
        self.register_buffer("usage", torch.zeros(cfg.num_codes))

    def nearest_codes(self, flat):
        w = self.codebook.weight
        dist = flat.pow(2).sum(1, keepdim=True) - 2 * flat @ w.t() + w.pow(2).sum(1)
        return dist.argmin(dim=1)

    @torch.no_grad()
    def _ema_update(self, flat, onehot):
        self.cluster_size.mul_(self.decay).add_(onehot.sum(0), alpha=1 - self.decay)
        self.embed_avg.mul_(self.decay).add_(onehot.t() @ flat, alpha=1 - self.decay)
        n = self.cluster_size.sum()
        size = (self.cluster_size + self.eps) / (n + self.num_codes * self.eps) * n
        self.codebook.weight.copy_(self.embed_avg / size.unsqueeze(1))

    def forward(self, z, commit_weight=1.0):
        # z: (b, c, h, w) -> (b, h, w, c)
        z = z.permute(0, 2, 3, 1).contiguous()
        flat = z.reshape(-1, self.dim)
        idx = self.nearest_codes(flat)
        onehot = F.one_hot(idx, self.num_codes).type(flat.dtype)
        zq = self.codebook(idx).view_as(z)

        if self.training:
            self.usage.add_(onehot.sum(0))
            if self.use_ema:
                self._ema_update(flat, onehot)

        commit = F.mse_loss(z, zq.detach())
        loss = self.beta * commit_weight * commit
        if not self.use_ema:
            loss = loss + F.mse_loss(zq, z.detach())

        avg_probs = onehot.mean(0)
        perplexity = torch.exp(-(avg_probs * torch.log(avg_probs + 1e-10)).sum())
        zq = straight_through(z, zq, self.ste_mode)
        return zq.permute(0, 3, 1, 2), loss, perplexity, idx.view(z.shape[:-1])

    @torch.no_grad()
    def restart_dead_codes(self, z, threshold=1.0):
        """Re-seed codes whose EMA cluster size fell below threshold with random latents."""
        if not self.use_ema:
            return 0
        flat = z.permute(0, 2, 3, 1).reshape(-1, self.dim)
        dead = self.cluster_size < threshold
        n_dead = int(dead.sum().item())
        if n_dead == 0:
            return 0
        pick = torch.randint(0, flat.size(0), (n_dead,), device=flat.device)
        self.codebook.weight[dead] = flat[pick]
        self.embed_avg[dead] = flat[pick]
        self.cluster_size[dead] = 1.0
        return n_dead

    def usage_fraction(self):
        return (self.usage > 0).float().mean()

    def reset_usage(self):
        self.usage.zero_()
