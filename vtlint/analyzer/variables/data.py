"""A script's data pipeline, modelled natively for the eager run: `TensorDataset`, a map-style
`Dataset` of the project's (its `__len__` and `__getitem__` walked), and `DataLoader` over
either. Iterating the loader gives its batches in order, each collated as `default_collate`
does (tensors stacked, numbers made tensors, dicts and tuples kept) with the batch size first
— and, without `drop_last=True`, a smaller last batch, which is the recompile every such
training loop meets (once; the batch dimension then becomes dynamic)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vtlint.analyzer import values as V
from vtlint.analyzer.values import Value
from vtlint.analyzer.variables.tensor import tensor
from vtlint.analyzer.variables.user_defined import UserDefinedObjectVariable

if TYPE_CHECKING:
    import libcst as cst

    from vtlint.analyzer.walk import Act, Walker

DATASETS = frozenset({"torch.utils.data.TensorDataset", "torch.utils.data.dataset.TensorDataset"})
LOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})
_SHOWN_FULL_BATCHES = 3  # a long epoch is walked as its first batches and its last one


class TensorDatasetVariable(Value):
    """`items`: the tensors it indexes, each with its sizes."""

    tracks = (V.DATASET,)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        return True

    def length(self) -> int | None:
        """The first size of its tensors (TensorDataset requires them equal): any one known will do."""
        sizes = [t.items[0].value for t in self.items or [] if t.items and t.items[0].known]
        return sizes[0] if sizes else None


class DataLoaderVariable(Value):
    """`items`: [the dataset]; `attrs`: batch_size and drop_last as given."""

    tracks = (V.LOADER,)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        return True

    def unpack_var_sequence(self, tx: Walker, act: Act, node: cst.CSTNode) -> list[Value] | None:
        split = self._split()
        if split is None:
            return None
        dataset, size, full, rest = split
        sizes = [size] * min(full, _SHOWN_FULL_BATCHES) + ([rest] if rest else [])
        if isinstance(dataset, TensorDatasetVariable):
            return [Value(V.TUPLE, items=[_rows(t, n) for t in dataset.items or []]) for n in sizes]
        sample = self.attrs[SAMPLE]
        return [collate(sample, n) for n in sizes]

    def length(self) -> int | None:
        """`len(loader)`: its number of batches (`total_steps = epochs * len(loader)`)."""
        split = self._split()
        return None if split is None else split[2] + (1 if split[3] else 0)

    def _split(self) -> tuple[Value, int, int, int] | None:
        """The dataset, the batch size, the full batches and the last one's size (0 when dropped)."""
        dataset = (self.items or [None])[0]
        batch, drop_last = self.attrs.get("batch_size"), self.attrs.get("drop_last")
        if dataset is None or batch is None or drop_last is None:
            return None
        if isinstance(dataset, TensorDatasetVariable):
            total = dataset.length()
        else:  # a Dataset of the project's: its __len__ and one __getitem__, walked when the loader was made
            length = self.attrs.get(LENGTH)
            total = length.value if length is not None and length.known and SAMPLE in self.attrs else None
        if total is None or not batch.known or not isinstance(batch.value, int) or batch.value <= 0 \
                or not drop_last.known:
            return None
        full, rest = divmod(total, batch.value)
        return dataset, batch.value, full, 0 if drop_last.value else rest


def _rows(whole: Value, count: int) -> Value:
    if not whole.items:
        return Value(V.TENSOR, pytype=whole.pytype)  # sizes the walk could not follow
    return tensor([V.const(count), *whole.items[1:]], whole.pytype)


def dataset(args: list[Value]) -> Value:
    return Value(V.DATASET, items=list(args) if all(a.kind == V.TENSOR for a in args) else None)


LENGTH, SAMPLE = "dataset_length", "sample"  # a project Dataset's length and its first item


def loader(tx: Walker, args: list[Value], kwargs: dict[str, Value], act: Act, node: cst.Call) -> Value:
    given = args[0] if args else kwargs.get("dataset")
    batch = kwargs.get("batch_size") or (args[1] if len(args) > 1 else V.const(1))
    attrs = {"batch_size": batch, "drop_last": kwargs.get("drop_last", V.const(False))}
    if isinstance(given, UserDefinedObjectVariable):
        length = given.call_dunder(tx, "__len__", [], {}, act, node)
        sample = given.call_dunder(tx, "__getitem__", [V.const(0)], {}, act, node)
        if length is not None and length.kind == V.CONST and length.known and sample is not None:
            attrs.update({LENGTH: length, SAMPLE: sample})
    return Value(V.LOADER, items=[given] if given is not None else None, attrs=attrs)


def collate(sample: Value, count: int) -> Value:
    """`default_collate` of `count` items like `sample`: tensors stacked (the batch size first),
    Python numbers made 1-D tensors, dicts, tuples and lists collated item by item."""
    if sample.kind == V.TENSOR:
        return tensor([V.const(count), *sample.items] if sample.items is not None else None, sample.pytype)
    if sample.kind == V.CONST and sample.pytype in ("int", "float", "bool"):
        return tensor([V.const(count)], {"int": "int64", "float": "float64", "bool": "bool"}[sample.pytype])
    if sample.kind == V.DICT and sample.keys is not None and sample.items is not None:
        return Value(V.DICT, keys=list(sample.keys), items=[collate(i, count) for i in sample.items])
    if sample.kind in (V.TUPLE, V.LIST) and sample.items is not None:
        return Value(sample.kind, items=[collate(i, count) for i in sample.items])
    return V.unknown()
