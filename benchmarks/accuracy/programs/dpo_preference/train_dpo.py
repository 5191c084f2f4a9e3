from __future__ import annotations

import argparse
import copy
import math
import random
from dataclasses import dataclass

import torch
import torch.nn.functional as F

from dpo import preference_loss, reward_stats
from policy import Policy, PolicyConfig

PAD, BOS, SEP, EOS = 0, 1, 2, 3


@dataclass
class PreferenceBatch:
    chosen_ids: torch.Tensor
    chosen_mask: torch.Tensor
    rejected_ids: torch.Tensor
    rejected_mask: torch.Tensor

    def __getitem__(self, idx: torch.Tensor) -> PreferenceBatch:
        return PreferenceBatch(
            self.chosen_ids[idx], self.chosen_mask[idx], self.rejected_ids[idx], self.rejected_mask[idx]
        )


def encode(prompt: list[int], response: list[int], seq_len: int) -> tuple[list[int], list[int]]:
    ids = [BOS] + prompt + [SEP] + response + [EOS]
    mask = [0] * (len(prompt) + 2) + [1] * (len(response) + 1)
    return ids + [PAD] * (seq_len - len(ids)), mask + [0] * (seq_len - len(ids))


def make_pairs(n: int, vocab_size: int, seq_len: int, max_prompt: int = 6) -> PreferenceBatch:
    rows = []
    for _ in range(n):
        prompt = [random.randrange(4, vocab_size) for _ in range(random.randint(3, max_prompt))]
        noise = [random.randrange(4, vocab_size) for _ in prompt]
        rejected = list(prompt) if random.random() < 0.5 else noise
        rows.append((*encode(prompt, sorted(prompt), seq_len), *encode(prompt, rejected, seq_len)))
    return PreferenceBatch(*(torch.tensor(col, dtype=torch.long) for col in zip(*rows)))


def concatenated_logps(model: Policy, batch: PreferenceBatch, average: bool) -> tuple[torch.Tensor, ...]:
    input_ids = torch.cat([batch.chosen_ids, batch.rejected_ids], dim=0)
    loss_mask = torch.cat([batch.chosen_mask, batch.rejected_mask], dim=0)
    logps = model.sequence_logprobs(input_ids, loss_mask, average=average)
    return logps.chunk(2)


def dpo_forward(
    policy: Policy, reference: Policy, batch: PreferenceBatch,
    beta: float, label_smoothing: float, loss_type: str,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    average = loss_type == "ipo"
    with torch.no_grad():
        ref_chosen, ref_rejected = concatenated_logps(reference, batch, average)
    pol_chosen, pol_rejected = concatenated_logps(policy, batch, average)
    return preference_loss(
        pol_chosen, pol_rejected, ref_chosen, ref_rejected, beta, label_smoothing, loss_type
    )


def cosine_lr(step: int, total: int, warmup: int, base_lr: float, min_ratio: float = 0.1) -> float:
    if step < warmup:
        return base_lr * (step + 1) / warmup
    progress = (step - warmup) / max(1, total - warmup)
    return base_lr * (min_ratio + (1.0 - min_ratio) * 0.5 * (1.0 + math.cos(math.pi * progress)))


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description="DPO on synthetic sorting preferences")
    p.add_argument("--seed", type=int, default=1337)
    p.add_argument("--vocab-size", type=int, default=24)
    p.add_argument("--seq-len", type=int, default=16)
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--sft-steps", type=int, default=16)
    p.add_argument("--sft-lr", type=float, default=3e-3)
    p.add_argument("--dpo-steps", type=int, default=24)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--beta", type=float, default=0.1)
    p.add_argument("--label-smoothing", type=float, default=0.0)
    p.add_argument("--loss-type", choices=["sigmoid", "ipo"], default="sigmoid")
    p.add_argument("--eval-every", type=int, default=12)
    p.add_argument("--no-compile", dest="compile", action="store_false")
    return p.parse_args()


@torch.no_grad()
def evaluate(
    policy: Policy, reference: Policy, data: PreferenceBatch, forward_fn, args: argparse.Namespace
) -> dict[str, float]:
    policy.eval()
    outputs = []
    for start in range(0, data.chosen_ids.size(0), args.batch_size):
        batch = data[torch.arange(start, start + args.batch_size)]
        outputs.append(forward_fn(policy, reference, batch, args.beta, args.label_smoothing, args.loss_type))
    losses, chosen_r, rejected_r = (torch.cat(t) for t in zip(*outputs))
    policy.train()
    return {"loss": losses.mean().item(), **reward_stats(chosen_r, rejected_r)}


def main() -> None:
    args = parse_args()
    random.seed(args.seed)
    torch.manual_seed(args.seed)
    train_data = make_pairs(256, args.vocab_size, args.seq_len)
    eval_data = make_pairs(48, args.vocab_size, args.seq_len)

    policy = Policy(PolicyConfig(vocab_size=args.vocab_size, block_size=args.seq_len, n_layer=2, n_embd=48))
    print(f"policy params: {sum(p.numel() for p in policy.parameters()) / 1e3:.1f}K")

    # supervised warm-up on the preferred completions
    optimizer = torch.optim.AdamW(policy.parameters(), lr=args.sft_lr, betas=(0.9, 0.95), weight_decay=0.0)
    for step in range(args.sft_steps):
        batch = train_data[torch.randint(256, (args.batch_size,))]
        logits = policy(batch.chosen_ids[:, :-1])
        targets = batch.chosen_ids[:, 1:].masked_fill(batch.chosen_mask[:, 1:] == 0, -100)
        loss = F.cross_entropy(logits.flatten(0, 1), targets.flatten(), ignore_index=-100)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        if step % 10 == 0 or step == args.sft_steps - 1:
            print(f"sft step {step:3d} | nll {loss.item():.4f}")

    reference = copy.deepcopy(policy).eval()
    reference.requires_grad_(False)
    forward_fn = torch.compile(dpo_forward) if args.compile else dpo_forward
    optimizer = torch.optim.AdamW(policy.parameters(), lr=args.lr, betas=(0.9, 0.95), weight_decay=0.0)

    stats = evaluate(policy, reference, eval_data, forward_fn, args)
    print(f"eval before dpo | loss {stats['loss']:.4f} | acc {stats['rewards/accuracy']:.3f}")
    for step in range(args.dpo_steps):
        lr = cosine_lr(step, args.dpo_steps, 5, args.lr)
        for group in optimizer.param_groups:
            group["lr"] = lr
        batch = train_data[torch.randint(256, (args.batch_size,))]
        losses, chosen_r, rejected_r = forward_fn(
            policy, reference, batch, args.beta, args.label_smoothing, args.loss_type
        )
        loss = losses.mean()
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        grad_norm = torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
        optimizer.step()
        if step % 10 == 0:
            s = reward_stats(chosen_r, rejected_r)
            print(f"dpo step {step:3d} | loss {loss.item():.4f} | margin {s['rewards/margin']:.3f} "
                  f"| acc {s['rewards/accuracy']:.2f} | gnorm {grad_norm.item():.3f} | lr {lr:.2e}")
        if (step + 1) % args.eval_every == 0:
            stats = evaluate(policy, reference, eval_data, forward_fn, args)
            print(f"eval step {step + 1:3d} | loss {stats['loss']:.4f} | acc {stats['rewards/accuracy']:.3f} "
                  f"| margin {stats['rewards/margin']:.3f}")


if __name__ == "__main__":
    main()
