import torch
import torch.nn as nn
import torch.nn.functional as F


class FeedForwardModule(nn.Module):
    def __init__(self, d_model, mult, dropout, residual_factor=0.5):
        super().__init__()
        self.residual_factor = residual_factor
        self.net = nn.Sequential(
            nn.LayerNorm(d_model), nn.Linear(d_model, d_model * mult), nn.SiLU(), nn.Dropout(dropout),
            nn.Linear(d_model * mult, d_model), nn.Dropout(dropout))

    def forward(self, x):
        return x + self.residual_factor * self.net(x)


def relative_position_index(q_len, k_len, max_rel, device):
    # queries are the last q_len positions of the key sequence
    q_pos = torch.arange(q_len, device=device) + (k_len - q_len)
    k_pos = torch.arange(k_len, device=device)
    rel = (k_pos[None, :] - q_pos[:, None]).clamp(-max_rel, max_rel)
    return rel + max_rel


class RelPositionMHSA(nn.Module):
    def __init__(self, d_model, n_heads, max_rel, dropout):
        super().__init__()
        self.n_heads, self.head_dim = n_heads, d_model // n_heads
        self.scale = self.head_dim ** -0.5
        self.max_rel = max_rel
        self.norm = nn.LayerNorm(d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)
        self.rel_bias = nn.Embedding(2 * max_rel + 1, n_heads)
        self.dropout = nn.Dropout(dropout)

    def _split(self, t):
        B, T, _ = t.shape
        return t.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)

    def forward(self, x, mask=None, kv_cache=None):
        B, T, D = x.shape
        q, k, v = self.qkv(self.norm(x)).chunk(3, dim=-1)
        if kv_cache is not None:
            k = torch.cat([kv_cache[0], k], dim=1)
            v = torch.cat([kv_cache[1], v], dim=1)
        new_cache = (k, v)
        q, kh, vh = self._split(q), self._split(k), self._split(v)
        scores = torch.matmul(q, kh.transpose(-2, -1)) * self.scale
        rel = relative_position_index(T, kh.size(2), self.max_rel, x.device)
        scores = scores + self.rel_bias(rel).permute(2, 0, 1).unsqueeze(0)
        if mask is not None:
            scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        attn = self.dropout(scores.softmax(dim=-1))
        ctx = torch.matmul(attn, vh).transpose(1, 2).reshape(B, T, D)
        return x + self.dropout(self.out(ctx)), new_cache


class ConvModule(nn.Module):
    def __init__(self, d_model, kernel_size, dropout):
        super().__init__()
        self.lorder = kernel_size - 1
        self.norm = nn.LayerNorm(d_model)
        self.pointwise_in = nn.Conv1d(d_model, 2 * d_model, 1)
        self.glu = nn.GLU(dim=1)
        self.depthwise = nn.Conv1d(d_model, d_model, kernel_size, groups=d_model)
        self.bn = nn.BatchNorm1d(d_model)
        self.act = nn.SiLU()
        self.pointwise_out = nn.Conv1d(d_model, d_model, 1)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, conv_cache=None):
        h = self.glu(self.pointwise_in(self.norm(x).transpose(1, 2)))
        if conv_cache is None:
            h = F.pad(h, (self.lorder, 0))
        else:
            h = torch.cat([conv_cache, h], dim=2)
        new_cache = h[:, :, -self.lorder:]
        h = self.pointwise_out(self.act(self.bn(self.depthwise(h))))
        return x + self.dropout(h.transpose(1, 2)), new_cache


class ConformerBlock(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.ff1 = FeedForwardModule(cfg.d_model, cfg.ff_mult, cfg.dropout, cfg.ff_residual_factor)
        self.mhsa = RelPositionMHSA(cfg.d_model, cfg.n_heads, cfg.max_rel_pos, cfg.dropout)
        self.conv = ConvModule(cfg.d_model, cfg.conv_kernel, cfg.dropout)
        self.ff2 = FeedForwardModule(cfg.d_model, cfg.ff_mult, cfg.dropout, cfg.ff_residual_factor)
        self.final_norm = nn.LayerNorm(cfg.d_model)

    def forward(self, x, mask=None, att_cache=None, conv_cache=None):
        x = self.ff1(x)
        x, new_att = self.mhsa(x, mask, att_cache)
        x, new_conv = self.conv(x, conv_cache)
        x = self.ff2(x)
        return self.final_norm(x), new_att, new_conv
