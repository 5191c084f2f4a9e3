"""VTL2xx: graph breaks, one rule per family of graph-break registry ids.

Views over GRAPH_BREAK events, predicted or observed alike. A break splits the
compiled frame: the graph so far is compiled and run, the breaking code runs
eagerly, and Dynamo resumes in a new frame (`torch_dynamo_resume_in_<fn>_at_<line>`)
with its own guards, checked on every call. A break inside a loop makes Dynamo give
up on the whole frame (VTL207). Under `fullgraph=True` or `error_on_graph_break`
the compile raises instead, so the finding is an error."""

from __future__ import annotations

from typing import Any, ClassVar

from vtlint.analyzer.breaks import GbEntry, registry
from vtlint.findings import Evidence, Finding, Fix, Kind, Level
from vtlint.rules.base import Example, Rule, RuleContext, gb_url
from vtlint.trace import Event, MergedEvent

LOOP_ID = "GB7000"


def _in_loop(event: Event) -> bool:
    return bool(event.detail.get("in_loop")) or event.gb_id == LOOP_ID


def _fullgraph(event: Event, ctx: RuleContext) -> bool:
    return bool(event.detail.get("fullgraph") or ctx.dynamo.get("fullgraph") or ctx.dynamo.get("error_on_graph_break"))


def _entry_of(event: Event) -> GbEntry | None:
    reg = registry()
    if event.gb_id and event.gb_id in reg:
        return reg.get(event.gb_id)
    return reg.lookup(event.gb_type) if event.gb_type else None


def _concrete(text: str) -> bool:
    """Registry texts are f-string templates, or the name of the variable torch formats
    (`explanation`, `msg`, `str(e)`); only prose without fields reads well."""
    text = text.strip()
    return bool(text) and "{" not in text and not text.startswith("_") and (" " in text or "://" in text)


def _resume_names(event: Event) -> list[str]:
    resume = event.detail.get("resume")
    if isinstance(resume, str):
        return [resume]
    return [r for r in resume or () if isinstance(r, str)]


class GraphBreakRule(Rule):
    """The shared view: the registry's words, what the break costs, the level."""

    kind = Kind.GRAPH_BREAK
    level = Level.WARNING
    tags = ("graph-break",)
    families: ClassVar[frozenset[str]] = frozenset()  # Gb_types this rule reports (besides gb_ids)

    def claims(self, event: Event) -> bool:
        entry = _entry_of(event)
        gb_id = entry.gb_id if entry else event.gb_id
        return gb_id in self.gb_ids or (event.gb_type or "") in self.families

    def applies(self, merged: MergedEvent, ctx: RuleContext) -> bool:
        event = merged.event
        return event.action.value == "graph-break" and not _in_loop(event) and self.claims(event)

    def build(self, merged: MergedEvent, ctx: RuleContext) -> Finding | None:
        event = merged.event
        observed = merged.observed or event
        entry = _entry_of(event)
        gb_id = event.gb_id or (entry.gb_id if entry else None)
        gb_type = event.gb_type or (entry.gb_type if entry else "graph break")
        error = _fullgraph(event, ctx)
        level = Level.ERROR if error else Level.WARNING
        if merged.evidence is Evidence.REFUTED:
            level = Level.NOTE
        message = self.message(event, observed, entry, gb_id, gb_type, error)
        if event.detail.get("guessed_path") and merged.observed is None:
            # inside a branch or loop the static pass cannot tell runs: worth knowing, not a warning
            level = Level.NOTE
            message += " (on a path the static pass cannot tell runs)"
        return Finding(
            code=self.code,
            kind=self.kind,
            level=level,
            location=event.location,
            message=message,
            variable_tracker=event.variable_tracker,
            gb_id=gb_id,
            evidence=merged.evidence,
            confidence=event.confidence,
            entry=event.entry,
            chain=event.chain,
            related=event.related,
            fix=self.fix_for(observed, entry),
            runtime=_runtime(merged),
        )

    def explanation(self, event: Event, observed: Event, entry: GbEntry | None) -> str:
        """The runtime's own words when it saw the break, else the registry's, else the walk's reason."""
        runtime = observed.detail.get("explanation")
        if isinstance(runtime, str) and runtime:
            return runtime
        if entry and _concrete(entry.explanation):
            return entry.explanation
        reason = event.detail.get("reason")
        return reason if isinstance(reason, str) else ""

    def cost(self, event: Event, error: bool, observed: Event | None = None) -> str:
        if error:
            return "Under fullgraph=True / error_on_graph_break the compile will raise here."
        if event.detail.get("frame_skipped"):
            return (f"Dynamo cannot resume after it: it skips the whole frame `{event.frame or 'this function'}`, "
                    "which runs eagerly.")
        resumes = _resume_names(observed or event) or _resume_names(event)  # the run's own resume frame first
        where = f" in `{resumes[0]}`" if resumes else " in a new frame"
        return (f"The graph splits here: the graph so far is compiled and run, this line runs eagerly, and Dynamo "
                f"resumes{where}, whose guards are checked on every call.")

    def message(self, event: Event, observed: Event, entry: GbEntry | None, gb_id: str | None, gb_type: str,
                error: bool) -> str:
        head = f"Graph break ({gb_id} {gb_type})" if gb_id else f"Graph break ({gb_type})"
        why = self.explanation(event, observed, entry)
        parts = [head + (f": {why.rstrip('.')}." if why else "."), self.cost(event, error, observed)]
        if gb_id:
            parts.append(gb_url(gb_id))
        return " ".join(parts)

    def fix_for(self, observed: Event, entry: GbEntry | None) -> Fix:
        hints = observed.detail.get("hints")
        if not isinstance(hints, list) or not hints:
            hints = [h for h in (entry.hints if entry else ()) if _concrete(h)]
        text = self.fix.strip().splitlines()[0]
        if hints:
            text += " Dynamo's hint: " + " ".join(str(h).strip() for h in hints[:2])
        return Fix(text)


