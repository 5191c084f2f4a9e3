from dataclasses import dataclass

import torch


@dataclass
class TabularSplit:
    x_num: torch.Tensor
    x_cat: torch.Tensor
    y: torch.Tensor

    def __len__(self):
        return self.y.size(0)

    def subset(self, idx):
        return TabularSplit(self.x_num[idx], self.x_cat[idx], self.y[idx])


def make_churn_dataset(n_rows, n_num, cardinalities, seed=0):
    """Synthetic 'customer churn' table with non-linear effects and interactions."""
    g = torch.Generator().manual_seed(seed)
    x_num = torch.randn(n_rows, n_num, generator=g)
    x_num[:, 0] = x_num[:, 0].exp()  # a skewed 'spend' column
    x_cat = torch.stack([torch.randint(0, c, (n_rows,), generator=g) for c in cardinalities.values()], dim=1)
    cat_effects = [torch.randn(c, generator=g) for c in cardinalities.values()]
    logit = 0.8 * torch.log1p(x_num[:, 0]) - 1.2 * x_num[:, 1] * x_num[:, 2] + torch.sin(2 * x_num[:, 3])
    for j, eff in enumerate(cat_effects):
        logit = logit + eff[x_cat[:, j]]
    logit = logit - logit.mean()
    y = torch.bernoulli(torch.sigmoid(1.5 * logit), generator=g)
    return TabularSplit(x_num, x_cat, y)


def kfold_indices(n, k, seed=0):
    perm = torch.randperm(n, generator=torch.Generator().manual_seed(seed))
    folds = perm.chunk(k)
    for i in range(k):
        train_idx = torch.cat([f for j, f in enumerate(folds) if j != i])
        yield i, train_idx, folds[i]


class Standardizer:
    def fit(self, x):
        self.mean, self.std = x.mean(0, keepdim=True), x.std(0, keepdim=True).clamp_min(1e-6)
        return self

    def __call__(self, split):
        return TabularSplit((split.x_num - self.mean) / self.std, split.x_cat, split.y)


def iterate_batches(split, batch_size, shuffle=False, drop_last=False, generator=None):
    n = len(split)
    order = torch.randperm(n, generator=generator) if shuffle else torch.arange(n)
    stop = n - n % batch_size if drop_last else n
    for start in range(0, stop, batch_size):
        yield split.subset(order[start:start + batch_size])
