"""Print a pip constraints file that pins each direct dependency to its lowest allowed version.

The *oldest* compat environment (``make compat-oldest``) installs faucet with it, so the
lower bounds in ``pyproject.toml`` are tested rather than only claimed::

    python tools/lowest_constraints.py --extra pandas --extra test \\
        --pin dagster==1.10.21 --pin dagster-webserver==1.10.21 > constraints.txt

Each requirement of ``[project] dependencies`` and of the named extras (extras that name
``faucet-dagster[...]`` are followed, and so is ``faucet-core[...]``: a project of the
repository, in a folder of its name beside ``pyproject.toml``, is installed from its own
wheel, so its requirements are pinned instead of it) becomes ``name==<lowest>``: the version
of its ``>=``,
``==`` or ``~=`` specifier. Environment markers are kept, so ``tomli`` is pinned on Python
3.10 only. ``--pin`` replaces the lowest version of one package (Dagster's last patch of a
minor rather than its ``.0``). A requirement with no lower bound is an error: the oldest
environment could not say what it tested.

Only the standard library, ``packaging`` and (on Python 3.10) ``tomli`` are needed: a fresh
venv has both as pip's own copies.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

try:  # Python 3.11+
    import tomllib  # type: ignore[import-not-found,unused-ignore]
except ModuleNotFoundError:  # pragma: no cover - Python 3.10: tomli, else pip's own copy
    try:
        import tomli as tomllib  # type: ignore[no-redef,import-not-found,unused-ignore]
    except ModuleNotFoundError:
        from pip._vendor import tomli as tomllib  # type: ignore[no-redef,attr-defined,unused-ignore]

try:
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name
except ModuleNotFoundError:  # pragma: no cover - a bare interpreter: pip's own copy
    from pip._vendor.packaging.requirements import Requirement  # type: ignore[assignment]
    from pip._vendor.packaging.utils import canonicalize_name  # type: ignore[assignment]

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


class ConstraintError(ValueError):
    """A requirement of pyproject.toml that the oldest environment cannot pin."""


def lowest_version(req: Requirement) -> str:
    """The lowest version ``req`` allows: the version of its ``>=``, ``==`` or ``~=``."""
    lows = [s.version for s in req.specifier if s.operator in (">=", "==", "~=")]
    if not lows:
        raise ConstraintError(
            f"{req}: has no lower bound (>=, == or ~=), so its lowest version is unknown; "
            f"give it one in pyproject.toml or --pin {req.name}==VERSION"
        )
    if len(lows) > 1:
        raise ConstraintError(f"{req}: more than one lower bound ({', '.join(lows)}); keep one")
    return lows[0]


def _project(pyproject: Path) -> dict[str, Any]:
    project: dict[str, Any] = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    return project


def direct_requirements(
    project: dict[str, Any], extras: list[str], folder: Path | None = None
) -> list[Requirement]:
    """``dependencies`` plus each extra's, following ``<this project>[extra]`` references and,
    when ``folder`` holds ``<name>/pyproject.toml`` for a requirement's name, that project's
    own requirements (with the extras the requirement names) in place of the requirement."""
    name = canonicalize_name(project["name"])
    optional: dict[str, list[str]] = project.get("optional-dependencies", {})
    declared: list[Requirement] = [Requirement(r) for r in project.get("dependencies", [])]
    found: list[Requirement] = []
    seen: set[str] = set()
    todo = list(extras)
    while todo:
        extra = todo.pop(0)
        if extra in seen:
            continue
        seen.add(extra)
        if extra not in optional:
            raise ConstraintError(
                f"--extra {extra}: pyproject.toml has no such extra; "
                f"it has {', '.join(sorted(optional))}"
            )
        for text in optional[extra]:
            req = Requirement(text)
            if canonicalize_name(req.name) == name:
                todo.extend(sorted(req.extras))
            else:
                declared.append(req)
    for req in declared:
        sibling = None if folder is None else folder / req.name / "pyproject.toml"
        if sibling is not None and sibling.is_file():
            found.extend(direct_requirements(_project(sibling), sorted(req.extras), folder))
        else:
            found.append(req)
    return found


def constraints(pyproject: Path, extras: list[str], pins: dict[str, str]) -> list[str]:
    lines: dict[str, str] = {}
    for req in direct_requirements(_project(pyproject), extras, pyproject.parent):
        key = canonicalize_name(req.name)
        version = pins.get(key) or lowest_version(req)
        if not req.specifier.contains(version, prereleases=True):
            raise ConstraintError(
                f"--pin {req.name}=={version}: outside pyproject.toml's {req}; "
                "pin a version the project allows"
            )
        marker = f"; {req.marker}" if req.marker else ""
        line = f"{key}=={version}{marker}"
        if key in lines and lines[key] != line:
            raise ConstraintError(f"{req.name}: two requirements disagree ({lines[key]}, {line})")
        lines[key] = line
    unused = sorted(set(pins) - set(lines))
    if unused:
        raise ConstraintError(
            f"--pin {', '.join(unused)}: not a direct dependency of the chosen extras"
        )
    return [lines[k] for k in sorted(lines)]


def _pin(text: str) -> tuple[str, str]:
    name, sep, version = text.partition("==")
    if not sep or not name or not version:
        raise argparse.ArgumentTypeError(f"{text!r}: expected NAME==VERSION, e.g. dagster==1.10.21")
    return canonicalize_name(name), version


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pyproject", type=Path, default=PYPROJECT)
    parser.add_argument("--extra", action="append", default=[], help="also pin this extra's")
    parser.add_argument("--pin", action="append", type=_pin, default=[], help="NAME==VERSION")
    args = parser.parse_args(argv)
    try:
        lines = constraints(args.pyproject, args.extra, dict(args.pin))
    except ConstraintError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 2
    print(f"# generated by tools/lowest_constraints.py from {args.pyproject.name}; do not edit")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
