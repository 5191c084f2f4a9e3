"""A text encoder fed batches padded to the longest sequence of each batch."""

import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, vocab=500, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.layer = nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=64, batch_first=True)

    def forward(self, tokens):
        return self.layer(self.embed(tokens)).mean(1)


def main():
    torch.manual_seed(0)
    encoder = torch.compile(Encoder().eval())
    with torch.no_grad():
        for length in (12, 17, 9, 30):
            print(length, encoder(torch.randint(0, 500, (4, length))).shape)


if __name__ == "__main__":
    main()
