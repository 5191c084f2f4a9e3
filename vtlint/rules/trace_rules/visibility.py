"""Which graph-break registry ids a static pass can see coming.

Every id of `graph_break_registry.json` falls in one of three classes:

- statically visible: the trigger is a construct of the user's source (a call, a method, a
  statement, a `with`, a loop, a class) and whether it breaks follows from what the static walk
  knows there: the callee's qualified name and trace_rules, the kind of each value (tensor, Python
  constant, container, user object, nn.Module, generator), Dynamo's config and the frame's bytecode;
- needs runtime values: the construct is in the source, but whether it breaks depends on what only
  a run has (a tensor's dtype, layout or autograd history, the Python type of an object built out of
  sight, an exception a value raises, symbolic sizes after a recompile);
- only inside torch: raised by torch's own machinery (higher-order ops' subgraph checks, compiled
  autograd, export and strict mode, distributed, Triton, TorchScript and opaque objects, Dynamo's
  internal invariants and testing knobs), not by a construct of ordinary user code.

Ids are torch's (stable across releases); an id a newer torch adds is "unclassified" until it is
listed here. `docs/graph-breaks.md` is this table joined with the registry, the rules and the
goldens (scripts/graph_break_table.py)."""

from __future__ import annotations

STATIC, RUNTIME, INSIDE = "statically visible", "needs runtime values", "only inside torch"
UNCLASSIFIED = "unclassified"

# --- statically visible -------------------------------------------------------------------------

_BRANCH = "a jump on a tensor's value: `if`/`while`/ternary/`and`/`or`/`assert` on a tensor"
_LOOP = "torch's maybe_has_backedge on the frame's bytecode after a break inside a loop"
_VALUE_OPS = "an op whose Python result or output shape is the tensor's data (`.item()`, `nonzero`, boolean masks)"
_CONFIG_OPS = "a call Dynamo refuses under a config the source sets or leaves at its default"
_SKIPPED = "a call of a function trace_rules skips or a `torch.compiler.disable`d function, however it arrives"
_LIBRARY_CALL = "a library callable Dynamo cannot trace into: what the trace_rules build measured calling it"
_OPAQUE = "an opaque object (torch.Generator) constructed in traced code"
_EXPLICIT = "a call of torch._dynamo's own graph_break / skip_frame / step_unsupported"
_TENSOR_METHOD = "a Tensor method or attribute Dynamo does not trace (TensorVariable.call_method / var_getattr)"
_TENSOR_STORE = "an attribute store on a tensor (`.data`, `.requires_grad`, `.grad`) in traced code"
_TORCH_CALL = "a torch function called with arguments Dynamo refuses (TorchInGraphFunctionVariable)"
_BUILTIN = "a builtin called on argument kinds Dynamo cannot trace (BuiltinVariable)"
_REPR = "repr()/str()/an f-string of a container or function whose items are not constants"
_ID_HASH = "id()/hash() values of objects, compared or carried across a break"
_CTX = "a `with` on a context manager Dynamo cannot enter, or a break inside one it cannot resume"
_RECONSTRUCT = "a value made in the frame that is alive across a break or returned, which Dynamo cannot rebuild"
_GENERATOR = "a generator used in a way Dynamo's generator model refuses"
_EXCEPTION = "a raise, an exception object's attribute or constructor in traced code"
_CLASS = "a class statement, or a user class whose definition Dynamo refuses to trace through"
_MODULE = "an nn.Module used in a way Dynamo refuses (indexed by a non-constant, built or called uninitialized)"
_USER_OBJECT = "a store or lookup on a user object with a name the walk does not know as a constant"
_SORT = "sorted()/list.sort() with a key whose results are not constants"
_NUMPY = "a numpy call or ndarray attribute torch._numpy does not model, or one refused by the numpy config"
_LOGGING = "a logging.Logger method or a reorderable logging function in traced code"
_AUTOGRAD_FN = "a torch.autograd.Function subclass defined or applied in a way Dynamo refuses"
_HOOKS = "a hook registered in traced code, or its handle stored in a global"
_FUNCTOOLS = "functools / contextlib / typing helpers called in a form Dynamo refuses"
_CHECK_MSG = "torch._check's message argument: a function defined outside the compiled region"
_DETERMINISTIC = "torch.use_deterministic_algorithms(warn_only=True) in traced code"

