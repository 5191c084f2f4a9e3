"""Transcribe synthetic audio with a tiny Whisper-like model.

Greedy / sampling decoding and beam search, with Whisper's temperature fallback:
if the transcript looks degenerate (too compressible) or too unlikely, decode again
at the next temperature.
"""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

import torch
import torch.nn.functional as F

from audio import HOP_LENGTH, log_mel_spectrogram, synthetic_utterance
from model import KVCache, ModelDimensions, TextDecoder, Whisper
from tokenizer import Tokenizer


@dataclass
class DecodingOptions:
    temperature: Tuple[float, ...] = (0.0, 0.2, 0.4)
    beam_size: int = 3
    length_penalty: Optional[float] = 1.0
    max_new_tokens: int = 10
    suppress_tokens: List[int] = field(default_factory=list)
    suppress_blank: bool = True
    compression_ratio_threshold: float = 2.4
    logprob_threshold: float = -1.0


@dataclass
class DecodingResult:
    tokens: List[int]
    text: str
    avg_logprob: float
    compression_ratio: float
    temperature: float


def compression_ratio(text: str) -> float:
    text_bytes = text.encode("utf-8")
    if not text_bytes:
        return 0.0
    return len(text_bytes) / len(zlib.compress(text_bytes))


def decoder_step(decoder: TextDecoder, tokens: torch.Tensor, audio_features: torch.Tensor,
                 kv_cache: KVCache, offset: int) -> torch.Tensor:
    logits = decoder(tokens, audio_features, kv_cache=kv_cache, offset=offset)
    return logits[:, -1, :].float()


compiled_decoder_step = torch.compile(decoder_step, dynamic=False)


def apply_suppression(logits: torch.Tensor, opts: DecodingOptions, tokenizer: Tokenizer, first_step: bool) -> torch.Tensor:
    logits[:, opts.suppress_tokens] = -float("inf")
    if first_step and opts.suppress_blank:
        logits[:, tokenizer.blank_tokens + [tokenizer.eot]] = -float("inf")
    return logits


@torch.no_grad()
def sample_decode(model: Whisper, audio_features: torch.Tensor, tokenizer: Tokenizer,
                  opts: DecodingOptions, temperature: float, gen: torch.Generator) -> Tuple[List[int], float]:
    """Greedy decoding when temperature == 0, otherwise sampling from the softened distribution."""
    step_input = torch.tensor([list(tokenizer.sot_sequence)])
    kv_cache: KVCache = {}
    offset = 0
    generated: List[int] = []
    sum_logprob = 0.0
    for i in range(opts.max_new_tokens):
        logits = compiled_decoder_step(model.decoder, step_input, audio_features, kv_cache, offset)
        logits = apply_suppression(logits, opts, tokenizer, first_step=i == 0)
        logprobs = F.log_softmax(logits, dim=-1)
        if temperature == 0.0:
            next_token = logits.argmax(dim=-1)
        else:
            probs = F.softmax(logits / temperature, dim=-1)
            next_token = torch.multinomial(probs, 1, generator=gen).squeeze(-1)
        token = int(next_token.item())
        sum_logprob += logprobs[0, token].item()
        if token == tokenizer.eot:
            break
        generated.append(token)
        offset += step_input.shape[1]
        step_input = next_token[:, None]
    return generated, sum_logprob


def length_normalized(sum_logprob: float, length: int, length_penalty: Optional[float]) -> float:
    # from the Google NMT paper, as used by Whisper's MaximumLikelihoodRanker
    penalty = length if length_penalty is None else ((5 + length) / 6) ** length_penalty
    return sum_logprob / penalty


