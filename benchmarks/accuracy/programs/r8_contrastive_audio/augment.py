"""Synthetic waveforms and cheap waveform augmentations (pure torch)."""
import math

import torch


def synth_clips(n, length, sample_rate, generator):
    """Each clip is a few decaying harmonics plus a little noise."""
    t = torch.arange(length) / sample_rate
    base = 80.0 + 600.0 * torch.rand(n, 1, generator=generator)
    n_harm = 3
    harm = torch.arange(1, n_harm + 1).float().view(1, -1, 1)
    amps = torch.rand(n, n_harm, 1, generator=generator)
    phase = 2 * math.pi * torch.rand(n, n_harm, 1, generator=generator)
    decay = torch.exp(-t.view(1, 1, -1) * (1.0 + 8.0 * torch.rand(n, 1, 1, generator=generator)))
    wav = (amps * torch.sin(2 * math.pi * base.unsqueeze(-1) * harm * t.view(1, 1, -1) + phase) * decay).sum(1)
    wav = wav + 0.02 * torch.randn(n, length, generator=generator)
    return wav / wav.abs().amax(dim=-1, keepdim=True).clamp_min(1e-4)


def random_view(wav, generator, max_shift=40, noise_std=0.05, gain_db=6.0):
    b, _ = wav.shape
    shifts = torch.randint(-max_shift, max_shift + 1, (b,), generator=generator).tolist()
    out = torch.stack([torch.roll(w, s) for w, s in zip(wav, shifts)])
    gain = 10 ** ((torch.rand(b, 1, generator=generator) * 2 - 1) * gain_db / 20)
    out = out * gain + noise_std * torch.randn(out.shape, generator=generator)
    return out