def _runtime(merged: MergedEvent) -> dict[str, Any]:
    if merged.observed is None:
        return {}
    seen = merged.observed
    keep = ("explanation", "hints", "compile_id", "resume", "also")
    return {"gb_type": seen.gb_type, "gb_id": seen.gb_id, "frame": seen.frame,
            **{k: seen.detail[k] for k in keep if k in seen.detail}}


def _program(body: str, header: str = "import torch\n") -> str:
    return header + "\n\n@torch.compile\n" + body


class DataDependentBranching(GraphBreakRule):
    code = "VTL201"
    name = "data-dependent-branching"
    gb_ids = ("GB0170", "GB0035")
    summary = "An `if`/`while`/ternary/`and`/`or` depends on a tensor's value: the graph breaks there."
    what = (
        "Dynamo traces with fake tensors and does not know their values. When a jump depends on one "
        "(`if x.sum() > 0:`), it stops the graph (\"Data-dependent branching\", GB0170), runs the comparison "
        "eagerly and resumes in a new frame for the branch taken."
    )
    why = "Every call pays two graphs, the eager comparison and a device sync; both branches compile separately."
    fix = (
        "Make the code branchless (`torch.where`, `torch.clamp`), or express the branch with `torch.cond`.\n"
        "Branch on Python values (shapes, flags) instead of tensor values when you can."
    )
    invalid = (Example(_program("def f(x):\n    if x.sum() > 0:\n        return x + 1\n    return x - 1\n"), line=6),)
    valid = (Example(_program("def f(x):\n    return torch.where(x.sum() > 0, x + 1, x - 1)\n")),)


class SideEffectCall(GraphBreakRule):
    code = "VTL202"
    name = "side-effect-in-graph"
    gb_ids = ("GB0059", "GB0291")
    summary = "`print`, `logging.Logger` methods and other builtins Dynamo cannot put in a graph break it."
    what = (
        "A print is a side effect a graph cannot hold: BuiltinVariable raises \"Failed to trace builtin "
        "operator\" (GB0059); `logging.Logger` methods (LoggingLoggerVariable) raise GB0291. Dynamo runs the "
        "call eagerly between two graphs."
    )
    why = "A debugging print left in `forward` splits every call in two graphs and forces a sync."
    fix = (
        "Remove the print or logging call from the compiled code, log outside the compiled function, or "
        "add the function to `torch._dynamo.config.reorderable_logging_functions`."
    )
    invalid = (Example(_program("def f(x):\n    y = x * 2\n    print(\"y computed\")\n    return y + 1\n"), line=7),)
    valid = (Example(_program("def f(x):\n    y = x * 2\n    return y + 1\n")),)


