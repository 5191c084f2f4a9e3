"""The zoo's catalog: every model of the installed transformers and diffusers that builds from a
small config (random weights, nothing downloaded) and whose eager forward runs.

transformers: each model type of the auto mappings, with the head of the first task it has
(seq2seq LM, speech seq2seq, masked LM, causal LM, image classification, CTC, audio
classification, else the bare model). diffusers: each model class the package exports. A config
is shrunk by the names of its fields, the same rules for every model (`shrink`); the inputs come
from the model's `main_input_name` or its forward's parameters (`transformers_inputs`,
`diffusers_inputs`). Each candidate is tried in a forked child with a time limit (one crash loses
one model): the first call, a second with another size, a training step, and each variant that
applies. The survivors go to `manifest.json` in a fixed order, with the library versions they
were built with.

    python benchmarks/zoo/catalog.py [--only NAME,...] [--jobs 2] [--limit-s 300]
"""

from __future__ import annotations

import argparse
import functools
import importlib
import inspect
import json
import os
import re
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from forked import Result, run_forked  # noqa: E402

MANIFEST = HERE / "manifest.json"
SEQ, SEQ_2, VOCAB, SIZE = 8, 12, 128, 32

# transformers' task mappings, in the order a model type's head is chosen, with their Auto class
# (an encoder-decoder's seq2seq head before its decoder alone, an encoder's masked LM before its
# causal LM head)
TASKS = (
    ("MODEL_FOR_SEQ_TO_SEQ_CAUSAL_LM_MAPPING_NAMES", "AutoModelForSeq2SeqLM"),
    ("MODEL_FOR_SPEECH_SEQ_2_SEQ_MAPPING_NAMES", "AutoModelForSpeechSeq2Seq"),
    ("MODEL_FOR_MASKED_LM_MAPPING_NAMES", "AutoModelForMaskedLM"),
    ("MODEL_FOR_CAUSAL_LM_MAPPING_NAMES", "AutoModelForCausalLM"),
    ("MODEL_FOR_IMAGE_CLASSIFICATION_MAPPING_NAMES", "AutoModelForImageClassification"),
    ("MODEL_FOR_CTC_MAPPING_NAMES", "AutoModelForCTC"),
    ("MODEL_FOR_AUDIO_CLASSIFICATION_MAPPING_NAMES", "AutoModelForAudioClassification"),
    ("MODEL_MAPPING_NAMES", "AutoModel"),
)

# --- shrinking a config: by field name, never by model -------------------------------------

_INT_RULES: tuple[tuple[re.Pattern[str], int], ...] = tuple((re.compile(p), v) for p, v in (
    (r"^(num_(hidden_)?layers|n_layers?|num_(encoder|decoder)_layers|(encoder|decoder|text|vision)_layers"
     r"|num_blocks|layers_per_block|depth)$", 2),
    (r"^(num_attention_heads|n_heads?|num_heads|(encoder|decoder)_attention_heads)$", 4),
    (r"^(num_key_value_heads|n_kv_heads|num_kv_heads|multi_query_group_num)$", 2),
    (r"^(hidden_size|d_model|n_embd|embed_dim|dim|embedding_size|word_embed_proj_dim|projection_dim"
     r"|cross_attention_dim|joint_attention_dim|pooled_projection_dim|caption_projection_dim|caption_channels"
     r"|text_dim|inner_dim)$", 64),
    (r"^(intermediate_size|ffn_dim|d_ff|(encoder|decoder)_ffn_dim|moe_intermediate_size|n_inner|hidden_dim"
     r"|shared_expert_intermediate_size|ffn_hidden_size|ff_inner_dim)$", 128),
    (r"^(head_dim|d_kv|attention_head_dim|kv_channels|v_head_dim)$", 16),
    (r"^(qk_rope_head_dim|qk_nope_head_dim|rotary_dim)$", 8),
    (r"^(kv_lora_rank|q_lora_rank)$", 32),
    (r"^(num_local_experts|num_experts|n_routed_experts|moe_num_experts)$", 4),
    (r"^(num_experts_per_tok|moe_topk|num_selected_experts)$", 2),
    (r"^vocab_size$", VOCAB),
    (r"^(image_size|sample_size)$", SIZE),
    (r"^max_source_positions$", 32),
))
_TOKENS = ("pad_token_id", "bos_token_id", "eos_token_id", "decoder_start_token_id")
_LIST_RULES: tuple[tuple[re.Pattern[str], int], ...] = tuple((re.compile(p), v) for p, v in (
    (r"^(depths|layers_per_block)$", 1),
    (r"^(hidden_sizes|embed_dims|block_out_channels|dims)$", 32),
    (r"^num_heads$", 2),
))


