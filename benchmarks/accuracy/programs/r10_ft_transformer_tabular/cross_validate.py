import argparse
import dataclasses
import statistics

import torch
import torch.nn.functional as F

from config import PRESETS
from data import Standardizer, iterate_batches, kfold_indices, make_churn_dataset
from model import FTTransformer
from training_utils import EarlyStopping, cosine_lr, log_duration, roc_auc


@torch.compile
def weighted_bce(logits, targets, pos_weight: float, smoothing: float = 0.0):
    targets = targets * (1.0 - smoothing) + 0.5 * smoothing
    weight = 1.0 + (pos_weight - 1.0) * targets
    return F.binary_cross_entropy_with_logits(logits.float(), targets, weight=weight)


def build_optimizer(model, cfg):
    # as in the FT-Transformer paper: no weight decay for tokenizers, norms and biases
    decay, no_decay = [], []
    for name, p in model.named_parameters():
        skip = "tokenizer" in name or "cls_token" in name or "norm" in name or name.endswith(".bias")
        (no_decay if skip else decay).append(p)
    groups = [{"params": decay, "weight_decay": cfg.weight_decay}, {"params": no_decay, "weight_decay": 0.0}]
    return torch.optim.AdamW(groups, lr=cfg.lr)


def evaluate(model, split, cfg, batch_size=512):
    model.eval()
    outputs = []
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=cfg.use_bf16):
        for batch in iterate_batches(split, batch_size):
            outputs.append(model(batch.x_num, batch.x_cat).float())
    logits = torch.cat(outputs)
    loss = F.binary_cross_entropy_with_logits(logits, split.y).item()
    return loss, roc_auc(logits, split.y)


@log_duration("cv")
def run_fold(fold, train, val, cfg, args):
    torch.manual_seed(args.seed + fold)
    model = FTTransformer(cfg)
    compiled = torch.compile(model)
    if fold == 0:
        n_params = sum(p.numel() for p in model.parameters())
        print(f"  FT-Transformer: {n_params:,} params, {model.n_tokens} tokens per row")
    optimizer = build_optimizer(model, cfg)
    pos_rate = train.y.mean().item()
    pos_weight = (1.0 - pos_rate) / pos_rate
    steps_per_epoch = len(train) // cfg.batch_size
    total_steps = steps_per_epoch * cfg.max_epochs
    stopper = EarlyStopping(cfg.patience, mode="max")
    gen = torch.Generator().manual_seed(args.seed * 100 + fold)
    step = 0
    for epoch in range(cfg.max_epochs):
        model.train()
        running = 0.0
        for batch in iterate_batches(train, cfg.batch_size, shuffle=True, drop_last=True, generator=gen):
            lr = cosine_lr(step, total_steps, cfg.lr, cfg.warmup_steps)
            for group in optimizer.param_groups:
                group["lr"] = lr
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=cfg.use_bf16):
                logits = compiled(batch.x_num, batch.x_cat)
            loss = weighted_bce(logits, batch.y, pos_weight, args.label_smoothing)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip)
            optimizer.step()
            running += loss.item()
            step += 1
        val_loss, val_auc = evaluate(compiled, val, cfg)
        improved = stopper.step(val_auc, model)
        print(f"  fold {fold} epoch {epoch} lr={lr:.2e} train_loss={running / steps_per_epoch:.4f} "
              f"val_loss={val_loss:.4f} val_auc={val_auc:.4f}{' *' if improved else ''}")
        if stopper.should_stop:
            print(f"  fold {fold}: early stopping after epoch {epoch}")
            break
    model.load_state_dict(stopper.best_state)
    return evaluate(compiled, val, cfg)


def main():
    parser = argparse.ArgumentParser(description="FT-Transformer k-fold CV on synthetic churn data")
    parser.add_argument("--preset", default="tiny", choices=sorted(PRESETS))
    parser.add_argument("--folds", type=int, default=3)
    parser.add_argument("--n-rows", type=int, default=1200)
    parser.add_argument("--bf16-folds", default="odd", choices=["none", "odd", "all"])
    parser.add_argument("--label-smoothing", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    base_cfg = PRESETS[args.preset]()
    data = make_churn_dataset(args.n_rows, base_cfg.n_num_features, base_cfg.cat_cardinalities, seed=args.seed)
    print(f"dataset: {len(data)} rows, positive rate {data.y.mean().item():.3f}")

    aucs = []
    for fold, train_idx, val_idx in kfold_indices(len(data), args.folds, seed=args.seed):
        use_bf16 = args.bf16_folds == "all" or (args.bf16_folds == "odd" and fold % 2 == 1)
        cfg = dataclasses.replace(base_cfg, use_bf16=use_bf16)
        scaler = Standardizer().fit(data.x_num[train_idx])
        train, val = scaler(data.subset(train_idx)), scaler(data.subset(val_idx))
        print(f"fold {fold}: train={len(train)} val={len(val)} bf16={cfg.use_bf16}")
        val_loss, val_auc = run_fold(fold, train, val, cfg, args)
        print(f"fold {fold}: best val_loss={val_loss:.4f} val_auc={val_auc:.4f}")
        aucs.append(val_auc)
    print(f"CV AUC: {statistics.mean(aucs):.4f} +/- {statistics.pstdev(aucs):.4f}")


if __name__ == "__main__":
    main()
