import torch


class SyntheticCustomers:
    """Generates tabular + event-sequence features with three correlated targets."""

    def __init__(self, cfg, n=1024, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.numeric = torch.randn(n, cfg.num_numeric, generator=g)
        self.cats = torch.randint(0, cfg.num_categories, (n, cfg.seq_len), generator=g)
        lengths = torch.randint(2, cfg.seq_len + 1, (n,), generator=g)
        self.mask = torch.arange(cfg.seq_len)[None, :] < lengths[:, None]
        cat_score = torch.randn(cfg.num_categories, generator=g)[self.cats]
        cat_score = (cat_score * self.mask).sum(1) / lengths
        w = torch.randn(cfg.num_numeric, generator=g)
        latent = self.numeric @ w / cfg.num_numeric ** 0.5 + cat_score
        self.targets = {
            "churn": torch.bucketize(latent, torch.tensor([-0.5, 0.5])),
            "spend": 2.0 * latent + 0.3 * torch.randn(n, generator=g),
            "relevance": torch.tanh(latent) + 0.1 * torch.randn(n, generator=g),
        }
        self.n = n
        self.g = g

    def batch(self, task, batch_size):
        idx = torch.randint(0, self.n, (batch_size,), generator=self.g)
        return self.numeric[idx], self.cats[idx], self.mask[idx], self.targets[task][idx]

    def split(self, frac=0.8):
        k = int(self.n * frac)
        return range(0, k), range(k, self.n)