def shrink(defaults: dict[str, Any]) -> dict[str, Any]:
    """The keywords that make a config small: sizes down (never up), lists of per-stage sizes
    kept at their length, token ids inside the smaller vocabulary."""
    out: dict[str, Any] = {}
    for key, value in defaults.items():
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            target = next((v for pattern, v in _INT_RULES if pattern.match(key)), None)
            if target is not None and value > target:
                out[key] = target
        elif isinstance(value, (list, tuple)) and value and all(isinstance(v, int) and not isinstance(v, bool)
                                                                for v in value):
            target = next((v for pattern, v in _LIST_RULES if pattern.match(key)), None)
            if target is not None and any(v > target for v in value):
                out[key] = [target] * len(value)
    vocab = out.get("vocab_size", defaults.get("vocab_size"))
    for number, key in enumerate(_TOKENS):
        value = defaults.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and isinstance(vocab, int) and value >= vocab:
            out[key] = number
    return out


# --- candidates --------------------------------------------------------------------------


@dataclass
class Model:
    """One model of the zoo: how a script builds it and what its forward takes."""

    name: str  # the model_type for transformers, the class name for diffusers
    family: str  # what the split hashes: model_type, or the diffusers module's name
    library: str
    config_class: str | None  # transformers' config class (None: diffusers, configured by keywords)
    model_class: str
    module: str  # the module that defines model_class
    config_module: str | None = None
    auto_class: str | None = None  # the Auto class that builds it from a config (transformers)
    config: dict[str, Any] = field(default_factory=dict)  # the keywords of the small config
    inputs: dict[str, dict[str, Any]] = field(default_factory=dict)  # name -> {"kind", "shape"[, "high"]}
    second: dict[str, list[int]] = field(default_factory=dict)  # another call: name -> shape
    variants: list[str] = field(default_factory=list)  # the config variants that build and run
    latents: list[int] = field(default_factory=list)  # what a VAE's decode takes (diffusers)
    seconds: float = 0.0  # how long the checks took


def transformers_candidates() -> list[Model]:
    import transformers.models.auto.modeling_auto as auto
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING_NAMES

    chosen: dict[str, tuple[str, str]] = {}
    for mapping, auto_class in TASKS:
        for model_type, names in getattr(auto, mapping).items():
            name = names if isinstance(names, str) else names[0]
            chosen.setdefault(model_type, (name, auto_class))
    return [Model(model_type, model_type, "transformers", CONFIG_MAPPING_NAMES[model_type], name, "", None, auto_class)
            for model_type, (name, auto_class) in sorted(chosen.items()) if model_type in CONFIG_MAPPING_NAMES]


def diffusers_candidates() -> list[Model]:
    import diffusers

    found = []
    for name in sorted(n for n in dir(diffusers) if n[:1].isupper()):
        try:
            cls = getattr(diffusers, name)
        except Exception:  # noqa: BLE001 - an optional dependency missing: not in the zoo
            continue
        if inspect.isclass(cls) and issubclass(cls, diffusers.ModelMixin) and cls is not diffusers.ModelMixin:
            family = cls.__module__.rpartition(".")[2]
            found.append(Model(name, family, "diffusers", None, name, cls.__module__))
    return found


# --- inputs --------------------------------------------------------------------------------


