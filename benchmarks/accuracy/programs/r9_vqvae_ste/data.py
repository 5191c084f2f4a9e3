import torch


class SyntheticShapes:
    """1x16x16 images of random axis-aligned boxes, discs and bars."""

    def __init__(self, size=16, seed=0):
        self.size = size
        self.g = torch.Generator().manual_seed(seed)
        coords = torch.arange(size, dtype=torch.float32)
        self.yy, self.xx = torch.meshgrid(coords, coords, indexing="ij")

    def _rand(self, n, lo, hi):
        return lo + (hi - lo) * torch.rand(n, 1, 1, generator=self.g)

    def sample(self, n):
        s = self.size
        cx, cy = self._rand(n, 3, s - 3), self._rand(n, 3, s - 3)
        r = self._rand(n, 2, 5)
        kind = torch.randint(0, 3, (n, 1, 1), generator=self.g)
        disc = ((self.xx - cx) ** 2 + (self.yy - cy) ** 2 <= r ** 2).float()
        box = (((self.xx - cx).abs() <= r) & ((self.yy - cy).abs() <= r * 0.6)).float()
        bar = ((self.xx - cx).abs() <= 1.0).float() * ((self.yy - cy).abs() <= r + 2).float()
        img = torch.where(kind == 0, disc, torch.where(kind == 1, box, bar))
        intensity = self._rand(n, 0.5, 1.0)
        noise = 0.05 * torch.randn(n, s, s, generator=self.g)
        return (img * intensity + noise).unsqueeze(1)
