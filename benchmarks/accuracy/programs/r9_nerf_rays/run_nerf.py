import argparse
import math
import time

import torch
import torch.nn.functional as F

from config import NeRFConfig
from network import NeRFMLP
from rays import get_rays, orbit_poses, sphere_scene, look_at
from render import VolumeRenderer, chunked


def mse2psnr(mse):
    return -10.0 * math.log10(max(mse, 1e-10))


def lr_at(step, cfg):
    return cfg.lrate * (0.1 ** (step / cfg.lrate_decay_steps))


def build_dataset(cfg):
    all_o, all_d, all_rgb = [], [], []
    for c2w in orbit_poses(cfg.n_train_views):
        o, d = get_rays(cfg.H, cfg.W, cfg.focal, c2w)
        all_o.append(o)
        all_d.append(d)
        all_rgb.append(sphere_scene(o, d, white_bkgd=cfg.white_bkgd))
    return torch.cat(all_o), torch.cat(all_d), torch.cat(all_rgb)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--preset", default="default", choices=["default", "coarse_only", "debug"])
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    cfg = NeRFConfig() if args.preset == "default" else getattr(NeRFConfig, args.preset)()
    rays_o, rays_d, target = build_dataset(cfg)
    print(f"training rays: {rays_o.shape[0]}  views: {cfg.n_train_views}  image {cfg.H}x{cfg.W}")

    coarse = NeRFMLP(cfg)
    fine = NeRFMLP(cfg) if cfg.n_importance > 0 else None
    renderer = VolumeRenderer(cfg, coarse, fine)
    opt = torch.optim.Adam(renderer.parameters(), lr=cfg.lrate, betas=(0.9, 0.999))
    n_params = sum(p.numel() for p in renderer.parameters())
    print(f"params: {n_params}  hierarchical: {renderer.hierarchical}")

    render = torch.compile(renderer)
    render_chunked = chunked(render)

    renderer.train()
    t0 = time.time()
    for step in range(cfg.steps):
        idx = torch.randint(0, rays_o.shape[0], (cfg.n_rays,))
        lr = lr_at(step, cfg)
        for g in opt.param_groups:
            g["lr"] = lr
        out = render(rays_o[idx], rays_d[idx], perturb=True, raw_noise_std=cfg.raw_noise_std)
        loss = F.mse_loss(out["rgb"], target[idx])
        psnr = mse2psnr(loss.item())
        if renderer.hierarchical:
            loss = loss + F.mse_loss(out["rgb0"], target[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 20 == 0 or step == cfg.steps - 1:
            print(f"step {step:3d}  lr {lr:.2e}  loss {loss.item():.4f}  psnr {psnr:.2f}"
                  f"  ({time.time() - t0:.1f}s)")

    # render a held-out view between two training cameras
    renderer.eval()
    test_pose = look_at((4.0 * math.cos(0.5), 4.0 * math.sin(0.5), 1.5))
    o, d = get_rays(cfg.H, cfg.W, cfg.focal, test_pose)
    gt = sphere_scene(o, d, white_bkgd=cfg.white_bkgd)
    with torch.no_grad():
        out = render_chunked(o, d, chunk=cfg.chunk, perturb=False, raw_noise_std=0.0)
    img = out["rgb"].reshape(cfg.H, cfg.W, 3).clamp(0.0, 1.0)
    test_mse = F.mse_loss(img.reshape(-1, 3), gt).item()
    print(f"test view: psnr {mse2psnr(test_mse):.2f}  mean depth {out['depth'].mean().item():.3f}"
          f"  mean acc {out['acc'].mean().item():.3f}")
    print(f"rendered {o.shape[0]} rays in chunks of {cfg.chunk}: "
          f"{[min(cfg.chunk, o.shape[0] - s) for s in range(0, o.shape[0], cfg.chunk)]}")


if __name__ == "__main__":
    main()
