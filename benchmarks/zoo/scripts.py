"""The zoo's scripts: each model of the manifest driven by several scripts in the styles users
write, each one `run.py` in a folder of its own, runnable as `python run.py`.

Styles (`STYLES`): `direct` (the classes imported from their modules, in `main()`,
`torch.compile(model)`), `package` (`transformers.X` / `diffusers.X` at module level, a helper
under `torch.inference_mode()`), `auto` (`AutoConfig.for_model` + `AutoModel*.from_config`, or
diffusers' `from_config`; `model.forward = torch.compile(model.forward)`), `method`
(`model.compile()`, two calls of different sizes in a loop), `loop` (batches of two sizes through a
helper), `train` (a compiled step with `loss.backward()` and an optimizer), `sampling` (a diffusion
model over three timesteps), `decode` (`torch.compile(vae.decode)`).

Which scripts a model gets (`plan`): `direct`, `package` and `auto` with the same config (experts
eager where the config has them, as the issue's Mixtral scripts), so that the three must give the
same findings in the library's frames (the style-invariance check); `method` with eager attention
where sdpa is the default; `loop` with the cache off; `train`; `sampling` / `decode` for diffusers.
A variant is used only where the catalog ran it.

    python benchmarks/zoo/scripts.py OUT_DIR   (run.py and collect.py call `write_all`)
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
STYLES = ("direct", "package", "auto", "method", "loop", "train", "sampling", "decode")
TRIO = ("direct", "package", "auto")  # the styles of the invariance check: one config, one call


@dataclass(frozen=True)
class Script:
    model: str
    family: str
    library: str
    style: str
    variant: str
    text: str

    @property
    def folder(self) -> str:
        return f"{self.model}__{self.style}__{self.variant}"

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()[:16]


# --- expressions ---------------------------------------------------------------------------


def _tensor(spec: dict[str, Any], shape: list[Any] | None = None) -> str:
    dims = ", ".join(str(d) for d in (shape or spec["shape"]))
    if spec["kind"] == "ids":
        return f"torch.randint(0, {spec['high']}, ({dims}{',' if len(shape or spec['shape']) == 1 else ''}))"
    if spec["kind"] == "steps":
        return f"torch.tensor([{spec['value']}])"
    return f"torch.randn({dims})"


def _arguments(model: dict[str, Any], varying: str | None = None) -> str:
    """`input_ids=torch.randint(0, 128, (1, 8))`, ...; with `varying`, the second call's changed
    dimension spelled as that name (`(1, n)`)."""
    parts = []
    for name, spec in model["inputs"].items():
        shape = list(spec["shape"])
        if varying and name in model["second"]:
            index = next(i for i, (a, b) in enumerate(zip(spec["shape"], model["second"][name])) if a != b)
            shape[index] = varying
        parts.append(f"{name}={_tensor(spec, shape)}")
    return ", ".join(parts)


def _sizes(model: dict[str, Any]) -> tuple[int, int]:
    """The first and second call's value of the dimension that changes."""
    name, shape = next(iter(model["second"].items()))
    first = model["inputs"][name]["shape"]
    index = next(i for i, (a, b) in enumerate(zip(first, shape)) if a != b)
    return first[index], shape[index]


def _keywords(config: dict[str, Any], indent: str) -> str:
    if not config:
        return ""
    items = "".join(f"{indent}    {key}={value!r},\n" for key, value in config.items())
    return f"\n{items}{indent}"


def _config(model: dict[str, Any], variant: str) -> dict[str, Any]:
    return {**model["config"], **VARIANT_KEYWORDS.get(variant, {})}


VARIANT_KEYWORDS: dict[str, dict[str, Any]] = {
    "eager-attention": {"attn_implementation": "eager"},
    "eager-experts": {"experts_implementation": "eager"},
    "cache-off": {"use_cache": False},
}


