import torch
import torch.nn as nn


class DenoisingAutoencoder(nn.Module):
    def __init__(self, dim=24, hidden=12, noise_std=0.5):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU())
        self.decoder = nn.Linear(hidden, dim)
        self.noise_std = noise_std

    def forward(self, x):
        noisy = x + self.noise_std * torch.randn_like(x)
        return self.decoder(self.encoder(noisy))
