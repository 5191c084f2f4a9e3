import argparse
import functools
import random
import time

import torch
import torch.nn as nn

from config import ConformerConfig, TrainConfig
from data import SyntheticSpeech
from model import ConformerCTC
from streaming import ctc_greedy_decode, edit_distance, stream_utterance


def timed(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        t0 = time.perf_counter()
        out = fn(*args, **kwargs)
        print(f"[{fn.__name__}] {time.perf_counter() - t0:.1f}s")
        return out
    return wrapper


def lr_at(step, base_lr, warmup):
    if step < warmup:
        return base_lr * (step + 1) / warmup
    return base_lr * (warmup / (step + 1)) ** 0.5


@timed
def train(model, compiled, data, tcfg):
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    opt = torch.optim.AdamW(model.parameters(), lr=tcfg.lr, weight_decay=tcfg.weight_decay)
    rng = random.Random(tcfg.seed)
    model.train()
    for step in range(tcfg.steps):
        lr = lr_at(step, tcfg.lr, tcfg.warmup_steps)
        for group in opt.param_groups:
            group["lr"] = lr
        feats, targets, target_lens = data.batch(tcfg.batch_size, tcfg.utt_frames)
        chunk_size = rng.choice(tcfg.chunk_choices)
        log_probs, inter = compiled(feats, chunk_size=chunk_size, return_intermediate=True)
        input_lens = torch.full((feats.size(0),), log_probs.size(1), dtype=torch.long)
        main_loss = ctc(log_probs.transpose(0, 1), targets, input_lens, target_lens)
        inter_loss = ctc(inter.transpose(0, 1), targets, input_lens, target_lens)
        loss = (1.0 - tcfg.inter_ctc_weight) * main_loss + tcfg.inter_ctc_weight * inter_loss
        opt.zero_grad(set_to_none=True)
        loss.backward()
        grad_norm = nn.utils.clip_grad_norm_(model.parameters(), tcfg.grad_clip)
        opt.step()
        if step % tcfg.log_every == 0 or step == tcfg.steps - 1:
            print(f"step {step:3d} chunk={chunk_size:2d} lr={lr:.2e} "
                  f"loss={loss.item():.3f} ctc={main_loss.item():.3f} gnorm={grad_norm.item():.2f}")


@timed
def evaluate_streaming(model, data, cfg, tcfg, n_utts=4):
    model.eval()
    chunk_fn = torch.compile(model.forward_chunk)
    feats, targets, target_lens = data.batch(n_utts, tcfg.utt_frames + cfg.chunk_size // 2)
    with torch.no_grad():
        stream_lp, cache = stream_utterance(chunk_fn, feats, cfg)
        offline_lp = model(feats, chunk_size=cfg.chunk_size)
    max_diff = (stream_lp - offline_lp).abs().max().item()
    print(f"streamed {cache.frames_seen} frames, cache holds {cache.context_frames}, "
          f"max |stream - offline| = {max_diff:.2e}")
    refs = torch.split(targets, target_lens.tolist())
    errors, total = 0, 0
    for hyp, ref in zip(ctc_greedy_decode(stream_lp), refs):
        errors += edit_distance(hyp, ref.tolist())
        total += len(ref)
    print(f"streaming greedy CTC token error rate: {errors / total:.3f}")
    return errors / total


def main():
    parser = argparse.ArgumentParser(description="Tiny streaming Conformer-CTC")
    parser.add_argument("--preset", default="tiny", choices=["tiny", "small"])
    parser.add_argument("--steps", type=int, default=TrainConfig.steps)
    parser.add_argument("--chunk-size", type=int, default=16)
    args = parser.parse_args()

    torch.manual_seed(0)
    cfg = getattr(ConformerConfig, args.preset)()
    cfg.chunk_size = args.chunk_size
    tcfg = TrainConfig(steps=args.steps)
    data = SyntheticSpeech(cfg.n_mels, cfg.vocab_size, seed=tcfg.seed)
    model = ConformerCTC(cfg)
    print(f"ConformerCTC preset={args.preset} params={model.num_params:,}")
    compiled = torch.compile(model)
    train(model, compiled, data, tcfg)
    evaluate_streaming(model, data, cfg, tcfg)


if __name__ == "__main__":
    main()
