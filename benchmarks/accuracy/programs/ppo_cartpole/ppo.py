"""PPO pieces: argument defaults, GAE and the clipped surrogate loss."""

from __future__ import annotations

import argparse

import torch
from torch.distributions import Categorical


def get_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="PPO on a torch CartPole")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--num-envs", type=int, default=4)
    p.add_argument("--num-steps", type=int, default=32, help="rollout length per env")
    p.add_argument("--num-updates", type=int, default=3)
    p.add_argument("--update-epochs", type=int, default=2)
    p.add_argument("--num-minibatches", type=int, default=2)
    p.add_argument("--hidden-sizes", type=int, nargs="+", default=[32, 32])
    p.add_argument("--activation", type=str, default="tanh")
    p.add_argument("--learning-rate", type=float, default=2.5e-4)
    p.add_argument("--anneal-lr", action="store_true", default=True)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--clip-eps", type=float, default=0.2)
    p.add_argument("--clip-eps-final", type=float, default=0.1)
    p.add_argument("--entropy-coef", type=float, default=0.01)
    p.add_argument("--entropy-coef-final", type=float, default=0.0)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--clip-vloss", action="store_true", default=True)
    p.add_argument("--norm-adv", action="store_true", default=True)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    args = p.parse_args(argv)
    args.batch_size = args.num_envs * args.num_steps
    args.minibatch_size = args.batch_size // args.num_minibatches
    return args


def linear_schedule(start: float, end: float, progress: float) -> float:
    """Interpolate from start to end as progress goes 0 -> 1."""
    return start + (end - start) * min(max(progress, 0.0), 1.0)


def compute_gae(rewards, values, dones, next_value, next_done, gamma: float, lam: float):
    """Generalised advantage estimation over a [T, N] rollout."""
    num_steps = rewards.shape[0]
    advantages = torch.zeros_like(rewards)
    lastgaelam = torch.zeros_like(next_value)
    for t in reversed(range(num_steps)):
        if t == num_steps - 1:
            nextnonterminal = 1.0 - next_done
            nextvalues = next_value
        else:
            nextnonterminal = 1.0 - dones[t + 1]
            nextvalues = values[t + 1]
        delta = rewards[t] + gamma * nextvalues * nextnonterminal - values[t]
        lastgaelam = delta + gamma * lam * nextnonterminal * lastgaelam
        advantages[t] = lastgaelam
    returns = advantages + values
    return advantages, returns


def ppo_loss(logits, new_values, actions, old_logprobs, advantages, returns, old_values,
             clip_eps: float, entropy_coef: float, args: argparse.Namespace):
    dist = Categorical(logits=logits)
    new_logprobs = dist.log_prob(actions)
    entropy = dist.entropy().mean()

    logratio = new_logprobs - old_logprobs
    ratio = logratio.exp()
    with torch.no_grad():
        approx_kl = ((ratio - 1) - logratio).mean()
        clipfrac = ((ratio - 1.0).abs() > clip_eps).float().mean()

    if args.norm_adv:
        advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)

    pg_loss1 = -advantages * ratio
    pg_loss2 = -advantages * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    pg_loss = torch.max(pg_loss1, pg_loss2).mean()

    if args.clip_vloss:
        v_unclipped = (new_values - returns) ** 2
        v_clipped = old_values + torch.clamp(new_values - old_values, -clip_eps, clip_eps)
        v_loss = 0.5 * torch.max(v_unclipped, (v_clipped - returns) ** 2).mean()
    else:
        v_loss = 0.5 * ((new_values - returns) ** 2).mean()

    loss = pg_loss - entropy_coef * entropy + args.vf_coef * v_loss
    stats = {"pg_loss": pg_loss, "v_loss": v_loss, "entropy": entropy,
             "approx_kl": approx_kl, "clipfrac": clipfrac}
    return loss, stats
