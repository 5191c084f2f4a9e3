import argparse

import torch

from config import SSMConfig, TrainConfig, SamplingParams
from model import SSMLanguageModel
from sampling import generate
from utils import MarkovTokens, cosine_lr, Timer


def train_step(model, optimizer, x, y, lr, grad_clip):
    for group in optimizer.param_groups:
        group["lr"] = lr
    _, loss = model(x, y)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
    optimizer.step()
    return loss


train_step = torch.compile(train_step)


@torch.no_grad()
def evaluate(model, data, tcfg, seq_len):
    model.eval()
    losses = []
    for _ in range(tcfg.eval_batches):
        x, y = data.batch(tcfg.batch_size, seq_len)
        _, loss = model(x, y)
        losses.append(loss.item())
    model.train()
    return sum(losses) / len(losses)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--preset", default="tiny", choices=["tiny", "small"])
    parser.add_argument("--steps", type=int, default=None)
    args = parser.parse_args()

    tcfg = TrainConfig()
    if args.steps is not None:
        tcfg.steps = args.steps
    torch.manual_seed(tcfg.seed)
    cfg = getattr(SSMConfig, args.preset)(**tcfg.model_overrides)

    data = MarkovTokens(cfg.vocab_size, seed=tcfg.seed)
    model = SSMLanguageModel(cfg)
    print(f"model: {cfg.n_layers} layers, d_model={cfg.d_model}, d_state={cfg.d_state}, "
          f"{model.num_params} params")

    decay = [p for n, p in model.named_parameters() if p.dim() >= 2 and "A_log" not in n]
    no_decay = [p for n, p in model.named_parameters() if p.dim() < 2 or "A_log" in n]
    optimizer = torch.optim.AdamW(
        [{"params": decay, "weight_decay": tcfg.weight_decay},
         {"params": no_decay, "weight_decay": 0.0}],
        lr=tcfg.lr, betas=(0.9, 0.95),
    )

    timer = Timer()
    model.train()
    for step in range(tcfg.steps):
        lr = cosine_lr(step, tcfg.lr, tcfg.min_lr, tcfg.warmup_steps, tcfg.steps)
        x, y = data.batch(tcfg.batch_size, cfg.seq_len)
        loss = train_step(model, optimizer, x, y, lr, tcfg.grad_clip)
        if step % tcfg.log_every == 0 or step == tcfg.steps - 1:
            print(f"step {step:3d} | loss {loss.item():.4f} | lr {lr:.2e} | "
                  f"tokens {model.tokens_seen.item()} | {timer.lap():.1f}s")

    val = evaluate(model, data, tcfg, cfg.seq_len)
    print(f"val loss {val:.4f}")

    gen = torch.Generator().manual_seed(tcfg.seed + 1)
    settings = [
        SamplingParams(temperature=1.0, top_k=0),
        SamplingParams(temperature=0.7, top_k=8, repetition_penalty=1.2),
        SamplingParams(temperature=0.5, top_k=4, repetition_penalty=1.2, max_new_tokens=8),
    ]
    for i, params in enumerate(settings):
        prompt = data.sample(2, 4)
        out = generate(model, prompt, params, generator=gen)
        print(f"prompt {i} (T={params.temperature}, k={params.top_k}, "
              f"rp={params.repetition_penalty}): {out[0].tolist()}")
    print("done")


if __name__ == "__main__":
    main()
