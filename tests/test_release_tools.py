"""The compat environments' constraints generator and the wheel check (``tools/``)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
PIP_WHEEL = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation"]


def _tool(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


lowest = _tool("lowest_constraints")
check_wheel = _tool("check_wheel")


def _pyproject(tmp_path: Path, deps: str, extras: str = "") -> Path:
    path = tmp_path / "pyproject.toml"
    path.write_text(
        f'[project]\nname = "faucet-dagster"\nversion = "0.1.0"\ndependencies = [{deps}]\n'
        f"[project.optional-dependencies]\n{extras}\n"
    )
    return path


def test_the_repository_pins_every_direct_dependency_at_its_lower_bound() -> None:
    lines = lowest.constraints(ROOT / "pyproject.toml", ["pandas", "test"], {"dagster": "1.10.21"})
    by_name = {line.split("==")[0]: line for line in lines}
    assert by_name["dagster"] == "dagster==1.10.21"
    assert by_name["dagster-webserver"] == "dagster-webserver==1.10.19"
    assert by_name["pandas"] == "pandas==2.1"
    assert by_name["tomli"] == 'tomli==1.1; python_version < "3.11"'  # the marker stays
    assert "polars" not in by_name  # only the extras asked for


def test_extras_that_name_the_project_are_followed(tmp_path: Path) -> None:
    path = _pyproject(tmp_path, '"numpy>=1.26"', 'a = ["faucet-dagster[b]"]\nb = ["pandas>=2.1"]')
    assert lowest.constraints(path, ["a"], {}) == ["numpy==1.26", "pandas==2.1"]


def test_a_requirement_without_a_lower_bound_is_named(tmp_path: Path) -> None:
    path = _pyproject(tmp_path, '"numpy<3"')
    with pytest.raises(lowest.ConstraintError, match=r"numpy<3: has no lower bound .* --pin"):
        lowest.constraints(path, [], {})


def test_a_pin_outside_the_allowed_range_is_refused(tmp_path: Path) -> None:
    path = _pyproject(tmp_path, '"dagster>=1.10.19,<1.14"')
    with pytest.raises(lowest.ConstraintError, match=r"dagster==1.9.0: outside .*dagster<1.14"):
        lowest.constraints(path, [], {"dagster": "1.9.0"})


def test_an_unknown_extra_lists_the_known_ones(tmp_path: Path) -> None:
    path = _pyproject(tmp_path, '"numpy>=1.26"', 'pandas = ["pandas>=2.1"]')
    assert lowest.main(["--pyproject", str(path), "--extra", "nope"]) == 2
    with pytest.raises(lowest.ConstraintError, match="no such extra; it has pandas"):
        lowest.constraints(path, ["nope"], {})


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    build = tmp_path_factory.mktemp("tree")
    # the tracked (and new, not ignored) files are copied: a build must not leave build/ here
    files = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        check=True,
        capture_output=True,
    ).stdout.split(b"\0")
    for name in filter(None, files):
        source = ROOT / name.decode()
        if source.is_file():
            target = build / name.decode()
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read_bytes())
    return build


def _build(tree: Path, out: Path, pattern: str) -> Path:
    subprocess.run(
        [*PIP_WHEEL, "--wheel-dir", str(out), str(tree)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    [built] = out.glob(pattern)
    return built


@pytest.fixture(scope="module")
def wheel(tree: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build(tree, tmp_path_factory.mktemp("dist"), "faucet_dagster-*.whl")


@pytest.fixture(scope="module")
def engine_wheel(tree: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """faucet-core's own wheel, built from ``faucet-core/``."""
    return _build(tree / "faucet-core", tmp_path_factory.mktemp("dist"), "faucet_core-*.whl")


def test_the_built_wheel_passes(wheel: Path) -> None:
    assert check_wheel.problems(wheel) == []
    assert check_wheel.main([str(wheel)]) == 0


def _rewrite(wheel: Path, target: Path, edit: dict[str, str]) -> Path:
    """A copy of ``wheel`` with text replaced in its METADATA."""
    with zipfile.ZipFile(wheel) as src, zipfile.ZipFile(target, "w") as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename.endswith(".dist-info/METADATA"):
                text = data.decode()
                for old, new in edit.items():
                    assert old in text
                    text = text.replace(old, new)
                data = text.encode()
            dst.writestr(item, data)
    return target


