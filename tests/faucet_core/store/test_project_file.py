"""``faucet.toml``: the nearest one at or above the working directory names the store."""

from __future__ import annotations

from pathlib import Path

import pytest

from faucet_core.db.project import find_project_store
from faucet_core.errors import ConfigError
from faucet_core.store import default_store_url


@pytest.fixture
def bare_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for var in ("FAUCET_STORE_URL", "FAUCET_HOME", "DAGSTER_HOME"):
        monkeypatch.delenv(var, raising=False)
    return monkeypatch


def _write(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "faucet.toml"
    path.write_text(text)
    return path


def test_no_file_means_no_project_store(tmp_path):
    assert find_project_store(tmp_path) is None


def test_a_relative_sqlite_path_is_relative_to_the_file_found_in_a_parent(tmp_path):
    path = _write(tmp_path / "proj", 'store_url = "sqlite:///.dagster_home/faucet.db"\n')
    deep = tmp_path / "proj" / "src" / "pkg"
    deep.mkdir(parents=True)
    found = find_project_store(deep)
    assert found is not None
    assert found.path == path
    assert found.url == f"sqlite:///{tmp_path / 'proj' / '.dagster_home' / 'faucet.db'}"


def test_the_nearest_file_wins(tmp_path):
    _write(tmp_path, 'store_url = "sqlite:///outer.db"\n')
    _write(tmp_path / "inner", 'store_url = "sqlite:////abs/inner.db"\n')
    found = find_project_store(tmp_path / "inner")
    assert found is not None
    assert found.url == "sqlite:////abs/inner.db"  # absolute: kept as written


def test_a_postgres_url_is_kept_as_written(tmp_path):
    url = "postgresql+psycopg://faucet:pw@db.internal:5432/faucet"
    _write(tmp_path, f'store_url = "{url}"\n')
    found = find_project_store(tmp_path)
    assert found is not None
    assert found.url == url


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        pytest.param(
            "store_url = sqlite:///x.db\n",
            "not valid TOML (Invalid value (at line 1, column 13)); write "
            'store_url = "sqlite:///path/faucet.db"',
            id="not-toml",
        ),
        pytest.param(
            'store_ur1 = "sqlite:///x.db"\n',
            "unknown setting 'store_ur1'; the file holds only store_url (a typo?)",
            id="unknown-key",
        ),
        pytest.param(
            "store_url = 3\n",
            "store_url must be a non-empty string, e.g. store_url = "
            '"sqlite:///.dagster_home/faucet.db" or a postgresql+psycopg:// URL',
            id="not-a-string",
        ),
        pytest.param(
            'store_url = "postgresql//u:s3cret@db.internal/wh"\n',
            "store_url '***@db.internal/wh' is not a SQLAlchemy URL; write e.g. "
            "sqlite:///.dagster_home/faucet.db or postgresql+psycopg://user@host:5432/db",
            id="not-a-url-password-hidden",
        ),
    ],
)
def test_a_bad_file_is_named_with_the_problem_and_the_fix(tmp_path, text, problem):
    path = _write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        find_project_store(tmp_path)
    assert str(info.value) == f"{path}: {problem}"
    assert "s3cret" not in str(info.value)


def test_the_environment_wins_then_the_file_then_the_homes(tmp_path, bare_env):
    _write(tmp_path, 'store_url = "sqlite:///store/faucet.db"\n')
    bare_env.chdir(tmp_path)
    bare_env.setenv("DAGSTER_HOME", str(tmp_path / "dh"))
    bare_env.setenv("FAUCET_HOME", str(tmp_path / "fh"))
    assert default_store_url() == f"sqlite:///{tmp_path / 'store' / 'faucet.db'}"
    bare_env.setenv("FAUCET_STORE_URL", "sqlite:////env/faucet.db")
    assert default_store_url() == "sqlite:////env/faucet.db"


def test_without_a_file_the_default_is_unchanged(tmp_path, bare_env):
    bare_env.chdir(tmp_path)
    assert default_store_url() == f"sqlite:///{tmp_path / '.faucet' / 'faucet.db'}"
    bare_env.setenv("DAGSTER_HOME", str(tmp_path / "dh"))
    assert default_store_url() == f"sqlite:///{tmp_path / 'dh' / 'faucet.db'}"
