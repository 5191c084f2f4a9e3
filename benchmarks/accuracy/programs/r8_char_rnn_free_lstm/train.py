"""Train a tiny character LSTM (hand-rolled cell) on synthetic text, then sample."""
import math
import time

import torch

from data import CharVocab, batches, make_corpus
from model import CharRNN, CharRNNConfig, sequence_loss

CONFIG_JSON = """
{
    "embed_dim": 16,
    "hidden_dim": 32,
    "num_layers": 2,
    "dropout": 0.1,
    "forget_bias": 1.0,
    "layer_norm_gates": true,
    "ln_eps": 1e-5,
    "head_mult": 2,
    "logit_mult": 4.0,
    "residual_layers": true,
    "train": {"steps": 14, "batch_size": 8, "seq_len": 6, "lr": 3e-3,
              "warmup": 3, "clip": 1.0, "log_every": 4, "label_smoothing": 0.05}
}
"""


def lr_at(step, base_lr, warmup, total):
    if step < warmup:
        return base_lr * (step + 1) / warmup
    progress = (step - warmup) / max(1, total - warmup)
    return 0.1 * base_lr + 0.9 * base_lr * 0.5 * (1.0 + math.cos(math.pi * progress))


@torch.compile
def sample_step(model, token, state, temperature, top_k):
    emb = model.embed(token)
    h, state = model.step(emb, state)
    logits = model.project(h) / temperature
    if top_k is not None:
        vals, _ = torch.topk(logits, top_k, dim=-1)
        logits = logits.masked_fill(logits < vals[..., -1:], float("-inf"))
    probs = torch.softmax(logits, dim=-1)
    return probs, state


def generate(model, vocab, prompt, n_new, temperature, top_k, generator):
    ids = torch.tensor([vocab.encode(prompt)], dtype=torch.long)
    state = model.init_state(1)
    # warm the state on the prompt eagerly
    with torch.no_grad():
        emb = model.embed(ids)
        for t in range(ids.size(1) - 1):
            _, state = model.step(emb[:, t], state)
        token = ids[0, -1:]
        out = []
        for _ in range(n_new):
            probs, state = sample_step(model, token, state, temperature, top_k)
            token = torch.multinomial(probs, 1, generator=generator).squeeze(-1)
            out.append(int(token))
    return prompt + vocab.decode(out)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1234)
    vocab = CharVocab()
    cfg = CharRNNConfig.from_json(CONFIG_JSON)
    cfg.vocab_size = len(vocab)
    tcfg = cfg.extra["train"]

    model = CharRNN(cfg)
    n_params = sum(p.numel() for p in model.parameters())
    print(f"model params: {n_params}")

    corpus = make_corpus(vocab, 2000, gen)
    split = int(0.9 * corpus.numel())
    train_iter = batches(corpus[:split], tcfg["batch_size"], tcfg["seq_len"], gen)
    val_iter = batches(corpus[split:], tcfg["batch_size"], tcfg["seq_len"], gen)

    compiled = torch.compile(model)
    opt = torch.optim.AdamW(model.parameters(), lr=tcfg["lr"], weight_decay=0.01)

    t0 = time.time()
    model.train()
    history = {"step": 0, "losses": []}
    for step in range(tcfg["steps"]):
        lr = lr_at(step, tcfg["lr"], tcfg["warmup"], tcfg["steps"])
        for group in opt.param_groups:
            group["lr"] = lr
        x, y = next(train_iter)
        logits, _ = compiled(x)
        loss = sequence_loss(logits, y, tcfg["label_smoothing"])
        opt.zero_grad(set_to_none=True)
        loss.backward()
        gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), tcfg["clip"])
        opt.step()
        model.steps += 1
        history["step"] += 1
        if step % tcfg["log_every"] == 0 or step == tcfg["steps"] - 1:
            loss_v = loss.item()
            history["losses"].append(loss_v)
            print(f"step {model.steps:3d} lr {lr:.2e} loss {loss_v:.4f} "
                  f"bpc {loss_v / math.log(2):.3f} gnorm {gnorm.item():.3f}")

    model.eval()
    with torch.no_grad():
        val_losses = []
        for _ in range(2):
            x, y = next(val_iter)
            logits, _ = compiled(x)
            val_losses.append(sequence_loss(logits, y).item())
    val = sum(val_losses) / len(val_losses)
    print(f"val loss {val:.4f} ppl {math.exp(val):.2f}")

    prompts = [("the", 0.8, 5), ("a cat ", 1.0, 5), ("dog ran f", 0.7, 5)]
    for prompt, temp, top_k in prompts:
        text = generate(model, vocab, prompt, 5, temp, top_k, gen)
        print(f"[T={temp} k={top_k}] {text!r}")

    print(f"done in {time.time() - t0:.1f}s, {model.steps} optimizer steps")


if __name__ == "__main__":
    main()
