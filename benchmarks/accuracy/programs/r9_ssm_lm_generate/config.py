import math
from dataclasses import dataclass, field


@dataclass
class SSMConfig:
    vocab_size: int = 64
    d_model: int = 48
    n_layers: int = 2
    d_state: int = 8
    expand: int = 2
    d_conv: int = 4
    dt_rank: int = 0  # 0 means "pick from d_model"
    seq_len: int = 24
    dropout: float = 0.1
    norm_eps: float = 1e-5
    act: str = "silu"
    tie_embeddings: bool = True

    def __post_init__(self):
        if self.dt_rank == 0:
            self.dt_rank = max(1, math.ceil(self.d_model / 16))

    @property
    def d_inner(self):
        return self.expand * self.d_model

    @classmethod
    def tiny(cls, **overrides):
        preset = dict(d_model=32, n_layers=2, d_state=4, seq_len=16)
        preset.update(overrides)
        return cls(**preset)

    @classmethod
    def small(cls, **overrides):
        preset = dict(d_model=48, n_layers=3, d_state=8, seq_len=24)
        preset.update(overrides)
        return cls(**preset)


@dataclass
class TrainConfig:
    steps: int = 40
    batch_size: int = 16
    lr: float = 3e-3
    min_lr: float = 3e-4
    warmup_steps: int = 6
    weight_decay: float = 0.01
    grad_clip: float = 1.0
    log_every: int = 10
    eval_batches: int = 2
    seed: int = 1234
    model_overrides: dict = field(default_factory=lambda: {"dropout": 0.05})


@dataclass
class SamplingParams:
    temperature: float = 1.0
    top_k: int = 0
    repetition_penalty: float = 1.0
    max_new_tokens: int = 12
