"""A script's data pipeline, modelled natively for the eager run: `TensorDataset` and
`DataLoader` over it. Iterating the loader gives its batches in order, each a tuple of
tensors whose first size is the batch size — and, without `drop_last=True`, a smaller last
batch, which is the recompile every such training loop meets (once; the batch dimension
then becomes dynamic)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vtlint.analyzer import values as V
from vtlint.analyzer.values import Value
from vtlint.analyzer.variables.tensor import tensor

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
        return [Value(V.TUPLE, items=[_rows(t, n) for t in dataset.items or []]) for n in sizes]

    def length(self) -> int | None:
        """`len(loader)`: its number of batches (`total_steps = epochs * len(loader)`)."""
        split = self._split()
        return None if split is None else split[2] + (1 if split[3] else 0)

    def _split(self) -> tuple[TensorDatasetVariable, int, int, int] | None:
        """The dataset, the batch size, the full batches and the last one's size (0 when dropped)."""
        dataset = (self.items or [None])[0]
        batch, drop_last = self.attrs.get("batch_size"), self.attrs.get("drop_last")
        if not isinstance(dataset, TensorDatasetVariable) or batch is None or drop_last is None:
            return None
        total = dataset.length()
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


def loader(args: list[Value], kwargs: dict[str, Value]) -> Value:
    given = args[0] if args else kwargs.get("dataset")
    batch = kwargs.get("batch_size") or (args[1] if len(args) > 1 else V.const(1))
    return Value(V.LOADER, items=[given] if given is not None else None,
                 attrs={"batch_size": batch, "drop_last": kwargs.get("drop_last", V.const(False))})
