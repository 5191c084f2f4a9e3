from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class GenerationConfig:
    temperature: float = 1.0
    top_k: int = 50
    repetition_penalty: float = 1.0
    do_sample: bool = True


class TinyDecoder(nn.Module):
    def __init__(self, vocab=80, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens):
        out, _ = self.rnn(self.embed(tokens))
        return self.head(out[:, -1])
