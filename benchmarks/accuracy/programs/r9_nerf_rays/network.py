import torch
import torch.nn as nn
import torch.nn.functional as F

from encoding import PositionalEncoding


class NeRFMLP(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.use_viewdirs = cfg.use_viewdirs
        self.skips = (cfg.skip_at,)
        self.embed_pts = PositionalEncoding(3, cfg.num_freqs, cfg.include_input)
        self.embed_dirs = PositionalEncoding(3, cfg.num_dir_freqs, cfg.include_input)
        in_ch = self.embed_pts.out_dim
        layers = []
        for i in range(cfg.depth):
            if i == 0:
                d_in = in_ch
            elif (i - 1) in self.skips:
                d_in = cfg.hidden + in_ch
            else:
                d_in = cfg.hidden
            layers.append(nn.Linear(d_in, cfg.hidden))
        self.pts_linears = nn.ModuleList(layers)
        if self.use_viewdirs:
            self.alpha_linear = nn.Linear(cfg.hidden, 1)
            self.feature_linear = nn.Linear(cfg.hidden, cfg.hidden)
            self.views_linear = nn.Linear(cfg.hidden + self.embed_dirs.out_dim, cfg.hidden // 2)
            self.rgb_linear = nn.Linear(cfg.hidden // 2, 3)
        else:
            self.output_linear = nn.Linear(cfg.hidden, 4)

    def forward(self, pts, viewdirs):
        x = self.embed_pts(pts)
        h = x
        for i, layer in enumerate(self.pts_linears):
            h = F.relu(layer(h))
            if i in self.skips:
                h = torch.cat([x, h], dim=-1)
        if not self.use_viewdirs:
            return self.output_linear(h)
        sigma = self.alpha_linear(h)
        feat = self.feature_linear(h)
        d = self.embed_dirs(viewdirs)
        h = F.relu(self.views_linear(torch.cat([feat, d], dim=-1)))
        rgb = self.rgb_linear(h)
        return torch.cat([rgb, sigma], dim=-1)