def _text_vocab(config: Any) -> int:
    text = config.get_text_config() if hasattr(config, "get_text_config") else config
    return min(int(getattr(text, "vocab_size", VOCAB) or VOCAB), VOCAB)


def _image(config: Any) -> tuple[int, int]:
    vision = getattr(config, "vision_config", None) or config
    size = getattr(vision, "image_size", SIZE)
    size = size[0] if isinstance(size, (list, tuple)) else size
    return int(getattr(vision, "num_channels", 3) or 3), int(size or SIZE)


def transformers_inputs(model: Any) -> list[dict[str, dict[str, Any]]]:
    """Candidate input sets for the model's forward (the first that runs is kept)."""
    config, main = model.config, model.main_input_name
    params = inspect.signature(model.forward).parameters
    ids = {"kind": "ids", "shape": [1, SEQ], "high": _text_vocab(config)}
    decoder = {"decoder_input_ids": dict(ids)} if config.is_encoder_decoder and "decoder_input_ids" in params else {}
    if main == "input_ids":
        return [{"input_ids": ids, **decoder}]
    if main == "pixel_values":
        channels, size = _image(config)
        return [{"pixel_values": {"kind": "float", "shape": [1, channels, size, size]}, **decoder}]
    if main == "input_values":
        return [{"input_values": {"kind": "float", "shape": [1, 1600]}, **decoder}]
    if main == "input_features":
        mels = next((int(v) for k in ("num_mel_bins", "input_feat_per_channel", "feature_size", "input_dim")
                     if isinstance(v := getattr(config, k, None), int)), 16)
        frames = 2 * int(getattr(config, "max_source_positions", 32) or 32)
        return [{"input_features": {"kind": "float", "shape": [1, mels, frames]}, **decoder},
                {"input_features": {"kind": "float", "shape": [1, frames, mels]}, **decoder}]
    return []


def _first_int(config: Any, *names: str, default: int = 64) -> int:
    return next((int(v) for n in names if isinstance(v := config.get(n), int) and not isinstance(v, bool)), default)


def diffusers_inputs(model: Any, cls: type) -> list[dict[str, dict[str, Any]]]:
    """By the names of the forward's parameters: 4D latents, 5D for video models, a timestep, text
    states; the required ones with the optional ones the table knows, else the required alone."""
    config = dict(model.config)
    params = inspect.signature(model.forward).parameters
    required = [n for n, p in params.items()
                if p.default is inspect.Parameter.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
                and n != "self"]
    channels = _first_int(config, "in_channels", "latent_channels", default=4)
    size = _first_int(config, "sample_size", default=SIZE)
    size = min(size, SIZE)
    latents = [1, channels, 2, size, size] if re.search(r"3D|Video|Motion", cls.__name__) else [1, channels, size, size]
    if "1D" in cls.__name__:
        latents = [1, channels, 16]
    text = _first_int(config, "cross_attention_dim", "joint_attention_dim", "caption_channels", "text_dim")
    table = {
        "sample": {"kind": "float", "shape": latents},
        "hidden_states": {"kind": "float", "shape": latents},
        "x": {"kind": "float", "shape": latents},
        "z": {"kind": "float", "shape": latents},
        "timestep": {"kind": "steps", "shape": [1], "value": 10},
        "encoder_hidden_states": {"kind": "float", "shape": [1, SEQ, text]},
        "pooled_projections": {"kind": "float", "shape": [1, _first_int(config, "pooled_projection_dim")]},
        "class_labels": {"kind": "ids", "shape": [1], "high": 2},
    }
    if any(name not in table for name in required):
        return []
    optional = [n for n in table if n in params and n not in required]
    return [{name: table[name] for name in [*required, *optional]}, {name: table[name] for name in required}]


def second_call(inputs: dict[str, dict[str, Any]]) -> dict[str, list[int]]:
    """Another call's shapes: token inputs longer, the others a batch of two."""
    if any(spec["kind"] == "ids" and len(spec["shape"]) == 2 for spec in inputs.values()):
        return {n: [1, SEQ_2] for n, s in inputs.items() if s["kind"] == "ids" and len(s["shape"]) == 2}
    return {n: [2, *s["shape"][1:]] for n, s in inputs.items() if s["kind"] == "float"}


