"""Train a tiny CTC recognizer on synthetic "tone speech" and greedy-decode it."""

import math
import random

import torch
import torch.nn.functional as F

from features import LogMelFrontend, normalize_per_utterance
from model import CTCModel

ALPHABET = "abcdefgh"
BLANK = "_"
VOCAB = [BLANK] + list(ALPHABET)
CHAR2ID = {c: i for i, c in enumerate(VOCAB)}

SAMPLE_RATE = 8000
SAMPLES_PER_CHAR = 384
N_MELS = 20
BATCH_SIZE = 4
NUM_STEPS = 6
LR = 2e-3
GRAD_CLIP = 5.0


def synth_utterance(text: str) -> torch.Tensor:
    """Each character is a short tone at its own frequency, plus noise."""
    chunks = []
    t = torch.arange(SAMPLES_PER_CHAR) / SAMPLE_RATE
    for ch in text:
        freq = 300.0 + 350.0 * CHAR2ID[ch]
        env = torch.hann_window(SAMPLES_PER_CHAR)
        chunks.append(env * torch.sin(2 * math.pi * freq * t))
    wav = torch.cat(chunks)
    return wav + 0.01 * torch.randn_like(wav)


def make_batch(batch_size: int):
    texts = ["".join(random.choice(ALPHABET) for _ in range(random.randint(2, 5))) for _ in range(batch_size)]
    wavs = [synth_utterance(t) for t in texts]
    wav_lens = torch.tensor([w.numel() for w in wavs], dtype=torch.long)
    max_len = int(wav_lens.max())
    padded = torch.zeros(batch_size, max_len)
    for i, w in enumerate(wavs):
        padded[i, : w.numel()] = w
    targets = torch.tensor([CHAR2ID[c] for t in texts for c in t], dtype=torch.long)
    target_lens = torch.tensor([len(t) for t in texts], dtype=torch.long)
    return padded, wav_lens, targets, target_lens, texts


def greedy_decode(log_probs: torch.Tensor, lengths: torch.Tensor, blank_id: int = 0) -> list[str]:
    best = log_probs.argmax(dim=-1)
    hyps = []
    for seq, n in zip(best.tolist(), lengths.tolist()):
        out, prev = [], blank_id
        for tok in seq[:n]:
            if tok != prev and tok != blank_id:
                out.append(VOCAB[tok])
            prev = tok
        hyps.append("".join(out))
    return hyps


def edit_distance(a: str, b: str) -> int:
    dp = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        prev, dp[0] = dp[0], i
        for j in range(1, len(b) + 1):
            cur = dp[j]
            dp[j] = min(dp[j] + 1, dp[j - 1] + 1, prev + (a[i - 1] != b[j - 1]))
            prev = cur
    return dp[-1]


def main():
    torch.manual_seed(0)
    random.seed(0)

    frontend = LogMelFrontend(sample_rate=SAMPLE_RATE, n_fft=64, hop_length=32, n_mels=N_MELS)
    model = CTCModel(n_mels=N_MELS, vocab_size=len(VOCAB), d_model=32, n_heads=4, n_layers=2, kernel_size=7)
    optimizer = torch.optim.Adam(model.parameters(), lr=LR, betas=(0.9, 0.98))
    compiled = torch.compile(model)

    for step in range(NUM_STEPS):
        model.train()
        wav, wav_lens, targets, target_lens, _ = make_batch(BATCH_SIZE)
        with torch.no_grad():
            feats, feat_lens = frontend(wav, wav_lens)
            feats = normalize_per_utterance(feats, feat_lens)

        log_probs, out_lens = compiled(feats, feat_lens)
        # ctc_loss wants (T, B, C)
        loss = F.ctc_loss(
            log_probs.transpose(0, 1), targets, out_lens, target_lens,
            blank=model.blank_id, reduction="mean", zero_infinity=True,
        )
        optimizer.zero_grad()
        loss.backward()
        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), GRAD_CLIP)
        optimizer.step()
        print(f"step {step} frames {feats.shape[1]:3d} loss {loss.item():.3f} grad_norm {grad_norm.item():.2f}")

    model.eval()
    total_err, total_len = 0, 0
    with torch.no_grad():
        wav, wav_lens, _, _, texts = make_batch(BATCH_SIZE)
        feats, feat_lens = frontend(wav, wav_lens)
        feats = normalize_per_utterance(feats, feat_lens)
        log_probs, out_lens = compiled(feats, feat_lens)
        hyps = greedy_decode(log_probs, out_lens, model.blank_id)
    for ref, hyp in zip(texts, hyps):
        total_err += edit_distance(ref, hyp)
        total_len += len(ref)
        print(f"ref={ref!r:8} hyp={hyp!r}")
    print(f"CER: {total_err / max(total_len, 1):.3f}")


if __name__ == "__main__":
    main()
