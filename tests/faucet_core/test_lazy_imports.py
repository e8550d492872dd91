"""The package roots import their public names on first use: each path loads only what it
needs (checked in fresh processes), and every public name is still there."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import faucet_core


def _fresh(code: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return done.stdout.strip()


_PUSHDOWN = """
import sys
import duckdb
import sqlalchemy as sa
from faucet_core.profile import SqlTable, profile_sql
with duckdb.connect(sys.argv[1]) as conn:
    conn.execute("CREATE TABLE t AS SELECT range AS id, 'v' || (range % 7) AS k, range / 3 AS x "
                 "FROM range(5000)")
prof = profile_sql(SqlTable(sa.create_engine("duckdb:///" + sys.argv[1]), "t"))
assert prof["k"].distinct == 7, prof["k"].distinct
print(sorted(m for m in ("pyarrow", "pandas", "faucet_core.store", "faucet_core.drift")
             if m in sys.modules))
"""


def test_the_sql_pushdown_imports_neither_pyarrow_nor_the_store(tmp_path: Path) -> None:
    assert _fresh(_PUSHDOWN, str(tmp_path / "t.duckdb")) == "[]"


_FILE = """
import sys
import pyarrow as pa
import pyarrow.parquet as pq
from faucet_core.profile.files import profile_file
pq.write_table(pa.table({"a": [1, 2, None]}), sys.argv[1])
assert profile_file(sys.argv[1]).row_count == 3
print(sorted(m for m in ("sqlalchemy", "faucet_core.store", "faucet_core.drift")
             if m in sys.modules))
"""


def test_a_file_profile_does_not_import_sqlalchemy(tmp_path: Path) -> None:
    assert _fresh(_FILE, str(tmp_path / "a.parquet")) == "[]"


_PROFILE_NAME = """
import faucet_core.profile.sql
import faucet_core.profile.table
from faucet_core import profile
import faucet_core
import faucet_core.profile as package
print(callable(profile), profile is faucet_core.profile, package is faucet_core.profile,
      type(package).__mro__[1].__name__)
"""


def test_faucet_core_profile_is_the_package_and_calling_it_profiles() -> None:
    # issue 29: ``import faucet_core.profile as p`` is the package (it was the function);
    # calling it still profiles, as ``from faucet_core import profile; profile(df)`` does.
    assert _fresh(_PROFILE_NAME) == "True True True module"


def test_every_public_name_resolves() -> None:
    package = importlib.import_module("faucet_core.profile")  # not the function
    for module in (faucet_core, package):
        for name in module.__all__:
            assert getattr(module, name) is not None, (module, name)
        assert set(module.__all__) <= set(dir(module))
    assert package is faucet_core.profile  # the package, which profiles when called
    assert callable(faucet_core.profile)
    assert callable(package.profile)  # faucet_core.profile.dispatch.profile
