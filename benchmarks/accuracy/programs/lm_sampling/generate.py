"""Sample continuations with temperature and top-k / top-p filtering."""

from __future__ import annotations

import argparse

import torch

from model import ModelArgs, Transformer


def sample_top_p(probs: torch.Tensor, p: float) -> torch.Tensor:
    probs_sort, probs_idx = torch.sort(probs, dim=-1, descending=True)
    probs_sum = torch.cumsum(probs_sort, dim=-1)
    mask = probs_sum - probs_sort > p
    probs_sort[mask] = 0.0
    probs_sort.div_(probs_sort.sum(dim=-1, keepdim=True))
    next_token = torch.multinomial(probs_sort, num_samples=1)
    return torch.gather(probs_idx, -1, next_token)


@torch.compile
def next_token_probs(model: Transformer, tokens: torch.Tensor, temperature: float, top_k: int | None):
    logits = model(tokens)[:, -1, :]
    logits = logits / max(temperature, 1e-5)
    if top_k is not None:
        v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
        logits = logits.masked_fill(logits < v[:, [-1]], float("-inf"))
    return torch.softmax(logits, dim=-1)


@torch.no_grad()
def generate(model: Transformer, prompt: torch.Tensor, max_new_tokens: int, temperature: float = 0.8,
             top_k: int | None = None, top_p: float = 0.9) -> torch.Tensor:
    tokens = prompt
    for _ in range(max_new_tokens):
        probs = next_token_probs(model, tokens, temperature, top_k)
        nxt = sample_top_p(probs, top_p)
        tokens = torch.cat([tokens, nxt], dim=1)
    return tokens


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-new-tokens", type=int, default=3)
    parser.add_argument("--temperature", type=float, default=0.8)
    parser.add_argument("--top-k", type=int, default=20)
    args = parser.parse_args()
    torch.manual_seed(42)
    model = Transformer(ModelArgs()).eval()
    prompt = torch.randint(0, 128, (2, 6))
    out = generate(model, prompt, args.max_new_tokens, args.temperature, args.top_k)
    print("greedy-ish:", out[0, -args.max_new_tokens:].tolist())
    out = generate(model, prompt, args.max_new_tokens, temperature=1.2, top_k=None)
    print("creative:", out[0, -args.max_new_tokens:].tolist())


if __name__ == "__main__":
    main()
