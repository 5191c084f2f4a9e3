from dataclasses import dataclass, field


@dataclass
class FTConfig:
    n_num_features: int = 6
    cat_cardinalities: dict = field(default_factory=lambda: {"region": 5, "device": 3, "plan": 4})
    d_token: int = 32
    n_blocks: int = 2
    n_heads: int = 4
    attn_dropout: float = 0.1
    ffn_dropout: float = 0.1
    residual_dropout: float = 0.0
    ffn_factor: float = 4 / 3
    activation: str = "reglu"
    prenorm: bool = True
    # optimisation
    lr: float = 1e-3
    weight_decay: float = 1e-5
    batch_size: int = 128
    max_epochs: int = 8
    patience: int = 2
    warmup_steps: int = 10
    grad_clip: float = 1.0
    use_bf16: bool = False

    @property
    def d_ffn(self) -> int:
        return int(self.d_token * self.ffn_factor)

    @classmethod
    def tiny(cls, **overrides):
        return cls(**{"d_token": 32, "n_blocks": 2, **overrides})

    @classmethod
    def paper_default(cls, **overrides):
        base = dict(d_token=192, n_blocks=3, n_heads=8, attn_dropout=0.2, ffn_dropout=0.1, lr=1e-4)
        return cls(**{**base, **overrides})


PRESETS = {"tiny": FTConfig.tiny, "default": FTConfig.paper_default}
