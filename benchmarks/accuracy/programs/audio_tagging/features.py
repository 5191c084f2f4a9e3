from __future__ import annotations

import math
import random

import numpy as np
import torch
import torch.nn as nn


def hz_to_mel(freq: float) -> float:
    return 2595.0 * math.log10(1.0 + freq / 700.0)


def mel_to_hz(mel: float) -> float:
    return 700.0 * (10.0 ** (mel / 2595.0) - 1.0)


def mel_filterbank(
    n_mels: int, n_fft: int, sample_rate: int, f_min: float = 0.0, f_max: float | None = None
) -> torch.Tensor:
    f_max = f_max if f_max is not None else sample_rate / 2
    n_freqs = n_fft // 2 + 1
    fft_freqs = [i * sample_rate / n_fft for i in range(n_freqs)]
    lo, hi = hz_to_mel(f_min), hz_to_mel(f_max)
    edges = [mel_to_hz(lo + (hi - lo) * i / (n_mels + 1)) for i in range(n_mels + 2)]
    fb = np.zeros((n_mels, n_freqs), dtype=np.float32)
    for m in range(n_mels):
        left, center, right = edges[m], edges[m + 1], edges[m + 2]
        for k, f in enumerate(fft_freqs):
            if left < f <= center:
                fb[m, k] = (f - left) / (center - left)
            elif center < f < right:
                fb[m, k] = (right - f) / (right - center)
        fb[m] *= 2.0 / (right - left)  # slaney-style area normalisation
    return torch.from_numpy(fb)


class LogMel(nn.Module):
    def __init__(
        self, sample_rate: int, n_fft: int, hop_length: int, n_mels: int,
        f_min: float = 0.0, f_max: float | None = None, top_db: float = 80.0,
    ) -> None:
        super().__init__()
        self.n_fft = n_fft
        self.hop_length = hop_length
        self.top_db = top_db
        self.register_buffer("window", torch.hann_window(n_fft), persistent=False)
        fb = mel_filterbank(n_mels, n_fft, sample_rate, f_min, f_max)
        self.register_buffer("mel_fb", fb, persistent=False)

    def forward(self, wave: torch.Tensor) -> torch.Tensor:
        spec = torch.stft(
            wave, n_fft=self.n_fft, hop_length=self.hop_length, window=self.window,
            center=True, return_complex=True,
        )
        power = spec.real.pow(2) + spec.imag.pow(2)
        mel = torch.matmul(self.mel_fb, power)
        log_mel = 10.0 * torch.log10(mel.clamp(min=1e-10))
        log_mel = torch.maximum(log_mel, log_mel.amax(dim=(-2, -1), keepdim=True) - self.top_db)
        return log_mel.transpose(-1, -2)  # (batch, frames, mels)


class SpecAugment(nn.Module):
    def __init__(self, time_mask_width: int, freq_mask_width: int, num_masks: int = 2) -> None:
        super().__init__()
        self.time_mask_width = time_mask_width
        self.freq_mask_width = freq_mask_width
        self.num_masks = num_masks

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # x: (batch, channels, frames, mels); one mask set shared across the batch
        if not self.training:
            return x
        x = x.clone()
        n_frames, n_mels = x.shape[-2], x.shape[-1]
        for _ in range(self.num_masks):
            t = random.randint(0, self.time_mask_width)
            t0 = random.randint(0, n_frames - t)
            x[..., t0:t0 + t, :] = 0.0
            f = random.randint(0, self.freq_mask_width)
            f0 = random.randint(0, n_mels - f)
            x[..., f0:f0 + f] = 0.0
        return x


def mixup(
    wave: torch.Tensor, target: torch.Tensor, alpha: float
) -> tuple[torch.Tensor, torch.Tensor, float]:
    if alpha <= 0.0:
        return wave, target, 1.0
    lam = float(np.random.beta(alpha, alpha))
    lam = max(lam, 1.0 - lam)
    perm = torch.randperm(wave.size(0))
    mixed_wave = lam * wave + (1.0 - lam) * wave[perm]
    mixed_target = lam * target + (1.0 - lam) * target[perm]
    return mixed_wave, mixed_target, lam