@torch.no_grad()
def beam_search_decode(model: Whisper, audio_features: torch.Tensor, tokenizer: Tokenizer,
                       opts: DecodingOptions) -> Tuple[List[int], float]:
    beam_size = opts.beam_size
    n_sot = len(tokenizer.sot_sequence)
    tokens = torch.tensor([list(tokenizer.sot_sequence)]).repeat(beam_size, 1)
    audio_features = audio_features.repeat(beam_size, 1, 1)
    # all beams start identical: only let the first one expand at step 0
    sum_logprobs = torch.full((beam_size,), -float("inf"))
    sum_logprobs[0] = 0.0
    kv_cache: KVCache = {}
    finished: List[Tuple[List[int], float]] = []

    for i in range(opts.max_new_tokens):
        offset = 0 if i == 0 else tokens.shape[1] - 1
        step_input = tokens if i == 0 else tokens[:, -1:]
        logits = compiled_decoder_step(model.decoder, step_input, audio_features, kv_cache, offset)
        logits = apply_suppression(logits, opts, tokenizer, first_step=i == 0)
        scores = sum_logprobs[:, None] + F.log_softmax(logits, dim=-1)
        top_scores, top_ids = scores.view(-1).topk(2 * beam_size)

        source_beams: List[int] = []
        next_tokens: List[int] = []
        next_scores: List[float] = []
        for score, flat_id in zip(top_scores.tolist(), top_ids.tolist()):
            beam, token = divmod(flat_id, logits.shape[-1])
            if token == tokenizer.eot:
                finished.append((tokens[beam, n_sot:].tolist(), score))
            else:
                source_beams.append(beam)
                next_tokens.append(token)
                next_scores.append(score)
            if len(next_tokens) == beam_size:
                break

        source = torch.tensor(source_beams)
        tokens = torch.cat([tokens[source], torch.tensor(next_tokens)[:, None]], dim=1)
        sum_logprobs = torch.tensor(next_scores)
        for layer_idx in list(kv_cache.keys()):
            kv_cache[layer_idx] = tuple(t[source] for t in kv_cache[layer_idx])
        if len(finished) >= beam_size:
            break

    if not finished:
        finished = [(tokens[b, n_sot:].tolist(), sum_logprobs[b].item()) for b in range(beam_size)]
    best_tokens, best_score = max(
        finished, key=lambda item: length_normalized(item[1], len(item[0]), opts.length_penalty)
    )
    return best_tokens, best_score


def decode_with_fallback(model: Whisper, mel: torch.Tensor, tokenizer: Tokenizer,
                         opts: DecodingOptions, gen: torch.Generator) -> DecodingResult:
    with torch.no_grad():
        audio_features = model.embed_audio(mel)
    result: Optional[DecodingResult] = None
    for temperature in opts.temperature:
        if temperature == 0.0 and opts.beam_size > 1:
            tokens, sum_logprob = beam_search_decode(model, audio_features, tokenizer, opts)
        else:
            tokens, sum_logprob = sample_decode(model, audio_features, tokenizer, opts, temperature, gen)
        text = tokenizer.decode(tokens)
        result = DecodingResult(
            tokens=tokens,
            text=text,
            avg_logprob=sum_logprob / (len(tokens) + 1),
            compression_ratio=compression_ratio(text),
            temperature=temperature,
        )
        needs_fallback = False
        if result.compression_ratio > opts.compression_ratio_threshold:
            needs_fallback = True  # too repetitive
        if result.avg_logprob < opts.logprob_threshold:
            needs_fallback = True  # average log probability is too low
        if not needs_fallback:
            break
        print(f"    t={temperature}: fallback (compression {result.compression_ratio:.2f}, "
              f"avg logprob {result.avg_logprob:.2f})")
    assert result is not None
    return result


def main() -> None:
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    tokenizer = Tokenizer()
    dims = ModelDimensions(n_vocab=len(tokenizer))
    model = Whisper(dims).eval()

    suppress = [-1] + tokenizer.non_speech_tokens + [
        t for t in tokenizer.special_token_ids() if t != tokenizer.eot
    ]
    suppress = sorted(set(t for t in suppress if t >= 0))
    num_samples = HOP_LENGTH * (2 * dims.n_audio_ctx - 1) + HOP_LENGTH // 2

    configs = [
        ("greedy", DecodingOptions(beam_size=1, max_new_tokens=16, suppress_tokens=suppress)),
        ("beam", DecodingOptions(beam_size=3, length_penalty=1.0, max_new_tokens=8, suppress_tokens=suppress)),
    ]
    for name, opts in configs:
        t0 = time.time()
        print(f"[{name}] beam_size={opts.beam_size} temperatures={opts.temperature}")
        for utt in range(2):
            audio = synthetic_utterance(seed=utt, num_samples=num_samples)
            mel = log_mel_spectrogram(audio, dims.n_mels)[None]
            result = decode_with_fallback(model, mel, tokenizer, opts, gen)
            print(f"  utt {utt} (t={result.temperature}): {result.text!r} "
                  f"[{len(result.tokens)} tokens, avg logprob {result.avg_logprob:.2f}]")
        print(f"[{name}] {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
