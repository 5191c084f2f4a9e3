"""Synthetic test audio and Whisper-style log-mel features."""

from __future__ import annotations

import math

import torch

SAMPLE_RATE = 4000
N_FFT = 64
HOP_LENGTH = 16


def mel_filterbank(n_mels: int, n_freqs: int) -> torch.Tensor:
    """Triangular filters evenly spaced on the mel scale: [n_mels, n_freqs]."""
    hz_max = SAMPLE_RATE / 2
    mel_max = 2595.0 * math.log10(1.0 + hz_max / 700.0)
    mel_points = torch.linspace(0.0, mel_max, n_mels + 2)
    hz_points = 700.0 * (10 ** (mel_points / 2595.0) - 1.0)
    bins = hz_points / hz_max * (n_freqs - 1)
    freqs = torch.arange(n_freqs, dtype=torch.float32)
    lower = (freqs[None, :] - bins[:-2, None]) / (bins[1:-1, None] - bins[:-2, None])
    upper = (bins[2:, None] - freqs[None, :]) / (bins[2:, None] - bins[1:-1, None])
    return torch.clamp(torch.minimum(lower, upper), min=0.0)


@torch.compile(dynamic=False)
def normalize_log_mel(mel_spec: torch.Tensor) -> torch.Tensor:
    log_spec = torch.clamp(mel_spec, min=1e-10).log10()
    log_spec = torch.maximum(log_spec, log_spec.max() - 8.0)
    return (log_spec + 4.0) / 4.0


def log_mel_spectrogram(audio: torch.Tensor, n_mels: int) -> torch.Tensor:
    window = torch.hann_window(N_FFT)
    stft = torch.stft(audio, N_FFT, HOP_LENGTH, window=window, return_complex=True)
    magnitudes = stft[..., :-1].abs() ** 2
    filters = mel_filterbank(n_mels, magnitudes.shape[-2])
    return normalize_log_mel(filters @ magnitudes)


def synthetic_utterance(seed: int, num_samples: int) -> torch.Tensor:
    gen = torch.Generator().manual_seed(seed)
    t = torch.arange(num_samples) / SAMPLE_RATE
    f0 = 150.0 + 100.0 * float(torch.rand(1, generator=gen))
    audio = torch.zeros(num_samples)
    for harmonic in range(1, 5):
        audio += torch.sin(2 * math.pi * f0 * harmonic * t * (1.0 + 0.3 * t)) / harmonic
    envelope = torch.sigmoid(20 * (t - 0.05)) * torch.sigmoid(20 * (t.max() - 0.05 - t))
    return 0.3 * audio * envelope + 0.01 * torch.randn(num_samples, generator=gen)
