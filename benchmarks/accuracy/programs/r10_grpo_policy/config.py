from dataclasses import dataclass, field


@dataclass
class LMConfig:
    vocab_size: int = 12          # digits 0-9, BOS, SEP
    max_seq_len: int = 16
    d_model: int = 64
    n_heads: int = 4
    n_layers: int = 2
    mlp_ratio: int = 4
    dropout: float = 0.0
    norm: str = "rms"
    norm_eps: float = 1e-6
    tie_embeddings: bool = True

    @property
    def head_dim(self) -> int:
        return self.d_model // self.n_heads


@dataclass
class GRPOConfig:
    seed: int = 1234
    steps: int = 30
    prompts_per_step: int = 8
    group_size: int = 8
    prompt_len: int = 3
    completion_len: int = 4
    temperature: float = 1.0
    lr: float = 2e-3
    clip_eps: float = 0.2
    beta_start: float = 0.0
    beta_end: float = 0.05
    beta_warmup_steps: int = 15
    ppo_epochs: int = 2
    max_grad_norm: float = 1.0
    log_every: int = 10
    eval_prompts: int = 64
    lm: LMConfig = field(default_factory=LMConfig)

    @classmethod
    def debug(cls):
        return cls(steps=6, prompts_per_step=4, group_size=4, lm=LMConfig(d_model=32, n_layers=1))

    def beta_at(self, step: int) -> float:
        if step >= self.beta_warmup_steps:
            return self.beta_end
        frac = step / self.beta_warmup_steps
        return self.beta_start + frac * (self.beta_end - self.beta_start)
