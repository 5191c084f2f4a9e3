"""Collect rollouts from the batched CartPole and run PPO updates."""

from __future__ import annotations

import time

import torch
import torch.nn as nn

from env import BatchedCartPole
from networks import ActorCritic, act
from ppo import compute_gae, get_args, linear_schedule, ppo_loss


def collect_rollout(policy, env, obs, done, args):
    T, N = args.num_steps, args.num_envs
    buf = {
        "obs": torch.zeros(T, N, env.obs_dim),
        "actions": torch.zeros(T, N, dtype=torch.long),
        "logprobs": torch.zeros(T, N),
        "rewards": torch.zeros(T, N),
        "dones": torch.zeros(T, N),
        "values": torch.zeros(T, N),
    }
    episode_returns, running = [], torch.zeros(N)
    for step in range(T):
        buf["obs"][step] = obs
        buf["dones"][step] = done
        with torch.no_grad():
            action, logprob, value = act(policy, obs)
        buf["actions"][step] = action
        buf["logprobs"][step] = logprob
        buf["values"][step] = value
        obs, reward, done = env.step(action)
        buf["rewards"][step] = reward
        running += reward
        for i in done.nonzero(as_tuple=True)[0].tolist():
            episode_returns.append(running[i].item())
            running[i] = 0.0
    return buf, obs, done, episode_returns


def main() -> None:
    args = get_args([])
    torch.manual_seed(args.seed)

    env = BatchedCartPole(args.num_envs, max_steps=50, seed=args.seed)
    model = ActorCritic(env.obs_dim, env.n_actions, tuple(args.hidden_sizes), args.activation)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.learning_rate, eps=1e-5)
    policy = torch.compile(model)
    loss_fn = torch.compile(ppo_loss)

    obs = env.reset()
    done = torch.zeros(args.num_envs)
    t0 = time.time()
    for update in range(args.num_updates):
        progress = update / max(args.num_updates - 1, 1)
        clip_eps = linear_schedule(args.clip_eps, args.clip_eps_final, progress)
        entropy_coef = linear_schedule(args.entropy_coef, args.entropy_coef_final, progress)
        if args.anneal_lr:
            optimizer.param_groups[0]["lr"] = args.learning_rate * (1.0 - 0.5 * progress)

        buf, obs, done, ep_returns = collect_rollout(policy, env, obs, done, args)
        model.update_obs_stats(buf["obs"].reshape(-1, env.obs_dim))
        with torch.no_grad():
            _, next_value = policy(obs)
        advantages, returns = compute_gae(
            buf["rewards"], buf["values"], buf["dones"], next_value, done,
            args.gamma, args.gae_lambda,
        )

        b_obs = buf["obs"].reshape(-1, env.obs_dim)
        b_actions = buf["actions"].reshape(-1)
        b_logprobs = buf["logprobs"].reshape(-1)
        b_adv, b_ret = advantages.reshape(-1), returns.reshape(-1)
        b_values = buf["values"].reshape(-1)

        for epoch in range(args.update_epochs):
            perm = torch.randperm(args.batch_size)
            for start in range(0, args.batch_size, args.minibatch_size):
                mb = perm[start:start + args.minibatch_size]
                logits, new_values = policy(b_obs[mb])
                loss, stats = loss_fn(
                    logits, new_values, b_actions[mb], b_logprobs[mb], b_adv[mb],
                    b_ret[mb], b_values[mb], clip_eps, entropy_coef, args,
                )
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
                optimizer.step()

        mean_ret = sum(ep_returns) / len(ep_returns) if ep_returns else float("nan")
        print(
            f"update {update} | clip {clip_eps:.3f} ent_coef {entropy_coef:.4f} | "
            f"loss {loss.item():.4f} pg {stats['pg_loss'].item():.4f} "
            f"v {stats['v_loss'].item():.4f} kl {stats['approx_kl'].item():.4f} | "
            f"episodes {len(ep_returns)} mean return {mean_ret:.1f}"
        )
    print(f"done in {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
