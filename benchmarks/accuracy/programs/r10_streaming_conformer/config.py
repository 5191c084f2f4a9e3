from dataclasses import dataclass


@dataclass
class ConformerConfig:
    n_mels: int = 40
    d_model: int = 64
    n_heads: int = 4
    ff_mult: int = 4
    n_layers: int = 2
    conv_kernel: int = 15
    dropout: float = 0.1
    max_rel_pos: int = 32
    vocab_size: int = 12  # index 0 is the CTC blank
    chunk_size: int = 16
    left_context: int = 16
    ff_residual_factor: float = 0.5

    @classmethod
    def tiny(cls) -> "ConformerConfig":
        return cls(d_model=48, n_heads=4, n_layers=2, conv_kernel=9)

    @classmethod
    def small(cls) -> "ConformerConfig":
        return cls(d_model=144, n_heads=4, n_layers=8, conv_kernel=31)


@dataclass
class TrainConfig:
    steps: int = 16
    batch_size: int = 6
    utt_frames: int = 80
    lr: float = 3e-3
    warmup_steps: int = 4
    weight_decay: float = 1e-2
    grad_clip: float = 5.0
    # dynamic chunk training (WeNet style): 0 means full context
    chunk_choices: tuple = (0, 16)
    inter_ctc_weight: float = 0.3
    log_every: int = 4
    seed: int = 0