def test_a_plain_text_readme_is_reported(wheel: Path, tmp_path: Path) -> None:
    bad = _rewrite(
        wheel,
        tmp_path / wheel.name,
        {"Description-Content-Type: text/markdown": "Description-Content-Type: text/plain"},
    )
    [problem] = check_wheel.problems(bad)
    assert "Description-Content-Type: 'text/plain', not text/markdown" in problem


def test_invalid_metadata_names_the_field(wheel: Path, tmp_path: Path) -> None:
    bad = _rewrite(
        wheel, tmp_path / wheel.name, {"Requires-Python: >=3.10": "Requires-Python: 3.10+"}
    )
    problems = check_wheel.problems(bad)
    assert any(p.startswith("METADATA requires-python:") and "3.10+" in p for p in problems)


def test_a_changelog_without_this_release_is_reported(wheel: Path, tmp_path: Path) -> None:
    changelog = tmp_path / "CHANGELOG.md"
    changelog.write_text("# Changelog\n\n## [0.0.9] - 2026-01-01\n\n- old\n")
    [problem] = check_wheel.problems(wheel, changelog)
    assert "newest release is '0.0.9' but the wheel is 0.1.0" in problem


def test_the_changelog_names_the_version_pyproject_builds() -> None:
    text = (ROOT / "CHANGELOG.md").read_text()
    version = check_wheel.changelog_version(text)
    assert f'version = "{version}"' in (ROOT / "pyproject.toml").read_text()


def test_the_engine_is_followed_into_its_own_pyproject() -> None:
    lines = lowest.constraints(ROOT / "pyproject.toml", ["spark"], {})
    by_name = {line.split("==")[0]: line for line in lines}
    assert "faucet-core" not in by_name  # installed from its own wheel, never pinned
    assert by_name["pyarrow"] == "pyarrow==15"  # a requirement of faucet-core only
    assert by_name["openlineage-python"] == "openlineage-python==1.40"  # its lineage extra
    assert by_name["pyspark"] == "pyspark==4.0"  # faucet-dagster[spark] -> faucet-core[spark]


def test_the_built_engine_wheel_passes_and_requires_no_dagster(engine_wheel: Path) -> None:
    assert check_wheel.problems(engine_wheel) == []
    with zipfile.ZipFile(engine_wheel) as archive:
        names = archive.namelist()
        info = next(n for n in names if n.endswith(".dist-info/METADATA"))
        requires = [
            line.split(":", 1)[1].strip()
            for line in archive.read(info).decode().splitlines()
            if line.startswith("Requires-Dist:")
        ]
    assert "faucet_core/monitoring/faucet-alerts.rules.yml" in names
    assert not any(n.startswith("faucet_dagster/") for n in names)
    assert requires  # pydantic, sqlalchemy, pyarrow ...
    assert not any(r.split(";")[0].split("[")[0].split(">")[0].strip() in {
        "dagster", "dagster-webserver", "uvicorn", "starlette"
    } for r in requires if "extra ==" not in r)  # fmt: skip


def test_the_dagster_wheel_requires_the_engine_at_its_version(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        assert not any(n.startswith("faucet_core/") for n in archive.namelist())
    assert check_wheel.problems(wheel) == []


def test_an_engine_that_requires_dagster_is_reported(engine_wheel: Path, tmp_path: Path) -> None:
    bad = _rewrite(
        engine_wheel,
        tmp_path / engine_wheel.name,
        {"Requires-Dist: pydantic": "Requires-Dist: dagster>=1.10\nRequires-Dist: pydantic"},
    )
    [problem] = check_wheel.problems(bad)
    assert problem == ("METADATA Requires-Dist: dagster>=1.10: faucet-core must install without it")


def test_a_dagster_wheel_without_the_engine_pin_is_reported(wheel: Path, tmp_path: Path) -> None:
    bad = _rewrite(
        wheel,
        tmp_path / wheel.name,
        {"Requires-Dist: faucet-core[lineage,server]==0.1.0": "Requires-Dist: faucet-core>=0.1"},
    )
    [problem] = check_wheel.problems(bad)
    assert problem.startswith("METADATA Requires-Dist: faucet-core==0.1.0 missing")
