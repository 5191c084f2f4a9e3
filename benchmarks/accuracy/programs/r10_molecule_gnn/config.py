from dataclasses import dataclass, field, replace
from typing import Dict, Any


@dataclass
class ModelConfig:
    node_feat_dim: int = 16
    num_edge_types: int = 4
    hidden_dim: int = 64
    num_layers: int = 3
    layer_kind: str = "gine"
    aggregation: str = "sum"
    readout: str = "mean"
    use_virtual_node: bool = True
    dropout: float = 0.1
    norm_eps: float = 1e-5


@dataclass
class TrainConfig:
    seed: int = 0
    num_train_graphs: int = 384
    num_val_graphs: int = 96
    batch_size: int = 32
    epochs: int = 3
    lr: float = 3e-3
    min_lr: float = 1e-4
    warmup_steps: int = 10
    weight_decay: float = 1e-4
    loss: str = "huber"
    huber_delta: float = 1.0
    grad_clip: float = 1.0
    log_every: int = 10
    model: ModelConfig = field(default_factory=ModelConfig)

    @classmethod
    def tiny(cls) -> "TrainConfig":
        return cls(num_train_graphs=128, num_val_graphs=32, epochs=2,
                   model=ModelConfig(hidden_dim=32, num_layers=2))

    @classmethod
    def default(cls) -> "TrainConfig":
        return cls()

    def with_overrides(self, overrides: Dict[str, Any]) -> "TrainConfig":
        model_over = {k[len("model."):]: v for k, v in overrides.items() if k.startswith("model.")}
        top_over = {k: v for k, v in overrides.items() if not k.startswith("model.")}
        new_model = replace(self.model, **model_over)
        return replace(self, model=new_model, **top_over)


PRESETS = {
    "tiny": TrainConfig.tiny,
    "default": TrainConfig.default,
}
