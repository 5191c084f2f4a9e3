import argparse
import copy
import time

import torch

from config import GRPOConfig
from grpo import completion_logprobs, generate, group_advantages, grpo_loss
from model import TinyLM
from task import sample_prompts, score_batch


def build_config(preset, overrides):
    cfg = GRPOConfig.debug() if preset == "debug" else GRPOConfig()
    for key, value in overrides.items():
        if value is not None:
            setattr(cfg, key, value)
    return cfg


@torch.no_grad()
def evaluate(model, cfg, gen):
    model.eval()
    prompts = sample_prompts(cfg.eval_prompts, cfg.prompt_len, gen)
    seq = generate(model, prompts, cfg.completion_len, 0.5, gen)
    rewards = score_batch(seq, prompts.size(1))
    parity_ok = sum(1 for r in rewards if r >= 1.0) / len(rewards)
    return sum(rewards) / len(rewards), parity_ok


def main():
    parser = argparse.ArgumentParser(description="GRPO on a toy digit-parity task")
    parser.add_argument("--preset", default="default", choices=["default", "debug"])
    parser.add_argument("--steps", type=int, default=None)
    parser.add_argument("--lr", type=float, default=None)
    args = parser.parse_args()
    cfg = build_config(args.preset, {"steps": args.steps, "lr": args.lr})

    torch.manual_seed(cfg.seed)
    gen = torch.Generator().manual_seed(cfg.seed)
    eval_gen = torch.Generator().manual_seed(cfg.seed + 1)

    policy = TinyLM(cfg.lm)
    ref_model = copy.deepcopy(policy).eval().requires_grad_(False)
    optimizer = torch.optim.AdamW(policy.parameters(), lr=cfg.lr, betas=(0.9, 0.99), weight_decay=0.0)
    logprobs_fn = torch.compile(completion_logprobs)
    loss_fn = torch.compile(grpo_loss)

    n_params = sum(p.numel() for p in policy.parameters())
    print(f"policy params={n_params} layers={cfg.lm.n_layers} d_model={cfg.lm.d_model}")
    base_reward, base_parity = evaluate(policy, cfg, eval_gen)
    print(f"before: reward={base_reward:.3f} parity_ok={base_parity:.3f}")

    prompt_width = cfg.prompt_len + 2
    t0 = time.time()
    for step in range(cfg.steps):
        beta = cfg.beta_at(step)
        # rollout with the current policy
        policy.eval()
        prompts = sample_prompts(cfg.prompts_per_step, cfg.prompt_len, gen)
        prompts = prompts.repeat_interleave(cfg.group_size, dim=0)
        seq = generate(policy, prompts, cfg.completion_len, cfg.temperature, gen)
        rewards = score_batch(seq, prompt_width)
        advantages = group_advantages(rewards, cfg.group_size)
        with torch.no_grad():
            old_logp = logprobs_fn(policy, seq, prompt_width, cfg.temperature)
            ref_logp = logprobs_fn(ref_model, seq, prompt_width, cfg.temperature)

        policy.train()
        for _ in range(cfg.ppo_epochs):
            logp = logprobs_fn(policy, seq, prompt_width, cfg.temperature)
            loss, kl, clip_frac = loss_fn(logp, old_logp, ref_logp, advantages, cfg.clip_eps, beta)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            grad_norm = torch.nn.utils.clip_grad_norm_(policy.parameters(), cfg.max_grad_norm)
            optimizer.step()

        if step % cfg.log_every == 0 or step == cfg.steps - 1:
            mean_r = sum(rewards) / len(rewards)
            print(f"step {step:3d} beta {beta:.4f} reward {mean_r:.3f} loss {loss.item():+.4f} "
                  f"kl {kl.item():.4f} clip {clip_frac.item():.2f} gnorm {grad_norm.item():.3f} "
                  f"({time.time() - t0:.1f}s)")

    final_reward, final_parity = evaluate(policy, cfg, eval_gen)
    print(f"after: reward={final_reward:.3f} parity_ok={final_parity:.3f}")


if __name__ == "__main__":
    main()
