import torch
import torch.nn as nn
import torch.nn.functional as F


class FLAGS:
    use_gelu = False
    residual_scale = 1.0


class MLPBlock(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        h = self.fc(self.norm(x))
        h = F.gelu(h) if FLAGS.use_gelu else torch.relu(h)
        return x + FLAGS.residual_scale * h
