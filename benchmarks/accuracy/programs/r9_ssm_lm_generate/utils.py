import math
import time

import torch


class MarkovTokens:
    """Synthetic corpus: a sparse random Markov chain over the vocabulary."""

    def __init__(self, vocab_size, branching=3, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.vocab_size = vocab_size
        self.next_tok = torch.randint(0, vocab_size, (vocab_size, branching), generator=g)
        self.next_p = torch.softmax(torch.randn(vocab_size, branching, generator=g) * 2.0, dim=-1)
        self.g = g

    def sample(self, batch_size, length):
        out = torch.empty(batch_size, length, dtype=torch.long)
        cur = torch.randint(0, self.vocab_size, (batch_size,), generator=self.g)
        for t in range(length):
            out[:, t] = cur
            choice = torch.multinomial(self.next_p[cur], 1, generator=self.g).squeeze(1)
            cur = self.next_tok[cur, choice]
        return out

    def batch(self, batch_size, seq_len):
        seq = self.sample(batch_size, seq_len + 1)
        return seq[:, :-1], seq[:, 1:]


def cosine_lr(step, base_lr, min_lr, warmup, total):
    if step < warmup:
        return base_lr * (step + 1) / warmup
    progress = (step - warmup) / max(1, total - warmup)
    return min_lr + 0.5 * (base_lr - min_lr) * (1.0 + math.cos(math.pi * progress))


class Timer:
    def __init__(self):
        self.t0 = time.perf_counter()

    def lap(self):
        now = time.perf_counter()
        dt, self.t0 = now - self.t0, now
        return dt
