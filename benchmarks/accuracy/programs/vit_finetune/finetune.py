"""Fine-tune a (pretend-)pretrained ViT on a small synthetic image task.

The backbone's early layers are frozen, the classifier head is re-initialised
for the new label set, and training runs under bfloat16 autocast.
"""

import random

import torch
import torch.nn as nn
import torch.nn.functional as F

from config import ViTConfig
from modeling import VisionTransformer

num_classes = 5
batch_size = 4
epochs = 3
steps_per_epoch = 3
base_lr = 3e-3
weight_decay = 0.05
label_smoothing = 0.1
freeze_blocks = 2
lr_step_size = 1
lr_gamma = 0.5


def make_pretrained_backbone(cfg: ViTConfig) -> VisionTransformer:
    # Stand-in for loading a checkpoint: a model built with the "pretraining" label set.
    model = VisionTransformer(cfg)
    return model


def reset_classifier(model: VisionTransformer, num_classes: int) -> None:
    model.head = nn.Linear(model.cfg.embed_dim, num_classes)
    nn.init.zeros_(model.head.weight)
    nn.init.zeros_(model.head.bias)
    model.cfg.num_classes = num_classes


def freeze_layers(model: VisionTransformer, n_blocks: int) -> None:
    for p in model.patch_embed.parameters():
        p.requires_grad = False
    model.cls_token.requires_grad = False
    model.pos_embed.requires_grad = False
    for blk in model.blocks[:n_blocks]:
        for p in blk.parameters():
            p.requires_grad = False


def synthetic_batch(cfg: ViTConfig, bs: int):
    labels = torch.randint(0, num_classes, (bs,))
    images = torch.randn(bs, cfg.in_chans, cfg.img_size, cfg.img_size) * 0.5
    # make the task learnable: shift a class-dependent channel
    images[:, 0] += labels.view(-1, 1, 1).float() * 0.3
    return images, labels


def param_groups(model: nn.Module, wd: float):
    decay, no_decay = [], []
    for name, p in model.named_parameters():
        if not p.requires_grad:
            continue
        if p.ndim <= 1 or name.endswith(".bias"):
            no_decay.append(p)
        else:
            decay.append(p)
    return [
        {"params": decay, "weight_decay": wd},
        {"params": no_decay, "weight_decay": 0.0},
    ]


def main():
    torch.manual_seed(0)
    random.seed(0)

    cfg = ViTConfig.tiny(num_classes=1000, fused_attn=True)
    print(cfg, "head_dim:", cfg.head_dim)
    model = make_pretrained_backbone(cfg)
    reset_classifier(model, num_classes)
    freeze_layers(model, freeze_blocks)
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    total = sum(p.numel() for p in model.parameters())
    print(f"trainable params: {trainable}/{total}")

    optimizer = torch.optim.AdamW(param_groups(model, weight_decay), lr=base_lr)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=lr_step_size, gamma=lr_gamma)
    compiled_model = torch.compile(model)

    for epoch in range(epochs):
        model.train()
        running = 0.0
        for step in range(steps_per_epoch):
            images, labels = synthetic_batch(cfg, batch_size)
            with torch.autocast("cpu", dtype=torch.bfloat16):
                logits = compiled_model(images)
            loss = F.cross_entropy(logits.float(), labels, label_smoothing=label_smoothing)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            running += loss.item()
        scheduler.step()
        print(f"epoch {epoch} loss {running / steps_per_epoch:.4f} lr {scheduler.get_last_lr()[0]:.2e}")

    # evaluation: the manual attention path is handy for inspecting attention maps
    model.eval()
    for blk in model.blocks:
        blk.attn.fused_attn = False
    correct = 0
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16):
        for _ in range(2):
            images, labels = synthetic_batch(cfg, batch_size)
            preds = compiled_model(images).argmax(dim=-1)
            correct += (preds == labels).sum().item()
    print(f"eval acc: {correct / (2 * batch_size):.3f}")


if __name__ == "__main__":
    main()
