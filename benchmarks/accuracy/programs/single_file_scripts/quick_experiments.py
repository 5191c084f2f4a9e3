"""Scratch experiments with torch.compile, exported from a notebook.

Each section was a notebook cell; run top to bottom to reproduce the printed numbers.
"""

import math
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
DIM = 16


def banner(title):
    print(f"\n=== {title} ===")


# %% 1. power iteration: how many iterations until the top eigenvalue settles?
@torch.compile
def power_iteration(A, v, n_iters):
    for _ in range(n_iters):
        v = A @ v
        v = v / v.norm()
    eigval = v @ (A @ v)
    return eigval, v


def exp_power_iteration():
    banner("power iteration vs n_iters")
    M = torch.randn(DIM, DIM)
    A = M @ M.T / DIM  # symmetric PSD
    true_top = torch.linalg.eigvalsh(A)[-1].item()
    v0 = torch.ones(DIM) / math.sqrt(DIM)
    for n_iters in [1, 2, 5, 10, 20]:
        eigval, _ = power_iteration(A, v0, n_iters)
        print(f"n_iters={n_iters:3d}  estimate={eigval.item():.5f}  true={true_top:.5f}  "
              f"err={abs(eigval.item() - true_top):.2e}")


# %% 2. temperature sweep on a compiled classifier head
class TemperatureHead(nn.Module):
    def __init__(self, dim, n_classes, temperature=1.0):
        super().__init__()
        self.proj = nn.Linear(dim, n_classes)
        self.temperature = temperature

    def forward(self, x):
        logits = self.proj(x) / self.temperature
        probs = logits.softmax(dim=-1)
        entropy = -(probs * probs.clamp_min(1e-12).log()).sum(-1)
        return probs, entropy


def exp_temperature_sweep():
    banner("temperature sweep (module attribute changed between calls)")
    head = TemperatureHead(DIM, 5)
    head.eval()
    compiled_head = torch.compile(head)
    x = torch.randn(8, DIM)
    with torch.no_grad():
        for t in [0.25, 0.5, 1.0, 2.0, 4.0]:
            head.temperature = t
            probs, entropy = compiled_head(x)
            print(f"T={t:<5} max prob={probs.max(-1).values.mean().item():.4f}  "
                  f"mean entropy={entropy.mean().item():.4f}")


# %% 3. does the fused gelu-ish approximation hold up in lower precision?
@torch.compile
def gelu_tanh_error(x):
    approx = 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x.pow(3))))
    exact = F.gelu(x.float()).to(x.dtype)
    return (approx - exact).abs().max(), approx.dtype


def exp_dtypes():
    banner("same function, two dtypes")
    x = torch.linspace(-4, 4, 257)
    for dtype in [torch.float32, torch.float64, torch.float32]:
        err, out_dtype = gelu_tanh_error(x.to(dtype))
        print(f"input {str(dtype):15s} -> output {str(out_dtype):15s} max abs err {err.item():.3e}")


# %% 4. residual block with / without pre-norm, toggled by a bool flag
W1 = torch.randn(DIM, 4 * DIM) / math.sqrt(DIM)
W2 = torch.randn(4 * DIM, DIM) / math.sqrt(4 * DIM)


@torch.compile
def residual_mlp(x, pre_norm: bool, scale: float = 1.0):
    h = F.layer_norm(x, (x.shape[-1],)) if pre_norm else x
    h = F.gelu(h @ W1) @ W2
    return x + scale * h


def exp_bool_flag():
    banner("bool flag toggled")
    x = torch.randn(4, DIM) * 3.0
    for depth in [1, 4]:
        for pre_norm in [True, False]:
            y = x
            for _ in range(depth):
                y = residual_mlp(y, pre_norm)
            print(f"depth={depth} pre_norm={pre_norm!s:5}  output std={y.std().item():.4f}")


# %% 5. debugging prints inside a compiled function (graph breaks expected)
@torch.compile
def standardize_and_report(x, name):
    mean = x.mean().item()
    std = x.std().item()
    print(f"  [inside] {name}: mean={mean:.4f} std={std:.4f}")
    if std < 1e-6:
        return x - mean
    return (x - mean) / std


def exp_item_print():
    banner(".item() + print inside compiled code")
    for name, scale in [("small", 0.1), ("unit", 1.0), ("large", 25.0)]:
        x = torch.randn(64) * scale + 3.0
        z = standardize_and_report(x, name)
        print(f"{name}: after -> mean={z.mean().item():+.4f} std={z.std().item():.4f}")
    z = standardize_and_report(torch.full((64,), 2.0), "constant")
    print(f"constant: after -> {z[:3].tolist()}")


# %% 6. activation factory: compile closures / lambdas
def make_activation(kind, alpha=0.1):
    if kind == "leaky":
        return lambda x: torch.where(x > 0, x, alpha * x)
    if kind == "swish":
        def swish(x):
            return x * torch.sigmoid(alpha * x) if alpha != 1.0 else F.silu(x)
        return swish
    if kind == "softclip":
        return lambda x: alpha * torch.tanh(x / alpha)
    raise ValueError(kind)


def exp_closures():
    banner("compiled closures from a factory")
    x = torch.linspace(-3, 3, 7)
    for kind, alpha in [("leaky", 0.1), ("leaky", 0.2), ("swish", 1.0), ("swish", 1.702), ("softclip", 2.0)]:
        act = torch.compile(make_activation(kind, alpha))
        y = act(x)
        print(f"{kind:8s} alpha={alpha:<6} -> {[round(v, 3) for v in y.tolist()]}")


# %% 7. timing: eager vs compiled for growing batch sizes
def exp_batch_sizes():
    banner("growing batch sizes")
    torch.compiler.reset()
    mlp = nn.Sequential(nn.Linear(DIM, 64), nn.GELU(), nn.Linear(64, DIM))
    compiled = torch.compile(mlp)
    with torch.no_grad():
        for bs in [2, 3, 8, 16]:
            x = torch.randn(bs, DIM)
            t0 = time.perf_counter()
            y = compiled(x)
            dt = time.perf_counter() - t0
            diff = (y - mlp(x)).abs().max().item()
            print(f"batch={bs:3d}  first-call time={dt * 1e3:8.1f}ms  max diff vs eager={diff:.2e}")


def main():
    exp_power_iteration()
    exp_temperature_sweep()
    exp_dtypes()
    exp_bool_flag()
    exp_item_print()
    exp_closures()
    exp_batch_sizes()
    print("\nall experiments done")


if __name__ == "__main__":
    main()
