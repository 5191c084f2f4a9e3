"""Sample from a tiny LLaMA-style model: prefill the prompt, then decode token by token."""

from __future__ import annotations

import time

import torch
import torch.nn.functional as F

import lm

PROMPTS = ["hello wor", "the cat s"]


def encode(text: str, vocab_size: int) -> list[int]:
    return [min(ord(c), vocab_size - 1) for c in text]


def decode(ids: list[int]) -> str:
    return "".join(chr(i) if 32 <= i < 127 else "?" for i in ids)


@torch.compile(dynamic=True)
def sample_next(logits: torch.Tensor, temperature: float, top_k: int | None) -> torch.Tensor:
    if temperature <= 0.0:
        return torch.argmax(logits, dim=-1, keepdim=True)
    logits = logits / temperature
    if top_k is not None:
        v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
        logits = logits.masked_fill(logits < v[:, [-1]], float("-inf"))
    probs = F.softmax(logits, dim=-1)
    return torch.multinomial(probs, num_samples=1)


@torch.no_grad()
def generate(model: lm.Transformer, decode_fn, prompt: torch.Tensor, max_new_tokens: int,
             temperature: float = 1.0, top_k: int | None = None, eos_id: int | None = None) -> torch.Tensor:
    bsz, prompt_len = prompt.shape
    max_seq_len = model.config.max_seq_len
    cache = model.new_cache(bsz)
    logits = model.prefill(prompt, cache)
    out = [prompt]
    finished = torch.zeros(bsz, dtype=torch.bool)
    pos = prompt_len
    for _ in range(max_new_tokens):
        if pos >= max_seq_len:
            print(f"  reached max_seq_len={max_seq_len}, stopping")
            break
        next_token = sample_next(logits, temperature, top_k)
        out.append(next_token)
        if eos_id is not None:
            finished |= next_token.squeeze(-1) == eos_id
            if bool(finished.all()):
                break
        assert cache.pos == pos, (cache.pos, pos)
        logits = decode_fn(next_token, cache)
        pos += 1
    return torch.cat(out, dim=1)


def main() -> None:
    torch.manual_seed(0)
    model = lm.build_model("tiny", max_seq_len=48)
    model.eval()
    cfg = model.config
    n_params = sum(p.numel() for p in model.parameters())
    print(f"preset 'tiny': dim={cfg.dim} layers={cfg.n_layers} heads={cfg.n_heads}/{cfg.kv_heads} "
          f"head_dim={cfg.head_dim} ffn={cfg.hidden_dim} params={n_params:,}")

    decode_step = torch.compile(model.decode_step, dynamic=True)

    prompt = torch.tensor([encode(p, cfg.vocab_size) for p in PROMPTS], dtype=torch.long)
    settings = [
        {"temperature": 0.0, "top_k": None, "max_new_tokens": 12},
        {"temperature": 0.8, "top_k": 20, "max_new_tokens": 12},
        {"temperature": 1.2, "top_k": None, "max_new_tokens": 8},
        {"temperature": 0.7, "top_k": 5, "max_new_tokens": 40},
    ]
    for s in settings:
        torch.manual_seed(1234)
        t0 = time.perf_counter()
        tokens = generate(model, decode_step, prompt, s["max_new_tokens"], s["temperature"], s["top_k"])
        dt = time.perf_counter() - t0
        new = tokens.shape[1] - prompt.shape[1]
        print(f"T={s['temperature']} top_k={s['top_k']}: {new} new tokens in {dt:.2f}s")
        for row in tokens.tolist():
            print(f"  {decode(row[: prompt.shape[1]])!r} -> {decode(row[prompt.shape[1]:])!r}")

    # sanity check: cached decoding must match a full forward pass without the cache
    with torch.no_grad():
        full_logits = model(tokens)[:, -2, :]
        cache = model.new_cache(tokens.shape[0])
        model.prefill(tokens[:, :-2], cache)
        step_logits = decode_step(tokens[:, -2:-1], cache)
    print(f"max |cached - full| logit diff: {(full_logits - step_logits).abs().max().item():.2e}")


if __name__ == "__main__":
    main()
