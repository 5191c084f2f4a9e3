"""Causal mask and positions built inside the compiled function from a sequence length int."""

import torch


@torch.compile
def attention_bias(seq_len, num_heads, slopes):
    pos = torch.arange(seq_len)
    rel = pos[None, :] - pos[:, None]
    bias = slopes[:num_heads, None, None] * rel[None]
    causal = torch.triu(torch.ones(seq_len, seq_len, dtype=torch.bool), diagonal=1)
    return bias.masked_fill(causal, float("-inf"))


def main():
    slopes = torch.tensor([2 ** -(i + 1) for i in range(8)])
    for seq_len in (16, 32, 24, 64):
        print(seq_len, attention_bias(seq_len, 8, slopes).shape)


if __name__ == "__main__":
    main()
