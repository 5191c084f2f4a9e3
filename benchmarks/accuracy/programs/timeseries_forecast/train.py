"""Train N-BEATS on synthetic seasonal series, comparing MSE and MAE objectives."""

from __future__ import annotations

import argparse
import copy

import torch
import torch.nn.functional as F

from data import WindowDataset, make_series, train_val_split
from model import NBeatsNet


class EarlyStopping:
    """Stop when the validation metric has not improved by ``min_delta`` for ``patience`` epochs."""

    def __init__(self, patience: int = 3, min_delta: float = 0.0) -> None:
        self.patience = patience
        self.min_delta = min_delta
        self.best = float("inf")
        self.counter = 0
        self.best_state: dict | None = None

    def step(self, metric: float, model: torch.nn.Module) -> bool:
        if metric < self.best - self.min_delta:
            self.best = metric
            self.counter = 0
            self.best_state = copy.deepcopy(model.state_dict())
        else:
            self.counter += 1
        return self.counter >= self.patience

    def restore(self, model: torch.nn.Module) -> None:
        if self.best_state is not None:
            model.load_state_dict(self.best_state)


def forecast_loss(pred: torch.Tensor, target: torch.Tensor, loss_type: str) -> torch.Tensor:
    if loss_type == "mse":
        return F.mse_loss(pred, target)
    elif loss_type == "mae":
        return F.l1_loss(pred, target)
    elif loss_type == "smape":
        denom = (pred.abs() + target.abs()).clamp_min(1e-6)
        return 2.0 * ((pred - target).abs() / denom).mean()
    raise ValueError(f"unknown loss {loss_type}")


@torch.compile
def train_step(model: NBeatsNet, batch: tuple[torch.Tensor, torch.Tensor], loss_type: str) -> torch.Tensor:
    x, y = batch
    pred = model(x)
    loss = forecast_loss(pred, y, loss_type)
    loss.backward()
    return loss.detach()


def evaluate(compiled_model, dataset: WindowDataset, batch_size: int) -> tuple[float, float]:
    mse_sum, mae_sum, count = 0.0, 0.0, 0
    with torch.no_grad():
        # the final batch is smaller than the rest unless len(dataset) % batch_size == 0
        for x, y in dataset.batches(batch_size):
            pred = compiled_model(x)
            mse_sum += F.mse_loss(pred, y, reduction="sum").item()
            mae_sum += F.l1_loss(pred, y, reduction="sum").item()
            count += y.numel()
    return mse_sum / count, mae_sum / count


def run(loss_type: str, share_weights: bool, args: argparse.Namespace, train_ds: WindowDataset,
        val_ds: WindowDataset) -> None:
    torch.manual_seed(args.seed)
    model = NBeatsNet(
        backcast_length=args.lookback,
        forecast_length=args.horizon,
        stack_types=("trend", "seasonality", "generic"),
        nb_blocks_per_stack=2,
        thetas_dim=(3, 8, 8),
        hidden_layer_units=32,
        share_weights_in_stack=share_weights,
    )
    compiled_model = torch.compile(model)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    stopper = EarlyStopping(patience=args.patience, min_delta=1e-4)
    g = torch.Generator().manual_seed(args.seed)

    for epoch in range(args.epochs):
        model.train()
        total, n_batches = 0.0, 0
        for batch in train_ds.batches(args.batch_size, shuffle=True, generator=g):
            optimizer.zero_grad(set_to_none=True)
            loss = train_step(model, batch, loss_type)
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            total += loss.item()
            n_batches += 1
        model.eval()
        val_mse, val_mae = evaluate(compiled_model, val_ds, args.eval_batch_size)
        print(f"[{loss_type}] epoch {epoch} train {total / n_batches:.4f} val_mse {val_mse:.4f} val_mae {val_mae:.4f}")
        monitored = val_mse if loss_type == "mse" else val_mae
        if stopper.step(monitored, model):
            print(f"[{loss_type}] early stopping at epoch {epoch}")
            break
    stopper.restore(model)

    model.eval()
    with torch.no_grad():
        x, y = val_ds.x[:4], val_ds.y[:4]
        forecast, stacks = model(x, return_stacks=True)
        parts = ", ".join(f"{name}={s.abs().mean().item():.3f}" for name, s in zip(model.stack_types, stacks))
        print(f"[{loss_type}] params={sum(p.numel() for p in model.parameters())} best={stopper.best:.4f} stack contributions: {parts}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lookback", type=int, default=24)
    parser.add_argument("--horizon", type=int, default=8)
    parser.add_argument("--length", type=int, default=160)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--eval-batch-size", type=int, default=48)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--patience", type=int, default=2)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--share-weights", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    args, _ = parser.parse_known_args()

    series = make_series(args.length, n_series=4, seed=args.seed)
    train_series, val_series = train_val_split(series, args.lookback, args.horizon)
    train_ds = WindowDataset(train_series, args.lookback, args.horizon, stride=2)
    val_ds = WindowDataset(val_series, args.lookback, args.horizon, stride=1)
    print(f"train windows {len(train_ds)}, val windows {len(val_ds)}")

    # (objective, share weights within each stack)
    experiments = [("mse", args.share_weights), ("mae", True)]
    for loss_type, share in experiments:
        run(loss_type, share, args, train_ds, val_ds)


if __name__ == "__main__":
    main()
