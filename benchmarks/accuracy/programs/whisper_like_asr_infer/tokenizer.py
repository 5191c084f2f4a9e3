"""A toy word-level tokenizer with Whisper-style special tokens."""

from __future__ import annotations

from typing import Dict, List

WORDS = [
    " ", ",", ".", "?", "the", "a", "cat", "dog", "sat", "on", "mat", "and", "ran", "to", "house",
    "we", "you", "it", "is", "was", "good", "bad", "very", "hello", "world", "speech", "model",
    "yes", "no", "one", "two", "three", "four", "five", "red", "blue", "green", "today", "now", "here",
]
SPECIALS = [
    "<|endoftext|>",
    "<|startoftranscript|>",
    "<|en|>",
    "<|transcribe|>",
    "<|notimestamps|>",
    "<|nospeech|>",
    "<|startofprev|>",
    "<|startoflm|>",
]


class Tokenizer:
    def __init__(self) -> None:
        self.vocab: List[str] = WORDS + SPECIALS
        self.token_to_id: Dict[str, int] = {tok: i for i, tok in enumerate(self.vocab)}
        self.eot = self.token_to_id["<|endoftext|>"]
        self.sot = self.token_to_id["<|startoftranscript|>"]
        self.no_speech = self.token_to_id["<|nospeech|>"]
        self.no_timestamps = self.token_to_id["<|notimestamps|>"]
        self.sot_sequence = (
            self.sot,
            self.token_to_id["<|en|>"],
            self.token_to_id["<|transcribe|>"],
            self.no_timestamps,
        )
        self.blank_tokens = [self.token_to_id[" "]]

    def __len__(self) -> int:
        return len(self.vocab)

    @property
    def non_speech_tokens(self) -> List[int]:
        return [self.token_to_id[s] for s in (",", "?")]

    def special_token_ids(self) -> List[int]:
        return [self.token_to_id[s] for s in SPECIALS]

    def decode(self, token_ids: List[int]) -> str:
        words = [self.vocab[t] for t in token_ids if t < len(WORDS)]
        return " ".join(w for w in words if w.strip()).strip()
