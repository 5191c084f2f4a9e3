"""Toy task: after BOS + prompt digits + SEP, emit digits so that the total digit sum is even."""
import torch

BOS, SEP = 10, 11
NUM_DIGITS = 10


def sample_prompts(n, prompt_len, gen):
    digits = torch.randint(0, NUM_DIGITS, (n, prompt_len), generator=gen)
    bos = torch.full((n, 1), BOS, dtype=torch.long)
    sep = torch.full((n, 1), SEP, dtype=torch.long)
    return torch.cat([bos, digits, sep], dim=1)


def reward_fn(prompt, completion):
    """Plain-Python reward on lists of ints."""
    digits_p = [t for t in prompt if t < NUM_DIGITS]
    total = sum(digits_p) + sum(completion)
    reward = 1.0 if total % 2 == 0 else 0.0
    if len(set(completion)) > 1:
        reward += 0.2   # small bonus for not collapsing to a single repeated digit
    return reward


def score_batch(sequences, prompt_width):
    rewards = []
    for row in sequences.tolist():
        rewards.append(reward_fn(row[:prompt_width], row[prompt_width:]))
    return rewards
