from dataclasses import dataclass
from typing import Optional

import torch
import torch.nn.functional as F


@dataclass
class SamplingParams:
    temperature: float = 1.0
    top_k: Optional[int] = None
    top_p: float = 1.0


@torch.compile
def logits_to_probs(
    logits: torch.Tensor, temperature: float = 1.0, top_k: Optional[int] = None, top_p: float = 1.0
) -> torch.Tensor:
    if temperature == 0.0:
        return F.one_hot(logits.argmax(dim=-1), logits.size(-1)).to(logits.dtype)
    logits = logits / temperature
    if top_k is not None:
        v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
        logits = logits.masked_fill(logits < v[..., -1:], float("-inf"))
    if top_p < 1.0:
        sorted_logits, sorted_idx = torch.sort(logits, descending=True, dim=-1)
        cum_probs = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
        sorted_remove = cum_probs - sorted_logits.softmax(dim=-1) > top_p
        remove = sorted_remove.scatter(-1, sorted_idx, sorted_remove)
        logits = logits.masked_fill(remove, float("-inf"))
    return F.softmax(logits, dim=-1)


def sample_from_probs(probs: torch.Tensor, generator: Optional[torch.Generator] = None) -> torch.Tensor:
    return torch.multinomial(probs, num_samples=1, generator=generator)


def sample(
    logits: torch.Tensor, params: SamplingParams, generator: Optional[torch.Generator] = None
) -> tuple[torch.Tensor, torch.Tensor]:
    probs = logits_to_probs(logits, params.temperature, params.top_k, params.top_p)
    return sample_from_probs(probs, generator), probs