class TensorValueToPython(GraphBreakRule):
    code = "VTL203"
    name = "tensor-value-to-python"
    gb_ids = ("GB0124", "GB0109", "GB0033", "GB0036", "GB0105", "GB0569")
    summary = "`.item()`, `.tolist()`, `.numpy()`, `repr()` and data-dependent ops read a tensor's value: the graph breaks."
    what = (
        "A Python number out of a tensor is not known while tracing. With `capture_scalar_outputs=False` "
        "(the default) `Tensor.item()` breaks (GB0124); ops whose output or shape depends on the data break "
        "too (GB0033, GB0036), unless `capture_scalar_outputs` / `capture_dynamic_output_shape_ops` is set."
    )
    why = (
        "The value is computed eagerly with a device sync, and becomes a constant of the resume frame: a new "
        "value can mean a new compile."
    )
    fix = (
        "Keep the value a tensor (`loss * loss.detach()` instead of `loss * loss.item()`), or set "
        "`torch._dynamo.config.capture_scalar_outputs = True` to trace it as an unbacked symbol."
    )
    invalid = (Example(_program("def f(x):\n    loss = (x ** 2).mean()\n    return loss * loss.item()\n"), line=7),)
    valid = (
        Example(_program("def f(x):\n    loss = (x ** 2).mean()\n    return loss * loss.detach()\n")),
        Example(_program("def f(x):\n    loss = (x ** 2).mean()\n    return loss * loss.item()\n"),
                dynamo={"capture_scalar_outputs": True}),
    )


class SkippedFunctionCall(GraphBreakRule):
    code = "VTL204"
    name = "skipped-function-call"
    gb_ids = ("GB0007",)
    summary = "A call into a function trace_rules skips (`time.time`, `random.random`, `os.getpid`, C extensions): the graph breaks."
    what = (
        "trace_rules wraps functions in skipped modules (BUILTIN_SKIPLIST, THIRDPARTY_SKIPLIST such as tqdm, "
        "MOD_SKIPLIST) and C functions it cannot place in a file as SkipFunctionVariable; calling one is "
        "\"Attempted to call function marked as skipped\" (GB0007)."
    )
    why = "The call runs eagerly between two graphs; its result is a constant of the resume frame."
    fix = (
        "Move the call out of the compiled function and pass its result in, use a torch equivalent "
        "(`torch.rand` for `random.random`), or wrap a C extension as a custom op."
    )
    invalid = (Example(_program("def f(x):\n    t = time.time()\n    return x + t\n", "import time\nimport torch\n"),
                       line=7),)
    valid = (Example(_program("def f(x, t):\n    return x + t\n", "import time\nimport torch\n")),)


class DisabledFunctionCall(GraphBreakRule):
    code = "VTL205"
    name = "disabled-function-call"
    gb_ids = ("GB0098",)
    summary = "A call to a `torch.compiler.disable`d function: the graph breaks around it."
    what = (
        "`@torch.compiler.disable` (or `torch._dynamo.disable`) marks a function Dynamo must not trace; "
        "calling it from compiled code is \"Skip calling `torch.compiler.disable()`d function\" (GB0098)."
    )
    why = "Intended sometimes, but each call costs a graph split, and the function runs eagerly every time."
    fix = "Remove the `torch.compiler.disable` decorator if the function traces, or call it outside the compiled region."
    invalid = (Example(
        "import torch\n\n\n@torch.compiler.disable\ndef helper(x):\n    return x + 1\n\n\n"
        "@torch.compile\ndef f(x):\n    return helper(x) * 2\n", line=11),)
    valid = (Example(
        "import torch\n\n\ndef helper(x):\n    return x + 1\n\n\n@torch.compile\ndef f(x):\n    return helper(x) * 2\n"),)


class ExplicitGraphBreak(GraphBreakRule):
    code = "VTL206"
    name = "explicit-graph-break"
    gb_ids = ("GB0025", "GB4297")
    summary = "`torch._dynamo.graph_break()` or `skip_frame()` in compiled code."
    what = (
        "A user-inserted graph break: \"Call to `torch._dynamo.graph_break()`\" (GB0025); `skip_frame()` "
        "(GB4297) gives up on the whole frame."
    )
    why = "Often left over from debugging; each one splits the graph on every call."
    fix = "Remove the `torch._dynamo.graph_break()` call."
    invalid = (Example(_program("def f(x):\n    y = x + 1\n    torch._dynamo.graph_break()\n    return y * 2\n"),
                       line=7),)
    valid = (Example(_program("def f(x):\n    y = x + 1\n    return y * 2\n")),)


