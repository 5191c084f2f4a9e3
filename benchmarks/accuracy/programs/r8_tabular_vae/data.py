"""Synthetic tabular data with a low-dimensional latent structure."""
import torch

from model import TabularVAEConfig


def make_tabular_dataset(cfg: TabularVAEConfig, n_rows: int, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    true_latent = torch.randn(n_rows, 3, generator=g)
    mix = torch.randn(3, cfg.num_numeric, generator=g)
    x_num = true_latent @ mix + 0.1 * torch.randn(n_rows, cfg.num_numeric, generator=g)
    cats = []
    for i, card in enumerate(cfg.cat_cardinalities):
        w = torch.randn(3, card, generator=g)
        logits = true_latent @ w + 0.5 * torch.randn(n_rows, card, generator=g)
        cats.append(logits.argmax(dim=-1))
    x_cat = torch.stack(cats, dim=-1)
    return x_num, x_cat


def standardize(train_num: torch.Tensor, *others: torch.Tensor, eps: float = 1e-6):
    mean = train_num.mean(dim=0, keepdim=True)
    std = train_num.std(dim=0, keepdim=True) + eps
    return [(t - mean) / std for t in (train_num, *others)]


def iterate_minibatches(x_num, x_cat, batch_size: int, generator: torch.Generator):
    perm = torch.randperm(x_num.shape[0], generator=generator)
    for start in range(0, x_num.shape[0] - batch_size + 1, batch_size):
        idx = perm[start:start + batch_size]
        yield x_num[idx], x_cat[idx]