def make(torch: Any, inputs: dict[str, dict[str, Any]], shapes: dict[str, list[int]] | None = None) -> dict[str, Any]:
    """The tensors of an input spec (the same expressions the scripts write)."""
    out = {}
    for name, spec in inputs.items():
        shape = (shapes or {}).get(name, spec["shape"])
        if spec["kind"] == "ids":
            out[name] = torch.randint(0, spec["high"], tuple(shape))
        elif spec["kind"] == "steps":
            out[name] = torch.tensor([spec["value"]] * shape[0])
        else:
            out[name] = torch.randn(*shape)
    return out


# --- the checks (in a forked child) ----------------------------------------------------------


def _build(model: Model, config: dict[str, Any]) -> Any:
    cls = getattr(importlib.import_module(model.module), model.model_class)
    if model.library == "diffusers":
        return cls(**config)
    config_cls = getattr(importlib.import_module(model.config_module or ""), model.config_class or "")
    return cls(config_cls(**config))


def _runs(torch: Any, built: Any, inputs: dict[str, dict[str, Any]]) -> None:
    with torch.no_grad():
        built.eval()(**make(torch, inputs))


def _defaults(model: Model) -> dict[str, Any]:
    """The config's defaults, sub-configs as their own defaults (shrunk alike, their model_type kept)."""
    if model.library == "diffusers":
        cls = getattr(importlib.import_module(model.module), model.model_class)
        return {n: p.default for n, p in inspect.signature(cls.__init__).parameters.items()
                if p.default is not inspect.Parameter.empty}
    config_cls = getattr(importlib.import_module(model.config_module or ""), model.config_class or "")
    return config_cls().to_dict()


def _small_config(model: Model) -> dict[str, Any]:
    defaults = _defaults(model)
    config = shrink(defaults)
    for key, value in defaults.items():
        if isinstance(value, dict) and "model_type" in value:
            sub = shrink(value)
            if sub:
                config[key] = {"model_type": value["model_type"], **sub}
    return config


def check(model: Model) -> Model:
    """Build the small model and run what the scripts will run; raise on the first failure."""
    import torch

    torch.manual_seed(0)
    started = time.perf_counter()
    if model.library == "transformers":
        import transformers

        model.config_module = getattr(transformers, model.config_class or "").__module__
        model.module = getattr(transformers, model.model_class).__module__
    model.config = _small_config(model)
    built = _build(model, model.config)
    candidates = transformers_inputs(built) if model.library == "transformers" else \
        diffusers_inputs(built, type(built))
    errors = []
    for inputs in candidates:
        try:
            _runs(torch, built, inputs)
        except Exception as exc:  # noqa: BLE001 - the next candidate layout may fit
            errors.append(f"{type(exc).__name__}: {exc}")
            continue
        model.inputs = inputs
        break
    if not model.inputs:
        raise RuntimeError(errors[0] if errors else "no inputs known for its forward")
    model.second = second_call(model.inputs)
    with torch.no_grad():
        built(**make(torch, model.inputs, model.second))
    model.variants = [name for name, run in variants_of(torch, model, built).items() if _succeeds(run)]
    model.seconds = round(time.perf_counter() - started, 2)
    return model