def _imports(model: dict[str, Any]) -> str:
    if model["library"] == "diffusers":
        return f"from {model['module']} import {model['model_class']}\n"
    return (f"from {model['config_module']} import {model['config_class']}\n"
            f"from {model['module']} import {model['model_class']}\n")


def _build(model: dict[str, Any], variant: str, indent: str, prefix: str = "") -> str:
    """`XForY(XConfig(...))` or, for diffusers, `UNet2DModel(...)`; `prefix`: `transformers.`."""
    keywords = _keywords(_config(model, variant), indent)
    if model["library"] == "diffusers":
        return f"{prefix}{model['model_class']}({keywords})"
    return f"{prefix}{model['model_class']}({prefix}{model['config_class']}({keywords}))"


MAIN = '\n\nif __name__ == "__main__":\n    main()\n'


# --- the styles ----------------------------------------------------------------------------


def direct(model: dict[str, Any], variant: str) -> str:
    return (f"import torch\n{_imports(model)}\n\ndef main():\n    torch.manual_seed(0)\n"
            f"    model = {_build(model, variant, '    ')}.eval()\n"
            f"    model = torch.compile(model)\n"
            f"    with torch.no_grad():\n        out = model({_arguments(model)})\n"
            f"    print(out[0].shape)\n{MAIN}")


def package(model: dict[str, Any], variant: str) -> str:
    library = model["library"]
    if library == "diffusers":
        built = f"model = {library}.{model['model_class']}({_keywords(_config(model, variant), '')})"
    else:
        built = (f"cfg = {library}.{model['config_class']}({_keywords(_config(model, variant), '')})\n"
                 f"model = {library}.{model['model_class']}(cfg).eval()")
    return (f"import torch\nimport {library}\n\ntorch.manual_seed(0)\n{built}\n"
            f"{'model.eval()' + chr(10) if library == 'diffusers' else ''}compiled = torch.compile(model)\n\n\n"
            f"def predict(module, **inputs):\n    with torch.inference_mode():\n        return module(**inputs)\n\n\n"
            f"def main():\n    out = predict(compiled, {_arguments(model)})\n    print(out[0].shape)\n{MAIN}")


def auto(model: dict[str, Any], variant: str) -> str:
    if model["library"] == "diffusers":
        head = f"from diffusers import {model['model_class']}\n"
        build = f"    return {model['model_class']}.from_config({_config(model, variant)!r})\n"
    else:
        head = f"from transformers import AutoConfig, {model['auto_class']}\n"
        build = (f"    cfg = AutoConfig.for_model({model['name']!r},{_keywords(_config(model, variant), '    ')})\n"
                 f"    return {model['auto_class']}.from_config(cfg)\n")
    return (f"import torch\n{head}\n\ndef build():\n{build}\n\n"
            f"def main():\n    torch.manual_seed(0)\n    model = build().eval()\n"
            f"    model.forward = torch.compile(model.forward)\n"
            f"    with torch.no_grad():\n        out = model({_arguments(model)})\n"
            f"    print(out[0].shape)\n{MAIN}")


def method(model: dict[str, Any], variant: str) -> str:
    first, second = _sizes(model)
    return (f"import torch\n{_imports(model)}\n\ndef main():\n    torch.manual_seed(0)\n"
            f"    model = {_build(model, variant, '    ')}\n    model.eval()\n    model.compile()\n"
            f"    with torch.no_grad():\n        for n in ({first}, {second}):\n"
            f"            out = model({_arguments(model, 'n')})\n            print(n, out[0].shape)\n{MAIN}")


def loop(model: dict[str, Any], variant: str) -> str:
    first, second = _sizes(model)
    return (f"import torch\n{_imports(model)}\n\ndef run_batches(model, sizes):\n    outputs = []\n"
            f"    for n in sizes:\n        outputs.append(model({_arguments(model, 'n')}))\n    return outputs\n\n\n"
            f"def main():\n    torch.manual_seed(0)\n    model = {_build(model, variant, '    ')}.eval()\n"
            f"    compiled = torch.compile(model)\n    with torch.no_grad():\n"
            f"        outputs = run_batches(compiled, [{first}, {second}])\n    print(len(outputs))\n{MAIN}")