class GraphBreakInLoop(GraphBreakRule):
    code = "VTL207"
    name = "graph-break-in-loop"
    gb_ids = (LOOP_ID,)
    summary = "A graph break inside a `for`/`while` loop: Dynamo skips the whole frame, which runs eagerly."
    what = (
        "Dynamo cannot resume in the middle of a loop: \"graph break in loop\" (GB7000). It gives up on the "
        "frame and runs it eagerly; nothing of it is compiled (functions it calls are still compiled as their "
        "own frames)."
    )
    why = "The compiled function silently runs eagerly: no speed-up at all for this frame."
    fix = "Remove the cause of the break from the loop body (see its Gb_type), or move the loop body into a helper."
    invalid = (Example(_program("def f(x):\n    for i in range(3):\n        print(i)\n        x = x + 1\n    return x\n"),
                       line=7),)
    valid = (Example(_program("def f(x):\n    for i in range(3):\n        x = x + i\n    return x\n")),)

    def applies(self, merged: MergedEvent, ctx: RuleContext) -> bool:
        return merged.event.action.value == "graph-break" and _in_loop(merged.event)

    def message(self, event: Event, observed: Event, entry: GbEntry | None, gb_id: str | None, gb_type: str,
                error: bool) -> str:
        cause = f"{gb_id} {gb_type}" if gb_id else gb_type
        if gb_id == LOOP_ID:
            cause = "a graph break"
        loop = registry().get(LOOP_ID)
        text = (f"Graph break in a loop ({LOOP_ID} {loop.gb_type if loop else 'graph break in loop'}), caused by "
                f"{cause}: Dynamo skips the whole frame `{event.frame or 'this function'}`, which runs eagerly.")
        if error:
            text += " Under fullgraph=True / error_on_graph_break the compile will raise here."
        return f"{text} {gb_url(LOOP_ID)}"


class UnsupportedContextManager(GraphBreakRule):
    code = "VTL208"
    name = "unsupported-context-manager"
    gb_ids = ("GB0142",)
    summary = "A `with` on a context manager Dynamo cannot enter (a lock, a file): the frame is skipped."
    what = (
        "Dynamo enters the context managers it models (torch.no_grad, autocast, nullcontext, user generator "
        "context managers). For others it raises \"Unsupported context manager\" (GB0142); a break inside a "
        "`with` block cannot be resumed, so Dynamo runs the whole frame eagerly."
    )
    why = "Nothing of the frame is compiled."
    fix = "Take the lock or open the file outside the compiled function."
    invalid = (Example(_program("def f(x):\n    with LOCK:\n        y = x + 1\n    return y\n",
                                "import threading\nimport torch\n\nLOCK = threading.Lock()\n"), line=9),)
    valid = (Example(_program("def f(x):\n    with torch.no_grad():\n        y = x + 1\n    return y\n")),)


_FAMILY_IDS = frozenset(
    gb for rule in (DataDependentBranching, SideEffectCall, TensorValueToPython, SkippedFunctionCall,
                    DisabledFunctionCall, ExplicitGraphBreak, GraphBreakInLoop, UnsupportedContextManager)
    for gb in rule.gb_ids
)


class OtherGraphBreak(GraphBreakRule):
    code = "VTL299"
    name = "graph-break"
    gb_ids = ()
    summary = "Any other graph break of the registry (generators, unsupported builtins, ...)."
    what = (
        "Every graph break Dynamo can raise has an id in `graph_break_registry.json` with its Gb_type, "
        "explanation and hints; this rule reports those no more specific VTL2xx rule covers."
    )
    why = "Each break splits the compiled frame in two graphs and adds a resume frame with its own guards."
    fix = "Follow the hint of the registry entry, linked in the message."
    invalid = (Example(_program("def f(x):\n    y = (x * 2).sum()\n    y.backward()\n    return x + 1\n"), line=7),)
    valid = (Example(_program("def f(x):\n    y = (x * 2).sum()\n    return y + 1\n")),)

    def claims(self, event: Event) -> bool:
        entry = _entry_of(event)
        gb_id = entry.gb_id if entry else event.gb_id
        return gb_id not in _FAMILY_IDS
