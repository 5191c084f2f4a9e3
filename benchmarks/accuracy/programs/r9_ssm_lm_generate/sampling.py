import torch
import torch.nn.functional as F


def apply_repetition_penalty(logits, prev_tokens, penalty):
    if penalty == 1.0:
        return logits
    score = torch.gather(logits, 1, prev_tokens)
    score = torch.where(score < 0, score * penalty, score / penalty)
    return logits.scatter(1, prev_tokens, score)


def top_k_filter(logits, k):
    if k <= 0:
        return logits
    v, _ = torch.topk(logits, min(k, logits.size(-1)))
    return logits.masked_fill(logits < v[:, [-1]], float("-inf"))


@torch.compile
def decode_step(model, token, states, prev_tokens, temperature, top_k, repetition_penalty):
    logits, states = model.step(token, states)
    logits = apply_repetition_penalty(logits, prev_tokens, repetition_penalty)
    logits = logits / max(temperature, 1e-5)
    logits = top_k_filter(logits, top_k)
    return F.softmax(logits, dim=-1), states


@torch.no_grad()
def generate(model, prompt, params, generator=None):
    """prompt: (b, t) long tensor. Returns (b, t + max_new_tokens)."""
    model.eval()
    states = model.init_states(prompt.size(0))
    tokens = prompt
    # prefill the recurrent state token by token
    for t in range(prompt.size(1)):
        probs, states = decode_step(model, prompt[:, t], states, tokens[:, : t + 1],
                                    params.temperature, params.top_k, params.repetition_penalty)
    for _ in range(params.max_new_tokens):
        nxt = torch.multinomial(probs, 1, generator=generator)
        tokens = torch.cat([tokens, nxt], dim=1)
        probs, states = decode_step(model, nxt.squeeze(1), states, tokens,
                                    params.temperature, params.top_k, params.repetition_penalty)
    return tokens
