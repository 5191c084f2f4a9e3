"""A tiny Conformer-lite CTC acoustic model."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_out_length(lengths: torch.Tensor, kernel_size: int, stride: int, padding: int) -> torch.Tensor:
    return (lengths + 2 * padding - kernel_size) // stride + 1


class Conv2dSubsampling(nn.Module):
    """Two stride-2 convolutions -> 4x time reduction."""

    def __init__(self, n_mels: int, d_model: int, channels: int = 8):
        super().__init__()
        self.kernel_size = 3
        self.stride = 2
        self.padding = 1
        self.conv = nn.Sequential(
            nn.Conv2d(1, channels, self.kernel_size, self.stride, self.padding),
            nn.ReLU(),
            nn.Conv2d(channels, channels, self.kernel_size, self.stride, self.padding),
            nn.ReLU(),
        )
        freq = n_mels
        for _ in range(2):
            freq = (freq + 2 * self.padding - self.kernel_size) // self.stride + 1
        self.out = nn.Linear(channels * freq, d_model)

    def output_lengths(self, lengths: torch.Tensor) -> torch.Tensor:
        for _ in range(2):
            lengths = conv_out_length(lengths, self.kernel_size, self.stride, self.padding)
        return lengths

    def forward(self, x: torch.Tensor, lengths: torch.Tensor):
        x = self.conv(x.unsqueeze(1))  # (B, C, T', F')
        b, c, t, f = x.shape
        x = self.out(x.transpose(1, 2).reshape(b, t, c * f))
        return x, self.output_lengths(lengths)


class FeedForward(nn.Module):
    def __init__(self, d_model: int, expansion: int = 4, dropout: float = 0.1):
        super().__init__()
        self.net = nn.Sequential(
            nn.LayerNorm(d_model),
            nn.Linear(d_model, d_model * expansion),
            nn.SiLU(),
            nn.Dropout(dropout),
            nn.Linear(d_model * expansion, d_model),
            nn.Dropout(dropout),
        )

    def forward(self, x):
        return self.net(x)


class ConvModule(nn.Module):
    def __init__(self, d_model: int, kernel_size: int = 7, dropout: float = 0.1):
        super().__init__()
        assert kernel_size % 2 == 1, "kernel_size should be odd for 'same' padding"
        self.norm = nn.LayerNorm(d_model)
        self.pointwise_in = nn.Conv1d(d_model, 2 * d_model, 1)
        self.depthwise = nn.Conv1d(d_model, d_model, kernel_size, padding=kernel_size // 2, groups=d_model)
        self.bn = nn.BatchNorm1d(d_model)
        self.pointwise_out = nn.Conv1d(d_model, d_model, 1)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, pad_mask):
        x = self.norm(x).masked_fill(pad_mask.unsqueeze(-1), 0.0)
        x = x.transpose(1, 2)
        x = F.glu(self.pointwise_in(x), dim=1)
        x = F.silu(self.bn(self.depthwise(x)))
        x = self.pointwise_out(x)
        return self.dropout(x.transpose(1, 2))


class ConformerBlock(nn.Module):
    def __init__(self, d_model: int, n_heads: int, kernel_size: int, dropout: float = 0.1):
        super().__init__()
        self.ff1 = FeedForward(d_model, dropout=dropout)
        self.attn_norm = nn.LayerNorm(d_model)
        self.attn = nn.MultiheadAttention(d_model, n_heads, dropout=dropout, batch_first=True)
        self.conv = ConvModule(d_model, kernel_size, dropout)
        self.ff2 = FeedForward(d_model, dropout=dropout)
        self.final_norm = nn.LayerNorm(d_model)

    def forward(self, x, pad_mask):
        x = x + 0.5 * self.ff1(x)
        h = self.attn_norm(x)
        h, _ = self.attn(h, h, h, key_padding_mask=pad_mask, need_weights=False)
        x = x + h
        x = x + self.conv(x, pad_mask)
        x = x + 0.5 * self.ff2(x)
        return self.final_norm(x)


class CTCModel(nn.Module):
    def __init__(self, n_mels: int, vocab_size: int, d_model: int = 32, n_heads: int = 4,
                 n_layers: int = 2, kernel_size: int = 7, dropout: float = 0.1):
        super().__init__()
        self.blank_id = 0
        self.subsample = Conv2dSubsampling(n_mels, d_model)
        self.blocks = nn.ModuleList(
            [ConformerBlock(d_model, n_heads, kernel_size, dropout) for _ in range(n_layers)]
        )
        self.ctc_head = nn.Linear(d_model, vocab_size)

    @staticmethod
    def make_pad_mask(lengths: torch.Tensor, max_len: int) -> torch.Tensor:
        return torch.arange(max_len, device=lengths.device)[None, :] >= lengths[:, None]

    def forward(self, feats: torch.Tensor, feat_lens: torch.Tensor):
        x, out_lens = self.subsample(feats, feat_lens)
        pad_mask = self.make_pad_mask(out_lens, x.size(1))
        for block in self.blocks:
            x = block(x, pad_mask)
        log_probs = self.ctc_head(x).log_softmax(dim=-1)
        return log_probs, out_lens
