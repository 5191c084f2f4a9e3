from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

from model import ForecastTransformer
from utils import EarlyStopping, get_loss, make_series, make_windows, set_seed


@dataclass
class TrainConfig:
    context_len: int = 24
    horizon: int = 6
    d_model: int = 16
    nhead: int = 2
    num_layers: int = 1
    dim_feedforward: int = 32
    dropout: float = 0.1
    loss: str = "quantile"
    quantiles: list[float] = field(default_factory=lambda: [0.1, 0.5, 0.9])
    batch_size: int = 32
    lr: float = 1e-2
    max_epochs: int = 8
    tf_start: float = 1.0
    tf_decay: float = 0.7
    tf_min: float = 0.0
    patience: int = 2
    grad_clip: float = 1.0
    seed: int = 0


def teacher_forcing_ratio(cfg: TrainConfig, epoch: int) -> float:
    return max(cfg.tf_min, cfg.tf_start * cfg.tf_decay**epoch)


@torch.no_grad()
def evaluate(model: ForecastTransformer, x: torch.Tensor, y: torch.Tensor, cfg: TrainConfig, quantiles: list[float]) -> dict[str, float]:
    model.eval()
    pred = model(x, cfg.horizon)
    loss_fn = get_loss(cfg.loss)
    point = pred[..., model.point_index : model.point_index + 1]
    metrics = {"loss": loss_fn(pred, y, quantiles).item(), "mae": (point - y).abs().mean().item()}
    if len(quantiles) > 1:
        lo, hi = pred[..., :1], pred[..., -1:]
        metrics["coverage"] = ((y >= lo) & (y <= hi)).float().mean().item()
    return metrics


def main() -> None:
    cfg = TrainConfig()
    set_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    series = make_series(24, 96, rng)
    train_x, train_y = make_windows(series[:16], cfg.context_len, cfg.horizon, stride=4)
    val_x, val_y = make_windows(series[16:20], cfg.context_len, cfg.horizon, stride=8)
    test_x, test_y = make_windows(series[20:], cfg.context_len, cfg.horizon, stride=8)
    loader = DataLoader(
        TensorDataset(train_x, train_y),
        batch_size=cfg.batch_size,
        shuffle=True,
        drop_last=True,
        generator=torch.Generator().manual_seed(cfg.seed),
    )

    quantiles = cfg.quantiles if cfg.loss == "quantile" else [0.5]
    model = ForecastTransformer(
        d_model=cfg.d_model,
        nhead=cfg.nhead,
        num_encoder_layers=cfg.num_layers,
        num_decoder_layers=cfg.num_layers,
        dim_feedforward=cfg.dim_feedforward,
        dropout=cfg.dropout,
        quantiles=quantiles,
    )
    model.compile()
    loss_fn = get_loss(cfg.loss)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=1e-4)
    stopper = EarlyStopping(patience=cfg.patience)
    print(f"train windows {len(train_x)}, val {len(val_x)}, test {len(test_x)}, loss={cfg.loss}")

    start = time.perf_counter()
    for epoch in range(cfg.max_epochs):
        tf_ratio = teacher_forcing_ratio(cfg, epoch)
        model.train()
        running, batches = 0.0, 0
        for xb, yb in loader:
            pred = model(xb, cfg.horizon, target=yb, teacher_forcing_ratio=tf_ratio)
            loss = loss_fn(pred, yb, quantiles)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip)
            optimizer.step()
            running += loss.item()
            batches += 1
        val = evaluate(model, val_x, val_y, cfg, quantiles)
        print(
            f"epoch {epoch}  tf={tf_ratio:.2f}  train {running / batches:.4f}  "
            f"val {val['loss']:.4f}  val_mae {val['mae']:.4f}"
        )
        if stopper.step(val["loss"], model):
            print(f"early stopping at epoch {epoch}, best val {stopper.best:.4f}")
            break

    if stopper.best_state is not None:
        model.load_state_dict(stopper.best_state)
    test = evaluate(model, test_x, test_y, cfg, quantiles)
    print("test:", {k: round(v, 4) for k, v in test.items()}, f"[{time.perf_counter() - start:.1f}s]")


if __name__ == "__main__":
    main()
