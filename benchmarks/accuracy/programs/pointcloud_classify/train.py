"""Train the point-cloud classifier on synthetic shapes and evaluate at a different density."""

from __future__ import annotations

import time

import torch
import torch.nn.functional as F

from data import SHAPES, ShapeCloudDataset, iterate_batches
from model import PointCloudClassifier, feature_transform_regularizer

SEED = 7
TRAIN_POINTS = 64
EVAL_POINTS = 96
BATCH_SIZE = 8
NUM_EPOCHS = 2
TRAIN_SAMPLES = 24
EVAL_SAMPLES = 9
KNN_K = 8
LR = 1e-3
FEAT_REG_WEIGHT = 0.001
LABEL_SMOOTHING = 0.1


def evaluate(model: torch.nn.Module, dataset: ShapeCloudDataset) -> float:
    model.eval()
    correct = 0
    total = 0
    per_class = torch.zeros(len(SHAPES))
    with torch.no_grad():
        for points, labels in iterate_batches(dataset, BATCH_SIZE, shuffle=False):
            logits, _ = model(points)
            pred = logits.argmax(dim=1)
            correct += (pred == labels).sum().item()
            total += labels.numel()
            per_class += torch.bincount(labels[pred == labels], minlength=len(SHAPES)).float()
    for name, hits in zip(SHAPES, per_class.tolist()):
        print(f"    {name:>8s}: {int(hits)} correct")
    return correct / max(total, 1)


def main() -> None:
    torch.manual_seed(SEED)
    train_set = ShapeCloudDataset(TRAIN_SAMPLES, num_points=TRAIN_POINTS, augment=True, seed=SEED)
    # evaluate at a different sampling density to check the model is resolution agnostic
    eval_set = ShapeCloudDataset(EVAL_SAMPLES, num_points=EVAL_POINTS, augment=False, seed=SEED + 1)

    model = PointCloudClassifier(num_classes=len(SHAPES), k=KNN_K, feature_transform=True)
    optimizer = torch.optim.Adam(model.parameters(), lr=LR, weight_decay=1e-4)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.7)
    compiled = torch.compile(model, dynamic=True)

    for epoch in range(NUM_EPOCHS):
        model.train()
        t0 = time.time()
        epoch_loss = 0.0
        num_batches = 0
        for points, labels in iterate_batches(train_set, BATCH_SIZE, shuffle=True, seed=epoch):
            optimizer.zero_grad()
            logits, trans_feat = compiled(points)
            loss = F.cross_entropy(logits, labels, label_smoothing=LABEL_SMOOTHING)
            if trans_feat is not None:
                loss = loss + FEAT_REG_WEIGHT * feature_transform_regularizer(trans_feat)
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
            num_batches += 1
        scheduler.step()
        print(f"epoch {epoch}: loss {epoch_loss / num_batches:.4f} ({time.time() - t0:.1f}s)")

    print(f"eval with {EVAL_POINTS} points per cloud (trained on {TRAIN_POINTS}):")
    acc = evaluate(compiled, eval_set)
    print(f"eval accuracy {acc:.3f}")


if __name__ == "__main__":
    main()
