import argparse
import math

import torch
import torch.nn as nn

from lora import LoRALinear, inject_lora, mark_only_lora_as_trainable, merge_lora, set_lora_enabled
from model import GPT, GPTConfig

FINETUNE_STRIDE = 5


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description="LoRA fine-tuning of a tiny GPT")
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--block-size", type=int, default=16)
    p.add_argument("--pretrain-steps", type=int, default=100)
    p.add_argument("--steps", type=int, default=60)
    p.add_argument("--warmup-steps", type=int, default=10)
    p.add_argument("--lr", type=float, default=3e-2)
    p.add_argument("--grad-accum", type=int, default=2)
    p.add_argument("--grad-clip", type=float, default=1.0)
    p.add_argument("--lora-r", type=int, default=8)
    p.add_argument("--lora-alpha", type=float, default=16.0)
    p.add_argument("--lora-dropout", type=float, default=0.05)
    p.add_argument("--lora-targets", type=str, default="c_attn,c_proj,c_fc")
    p.add_argument("--eval-every", type=int, default=20)
    p.add_argument("--eval-iters", type=int, default=4)
    p.add_argument("--seed", type=int, default=1337)
    return p.parse_args()


def get_batch(task: str, batch_size: int, block_size: int, vocab_size: int, gen: torch.Generator):
    start = torch.randint(0, vocab_size, (batch_size, 1), generator=gen)
    if task == "pretrain":
        stride = torch.randint(1, 4, (batch_size, 1), generator=gen)
    else:
        stride = torch.full((batch_size, 1), FINETUNE_STRIDE)
    seq = (start + stride * torch.arange(block_size + 1)) % vocab_size
    return seq[:, :-1].contiguous(), seq[:, 1:].contiguous()


def get_lr(it: int, args: argparse.Namespace) -> float:
    if it < args.warmup_steps:
        return args.lr * (it + 1) / (args.warmup_steps + 1)
    decay_ratio = (it - args.warmup_steps) / max(1, args.steps - args.warmup_steps)
    coeff = 0.5 * (1.0 + math.cos(math.pi * min(decay_ratio, 1.0)))
    min_lr = args.lr * 0.05
    return min_lr + coeff * (args.lr - min_lr)


@torch.no_grad()
def estimate_loss(model: nn.Module, args: argparse.Namespace, vocab_size: int, task: str) -> float:
    model.eval()
    gen = torch.Generator().manual_seed(999)
    total = 0.0
    for _ in range(args.eval_iters):
        _, loss = model(*get_batch(task, args.batch_size, args.block_size, vocab_size, gen))
        total += loss.item()
    model.train()
    return total / args.eval_iters


def pretrain(model: GPT, args: argparse.Namespace, gen: torch.Generator) -> None:
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.1, betas=(0.9, 0.95))
    model.train()
    for it in range(args.pretrain_steps):
        x, y = get_batch("pretrain", args.batch_size, args.block_size, model.config.vocab_size, gen)
        _, loss = model(x, y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if it % 25 == 0 or it == args.pretrain_steps - 1:
            print(f"pretrain step {it}: loss {loss.item():.4f}")


def main() -> None:
    args = parse_args()
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)

    config = GPTConfig(block_size=args.block_size)
    model = GPT(config)
    pretrain(model, args, gen)

    replaced = inject_lora(
        model, tuple(args.lora_targets.split(",")), r=args.lora_r, alpha=args.lora_alpha, dropout=args.lora_dropout
    )
    mark_only_lora_as_trainable(model)
    trainable = [p for p in model.parameters() if p.requires_grad]
    n_train, n_total = sum(p.numel() for p in trainable), sum(p.numel() for p in model.parameters())
    print(f"injected LoRA into {len(replaced)} layers; trainable {n_train:,} / {n_total:,} params")

    compiled = torch.compile(model)
    optimizer = torch.optim.AdamW(trainable, lr=args.lr, weight_decay=0.0)
    print(f"before fine-tune: task loss {estimate_loss(compiled, args, config.vocab_size, 'finetune'):.4f}")

    for it in range(args.steps):
        lr = get_lr(it, args)
        for group in optimizer.param_groups:
            group["lr"] = lr
        for _ in range(args.grad_accum):
            x, y = get_batch("finetune", args.batch_size, args.block_size, config.vocab_size, gen)
            _, loss = compiled(x, y)
            (loss / args.grad_accum).backward()
        norm = torch.nn.utils.clip_grad_norm_(trainable, args.grad_clip)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        if it % args.eval_every == 0 or it == args.steps - 1:
            val = estimate_loss(compiled, args, config.vocab_size, "finetune")
            print(f"step {it:3d} lr {lr:.2e} loss {loss.item():.4f} grad norm {norm.item():.3f} val {val:.4f}")

    set_lora_enabled(model, False)
    base_loss = estimate_loss(compiled, args, config.vocab_size, "finetune")
    set_lora_enabled(model, True)
    lora_loss = estimate_loss(compiled, args, config.vocab_size, "finetune")
    merge_lora(model)
    merged_loss = estimate_loss(compiled, args, config.vocab_size, "finetune")
    n_merged = sum(isinstance(m, LoRALinear) and m.merged for m in model.modules())
    print(f"base {base_loss:.4f} | lora {lora_loss:.4f} | merged ({n_merged} layers) {merged_loss:.4f}")

    model.eval()
    prompt = torch.tensor([[3, 8, 13]], dtype=torch.long)
    out = model.generate(prompt, max_new_tokens=12, temperature=0.8, top_k=5)[0].tolist()
    hits = sum(out[i + 1] == (out[i] + FINETUNE_STRIDE) % config.vocab_size for i in range(len(out) - 1))
    print(f"sample: {out}  ({hits}/{len(out) - 1} transitions follow the rule)")


if __name__ == "__main__":
    main()
