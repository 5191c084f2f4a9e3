import functools

import torch
import torch.nn as nn
import torch.nn.functional as F


def sample_along_rays(n_rays, n_samples, near, far, lindisp, perturb, device=None):
    t = torch.linspace(0.0, 1.0, n_samples, device=device)
    if lindisp:
        z = 1.0 / (1.0 / near * (1.0 - t) + 1.0 / far * t)
    else:
        z = near * (1.0 - t) + far * t
    z = z.expand(n_rays, n_samples)
    if perturb:
        mids = 0.5 * (z[..., 1:] + z[..., :-1])
        upper = torch.cat([mids, z[..., -1:]], -1)
        lower = torch.cat([z[..., :1], mids], -1)
        z = lower + (upper - lower) * torch.rand_like(z)
    return z


def sample_pdf(bins, weights, n_samples, det):
    weights = weights + 1e-5
    pdf = weights / weights.sum(-1, keepdim=True)
    cdf = torch.cumsum(pdf, -1)
    cdf = torch.cat([torch.zeros_like(cdf[..., :1]), cdf], -1)
    if det:
        u = torch.linspace(0.0, 1.0, n_samples).expand(cdf.shape[0], n_samples).contiguous()
    else:
        u = torch.rand(cdf.shape[0], n_samples)
    inds = torch.searchsorted(cdf, u, right=True)
    below = (inds - 1).clamp_min(0)
    above = inds.clamp_max(cdf.shape[-1] - 1)
    cdf_b, cdf_a = torch.gather(cdf, 1, below), torch.gather(cdf, 1, above)
    bin_b, bin_a = torch.gather(bins, 1, below), torch.gather(bins, 1, above)
    denom = torch.where(cdf_a - cdf_b < 1e-5, torch.ones_like(cdf_a), cdf_a - cdf_b)
    return bin_b + (u - cdf_b) / denom * (bin_a - bin_b)


def raw2outputs(raw, z_vals, rays_d, raw_noise_std, white_bkgd):
    dists = z_vals[..., 1:] - z_vals[..., :-1]
    dists = torch.cat([dists, torch.full_like(dists[..., :1], 1e10)], -1)
    dists = dists * rays_d.norm(dim=-1, keepdim=True)
    rgb = torch.sigmoid(raw[..., :3])
    sigma = raw[..., 3]
    if raw_noise_std > 0.0:
        sigma = sigma + torch.randn_like(sigma) * raw_noise_std
    alpha = 1.0 - torch.exp(-F.relu(sigma) * dists)
    trans = torch.cumprod(torch.cat([torch.ones_like(alpha[..., :1]), 1.0 - alpha + 1e-10], -1), -1)
    weights = alpha * trans[..., :-1]
    rgb_map = (weights[..., None] * rgb).sum(-2)
    depth_map = (weights * z_vals).sum(-1)
    acc_map = weights.sum(-1)
    if white_bkgd:
        rgb_map = rgb_map + (1.0 - acc_map[..., None])
    return rgb_map, depth_map, acc_map, weights


class VolumeRenderer(nn.Module):
    def __init__(self, cfg, coarse, fine=None):
        super().__init__()
        self.cfg = cfg
        self.nets = nn.ModuleDict({"coarse": coarse})
        if fine is not None:
            self.nets["fine"] = fine

    @property
    def hierarchical(self):
        return "fine" in self.nets and self.cfg.n_importance > 0

    def query(self, name, rays_o, rays_d, z_vals):
        pts = rays_o[:, None, :] + rays_d[:, None, :] * z_vals[..., None]
        viewdirs = rays_d / rays_d.norm(dim=-1, keepdim=True)
        viewdirs = viewdirs[:, None, :].expand_as(pts)
        return self.nets[name](pts, viewdirs)

    def forward(self, rays_o, rays_d, perturb=False, raw_noise_std=0.0):
        cfg = self.cfg
        z_vals = sample_along_rays(rays_o.shape[0], cfg.n_samples, cfg.near, cfg.far,
                                   cfg.lindisp, perturb)
        raw = self.query("coarse", rays_o, rays_d, z_vals)
        rgb, depth, acc, weights = raw2outputs(raw, z_vals, rays_d, raw_noise_std, cfg.white_bkgd)
        out = {"rgb0": rgb, "rgb": rgb, "depth": depth, "acc": acc}
        if self.hierarchical:
            mids = 0.5 * (z_vals[..., 1:] + z_vals[..., :-1])
            z_new = sample_pdf(mids, weights[..., 1:-1].detach(), cfg.n_importance, det=not perturb)
            z_all, _ = torch.sort(torch.cat([z_vals, z_new.detach()], -1), -1)
            raw = self.query("fine", rays_o, rays_d, z_all)
            rgb, depth, acc, _ = raw2outputs(raw, z_all, rays_d, raw_noise_std, cfg.white_bkgd)
            out.update(rgb=rgb, depth=depth, acc=acc)
        return out


def chunked(fn):
    """Run fn over ray batches of at most `chunk` rays and concatenate the outputs."""
    @functools.wraps(fn)
    def wrapper(rays_o, rays_d, *args, chunk=1024, **kwargs):
        pieces = {}
        for s in range(0, rays_o.shape[0], chunk):
            out = fn(rays_o[s:s + chunk], rays_d[s:s + chunk], *args, **kwargs)
            for k, v in out.items():
                pieces.setdefault(k, []).append(v)
        return {k: torch.cat(v, 0) for k, v in pieces.items()}
    return wrapper
