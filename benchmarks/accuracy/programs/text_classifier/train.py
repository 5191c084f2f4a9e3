"""Fine-tune the classifier with plain SGD and a linear warmup/decay schedule."""

from __future__ import annotations

import logging

import torch
import torch.nn.functional as F

from model import Classifier, EncoderConfig

logger = logging.getLogger("finetune")

NUM_STEPS = 6
WARMUP = 2
PEAK_LR = 0.05
LABEL_SMOOTHING = 0.1


def lr_at(step: int) -> float:
    if step < WARMUP:
        return PEAK_LR * (step + 1) / WARMUP
    return PEAK_LR * max(0.0, (NUM_STEPS - step) / (NUM_STEPS - WARMUP))


def make_batch(cfg: EncoderConfig, batch_size: int = 8, seq_len: int = 16):
    input_ids = torch.randint(1, cfg.vocab_size, (batch_size, seq_len))
    input_ids[:, -3:] = cfg.pad_id
    labels = torch.randint(0, cfg.num_labels, (batch_size,))
    return input_ids, (input_ids != cfg.pad_id).long(), labels


@torch.compile
def train_step(model, input_ids, attention_mask, labels, lr):
    logits = model(input_ids, attention_mask)
    loss = F.cross_entropy(logits, labels, label_smoothing=LABEL_SMOOTHING)
    loss.backward()
    with torch.no_grad():
        for p in model.parameters():
            if p.grad is not None:
                p.add_(p.grad, alpha=-lr)
                p.grad = None
    return loss.detach()


def evaluate(model, cfg: EncoderConfig) -> float:
    model.eval()
    with torch.no_grad():
        input_ids, mask, labels = make_batch(cfg)
        accuracy = (model(input_ids, mask).argmax(-1) == labels).float().mean()
    model.train()
    return accuracy.item()


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(0)
    cfg = EncoderConfig()
    model = Classifier(cfg)
    model.train()
    for step in range(NUM_STEPS):
        input_ids, mask, labels = make_batch(cfg)
        loss = train_step(model, input_ids, mask, labels, lr_at(step))
        logger.info("step %d loss %.4f lr %.4f", step, loss.item(), lr_at(step))
    logger.info("eval accuracy %.3f", evaluate(model, cfg))


if __name__ == "__main__":
    main()
