import math

import torch


def look_at(eye, target=(0.0, 0.0, 0.0), up=(0.0, 0.0, 1.0)):
    eye = torch.tensor(eye, dtype=torch.float32)
    fwd = torch.tensor(target) - eye
    fwd = fwd / fwd.norm()
    right = torch.linalg.cross(fwd, torch.tensor(up))
    right = right / right.norm()
    true_up = torch.linalg.cross(right, fwd)
    c2w = torch.eye(4)
    # OpenGL convention: camera looks down -z
    c2w[:3, 0], c2w[:3, 1], c2w[:3, 2], c2w[:3, 3] = right, true_up, -fwd, eye
    return c2w


def orbit_poses(n, radius=4.0, height=1.0):
    return [look_at((radius * math.cos(2 * math.pi * k / n),
                     radius * math.sin(2 * math.pi * k / n), height)) for k in range(n)]


def get_rays(H, W, focal, c2w):
    j, i = torch.meshgrid(torch.arange(H, dtype=torch.float32),
                          torch.arange(W, dtype=torch.float32), indexing="ij")
    dirs = torch.stack([(i - W * 0.5) / focal, -(j - H * 0.5) / focal, -torch.ones_like(i)], -1)
    rays_d = dirs @ c2w[:3, :3].T
    rays_o = c2w[:3, 3].expand_as(rays_d)
    return rays_o.reshape(-1, 3), rays_d.reshape(-1, 3)


def sphere_scene(rays_o, rays_d, radius=1.0, white_bkgd=True):
    """Analytic ground truth: a sphere whose color is a function of its surface normal."""
    d = rays_d / rays_d.norm(dim=-1, keepdim=True)
    b = (rays_o * d).sum(-1)
    c = (rays_o * rays_o).sum(-1) - radius ** 2
    disc = b * b - c
    hit = disc > 0
    t = -b - torch.sqrt(disc.clamp_min(0.0))
    n = rays_o + t[:, None] * d
    color = 0.5 * (n / radius + 1.0)
    bg = torch.ones_like(color) if white_bkgd else torch.zeros_like(color)
    return torch.where(hit[:, None], color, bg)
