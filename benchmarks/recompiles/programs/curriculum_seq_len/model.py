import torch
import torch.nn as nn


class ConvTagger(nn.Module):
    def __init__(self, vocab=100, dim=32, tags=5, max_len=128):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.conv = nn.Conv1d(dim, dim, kernel_size=3, padding=1)
        self.out = nn.Linear(dim, tags)

    def forward(self, tokens, seq_len):
        positions = torch.arange(seq_len)
        h = self.embed(tokens[:, :seq_len]) + self.pos(positions)
        h = torch.relu(self.conv(h.transpose(1, 2))).transpose(1, 2)
        return self.out(h)
