"""Tokens from the environment and from files; roles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from faucet_core.errors import ConfigError
from faucet_dagster.cli import main
from faucet_dagster.serve import Principal, Role, load_tokens

A = "a" * 20
B = "b" * 20


def test_env_tokens_and_lookup() -> None:
    table = load_tokens(env={"FAUCET_TOKENS": f"alice:admin:{A}, ci : Viewer : {B}"})
    assert table.lookup(A) == Principal("alice", Role.ADMIN)
    assert table.lookup(B) == Principal("ci", Role.VIEWER)
    assert table.lookup("a" * 19) is None
    assert table.lookup("") is None
    assert A not in repr(table)


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_file_tokens_add_to_the_environments(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"tokens{suffix}"
    entries = [{"name": "airflow", "role": "ingest", "token": B}]
    if suffix == ".json":
        path.write_text(json.dumps({"tokens": entries}))
    else:
        path.write_text(f"tokens:\n  - name: airflow\n    role: ingest\n    token: {B}\n")
    table = load_tokens(path, env={"FAUCET_TOKENS": f"alice:operator:{A}"})
    assert len(table) == 2
    assert table.lookup(B) == Principal("airflow", Role.INGEST)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        pytest.param("", "needs at least one token", id="none"),
        pytest.param(f"alice:{A}", "is not name:role:token", id="two-parts"),
        pytest.param(f"alice:root:{A}", "role 'root' is not one of", id="bad-role"),
        pytest.param("alice:admin:short", "shorter than 16", id="short"),
        pytest.param(f"a:admin:{A},a:viewer:{B}", "declared twice", id="dup-name"),
        pytest.param(f"a:admin:{A},b:viewer:{A}", "reuses another", id="dup-token"),
    ],
)
def test_bad_token_config_is_named(env: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as err:
        load_tokens(env={"FAUCET_TOKENS": env})
    assert A not in str(err.value)


def test_a_bad_tokens_file(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps([{"name": "x", "role": "viewer"}]))
    with pytest.raises(ConfigError, match=r"tokens\[0\]: give exactly name, role and token"):
        load_tokens(path, env={})
    with pytest.raises(ConfigError, match="cannot read the tokens file"):
        load_tokens(tmp_path / "missing.json", env={})


def test_the_role_ladder() -> None:
    assert Role.ADMIN.allows(Role.OPERATOR)
    assert Role.OPERATOR.allows(Role.VIEWER)
    assert not Role.VIEWER.allows(Role.OPERATOR)
    assert not Role.INGEST.allows(Role.VIEWER)


def test_audit_cli_on_an_empty_store(sqlite_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "--store", sqlite_url]) == 0
    assert capsys.readouterr().out == "no audit entries\n"


def test_serve_without_tokens_fails_before_listening(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.faucet_dagster.plan.test_cli import LOCATION

    monkeypatch.delenv("FAUCET_TOKENS", raising=False)
    assert main(["serve", "-f", LOCATION]) == 1
    assert "needs at least one token" in capsys.readouterr().err
