from __future__ import annotations

import math
import random

import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model: int, max_len: int = 512, dropout: float = 0.0) -> None:
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, d_model)
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe, persistent=False)

    def forward(self, x: torch.Tensor, offset: int = 0) -> torch.Tensor:
        return self.dropout(x + self.pe[offset : offset + x.size(1)])


class ForecastTransformer(nn.Module):
    def __init__(
        self,
        d_model: int = 32,
        nhead: int = 4,
        num_encoder_layers: int = 2,
        num_decoder_layers: int = 2,
        dim_feedforward: int = 64,
        dropout: float = 0.1,
        quantiles: list[float] | None = None,
    ) -> None:
        super().__init__()
        self.quantiles = quantiles or [0.5]
        self.point_index = min(range(len(self.quantiles)), key=lambda i: abs(self.quantiles[i] - 0.5))
        self.src_proj = nn.Linear(1, d_model)
        self.tgt_proj = nn.Linear(1, d_model)
        self.pos = PositionalEncoding(d_model, dropout=dropout)
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, batch_first=True),
            num_encoder_layers,
        )
        self.decoder = nn.TransformerDecoder(
            nn.TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, batch_first=True),
            num_decoder_layers,
        )
        self.head = nn.Linear(d_model, len(self.quantiles))

    def encode(self, src: torch.Tensor) -> torch.Tensor:
        return self.encoder(self.pos(self.src_proj(src)))

    def decode(self, tgt: torch.Tensor, memory: torch.Tensor, offset: int) -> torch.Tensor:
        x = self.pos(self.tgt_proj(tgt), offset=offset)
        mask = nn.Transformer.generate_square_subsequent_mask(tgt.size(1), device=tgt.device)
        return self.head(self.decoder(x, memory, tgt_mask=mask, tgt_is_causal=True))

    def forward(
        self,
        src: torch.Tensor,
        horizon: int,
        target: torch.Tensor | None = None,
        teacher_forcing_ratio: float = 0.0,
    ) -> torch.Tensor:
        """src: (B, L, 1), target: (B, H, 1). Returns (B, H, num_quantiles)."""
        memory = self.encode(src)
        context_len = src.size(1)
        dec_input = src[:, -1:, :]
        outputs = []
        for t in range(horizon):
            step_out = self.decode(dec_input, memory, offset=context_len - 1)[:, -1:, :]
            outputs.append(step_out)
            if target is not None and random.random() < teacher_forcing_ratio:
                next_value = target[:, t : t + 1, :]
            else:
                next_value = step_out[..., self.point_index : self.point_index + 1].detach()
            dec_input = torch.cat([dec_input, next_value], dim=1)
        return torch.cat(outputs, dim=1)
