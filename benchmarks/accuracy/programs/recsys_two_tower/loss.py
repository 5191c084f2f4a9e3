"""In-batch sampled softmax for retrieval."""

import torch
import torch.nn.functional as F


def in_batch_softmax_loss(
    user_emb: torch.Tensor,
    item_emb: torch.Tensor,
    temperature: float = 0.05,
    item_ids: torch.Tensor | None = None,
    item_log_q: torch.Tensor | None = None,
    logq_correction: bool = True,
    remove_accidental_hits: bool = True,
) -> torch.Tensor:
    """Each user's positive is the item at the same row; other rows are negatives.

    With `logq_correction`, the log sampling probability of each in-batch item is
    subtracted from its logit (Yi et al., 2019) so popular items aren't over-penalised.
    """
    logits = user_emb @ item_emb.t() / temperature
    if logq_correction and item_log_q is not None:
        logits = logits - item_log_q.unsqueeze(0)
    if remove_accidental_hits and item_ids is not None:
        same = item_ids.unsqueeze(0) == item_ids.unsqueeze(1)
        diag = torch.eye(len(item_ids), dtype=torch.bool, device=logits.device)
        logits = logits.masked_fill(same & ~diag, torch.finfo(logits.dtype).min)
    labels = torch.arange(logits.size(0), device=logits.device)
    return F.cross_entropy(logits, labels)


def temperature_schedule(step: int, total_steps: int, start: float = 0.2, end: float = 0.05) -> float:
    """Linearly anneal the softmax temperature."""
    frac = min(step / max(total_steps - 1, 1), 1.0)
    return start + (end - start) * frac
