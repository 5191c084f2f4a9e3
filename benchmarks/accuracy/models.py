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
    inputs: tuple[str, ...] = ("input_ids",)  # names the harness knows how to make (see harness.INPUTS)
    family: str = "decoder"  # decoder, encoder, encoder-decoder, moe, vision, audio, state-space

    @property
    def path(self) -> str:
        return self.module.replace(".", "/") + ".py"

    @property
    def entry(self) -> str:
        return f"{self.path}:{self.model_class}.forward"

    def script(self) -> str:
        """The script a user writes around the model: built from its config, put in eval mode, called
        once without grad on the harness's inputs (what the static pass sees of the model's values)."""
        size = self.config.get("image_size", 32)
        inputs = {
            "input_ids": f"torch.randint(0, {VOCAB}, (1, {SEQ}))",
            "decoder_input_ids": f"torch.randint(0, {VOCAB}, (1, {SEQ}))",
            "attention_mask": f"torch.ones(1, {SEQ}, dtype=torch.long)",
            "pixel_values": f"torch.randn(1, 3, {size}, {size})",
            "input_features": f"torch.randn(1, {self.config.get('num_mel_bins', 16)}, "
                              f"{2 * self.config.get('max_source_positions', 32)})",
            "input_values": "torch.randn(1, 400)",
        }
        arguments = ", ".join(f"{name}={inputs[name]}" for name in self.inputs)
        config = ", ".join(f"{key}={value!r}" for key, value in self.config.items())
        return (f"import torch\n\nfrom {self.module} import {self.config_class}, {self.model_class}\n\n\n"
                f"def main():\n"
                f"    model = {self.model_class}({self.config_class}({config})).eval()\n"
                f"    with torch.no_grad():\n"
                f"        model({arguments})\n\n\n"
                f"if __name__ == \"__main__\":\n    main()\n")


def _bart_like(**extra: Any) -> dict[str, Any]:
    return dict(vocab_size=VOCAB, d_model=64, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4,
                decoder_attention_heads=4, encoder_ffn_dim=128, decoder_ffn_dim=128, **extra)


ENCODER = dict(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128,
               max_position_embeddings=64)
VISION = dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128, image_size=32,
              patch_size=8)
TEXT = ("input_ids", "attention_mask")
SEQ2SEQ = ("input_ids", "decoder_input_ids")


def _m(name: str, model_class: str, config_class: str, config: dict[str, Any],
       inputs: tuple[str, ...] = ("input_ids",), family: str = "decoder") -> Arch:
    return Arch(name, f"transformers.models.{name}.modeling_{name}", model_class, config_class, config, inputs, family)


ARCHS: tuple[Arch, ...] = (
    # decoder-only
    _m("gpt2", "GPT2LMHeadModel", "GPT2Config", dict(vocab_size=VOCAB, n_embd=64, n_layer=2, n_head=4, n_positions=64)),
    _m("llama", "LlamaForCausalLM", "LlamaConfig", DECODER),
    _m("mistral", "MistralForCausalLM", "MistralConfig", DECODER),
    _m("qwen2", "Qwen2ForCausalLM", "Qwen2Config", DECODER),
    _m("qwen3", "Qwen3ForCausalLM", "Qwen3Config", dict(DECODER, head_dim=16)),
    _m("gemma", "GemmaForCausalLM", "GemmaConfig", dict(DECODER, head_dim=16)),
    _m("phi", "PhiForCausalLM", "PhiConfig", DECODER),
    _m("phi3", "Phi3ForCausalLM", "Phi3Config", dict(DECODER, pad_token_id=0, bos_token_id=1, eos_token_id=2)),
    _m("falcon", "FalconForCausalLM", "FalconConfig",
       dict(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2, num_attention_heads=4)),
    _m("gpt_neox", "GPTNeoXForCausalLM", "GPTNeoXConfig", ENCODER),
    _m("gptj", "GPTJForCausalLM", "GPTJConfig",
       dict(vocab_size=VOCAB, n_embd=64, n_layer=2, n_head=4, n_positions=64, rotary_dim=8)),
    _m("bloom", "BloomForCausalLM", "BloomConfig", dict(vocab_size=VOCAB, hidden_size=64, n_layer=2, n_head=4)),
    _m("opt", "OPTForCausalLM", "OPTConfig",
       dict(vocab_size=VOCAB, hidden_size=64, ffn_dim=128, num_hidden_layers=2, num_attention_heads=4,
            max_position_embeddings=64, word_embed_proj_dim=64)),
    # encoder
    _m("bert", "BertModel", "BertConfig", ENCODER, TEXT, "encoder"),
    _m("roberta", "RobertaModel", "RobertaConfig", ENCODER, TEXT, "encoder"),
    _m("distilbert", "DistilBertModel", "DistilBertConfig",
       dict(vocab_size=VOCAB, dim=64, n_layers=2, n_heads=4, hidden_dim=128, max_position_embeddings=64),
       TEXT, "encoder"),
    _m("electra", "ElectraModel", "ElectraConfig", dict(ENCODER, embedding_size=64), TEXT, "encoder"),
    _m("albert", "AlbertModel", "AlbertConfig", dict(ENCODER, embedding_size=32), TEXT, "encoder"),
    # encoder-decoder
    _m("t5", "T5ForConditionalGeneration", "T5Config",
       dict(vocab_size=VOCAB, d_model=64, d_kv=16, d_ff=128, num_layers=2, num_decoder_layers=2, num_heads=4),
       SEQ2SEQ, "encoder-decoder"),
    _m("bart", "BartForConditionalGeneration", "BartConfig", _bart_like(max_position_embeddings=64), SEQ2SEQ,
       "encoder-decoder"),
    # mixture of experts
    _m("mixtral", "MixtralForCausalLM", "MixtralConfig", dict(DECODER, num_local_experts=4, num_experts_per_tok=2),
       family="moe"),
    _m("qwen2_moe", "Qwen2MoeForCausalLM", "Qwen2MoeConfig",
       dict(DECODER, num_experts=4, num_experts_per_tok=2, moe_intermediate_size=64,
            shared_expert_intermediate_size=64), family="moe"),
    # vision
    _m("vit", "ViTModel", "ViTConfig", VISION, ("pixel_values",), "vision"),
    _m("deit", "DeiTModel", "DeiTConfig", VISION, ("pixel_values",), "vision"),
    _m("convnext", "ConvNextModel", "ConvNextConfig", dict(hidden_sizes=[16, 32], depths=[1, 1], num_stages=2,
                                                           image_size=32), ("pixel_values",), "vision"),
    # audio
    _m("whisper", "WhisperForConditionalGeneration", "WhisperConfig",
       _bart_like(num_mel_bins=16, max_source_positions=32, max_target_positions=64, pad_token_id=1,
                  bos_token_id=2, eos_token_id=2, decoder_start_token_id=2),
       ("input_features", "decoder_input_ids"), "audio"),
    _m("wav2vec2", "Wav2Vec2Model", "Wav2Vec2Config",
       dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128, conv_dim=(32, 32),
            conv_stride=(5, 2), conv_kernel=(10, 3), num_conv_pos_embeddings=16, num_conv_pos_embedding_groups=4),
       ("input_values",), "audio"),
    # state space
    _m("mamba", "MambaForCausalLM", "MambaConfig",
       dict(vocab_size=VOCAB, hidden_size=64, state_size=8, num_hidden_layers=2), family="state-space"),
)
