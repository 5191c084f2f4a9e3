"""Tiny LLaMA-style language model package."""

from lm.config import PRESETS, ModelConfig, get_config
from lm.layers import Attention, KVCache, RMSNorm, RotaryEmbedding, SwiGLU, repeat_kv
from lm.modeling import Transformer, TransformerBlock, build_model

__all__ = [
    "PRESETS",
    "ModelConfig",
    "get_config",
    "Attention",
    "KVCache",
    "RMSNorm",
    "RotaryEmbedding",
    "SwiGLU",
    "repeat_kv",
    "Transformer",
    "TransformerBlock",
    "build_model",
]