# --- needs runtime values -----------------------------------------------------------------------

_META = "the tensors' metadata at runtime (dtype, layout, sparsity, nesting, device, autograd history)"
_FAKE = "an operator failing on fake tensors or in the backend: known only when the op runs"
_PYTYPE = "the Python type of an object the walk does not see built (a C extension or third-party type) and its C slots"
_EAGER_ERROR = "an exception the values raise (TypeError, ValueError, KeyError...): the program fails eagerly too"
_SYMBOLIC = "symbolic sizes (SymInt/SymNode), which appear only with dynamic shapes after a recompile"
_AUTOGRAD_OPS = "only with trace_autograd_ops=True (not the default), and then on the tensors' autograd history"
_SUBCLASS = "tensor subclasses and __torch_function__ overrides of the inputs"
_NONSTRICT = "the values a `nonstrict_trace` or `assume_constant_result` function is called with"
_ITERTOOLS = "argument values and key types of itertools calls that Dynamo's itertools model rejects"
_ENV = "the environment the program runs in (NumPy missing, torch built without distributed)"
# measured on torch 2.13: a sparse tensor breaks as it enters the graph (GB0015), before any method of it
_SPARSE = "a sparse receiver, which breaks first as it enters the graph (GB0015); on a dense one the call fails eagerly"
_RECOMPILES = "how many times the frame recompiled: the count of calls and guard failures at runtime"

# --- only inside torch --------------------------------------------------------------------------

_HOP = "a check of torch's higher-order-op tracer (cond, while_loop, scan, map, wrap, invoke_subgraph, flex attention)"
_INTERNAL = "an invariant of Dynamo's own (a bytecode handler, VariableTracker bookkeeping, a should-not-happen path)"
_EXPORT = "export and strict mode only"
_SPECIALIZED_MODULE = ("NNModuleVariable's own checks (its __getattribute__ and __getitem__): outside export every "
                       "nn.Module is wrapped as an UnspecializedNNModuleVariable (mutation_guard.is_dynamic_nn_module "
                       "is True for any module unless export); measured: a module's custom __getitem__ called "
                       "with a tuple key is traced, and a __getattribute__ that prints breaks on the print (GB0059)")
_COMPILED_AUTOGRAD = "compiled autograd only"
_DISTRIBUTED = "torch.distributed internals (FSDP, P2P ops, placements)"
_TRITON = "user-defined Triton kernels and their host-side helpers"
_SCRIPT = "TorchScript and opaque (script) objects"
_FUNCTORCH = "functorch transforms (vmap, grad) and torch.func"
_TESTING = "Dynamo's testing and debugging knobs (comptime, forced breaks on leaf functions)"
_COMPREHENSION = "Dynamo's comprehension-inlining analysis of the frame's bytecode"
_INLINE_MECHANISM = "how a break inside an inlined call is handled: torch reports the inner break's own id"
_STEP_MECHANISM = ("how step_unsupported() is handled: SkipFunctionVariable catches its Unsupported and raises "
                   "StepUnsupported, which torch reports as GB0275 (no checkpoint) or GB0284 (fullgraph) "
                   "(measured: step_unsupported_call, step_unsupported_fullgraph)")
_GENERIC_CTX_MECHANISM = ("how a break inside a user context manager's block is handled: torch reports the inner "
                          "break's own id and runs the frame eagerly (measured: break_in_user_context)")
_DEAD_CHECK = ("a check that cannot fail in torch 2.13: BuiltinVariable registers _comparison_with_tensor for "
               "`is`/`is not` only (create_cmp_op_handlers), both in supported_tensor_comparison_op_values")
_DEQUE_MAXLEN = ("a check no deque reaches in torch 2.13: VariableBuilder.wrap_listlike builds a deque from outside "
                 "without its maxlen, so the existing deque whose mutation is replayed reads maxlen None (measured: "
                 "a global `deque(maxlen=3)` appended to in traced code does not break)")
_FOLDED_GETATTR = ("a refusal torch 2.13 folds away: GetAttrBuiltinVariable catches the Unsupported of a class's "
                   "var_getattr and, its arguments being constants, evaluates getattr() on the class itself "
                   "(measured: a class attribute read through a metaclass defining __getattribute__ is traced)")
