from pathlib import Path

import pytest

from vtlint.config import Config, ConfigError, find_config_file, load_config, parse_table
from vtlint.findings import Level


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_discovery_walks_up_to_the_nearest_vtlint_table(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[tool.vtlint]\nselect = ['VTL1']\n")
    write(tmp_path / "pkg" / "pyproject.toml", "[project]\nname = 'inner'\n")  # no [tool.vtlint]
    source = write(tmp_path / "pkg" / "mod.py", "x = 1\n")
    assert find_config_file(source) == tmp_path / "pyproject.toml"
    config = load_config([source])
    assert config.root == tmp_path.resolve()
    assert config.select == ("VTL1",)


def test_defaults_without_a_config_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    config = load_config([tmp_path])
    assert config.config_file is None
    assert config.select == ("VTL",)
    assert config.fail_level is Level.WARNING


def test_every_key_parses(tmp_path: Path) -> None:
    table = {
        "include": ["*.py"],
        "exclude": ["gen"],
        "extend-exclude": ["old"],
        "respect-gitignore": False,
        "select": ["VTL"],
        "extend-select": ["VTL901"],
        "ignore": ["VTL3"],
        "per-file-ignores": {"tests/*": ["VTL1"]},
        "entry-points": ["pkg/model.py:Model.forward"],
        "assume-compiled": ["forward"],
        "fail-level": "error",
        "file-budget": 5,
        "dynamo": {"capture_scalar_outputs": True, "dynamic": "auto", "recompile-limit": 4,
                   "reorderable_logging_functions": ["print"]},
        "runtime": {"command": "python train.py", "timeout": 30},
    }
    config = parse_table(table, tmp_path, tmp_path / "pyproject.toml")
    assert config.per_file_ignores == {"tests/*": ("VTL1",)}
    assert config.dynamo.capture_scalar_outputs is True
    assert config.dynamo.reorderable_logging_functions == ("print",)
    assert config.dynamo.dynamic is None
    assert config.dynamo.recompile_limit == 4
    assert config.runtime.command == "python train.py"
    assert config.runtime.timeout == 30.0
    assert config.fail_level is Level.ERROR
    assert config.respect_gitignore is False
    assert config.file_budget == 5.0


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"selec": ["VTL"]}, "unknown key 'selec'"),
        ({"select": "VTL1"}, "[tool.vtlint].select: expected a list of strings"),
        ({"fail-level": "fatal"}, "[tool.vtlint].fail-level"),
        ({"dynamo": {"capture_scalar_output": True}}, "[tool.vtlint].dynamo.capture_scalar_output: unknown Dynamo setting"),
        ({"dynamo": {"fullgraph": "yes"}}, "[tool.vtlint].dynamo.fullgraph: expected true or false"),
        ({"dynamo": {"recompile_limit": True}}, "[tool.vtlint].dynamo.recompile_limit: expected an integer"),
        ({"dynamo": {"reorderable_logging_functions": ["print", 1]}},
         "[tool.vtlint].dynamo.reorderable_logging_functions: expected a list of function names"),
        ({"runtime": {"timeout": -1}}, "[tool.vtlint].runtime.timeout"),
        ({"file-budget": 0}, "[tool.vtlint].file-budget: expected a positive number of seconds"),
        ({"file-budget": True}, "[tool.vtlint].file-budget: expected a positive number of seconds"),
        ({"runtime": {"cmd": "x"}}, "[tool.vtlint].runtime.cmd: unknown key"),
        ({"per-file-ignores": {"a": "VTL1"}}, "per-file-ignores.'a'"),
    ],
)
def test_invalid_values_name_the_file_and_key(tmp_path: Path, table: dict, message: str) -> None:
    with pytest.raises(ConfigError) as err:
        parse_table(table, tmp_path, tmp_path / "pyproject.toml")
    assert message in str(err.value)
    assert str(tmp_path / "pyproject.toml") in str(err.value)


def test_invalid_toml_is_a_config_error(tmp_path: Path) -> None:
    bad = write(tmp_path / "pyproject.toml", "[tool.vtlint\nselect = 1\n")
    with pytest.raises(ConfigError, match="invalid TOML"):
        load_config([tmp_path], bad)


def test_config_is_immutable_and_overridable(tmp_path: Path) -> None:
    config = Config(root=tmp_path)
    changed = config.with_(select=("VTL2",))
    assert config.select == ("VTL",) and changed.select == ("VTL2",)
