"""Configuration for a tiny BERT, in the style of the HuggingFace BertConfig."""

from __future__ import annotations

import copy
from typing import Any, Dict


class BertConfig:
    """Holds the hyper-parameters of the encoder and the MLM head."""

    model_type = "bert"

    def __init__(
        self,
        vocab_size: int = 128,
        hidden_size: int = 64,
        num_hidden_layers: int = 2,
        num_attention_heads: int = 4,
        intermediate_size: int = 128,
        hidden_act: str = "gelu",
        hidden_dropout_prob: float = 0.1,
        attention_probs_dropout_prob: float = 0.1,
        max_position_embeddings: int = 64,
        type_vocab_size: int = 2,
        initializer_range: float = 0.02,
        layer_norm_eps: float = 1e-12,
        pad_token_id: int = 0,
        is_decoder: bool = False,
        tie_word_embeddings: bool = True,
        **kwargs: Any,
    ) -> None:
        self.vocab_size = vocab_size
        self.hidden_size = hidden_size
        self.num_hidden_layers = num_hidden_layers
        self.num_attention_heads = num_attention_heads
        self.intermediate_size = intermediate_size
        self.hidden_act = hidden_act
        self.hidden_dropout_prob = hidden_dropout_prob
        self.attention_probs_dropout_prob = attention_probs_dropout_prob
        self.max_position_embeddings = max_position_embeddings
        self.type_vocab_size = type_vocab_size
        self.initializer_range = initializer_range
        self.layer_norm_eps = layer_norm_eps
        self.pad_token_id = pad_token_id
        self.is_decoder = is_decoder
        self.tie_word_embeddings = tie_word_embeddings
        # special token ids used by the pretraining data pipeline
        self.cls_token_id = kwargs.pop("cls_token_id", 1)
        self.sep_token_id = kwargs.pop("sep_token_id", 2)
        self.mask_token_id = kwargs.pop("mask_token_id", 3)
        self.num_special_tokens = kwargs.pop("num_special_tokens", 4)
        for key, value in kwargs.items():
            setattr(self, key, value)

        if self.hidden_size % self.num_attention_heads != 0:
            raise ValueError(
                f"hidden_size ({self.hidden_size}) is not a multiple of "
                f"num_attention_heads ({self.num_attention_heads})"
            )

    @property
    def head_dim(self) -> int:
        return self.hidden_size // self.num_attention_heads

    def to_dict(self) -> Dict[str, Any]:
        output = copy.deepcopy(self.__dict__)
        output["model_type"] = self.model_type
        return output

    @classmethod
    def from_dict(cls, config_dict: Dict[str, Any], **kwargs: Any) -> "BertConfig":
        config_dict = dict(config_dict)
        config_dict.pop("model_type", None)
        config_dict.update(kwargs)
        return cls(**config_dict)

    def __repr__(self) -> str:
        items = ", ".join(f"{k}={v!r}" for k, v in sorted(self.to_dict().items()))
        return f"{self.__class__.__name__}({items})"
