"""Validate a built faucet wheel before anyone installs it: ``check_wheel.py WHEEL``.

The repository builds two: faucet-core (the engine, ``faucet-core/``) and faucet-dagster,
which requires faucet-core at its own version. Each is checked for what it must ship.

What ``twine check`` does for the metadata, plus what this project must ship:

- ``METADATA`` parses as core metadata and passes ``packaging``'s validation (name, version,
  ``Requires-Python``, every ``Requires-Dist`` and its extra, license expression);
- the long description is the README, declared as markdown (so the index renders it);
- the wheel's version is the file name's, and the newest release in ``CHANGELOG.md`` (when
  the checkout is beside this script);
- the ``faucet`` console script and the dg registry entry point are declared;
- the package data (``py.typed``, the console's templates, the monitoring files) is inside;
- ``RECORD`` lists every file of the wheel.

Exit 0 and one line when the wheel is good; exit 1 with one line per problem otherwise.
Only the standard library and ``packaging`` (pip's own copy will do) are needed.
"""

from __future__ import annotations

import re
import sys
import zipfile
from pathlib import Path

try:
    from packaging.metadata import ExceptionGroup, InvalidMetadata, Metadata
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name, parse_wheel_filename
except ModuleNotFoundError:  # pragma: no cover - a bare venv: pip's own copy
    from pip._vendor.packaging.metadata import (  # type: ignore[no-redef,assignment,unused-ignore]
        ExceptionGroup,
        InvalidMetadata,
        Metadata,
    )
    from pip._vendor.packaging.requirements import (  # type: ignore[no-redef,assignment,unused-ignore]
        Requirement,
    )
    from pip._vendor.packaging.utils import (  # type: ignore[no-redef,assignment,unused-ignore]
        canonicalize_name,
        parse_wheel_filename,
    )

CHANGELOG = Path(__file__).resolve().parent.parent / "CHANGELOG.md"
RELEASE = re.compile(r"^## \[(?P<version>\d[^\]]*)\]", re.MULTILINE)
# What each distribution declares and ships, by its canonical name.
ENTRY_POINTS = {
    "faucet-dagster": {
        "console_scripts": "faucet = faucet_dagster.cli:main",
        "dagster_dg_cli.registry_modules": "faucet_dagster = faucet_dagster",
    },
    "faucet-core": {},
}
PACKAGE_FILES = {
    "faucet-dagster": (
        "faucet_dagster/py.typed",
        "faucet_dagster/serve/console/templates/",
        "faucet_dagster/serve/console/static/",
    ),
    "faucet-core": ("faucet_core/py.typed", "faucet_core/monitoring/"),
}
# The packages a distribution must not carry (each ships its own) or require.
FOREIGN = {"faucet-dagster": ("faucet_core/",), "faucet-core": ("faucet_dagster/",)}
NEVER_REQUIRED = {"faucet-core": ("dagster", "dagster-webserver", "uvicorn")}


def changelog_version(text: str) -> str | None:
    """The version of the newest release heading (``## [X.Y.Z] - ...``); None without one."""
    found = RELEASE.search(text)
    return found.group("version") if found else None


def _errors(exc: InvalidMetadata | ExceptionGroup) -> list[str]:
    found = exc.exceptions if isinstance(exc, ExceptionGroup) else [exc]
    return [f"METADATA {getattr(e, 'field', '?')}: {e}" for e in found]


def problems(wheel: Path, changelog: Path | None = CHANGELOG) -> list[str]:
    """Every problem of ``wheel``; empty when it is good."""
    name, version, _build, _tags = parse_wheel_filename(wheel.name)
    found: list[str] = []
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        info = f"{name.replace('-', '_')}-{version}.dist-info"
        try:
            text = archive.read(f"{info}/METADATA").decode("utf-8")
        except KeyError:
            return [f"{wheel.name}: no {info}/METADATA; rebuild with pip wheel --no-deps ."]
        try:
            meta = Metadata.from_email(text, validate=True)
        except (InvalidMetadata, ExceptionGroup) as exc:
            return _errors(exc)
        if canonicalize_name(meta.name) != name or meta.version != version:
            found.append(
                f"METADATA says {meta.name} {meta.version} but the file name says "
                f"{name} {version}: rebuild the wheel rather than renaming it"
            )
        if meta.requires_python is None:
            found.append("METADATA Requires-Python: missing; set requires-python")
        if meta.description_content_type is None or not meta.description_content_type.startswith(
            "text/markdown"
        ):
            found.append(
                f"METADATA Description-Content-Type: {meta.description_content_type!r}, "
                "not text/markdown; the index would show README.md as plain text"
            )
        if not (meta.description or "").strip():
            found.append("METADATA has no long description: set readme = 'README.md'")
        points = f"{info}/entry_points.txt"
        entry_points = archive.read(points).decode() if points in names else ""
        if name not in PACKAGE_FILES:
            return [f"{wheel.name}: not a faucet distribution ({', '.join(PACKAGE_FILES)})"]
        requires = [Requirement(str(r)) for r in meta.requires_dist or []]
        for req in requires:
            if canonicalize_name(req.name) in NEVER_REQUIRED.get(name, ()):
                found.append(f"METADATA Requires-Dist: {req}: {name} must install without it")
        if name == "faucet-dagster":
            engine = [r for r in requires if canonicalize_name(r.name) == "faucet-core"]
            if not any(r.marker is None and str(r.specifier) == f"=={version}" for r in engine):
                found.append(
                    f"METADATA Requires-Dist: faucet-core=={version} missing; the engine is "
                    "released with faucet-dagster at the same version"
                )
        for group, line in ENTRY_POINTS[name].items():
            block = entry_points.split(f"[{group}]", 1)
            if len(block) < 2 or line not in block[1].split("\n[", 1)[0]:
                found.append(f"entry_points.txt: [{group}] lacks '{line}'")
        for path in PACKAGE_FILES[name]:
            if not any(n == path or (path.endswith("/") and n.startswith(path)) for n in names):
                found.append(f"{path}: not in the wheel; add it to [tool.setuptools.package-data]")
        for prefix in FOREIGN[name]:
            if any(n.startswith(prefix) for n in names):
                found.append(f"{prefix}: in the {name} wheel, but another distribution ships it")
        record = archive.read(f"{info}/RECORD").decode().splitlines()
        recorded = {line.rsplit(",", 2)[0] for line in record if line}
        for missing in sorted(set(names) - recorded):
            found.append(f"RECORD does not list {missing}")
    if changelog is not None and changelog.is_file():
        released = changelog_version(changelog.read_text(encoding="utf-8"))
        if released != str(version):
            found.append(
                f"CHANGELOG.md's newest release is {released!r} but the wheel is {version}: "
                "add a '## [VERSION] - DATE' section or fix version in pyproject.toml"
            )
    return found


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: check_wheel.py WHEEL", file=sys.stderr)
        return 2
    wheel = Path(args[0])
    found = problems(wheel)
    for problem in found:
        print(f"{wheel.name}: {problem}", file=sys.stderr)
    if not found:
        print(f"{wheel.name}: metadata, entry points, package data and RECORD are good")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