def variants_of(torch: Any, model: Model, built: Any) -> dict[str, Any]:
    """The variants that apply, each with a check that it runs: config variants (eager attention
    where sdpa is the default, eager experts, the cache off), a training step, and for diffusers a
    sampling loop's 0-d timestep and a VAE's decode."""
    def config_variant(keywords: dict[str, Any]) -> Any:
        return lambda: _runs(torch, _build(model, {**model.config, **keywords}), model.inputs)

    def train() -> None:
        out = _build(model, model.config).train()(**make(torch, model.inputs))
        out[0].float().pow(2).mean().backward()

    def sampling() -> None:
        with torch.no_grad():
            built(**{**make(torch, model.inputs), "timestep": torch.tensor(500)})

    def decode() -> None:
        with torch.no_grad():
            latent = built.encode(*make(torch, model.inputs).values())[0]  # `x` or `sample`: by position
            model.latents = list((latent.mode() if hasattr(latent, "mode") else latent).shape)
            built.decode(torch.randn(*model.latents))

    out: dict[str, Any] = {"train": train}
    if getattr(built, "_supports_sdpa", False):
        out["eager-attention"] = config_variant({"attn_implementation": "eager"})
    can_set = getattr(built, "_can_set_experts_implementation", None)
    if callable(can_set) and can_set():
        out["eager-experts"] = config_variant({"experts_implementation": "eager"})
    if getattr(getattr(built, "config", None), "use_cache", None) is True and "cache" in str(
            inspect.signature(built.forward)):
        out["cache-off"] = config_variant({"use_cache": False})
    if model.library == "diffusers" and "timestep" in model.inputs:
        out["sampling"] = sampling
    if model.library == "diffusers" and hasattr(built, "encode") and hasattr(built, "decode"):
        out["decode"] = decode
    return out


def _succeeds(run: Any) -> bool:
    try:
        run()
    except Exception:  # noqa: BLE001 - a variant that does not run is not offered
        return False
    return True


def _checked(model: Model) -> dict[str, Any]:
    return asdict(check(model))


def check_all(models: list[Model], jobs: int, limit_s: float) -> tuple[list[Model], dict[str, str]]:
    """Each model in a forked child (torch and the libraries imported once, before the fork)."""
    import torch

    torch.set_num_threads(1)

    def told(name: str, result: Result) -> None:
        print(f"{'ok    ' if result[0] else 'FAILED'} {name}" + ("" if result[0] else f": {result[1]}"),
              file=sys.stderr, flush=True)

    # one model per worker: a model's imports and global settings never reach another's checks
    results = run_forked([(m.name, functools.partial(_checked, m)) for m in models], jobs, limit_s, told,
                         per_worker=1)
    kept = [Model(**value) for ok, value in results.values() if ok]
    return kept, {name: value for name, (ok, value) in results.items() if not ok}


def versions() -> dict[str, str]:
    import diffusers
    import torch
    import transformers

    return {"torch": torch.__version__, "transformers": transformers.__version__, "diffusers": diffusers.__version__}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="only these names (comma-separated); the manifest keeps the others")
    parser.add_argument("--jobs", type=int, default=2)
    # generous: a limit a loaded machine reaches would make the manifest depend on the load (at 120 s, 5 of 791
    # candidates ran over it, and one of them not on another run)
    parser.add_argument("--limit-s", type=float, default=300.0, help="time limit of one model's checks")
    parser.add_argument("--output", type=Path, default=MANIFEST)
    args = parser.parse_args(argv)
    os.environ["HF_HUB_OFFLINE"] = "1"
    import diffusers  # noqa: F401 - imported before the fork, once
    import transformers  # noqa: F401

    started = time.perf_counter()
    models = transformers_candidates() + diffusers_candidates()
    only = set(args.only.split(",")) if args.only else None
    if only:
        models = [m for m in models if m.name in only]
    kept, failed = check_all(models, args.jobs, args.limit_s)
    previous = json.loads(args.output.read_text(encoding="utf-8")) if only and args.output.exists() else {}
    entries = {m["name"]: m for m in previous.get("models", []) if m["name"] not in only} if only else {}
    entries.update({m.name: asdict(m) for m in kept})
    for model in entries.values():
        model.pop("seconds", None)  # not deterministic: printed, not kept
    manifest = {"versions": versions(), "candidates": len(models) if not only else previous.get("candidates"),
                "models": [entries[n] for n in sorted(entries, key=lambda n: (entries[n]["library"], n))]}
    args.output.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(kept)} of {len(models)} candidates kept ({len(failed)} failed) in "
          f"{time.perf_counter() - started:.0f} s; manifest: {len(manifest['models'])} models", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
