import torch
import torch.nn.functional as F

from task import NUM_DIGITS


def digits_only(logits):
    """Completions may only contain digit tokens."""
    return torch.cat([logits[..., :NUM_DIGITS], torch.full_like(logits[..., NUM_DIGITS:], float("-inf"))], dim=-1)


@torch.no_grad()
def generate(model, prompts, max_new_tokens, temperature, gen):
    seq = prompts
    for _ in range(max_new_tokens):
        logits = model(seq)[:, -1, :]
        probs = F.softmax(digits_only(logits) / temperature, dim=-1)
        nxt = torch.multinomial(probs, 1, generator=gen)
        seq = torch.cat([seq, nxt], dim=1)
    return seq


def completion_logprobs(model, seq, prompt_width: int, temperature: float):
    """Per-token log-probs of the completion tokens under `model`."""
    logits = model(seq[:, :-1])[:, prompt_width - 1:, :]
    logp = F.log_softmax(digits_only(logits) / temperature, dim=-1)
    targets = seq[:, prompt_width:]
    return logp.gather(-1, targets.unsqueeze(-1)).squeeze(-1)


def group_advantages(rewards, group_size, eps=1e-4):
    r = torch.tensor(rewards, dtype=torch.float32).view(-1, group_size)
    adv = (r - r.mean(dim=1, keepdim=True)) / (r.std(dim=1, keepdim=True) + eps)
    return adv.view(-1)


def grpo_loss(logp, old_logp, ref_logp, advantages, clip_eps, beta):
    ratio = torch.exp(logp - old_logp)
    adv = advantages.unsqueeze(-1)
    unclipped = ratio * adv
    clipped = torch.clamp(ratio, 1.0 - clip_eps, 1.0 + clip_eps) * adv
    policy_loss = -torch.min(unclipped, clipped)
    # k3 estimator of KL(pi || ref)
    log_r = ref_logp - logp
    kl = torch.exp(log_r) - log_r - 1.0
    loss = (policy_loss + beta * kl).mean()
    clip_frac = ((ratio - 1.0).abs() > clip_eps).float().mean()
    return loss, kl.mean(), clip_frac
