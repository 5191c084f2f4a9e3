from dataclasses import dataclass, field, asdict


@dataclass
class VQVAEConfig:
    in_channels: int = 1
    hidden: int = 32
    res_hidden: int = 16
    n_res_blocks: int = 1
    embedding_dim: int = 16
    num_codes: int = 64
    beta: float = 0.25            # commitment cost
    use_ema: bool = True
    ema_decay: float = 0.95
    ema_eps: float = 1e-5
    ste: str = "function"         # "function" or "detach"
    dropout: float = 0.0

    @classmethod
    def from_dict(cls, overrides):
        base = asdict(cls())
        unknown = set(overrides) - set(base)
        if unknown:
            raise KeyError(f"unknown config keys: {sorted(unknown)}")
        base.update(overrides)
        return cls(**base)

    @classmethod
    def tiny(cls):
        return cls(hidden=24, res_hidden=12, num_codes=32, embedding_dim=8)


@dataclass
class TrainConfig:
    steps: int = 80
    batch_size: int = 32
    lr: float = 2e-3
    warmup_steps: int = 10
    commit_ramp_steps: int = 30
    eval_every: int = 20
    eval_batches: int = 2
    log_every: int = 10
    restart_every: int = 10
    seed: int = 7
    overrides: dict = field(default_factory=lambda: {"ema_decay": 0.9})
