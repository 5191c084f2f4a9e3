"""NT-Xent (normalized temperature-scaled cross entropy) from SimCLR."""

from __future__ import annotations

import torch
import torch.nn.functional as F


@torch.compile(dynamic=False)
def nt_xent(z1: torch.Tensor, z2: torch.Tensor, temperature: float) -> torch.Tensor:
    """Each sample's positive is its other view; all other 2N-2 samples are negatives."""
    n = z1.shape[0]
    z = torch.cat([z1, z2], dim=0)
    z = F.normalize(z, dim=1)
    sim = z @ z.t() / temperature
    # mask out self-similarity so it can never be picked as a positive
    self_mask = torch.eye(2 * n, dtype=torch.bool, device=z.device)
    sim = sim.masked_fill(self_mask, float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)]).to(z.device)
    return F.cross_entropy(sim, targets)


def alignment_uniformity(z1: torch.Tensor, z2: torch.Tensor, t: float = 2.0) -> tuple[float, float]:
    """Wang & Isola metrics, logged only (not differentiated)."""
    align = (z1 - z2).norm(dim=1).pow(2).mean()
    z = torch.cat([z1, z2])
    sq_pdist = torch.pdist(z, p=2).pow(2)
    uniform = sq_pdist.mul(-t).exp().mean().log()
    return align.item(), uniform.item()
