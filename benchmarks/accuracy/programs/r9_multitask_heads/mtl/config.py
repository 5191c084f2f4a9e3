from dataclasses import dataclass, field
from typing import Dict


@dataclass
class TaskSpec:
    kind: str            # "cls", "reg" or "rank"
    out_dim: int = 1
    weight: float = 1.0


def _default_tasks():
    return {
        "churn": TaskSpec(kind="cls", out_dim=3, weight=1.0),
        "spend": TaskSpec(kind="reg", out_dim=1, weight=0.5),
        "relevance": TaskSpec(kind="rank", out_dim=1, weight=0.25),
    }


@dataclass
class MTLConfig:
    num_numeric: int = 12
    num_categories: int = 20
    cat_dim: int = 8
    seq_len: int = 6
    d_model: int = 32
    n_layers: int = 1
    n_heads: int = 4
    ff_mult: int = 2
    dropout: float = 0.1
    activation: str = "gelu"
    head_hidden: int = 32
    use_uncertainty: bool = True
    tasks: Dict[str, TaskSpec] = field(default_factory=_default_tasks)

    @classmethod
    def tiny(cls):
        return cls(d_model=16, n_layers=1, n_heads=2, head_hidden=16)

    @classmethod
    def small(cls):
        return cls()

    @classmethod
    def base(cls):
        return cls(d_model=64, n_layers=2, head_hidden=64)

    @property
    def task_names(self):
        return list(self.tasks.keys())
