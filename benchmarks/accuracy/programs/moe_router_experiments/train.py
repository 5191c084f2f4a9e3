"""Compare top-1 and top-2 routing on a toy next-token task.

The data is a mixture of a few deterministic "languages" (affine token
recurrences), so a router has something to specialise on.
"""

from __future__ import annotations

import time

import torch

from model import MoEConfig, MoETransformer

AUX_LOSS_COEF = 1e-2
Z_LOSS_COEF = 1e-3
STEPS = 20
BATCH_SIZE = 8
SEQ_LEN = 16
LR = 3e-3


def make_batch(cfg: MoEConfig, batch_size: int, seq_len: int, generator: torch.Generator):
    """Each row follows tok[t+1] = (a * tok[t] + c) mod V for a row-specific (a, c)."""
    rules = torch.tensor([[1, 1], [3, 5], [5, 2], [7, 11]])
    which = torch.randint(0, rules.shape[0], (batch_size,), generator=generator)
    a, c = rules[which, 0], rules[which, 1]
    tokens = torch.empty(batch_size, seq_len + 1, dtype=torch.long)
    tokens[:, 0] = torch.randint(0, cfg.vocab_size, (batch_size,), generator=generator)
    for t in range(seq_len):
        tokens[:, t + 1] = (a * tokens[:, t] + c) % cfg.vocab_size
    return tokens[:, :-1], tokens[:, 1:]


def train_one(k: int, seed: int = 0) -> dict:
    torch.manual_seed(seed)
    cfg = MoEConfig(k=k, n_layers=4, moe_every=2, num_experts=4, capacity_factor=1.5, jitter_noise=0.05)
    model = MoETransformer(cfg)
    compiled = torch.compile(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=0.01)
    g = torch.Generator().manual_seed(seed)

    t0 = time.perf_counter()
    model.train()
    for step in range(STEPS):
        x, y = make_batch(cfg, BATCH_SIZE, SEQ_LEN, g)
        _, lm_loss, aux_loss, z_loss = compiled(x, y)
        loss = lm_loss + AUX_LOSS_COEF * aux_loss + Z_LOSS_COEF * z_loss
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        if step % 5 == 0 or step == STEPS - 1:
            loads = [layer.router.last_tokens_per_expert.tolist() for layer in model.moe_layers()]
            print(f"k={k} step {step:2d} | lm {lm_loss.item():.3f} | aux {aux_loss.item():.3f} "
                  f"| z {z_loss.item():.3f} | tokens/expert {loads}")
    elapsed = time.perf_counter() - t0

    model.eval()
    with torch.no_grad():
        x, y = make_batch(cfg, BATCH_SIZE, SEQ_LEN, g)
        logits, val_loss, aux_loss, _ = compiled(x, y)
        acc = (logits.argmax(-1) == y).float().mean().item()
        dropped = [layer.last_dropped for layer in model.moe_layers()]
    return {"k": k, "val_loss": val_loss.item(), "val_acc": acc, "aux": aux_loss.item(),
            "dropped": dropped, "seconds": elapsed}


def main() -> None:
    results = []
    for k in (1, 2):
        results.append(train_one(k))
    print("\nk | val loss | val acc | aux  | dropped tokens per MoE layer")
    for r in results:
        print(f"{r['k']} | {r['val_loss']:.4f}   | {r['val_acc']:.3f}   | {r['aux']:.3f} | {r['dropped']}")


if __name__ == "__main__":
    main()
