"""The CLI finds a project's store through its ``faucet.toml``, and says so on stderr when a
command is about to open a new, empty store (the usual sign of the wrong folder)."""

from __future__ import annotations

from pathlib import Path

import pytest

from faucet_dagster import build_profile_checks
from faucet_dagster.cli import main
from tests.faucet_dagster.helpers import materialize, orders


def _notice(url: str) -> str:
    return (
        f"faucet: no store at {url} yet: this command opens a new, empty one. If your store is "
        "elsewhere, pass --store URL, set FAUCET_STORE_URL or write store_url in a faucet.toml "
        "of your project folder\n"
    )


@pytest.fixture
def bare_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """A new user's shell: none of faucet's or Dagster's variables."""
    for var in ("FAUCET_STORE_URL", "FAUCET_HOME", "DAGSTER_HOME"):
        monkeypatch.delenv(var, raising=False)
    return monkeypatch


@pytest.fixture
def project(tmp_path: Path, instance, feed) -> Path:  # type: ignore[no-untyped-def]
    """A project folder whose faucet.toml names the store a real Dagster run filled."""
    folder = tmp_path / "proj"
    (folder / "src").mkdir(parents=True)
    (folder / "faucet.toml").write_text('store_url = "sqlite:///.dagster_home/faucet.db"\n')
    url = f"sqlite:///{folder / '.dagster_home' / 'faucet.db'}"
    result = materialize([orders, *build_profile_checks([orders])], instance, url)
    assert result.success
    return folder


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_profiling_doctor_and_catalog_find_the_store_of_faucet_toml(project, bare_env, capsys):
    bare_env.chdir(project / "src")  # a subfolder: the file is found in a parent
    url = f"sqlite:///{project / '.dagster_home' / 'faucet.db'}"

    code, out, err = _run(["profiling", "show"], capsys)
    assert (code, err) == (0, "")
    assert out.startswith("orders — 1 run(s) in the baseline\n")

    code, out, err = _run(["doctor"], capsys)
    assert (code, err) == (0, "")
    assert out.startswith(f"store: {url} (reachable, schema version ")

    code, out, err = _run(["catalog", "datasets"], capsys)
    assert (code, err) == (0, "")
    assert "orders" in out

    assert not (project / "src" / ".faucet").exists()  # no stray empty store made


def test_a_command_that_opens_a_new_empty_store_says_so_once(tmp_path, bare_env, capsys):
    bare_env.chdir(tmp_path)
    url = f"sqlite:///{tmp_path / '.faucet' / 'faucet.db'}"
    code, out, err = _run(["profiling", "show"], capsys)
    assert (code, out, err) == (0, f"no profiles recorded in {url}\n", _notice(url))
    code, out, err = _run(["profiling", "show"], capsys)  # it exists now: no notice
    assert (code, err) == (0, "")


def test_the_catalog_and_metrics_commands_say_so_too(tmp_path, bare_env, capsys):
    bare_env.chdir(tmp_path)
    url = f"sqlite:///{tmp_path / 'other.db'}"
    code, _out, err = _run(["catalog", "datasets", "--store", url], capsys)
    assert (code, err) == (0, _notice(url))
    url = f"sqlite:///{tmp_path / 'third.db'}"
    code, _out, err = _run(["metrics", "--store", url], capsys)
    assert (code, err) == (0, _notice(url))


def test_a_new_postgres_schema_is_announced(postgres_url, bare_env, tmp_path, capsys):
    bare_env.chdir(tmp_path)
    code, _out, err = _run(["doctor", "--store", postgres_url], capsys)
    assert code == 0
    assert err.startswith("faucet: no store at postgresql")
    assert err.endswith("yet: this command opens a new, empty one. If your store is elsewhere, "
                        "pass --store URL, set FAUCET_STORE_URL or write store_url in a "
                        "faucet.toml of your project folder\n")  # fmt: skip
    code, _out, err = _run(["doctor", "--store", postgres_url], capsys)
    assert (code, err) == (0, "")
