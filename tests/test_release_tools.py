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
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
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
    subprocess.run(
        [*PIP_WHEEL, "--wheel-dir", str(out), str(build)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    [built] = out.glob("faucet_dagster-*.whl")
    return built


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
