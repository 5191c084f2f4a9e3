"""Teacher-forced training with label smoothing and an inverse-square-root schedule."""

from __future__ import annotations

import torch
import torch.nn as nn

from model import Seq2SeqConfig, Translator


class NoamSchedule:
    def __init__(self, d_model: int, warmup: int):
        self.d_model = d_model
        self.warmup = warmup

    def __call__(self, step: int) -> float:
        step = max(step, 1)
        return self.d_model ** -0.5 * min(step ** -0.5, step * self.warmup ** -1.5)


class Trainer:
    def __init__(self, model: Translator, cfg: Seq2SeqConfig, label_smoothing: float = 0.1):
        self.model = model
        self.criterion = nn.CrossEntropyLoss(ignore_index=cfg.pad_idx, label_smoothing=label_smoothing)
        self.optimizer = torch.optim.Adam(model.parameters(), lr=1.0, betas=(0.9, 0.98), eps=1e-9)
        self.schedule = NoamSchedule(cfg.d_model, warmup=4)
        self.step_num = 0
        self.compiled_loss = torch.compile(self.compute_loss)

    def compute_loss(self, src, tgt):
        logits = self.model(src, tgt[:, :-1])
        return self.criterion(logits.reshape(-1, logits.size(-1)), tgt[:, 1:].reshape(-1))

    def step(self, src, tgt) -> float:
        self.step_num += 1
        for group in self.optimizer.param_groups:
            group["lr"] = self.schedule(self.step_num)
        loss = self.compiled_loss(src, tgt)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


def random_pairs(cfg: Seq2SeqConfig, batch: int = 4, src_len: int = 10, tgt_len: int = 9):
    src = torch.randint(1, cfg.src_vocab, (batch, src_len))
    src[0, -2:] = cfg.pad_idx
    tgt = torch.randint(1, cfg.tgt_vocab, (batch, tgt_len))
    return src, tgt


def main() -> None:
    torch.manual_seed(0)
    cfg = Seq2SeqConfig()
    trainer = Trainer(Translator(cfg), cfg)
    for _ in range(4):
        loss = trainer.step(*random_pairs(cfg))
        print(f"step {trainer.step_num}: loss {loss:.3f} lr {trainer.optimizer.param_groups[0]['lr']:.2e}")


if __name__ == "__main__":
    main()
