import torch
import torch.nn as nn
import torch.nn.functional as F

from quantizer import VectorQuantizer


class ResBlock(nn.Module):
    def __init__(self, ch, hidden, dropout=0.0):
        super().__init__()
        self.block = nn.Sequential(
            nn.ReLU(),
            nn.Conv2d(ch, hidden, 3, padding=1),
            nn.ReLU(),
            nn.Dropout(dropout),
            nn.Conv2d(hidden, ch, 1),
        )

    def forward(self, x):
        return x + self.block(x)


class Encoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.down = nn.Sequential(
            nn.Conv2d(cfg.in_channels, cfg.hidden // 2, 4, stride=2, padding=1),  # 16 -> 8
            nn.ReLU(),
            nn.Conv2d(cfg.hidden // 2, cfg.hidden, 4, stride=2, padding=1),       # 8 -> 4
        )
        self.res = nn.ModuleList(
            [ResBlock(cfg.hidden, cfg.res_hidden, cfg.dropout) for _ in range(cfg.n_res_blocks)]
        )
        self.to_latent = nn.Conv2d(cfg.hidden, cfg.embedding_dim, 1)

    def forward(self, x):
        h = self.down(x)
        for blk in self.res:
            h = blk(h)
        return self.to_latent(F.relu(h))


class Decoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.from_latent = nn.Conv2d(cfg.embedding_dim, cfg.hidden, 3, padding=1)
        self.res = nn.ModuleList(
            [ResBlock(cfg.hidden, cfg.res_hidden, cfg.dropout) for _ in range(cfg.n_res_blocks)]
        )
        self.up = nn.Sequential(
            nn.ReLU(),
            nn.ConvTranspose2d(cfg.hidden, cfg.hidden // 2, 4, stride=2, padding=1),  # 4 -> 8
            nn.ReLU(),
            nn.ConvTranspose2d(cfg.hidden // 2, cfg.in_channels, 4, stride=2, padding=1),
        )

    def forward(self, z):
        h = self.from_latent(z)
        for blk in self.res:
            h = blk(h)
        return self.up(h)


class VQVAE(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.encoder = Encoder(cfg)
        self.quantizer = VectorQuantizer(cfg)
        self.decoder = Decoder(cfg)

    @property
    def codebook_size(self):
        return self.quantizer.num_codes

    def forward(self, x, commit_weight=1.0):
        z = self.encoder(x)
        zq, vq_loss, perplexity, codes = self.quantizer(z, commit_weight)
        recon = self.decoder(zq)
        recon_loss = F.mse_loss(recon, x)
        return {
            "recon": recon,
            "loss": recon_loss + vq_loss,
            "recon_loss": recon_loss,
            "vq_loss": vq_loss,
            "perplexity": perplexity,
            "codes": codes,
        }