_DEVICE_API = "argument checks of torch's device/stream APIs"
_UNREACHED = ("a handler user code does not reach in torch 2.13: `Tensor.share_memory_()` breaks with \"Unhandled "
              "args for method\" (GB0117) first; copy.deepcopy is a Python function Dynamo inlines, never the "
              "BuiltinVariable whose call_deepcopy raises (measured)")

_GROUPS: dict[tuple[str, str], tuple[str, ...]] = {
    (STATIC, _BRANCH): ("GB0170", "GB0034"),
    (STATIC, _LOOP): ("GB7000",),
    (STATIC, _VALUE_OPS): ("GB0033", "GB0036", "GB0037", "GB0038", "GB0124", "GB0109", "GB0246"),
    (STATIC, _CONFIG_OPS): ("GB0105", "GB0231", "GB0293", "GB0123", "GB9186", "GB0014", "GB0003", "GB0263"),
    (STATIC, _SKIPPED): ("GB0007", "GB0008", "GB0009", "GB0098", "GB0099"),
    (STATIC, _LIBRARY_CALL): ("GB0156", "GB6215"),
    (STATIC, _OPAQUE): ("GB0363",),
    (STATIC, _EXPLICIT): ("GB0025", "GB4297", "GB0275", "GB0284"),
    (STATIC, _TENSOR_METHOD): ("GB0045", "GB0107", "GB0108", "GB0110", "GB0117", "GB0125", "GB0126",
                               "GB0127", "GB0128", "GB0569", "GB5976", "GB8985",
                               "GB7324", "GB0072", "GB4198"),
    (STATIC, _TENSOR_STORE): ("GB0056", "GB0058", "GB0206", "GB0220"),
    (STATIC, _TORCH_CALL): ("GB0046", "GB0225", "GB0226", "GB0264", "GB0374",
                            "GB7650"),
    (STATIC, _BUILTIN): ("GB0059", "GB0213", "GB0171", "GB0190", "GB0222", "GB0270", "GB0021"),
    (STATIC, _REPR): ("GB7968", "GB5380", "GB8315", "GB1275", "GB0459", "GB1584"),
    (STATIC, _ID_HASH): ("GB0191", "GB9316", "GB4501", "GB0364"),
    (STATIC, _CTX): ("GB0142", "GB0370", "GB0212", "GB2533", "GB0262"),
    (STATIC, _RECONSTRUCT): ("GB0092", "GB1319", "GB9528"),
    (STATIC, _GENERATOR): ("GB8335", "GB4347", "GB0253", "GB2549"),
    (STATIC, _EXCEPTION): ("GB0088", "GB0273", "GB0135", "GB0095"),
    (STATIC, _CLASS): ("GB8977", "GB0075", "GB0032", "GB4271", "GB0368", "GB3383", "GB0257"),
    (STATIC, _MODULE): ("GB0119", "GB0162"),
    (STATIC, _USER_OBJECT): ("GB0096", "GB0254"),
    (STATIC, _SORT): ("GB0207",),
    (STATIC, _NUMPY): ("GB0157", "GB0158", "GB0159", "GB0250", "GB0294", "GB0298"),
    (STATIC, _LOGGING): ("GB0291", "GB0296"),
    (STATIC, _AUTOGRAD_FN): ("GB0144", "GB0145", "GB6297", "GB0140"),
    (STATIC, _HOOKS): ("GB0029", "GB0100", "GB0101"),
    (STATIC, _FUNCTOOLS): ("GB0187",),
    (STATIC, _CHECK_MSG): ("GB9840", "GB9158", "GB0288"),
    (STATIC, _DETERMINISTIC): ("GB0230",),
    # GB0104: `.grad_fn` of an input that has one: its autograd history
    (RUNTIME, _META): ("GB0015", "GB0016", "GB0044", "GB0233", "GB0277", "GB0181", "GB0070", "GB7596", "GB0240",
                       "GB0241", "GB0242", "GB0247", "GB0227", "GB0235", "GB0018", "GB0182", "GB0106", "GB0208",
                       "GB7444", "GB0083", "GB0013", "GB0104"),
    (RUNTIME, _FAKE): ("GB0043", "GB0048", "GB0049", "GB0055", "GB0064", "GB0080", "GB0081", "GB0087", "GB0090",
                       "GB0112", "GB4315", "GB2922", "GB5173", "GB0219"),
    # GB2852: a __repr__ that is a C wrapper, member descriptor or Cython function (a Python one is traced)
    (RUNTIME, _PYTYPE): ("GB2861", "GB0005", "GB9198", "GB0871", "GB3775", "GB0755", "GB7510", "GB9548", "GB7286",
                         "GB3006", "GB9458", "GB9561", "GB4880", "GB8435", "GB7786", "GB4240", "GB5904", "GB0781",
                         "GB3934", "GB2544", "GB1752", "GB4411", "GB9648", "GB2483", "GB6053", "GB6890", "GB4749",
                         "GB1220", "GB0808", "GB3697", "GB3241", "GB0194", "GB0175", "GB4841", "GB6999", "GB7637",
                         "GB5849", "GB0184", "GB6012", "GB7906", "GB4608", "GB0365", "GB0366", "GB0367", "GB0147",
                         "GB0150", "GB9522", "GB0217", "GB0160", "GB0161", "GB0121", "GB0177", "GB0211",
                         "GB0256", "GB0261", "GB0006", "GB0113", "GB0280", "GB0004", "GB0084", "GB0061", "GB0062",
                         "GB0063", "GB6025", "GB0143", "GB0201", "GB0252", "GB0271", "GB7502", "GB2404", "GB8887",
                         "GB0183", "GB0278", "GB0185", "GB0054", "GB0023", "GB0195", "GB4393", "GB0197", "GB0198",
                         "GB0203", "GB0204", "GB0682", "GB6622", "GB0289", "GB9137", "GB0299", "GB0300", "GB9277",
                         "GB7489", "GB6270", "GB0369", "GB0180", "GB0202", "GB0189", "GB0188", "GB0151", "GB0218",
                         "GB0290", "GB0358", "GB0287", "GB9672", "GB0467", "GB0811", "GB2852"),
    (RUNTIME, _EAGER_ERROR): ("GB0111", "GB0193", "GB0178", "GB0002", "GB0196", "GB0174", "GB7312", "GB0077",
                              "GB0010", "GB0011", "GB0012", "GB0076", "GB0091", "GB0169", "GB0057", "GB0028",
                              "GB0051", "GB0136", "GB0137", "GB0258", "GB0259", "GB0260", "GB0297", "GB7230",
                              "GB0069", "GB9625", "GB0024", "GB0020",
                              # measured: torch.compile takes one positional argument, torch.nested.nested_tensor
                              # a list, a @contextmanager function must yield, an autograd.Function return
                              # what it marks dirty; otherwise each fails eagerly too
                              "GB0223", "GB0245", "GB0221", "GB2464",
                              # `except` of a non-exception, a `__bool__` that returns no bool (a tensor: an
                              # observed TypeError, GB0088): Python raises TypeError too (measured)
                              "GB0050", "GB0035",
                              # measured: Function.apply hands forward its positional arguments only, so a
                              # keyword (GB4372) fails eagerly too; a partial whose keyword is no literal
                              # (`**{obj: v}`, GB0186) raises "keywords must be strings" when called
                              "GB4372", "GB0186"),
    # GB0237: a SymBool `requires_grad` of nn.Parameter; a tensor there fails eagerly (measured)
    (RUNTIME, _SYMBOLIC): ("GB0214", "GB0224", "GB0360", "GB5565", "GB0237"),
    (RUNTIME, _SPARSE): ("GB0129", "GB0130"),
    (RUNTIME, _AUTOGRAD_OPS): ("GB7054", "GB1042", "GB0442", "GB0371", "GB0372", "GB0373", "GB4927", "GB6663",
                               "GB1381", "GB5748", "GB7299", "GB1140", "GB1724"),
    (RUNTIME, _SUBCLASS): ("GB0000", "GB0001", "GB0026", "GB0103", "GB0163", "GB0164"),
    (RUNTIME, _NONSTRICT): ("GB0078", "GB0236", "GB0238", "GB0239", "GB0251", "GB2520"),
    (RUNTIME, _ITERTOOLS): ("GB0114", "GB0115", "GB0132", "GB0133", "GB0134", "GB0152", "GB0154", "GB0155",
                            "GB0192", "GB0268"),
    (RUNTIME, _ENV): ("GB0232", "GB0210"),
    (RUNTIME, _RECOMPILES): ("GB0039",),
    (INSIDE, _HOP): ("GB0017", "GB0040", "GB0041", "GB0042", "GB0067", "GB0073", "GB0074", "GB4413", "GB1177",
                     "GB0301", "GB0302", "GB0303", "GB0304", "GB0305", "GB0306", "GB0307", "GB0308", "GB0309",
                     "GB0310", "GB0311", "GB0312", "GB0313", "GB0314", "GB0315", "GB0316", "GB0317", "GB0318",
                     "GB0319", "GB0320", "GB0321", "GB0322", "GB0323", "GB0324", "GB0325", "GB0326", "GB0327",
                     "GB6017", "GB0329", "GB0330", "GB0331", "GB0332", "GB0333", "GB0334", "GB0335", "GB0336",
                     "GB0337", "GB0338", "GB0339", "GB0340", "GB0341", "GB0342", "GB0343", "GB0344", "GB0345",
                     "GB0349", "GB0350", "GB0351", "GB0355", "GB0356", "GB0346", "GB0347", "GB0348", "GB0352",
                     "GB6210", "GB3840", "GB0085", "GB0138", "GB0139", "GB2019", "GB0019", "GB0205"),
    (INSIDE, _INTERNAL): ("GB0047", "GB0071", "GB0079", "GB0082", "GB0086", "GB0116", "GB0118", "GB0120",
                          "GB0122", "GB0200", "GB6604", "GB0295", "GB0354", "GB0094", "GB0093", "GB1297", "GB0052",
                          "GB0167", "GB0168", "GB0027", "GB0141", "GB0176", "GB0255", "GB0228", "GB0229", "GB0292",
                          "GB0234", "GB2977", "GB0272", "GB0276", "GB0283", "GB0089", "GB0022", "GB0131", "GB0148",
                          "GB0274", "GB0209", "GB0279", "GB5195", "GB0243", "GB0199", "GB0359"),
    # GB4778: raised only for export's tracer output under config.log_graph_in_out_metadata (output_graph.py)
    (INSIDE, _EXPORT): ("GB0068", "GB0102", "GB1380", "GB0173", "GB0244", "GB0353", "GB4778"),
    (INSIDE, _SPECIALIZED_MODULE): ("GB0031", "GB0153", "GB0281"),
    (INSIDE, _COMPILED_AUTOGRAD): ("GB0165", "GB0166", "GB1501"),
    (INSIDE, _DISTRIBUTED): ("GB0053", "GB0172", "GB9300", "GB2696", "GB1750", "GB3343", "GB9860", "GB0282",
                             "GB0146"),
    (INSIDE, _TRITON): ("GB3326", "GB0216", "GB0361", "GB4026", "GB6735"),
    (INSIDE, _SCRIPT): ("GB0265", "GB0266", "GB0267", "GB8656", "GB1739", "GB2078", "GB0362", "GB7685",
                        "GB9567", "GB8843", "GB4695", "GB0357"),
    (INSIDE, _FUNCTORCH): ("GB9741", "GB0149", "GB0328"),
    (INSIDE, _UNREACHED): ("GB4197", "GB0179"),
    (INSIDE, _DEAD_CHECK): ("GB0215",),
    (INSIDE, _DEQUE_MAXLEN): ("GB0097",),
    (INSIDE, _FOLDED_GETATTR): ("GB5458",),
    # GB0060: only under config.enable_trace_unittest, off by default (PyTorch's own test suite)
    (INSIDE, _TESTING): ("GB0030", "GB0269", "GB0060"),
    (INSIDE, _COMPREHENSION): ("GB5696", "GB6276", "GB9898", "GB2669", "GB7425"),
    (INSIDE, _INLINE_MECHANISM): ("GB0065",),
    (INSIDE, _STEP_MECHANISM): ("GB4636",),
    (INSIDE, _GENERIC_CTX_MECHANISM): ("GB0066",),
    (INSIDE, _DEVICE_API): ("GB0248", "GB0249", "GB0285", "GB0286"),
}

CLASSES: dict[str, tuple[str, str]] = {gb_id: group for group, ids in _GROUPS.items() for gb_id in ids}


def classify(gb_id: str) -> tuple[str, str]:
    """(class, reason) of a registry id; an id this table does not list yet is unclassified."""
    return CLASSES.get(gb_id, (UNCLASSIFIED, "not yet classified for this torch"))