def train(model: dict[str, Any], variant: str) -> str:
    names = ", ".join(model["inputs"])
    passed = ", ".join(f"{n}={n}" for n in model["inputs"])
    batch = "\n".join(f"        {n} = {_tensor(s)}" for n, s in model["inputs"].items())
    return (f"import torch\n{_imports(model)}\n\ndef train_step(model, optimizer, {names}):\n"
            f"    out = model({passed})\n    loss = out[0].float().pow(2).mean()\n    loss.backward()\n"
            f"    optimizer.step()\n    optimizer.zero_grad()\n    return loss.detach()\n\n\n"
            f"def main():\n    torch.manual_seed(0)\n    model = {_build(model, 'base', '    ')}\n    model.train()\n"
            f"    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)\n"
            f"    step = torch.compile(train_step)\n    for _ in range(2):\n{batch}\n"
            f"        loss = step(model, optimizer, {names})\n        print(float(loss))\n{MAIN}")


def sampling(model: dict[str, Any], variant: str) -> str:
    others = {n: s for n, s in model["inputs"].items() if n != "timestep"}
    setup = "\n".join(f"    {n} = {_tensor(s)}" for n, s in others.items())
    passed = ", ".join(f"{n}={n}" for n in others)
    return (f"import torch\n{_imports(model)}\n\ndef main():\n    torch.manual_seed(0)\n"
            f"    model = {_build(model, 'base', '    ')}.eval()\n    model = torch.compile(model)\n{setup}\n"
            f"    timesteps = torch.linspace(999, 1, 3).long()\n    with torch.no_grad():\n"
            f"        for t in timesteps:\n            noise = model({passed}, timestep=t)[0]\n"
            f"            print(int(t), noise.shape)\n{MAIN}")


def decode(model: dict[str, Any], variant: str) -> str:
    return (f"import torch\n{_imports(model)}\n\ndef main():\n    torch.manual_seed(0)\n"
            f"    vae = {_build(model, 'base', '    ')}.eval()\n    decode = torch.compile(vae.decode)\n"
            f"    latents = torch.randn({', '.join(str(d) for d in model['latents'])})\n"
            f"    with torch.no_grad():\n        image = decode(latents)[0]\n    print(image.shape)\n{MAIN}")


RENDER = {"direct": direct, "package": package, "auto": auto, "method": method, "loop": loop, "train": train,
          "sampling": sampling, "decode": decode}


def plan(model: dict[str, Any]) -> list[tuple[str, str]]:
    """(style, variant) of each script of a model."""
    variants = model["variants"]
    trio = "eager-experts" if "eager-experts" in variants else "base"
    out = [(style, trio) for style in TRIO]
    out.append(("method", "eager-attention" if "eager-attention" in variants else "base"))
    if "cache-off" in variants:
        out.append(("loop", "cache-off"))
    for style in ("train", "sampling", "decode"):
        if style in variants:
            out.append((style, style if style == "train" else "base"))
    return out


def scripts(manifest: dict[str, Any]) -> list[Script]:
    return [Script(m["name"], m["family"], m["library"], style, variant, RENDER[style](m, variant))
            for m in manifest["models"] for style, variant in plan(m)]


def write_all(manifest: dict[str, Any], out: Path) -> list[Script]:
    """Each script in `out/<model>__<style>__<variant>/run.py` (rewritten only when changed)."""
    made = scripts(manifest)
    for script in made:
        path = out / script.folder / "run.py"
        if not path.exists() or path.read_text(encoding="utf-8") != script.text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(script.text, encoding="utf-8")
    return made


def load_manifest(path: Path = HERE / "manifest.json") -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


if __name__ == "__main__":
    written = write_all(load_manifest(), Path(sys.argv[1]))
    print(f"{len(written)} scripts in {sys.argv[1]}")
