"""Log-mel style front end implemented with plain torch ops (no torchaudio)."""

import math

import torch
import torch.nn as nn


def hz_to_mel(f):
    return 2595.0 * math.log10(1.0 + f / 700.0)


def mel_to_hz(m):
    return 700.0 * (10 ** (m / 2595.0) - 1.0)


def mel_filterbank(n_mels: int, n_fft: int, sample_rate: int, f_min: float = 0.0, f_max=None) -> torch.Tensor:
    """Triangular filters, shape (n_freqs, n_mels)."""
    f_max = f_max or sample_rate / 2
    n_freqs = n_fft // 2 + 1
    fft_freqs = torch.linspace(0, sample_rate / 2, n_freqs)
    mel_pts = torch.linspace(hz_to_mel(f_min), hz_to_mel(f_max), n_mels + 2)
    hz_pts = torch.tensor([mel_to_hz(m.item()) for m in mel_pts])
    fb = torch.zeros(n_freqs, n_mels)
    for i in range(n_mels):
        left, center, right = hz_pts[i], hz_pts[i + 1], hz_pts[i + 2]
        up = (fft_freqs - left) / (center - left)
        down = (right - fft_freqs) / (right - center)
        fb[:, i] = torch.clamp(torch.minimum(up, down), min=0.0)
    return fb


class LogMelFrontend(nn.Module):
    def __init__(self, sample_rate=8000, n_fft=64, hop_length=32, n_mels=20, eps=1e-6):
        super().__init__()
        self.sample_rate = sample_rate
        self.n_fft = n_fft
        self.hop_length = hop_length
        self.n_mels = n_mels
        self.eps = eps
        self.register_buffer("window", torch.hann_window(n_fft, periodic=True), persistent=False)
        self.register_buffer("mel_fb", mel_filterbank(n_mels, n_fft, sample_rate), persistent=False)

    def num_frames(self, num_samples: torch.Tensor) -> torch.Tensor:
        return (num_samples - self.n_fft) // self.hop_length + 1

    def forward(self, wav: torch.Tensor, wav_lens: torch.Tensor):
        """wav: (B, T) float, wav_lens: (B,) int -> feats (B, frames, n_mels), feat_lens (B,)"""
        # pre-emphasis
        wav = torch.cat([wav[:, :1], wav[:, 1:] - 0.97 * wav[:, :-1]], dim=1)
        frames = wav.unfold(-1, self.n_fft, self.hop_length)  # (B, F, n_fft)
        frames = frames - frames.mean(dim=-1, keepdim=True)
        frames = frames * self.window
        spec = torch.fft.rfft(frames, n=self.n_fft)
        power = spec.real.pow(2) + spec.imag.pow(2)
        mel = power @ self.mel_fb
        feats = torch.log(mel + self.eps)
        feat_lens = self.num_frames(wav_lens).clamp(min=1)
        return feats, feat_lens


def normalize_per_utterance(feats: torch.Tensor, lens: torch.Tensor) -> torch.Tensor:
    """Mean/var normalisation over valid frames only."""
    mask = (torch.arange(feats.size(1))[None, :] < lens[:, None]).unsqueeze(-1).to(feats.dtype)
    denom = mask.sum(dim=1, keepdim=True).clamp(min=1.0)
    mean = (feats * mask).sum(dim=1, keepdim=True) / denom
    var = ((feats - mean) ** 2 * mask).sum(dim=1, keepdim=True) / denom
    return (feats - mean) / torch.sqrt(var + 1e-5) * mask
