"""Model hyper-parameters as an immutable dataclass plus a registry of named presets."""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class ModelConfig:
    vocab_size: int = 128
    dim: int = 64
    n_layers: int = 2
    n_heads: int = 4
    n_kv_heads: int | None = None
    ffn_multiple_of: int = 32
    ffn_dim_multiplier: float | None = None
    norm_eps: float = 1e-5
    rope_theta: float = 10000.0
    max_seq_len: int = 64
    tie_embeddings: bool = True

    def __post_init__(self) -> None:
        if self.dim % self.n_heads != 0:
            raise ValueError(f"dim={self.dim} not divisible by n_heads={self.n_heads}")
        if self.n_heads % self.kv_heads != 0:
            raise ValueError("n_heads must be a multiple of n_kv_heads")

    @property
    def head_dim(self) -> int:
        return self.dim // self.n_heads

    @property
    def kv_heads(self) -> int:
        return self.n_heads if self.n_kv_heads is None else self.n_kv_heads

    @property
    def n_rep(self) -> int:
        return self.n_heads // self.kv_heads

    @property
    def hidden_dim(self) -> int:
        # LLaMA-style: 2/3 of 4*dim, optionally scaled, rounded up to a multiple
        hidden = int(2 * (4 * self.dim) / 3)
        if self.ffn_dim_multiplier is not None:
            hidden = int(self.ffn_dim_multiplier * hidden)
        m = self.ffn_multiple_of
        return m * ((hidden + m - 1) // m)

    def with_overrides(self, **kwargs) -> "ModelConfig":
        return replace(self, **kwargs)


PRESETS: dict[str, ModelConfig] = {
    "tiny": ModelConfig(dim=64, n_layers=2, n_heads=4, n_kv_heads=2, max_seq_len=64),
    "tiny-mha": ModelConfig(dim=64, n_layers=2, n_heads=4, n_kv_heads=None, max_seq_len=64),
    "small": ModelConfig(dim=256, n_layers=6, n_heads=8, n_kv_heads=2, max_seq_len=512, vocab_size=1024),
}


def get_config(name: str, **overrides) -> ModelConfig:
    try:
        cfg = PRESETS[name]
    except KeyError:
        raise KeyError(f"unknown preset {name!r}; choose from {sorted(PRESETS)}") from None
    return cfg.with_overrides(**overrides) if overrides else cfg
