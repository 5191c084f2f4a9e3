import argparse
import time
from dataclasses import dataclass
from typing import Optional

import torch

from model import GPT, GPTConfig
from sampling import SamplingParams, logits_to_probs, sample, sample_from_probs


@dataclass
class SpecStats:
    rounds: int = 0
    drafted: int = 0
    accepted: int = 0
    generated: int = 0

    @property
    def acceptance_rate(self) -> float:
        return self.accepted / max(self.drafted, 1)

    @property
    def tokens_per_round(self) -> float:
        return self.generated / max(self.rounds, 1)


def encode(text: str) -> torch.Tensor:
    return torch.tensor([list(text.encode("utf-8"))], dtype=torch.long)


def decode(tokens: torch.Tensor) -> str:
    return bytes(tokens.tolist()).decode("utf-8", errors="replace")


def draft_step(
    model: torch.nn.Module, seq: torch.Tensor, temperature: float, top_k: Optional[int], top_p: float
) -> torch.Tensor:
    logits = model(seq)[:, -1, :]
    return logits_to_probs(logits, temperature, top_k, top_p)


def draft_tokens(
    draft: torch.nn.Module, seq: torch.Tensor, k: int, params: SamplingParams, gen: torch.Generator
) -> tuple[torch.Tensor, torch.Tensor]:
    probs = []
    for _ in range(k):
        q = draft_step(draft, seq, params.temperature, params.top_k, params.top_p)
        tok = sample_from_probs(q, gen)
        seq = torch.cat([seq, tok], dim=1)
        probs.append(q)
    return seq[:, -k:], torch.cat(probs, dim=0)


@torch.no_grad()
def speculative_generate(
    target: torch.nn.Module,
    draft: torch.nn.Module,
    prompt: torch.Tensor,
    max_new_tokens: int,
    k: int,
    params: SamplingParams,
    gen: torch.Generator,
) -> tuple[torch.Tensor, SpecStats]:
    stats = SpecStats()
    seq = prompt
    while stats.generated < max_new_tokens:
        drafted, q = draft_tokens(draft, seq, k, params, gen)
        logits = target(torch.cat([seq, drafted], dim=1))[0, -(k + 1):, :]
        p = logits_to_probs(logits, params.temperature, params.top_k, params.top_p)

        n_accepted = 0
        next_tok = None
        for i in range(k):
            x = drafted[0, i]
            ratio = (p[i, x] / q[i, x].clamp(min=1e-10)).item()
            r = torch.rand(1, generator=gen).item()
            if r < min(1.0, ratio):
                n_accepted += 1
                continue
            residual = (p[i] - q[i]).clamp(min=0.0)
            if residual.sum() <= 0:
                residual = p[i]
            next_tok = sample_from_probs((residual / residual.sum()).unsqueeze(0), gen)
            break
        if next_tok is None:
            next_tok = sample_from_probs(p[k].unsqueeze(0), gen)

        seq = torch.cat([seq, drafted[:, :n_accepted], next_tok], dim=1)
        stats.rounds += 1
        stats.drafted += k
        stats.accepted += n_accepted
        stats.generated += n_accepted + 1

    return seq[:, : prompt.size(1) + max_new_tokens], stats


@torch.no_grad()
def autoregressive_generate(
    model: torch.nn.Module, prompt: torch.Tensor, max_new_tokens: int, params: SamplingParams, gen: torch.Generator
) -> torch.Tensor:
    seq = prompt
    for _ in range(max_new_tokens):
        tok, _ = sample(model(seq)[:, -1, :], params, gen)
        seq = torch.cat([seq, tok], dim=1)
    return seq


def main() -> None:
    global draft_step
    parser = argparse.ArgumentParser(description="speculative decoding with a draft and a target GPT")
    parser.add_argument("--seed", type=int, default=1337)
    parser.add_argument("--max-new-tokens", type=int, default=24)
    parser.add_argument("--num-draft", type=int, default=4)
    parser.add_argument("--compile", action=argparse.BooleanOptionalAction, default=True)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(2)

    target_cfg = GPTConfig(vocab_size=256, block_size=128, n_layer=3, n_head=4, n_embd=96)
    draft_cfg = GPTConfig(vocab_size=256, block_size=128, n_layer=1, n_head=2, n_embd=32)
    target = GPT(target_cfg).eval()
    draft = GPT(draft_cfg).eval()
    print(f"target: {target.num_params() / 1e3:.1f}K params, draft: {draft.num_params() / 1e3:.1f}K params")

    if args.compile:
        target = torch.compile(target, dynamic=True)
        draft_step = torch.compile(draft_step, dynamic=True)

    prompts = ["The quick brown fox", "Once upon a time,", "def main():"]
    settings = [
        SamplingParams(temperature=0.0),
        SamplingParams(temperature=0.8, top_k=50, top_p=0.9),
    ]

    for params in settings:
        gen = torch.Generator().manual_seed(args.seed)
        total = SpecStats()
        t0 = time.perf_counter()
        for text in prompts:
            prompt = encode(text)
            out, stats = speculative_generate(target, draft, prompt, args.max_new_tokens, args.num_draft, params, gen)
            total.rounds += stats.rounds
            total.drafted += stats.drafted
            total.accepted += stats.accepted
            total.generated += stats.generated
            print(f"  [{text!r}] acc={stats.acceptance_rate:.2f} -> {decode(out[0, prompt.size(1):])!r}")
            if params.temperature == 0.0:
                ref = autoregressive_generate(target, prompt, args.max_new_tokens, params, gen)
                assert torch.equal(out, ref), "greedy speculative output diverged from target"
        dt = time.perf_counter() - t0
        print(
            f"{params}: acceptance {total.acceptance_rate:.3f}, "
            f"{total.tokens_per_round:.2f} tokens/round, {total.generated / dt:.1f} tok/s"
        )


if __name__ == "__main__":
    main()
