"""The transformers architectures of the accuracy benchmark: a small config with
random weights (nothing is downloaded) and the inputs one forward call takes.

Shared by the harness (which builds and calls them) and by run.py (which names
their `forward` as the static pass's `--entry`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SEQ = 8
VOCAB = 128
DECODER = dict(vocab_size=VOCAB, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
               num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64)


@dataclass(frozen=True)
class Arch:
    name: str
    module: str  # transformers.models.<x>.modeling_<x>
    model_class: str
    config_class: str
    config: dict[str, Any] = field(default_factory=dict)
    inputs: tuple[str, ...] = ("input_ids",)  # input_ids, attention_mask, decoder_input_ids, pixel_values

    @property
    def path(self) -> str:
        return self.module.replace(".", "/") + ".py"

    @property
    def entry(self) -> str:
        return f"{self.path}:{self.model_class}.forward"


ARCHS: tuple[Arch, ...] = (
    Arch("gpt2", "transformers.models.gpt2.modeling_gpt2", "GPT2LMHeadModel", "GPT2Config",
         dict(vocab_size=VOCAB, n_embd=64, n_layer=2, n_head=4, n_positions=64)),
    Arch("bert", "transformers.models.bert.modeling_bert", "BertModel", "BertConfig",
         dict(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128,
              max_position_embeddings=64), ("input_ids", "attention_mask")),
    Arch("llama", "transformers.models.llama.modeling_llama", "LlamaForCausalLM", "LlamaConfig", DECODER),
    Arch("mistral", "transformers.models.mistral.modeling_mistral", "MistralForCausalLM", "MistralConfig", DECODER),
    Arch("qwen2", "transformers.models.qwen2.modeling_qwen2", "Qwen2ForCausalLM", "Qwen2Config", DECODER),
    Arch("t5", "transformers.models.t5.modeling_t5", "T5ForConditionalGeneration", "T5Config",
         dict(vocab_size=VOCAB, d_model=64, d_kv=16, d_ff=128, num_layers=2, num_decoder_layers=2, num_heads=4),
         ("input_ids", "decoder_input_ids")),
    Arch("vit", "transformers.models.vit.modeling_vit", "ViTModel", "ViTConfig",
         dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128, image_size=32,
              patch_size=8), ("pixel_values",)),
    Arch("opt", "transformers.models.opt.modeling_opt", "OPTForCausalLM", "OPTConfig",
         dict(vocab_size=VOCAB, hidden_size=64, ffn_dim=128, num_hidden_layers=2, num_attention_heads=4,
              max_position_embeddings=64, word_embed_proj_dim=64)),
)
