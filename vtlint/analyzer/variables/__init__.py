"""The abstract VariableTrackers, one class per family, laid out as `torch/_dynamo/variables/`.

`values.Value(kind, ...)` builds the class registered for `kind`; each class carries its
family's behaviour (`var_getattr`, `call_function`, `getitem`, `unpack_var_sequence`,
`truth`), and the walk (`walk.Walker`, Dynamo's InstructionTranslator, passed as `tx`)
dispatches to it. Importing this package registers every class."""

from vtlint.analyzer.variables import (
    builtin,
    command_line,
    constant,
    data,
    data_files,
    dicts,
    functions,
    library,
    lists,
    nn_module,
    sets,
    tensor,
    unknown,
    user_defined,
)

__all__ = ["builtin", "command_line", "constant", "data", "data_files", "dicts", "functions", "library", "lists",
           "nn_module", "sets", "tensor", "unknown", "user_defined"]
