"""Trains the classifier of model.py with a compiled step: a warm-up learning-rate
schedule, a step counter and a loss log."""

import torch
import torch.nn.functional as F

from model import Classifier, ModelConfig


def learning_rate(step, base=0.01, warmup=2):
    return base * min(1.0, (step + 1) / warmup)


def train_step(model, x, y, lr):
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    with torch.no_grad():
        for p in model.parameters():
            p -= lr * p.grad
            p.grad = None
    return loss


def main(steps=4):
    torch.manual_seed(0)
    model = Classifier(ModelConfig())
    step_fn = torch.compile(train_step)
    for step in range(steps):
        x, y = torch.randn(8, 32), torch.randint(0, 4, (8,))
        loss = step_fn(model, x, y, learning_rate(step))
        print(f"step {step}: loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
