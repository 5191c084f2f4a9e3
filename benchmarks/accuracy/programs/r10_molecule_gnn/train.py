import argparse
import math
import time

import torch
import torch.nn.functional as F

from config import PRESETS
from data import make_dataset, batches
from model import MoleculeMPNN


def lr_at(step, cfg, total_steps):
    if step < cfg.warmup_steps:
        return cfg.lr * (step + 1) / cfg.warmup_steps
    progress = (step - cfg.warmup_steps) / max(1, total_steps - cfg.warmup_steps)
    return cfg.min_lr + 0.5 * (cfg.lr - cfg.min_lr) * (1.0 + math.cos(math.pi * progress))


def regression_loss(pred, target, kind, delta):
    if kind == "huber":
        return F.huber_loss(pred, target, delta=delta)
    if kind == "mse":
        return F.mse_loss(pred, target)
    raise ValueError(f"unknown loss {kind}")


def make_train_step(model, optimizer, cfg):
    @torch.compile(dynamic=True)
    def compute_loss(x, edge_index, edge_type, batch, num_graphs, y, y_mean, y_std):
        pred = model(x, edge_index, edge_type, batch, num_graphs)
        return regression_loss(pred, (y - y_mean) / y_std, cfg.loss, cfg.huber_delta)

    def train_step(b, lr, y_mean, y_std):
        for group in optimizer.param_groups:
            group["lr"] = lr
        optimizer.zero_grad(set_to_none=True)
        loss = compute_loss(b["x"], b["edge_index"], b["edge_type"], b["batch"], b["num_graphs"],
                            b["y"], y_mean, y_std)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip)
        optimizer.step()
        return loss

    return train_step


@torch.no_grad()
def evaluate(compiled_model, dataset, cfg, y_mean, y_std):
    compiled_model.eval()
    abs_err, count = 0.0, 0
    for b in batches(dataset, cfg.batch_size, shuffle=False):
        pred = compiled_model(b["x"], b["edge_index"], b["edge_type"], b["batch"], b["num_graphs"])
        pred = pred * y_std + y_mean
        abs_err += (pred - b["y"]).abs().sum().item()
        count += b["num_graphs"]
    compiled_model.train()
    return abs_err / count


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--preset", default="default", choices=sorted(PRESETS))
    parser.add_argument("--loss", default=None)
    parser.add_argument("--layer-kind", default=None)
    args = parser.parse_args()

    overrides = {}
    if args.loss is not None:
        overrides["loss"] = args.loss
    if args.layer_kind is not None:
        overrides["model.layer_kind"] = args.layer_kind
    cfg = PRESETS[args.preset]().with_overrides(overrides)

    torch.manual_seed(cfg.seed)
    mcfg = cfg.model
    train_set = make_dataset(cfg.num_train_graphs, mcfg.node_feat_dim, mcfg.num_edge_types, cfg.seed)
    val_set = make_dataset(cfg.num_val_graphs, mcfg.node_feat_dim, mcfg.num_edge_types, cfg.seed + 1)
    ys = torch.cat([g["y"] for g in train_set])
    y_mean, y_std = ys.mean().item(), ys.std().item()
    print(f"train={len(train_set)} val={len(val_set)} y_mean={y_mean:.3f} y_std={y_std:.3f}")

    model = MoleculeMPNN(mcfg)
    print(f"model: {mcfg.layer_kind} x{mcfg.num_layers}, vn={mcfg.use_virtual_node}, params={model.num_parameters}")
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    train_step = make_train_step(model, optimizer, cfg)
    eval_model = torch.compile(model, dynamic=True)

    steps_per_epoch = math.ceil(len(train_set) / cfg.batch_size)
    total_steps = cfg.epochs * steps_per_epoch
    gen = torch.Generator().manual_seed(cfg.seed)
    step = 0
    t0 = time.time()
    model.train()
    for epoch in range(cfg.epochs):
        running = 0.0
        for b in batches(train_set, cfg.batch_size, shuffle=True, gen=gen):
            lr = lr_at(step, cfg, total_steps)
            loss = train_step(b, lr, y_mean, y_std)
            running += loss.item()
            step += 1
            if step % cfg.log_every == 0:
                print(f"step {step:4d} lr {lr:.5f} loss {loss.item():.4f}")
        val_mae = evaluate(eval_model, val_set, cfg, y_mean, y_std)
        print(f"epoch {epoch} train_loss {running / steps_per_epoch:.4f} val_mae {val_mae:.4f} "
              f"({time.time() - t0:.1f}s)")
    print("done")


if __name__ == "__main__":
    main()
