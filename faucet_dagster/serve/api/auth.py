"""Bearer tokens with roles for ``faucet serve``.

Roles are ordered ``viewer < operator < admin``; ``ingest`` is a separate, narrow role
that may only ``POST /api/v1/lineage`` (for pipelines that emit OpenLineage events).

Tokens come from ``FAUCET_TOKENS`` (``name:role:token,...``) and/or a JSON or YAML file
(``--tokens FILE``)::

    tokens:
      - {name: alice, role: admin, token: "..."}
      - {name: airflow, role: ingest, token: "..."}

Tokens are compared in constant time and never logged or echoed: only their ``name``
appears in the audit log.
"""

from __future__ import annotations

import hmac
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from faucet_core.errors import ConfigError

__all__ = ["ENV_TOKENS", "Principal", "Role", "TokenTable", "load_tokens"]

ENV_TOKENS = "FAUCET_TOKENS"
MIN_TOKEN_LENGTH = 16


class Role(str, Enum):
    VIEWER = "viewer"
    OPERATOR = "operator"
    ADMIN = "admin"
    INGEST = "ingest"

    @property
    def rank(self) -> int:
        return {"ingest": 0, "viewer": 1, "operator": 2, "admin": 3}[self.value]

    def allows(self, required: Role) -> bool:
        """``required`` is a ladder role (viewer/operator/admin); ingest passes none."""
        return self is not Role.INGEST and self.rank >= required.rank


@dataclass(frozen=True)
class Principal:
    name: str
    role: Role

    def __repr__(self) -> str:  # no token in here, but keep reprs terse
        return f"Principal({self.name!r}, {self.role.value})"


class TokenTable:
    """Token -> principal, looked up in constant time per entry."""

    def __init__(self, entries: Sequence[tuple[str, Role, str]]) -> None:
        names: set[str] = set()
        tokens: set[str] = set()
        for name, _role, token in entries:
            if name in names:
                raise ConfigError(f"token name {name!r} is declared twice: names must be unique")
            if token in tokens:
                raise ConfigError(f"token {name!r} reuses another entry's token: make it unique")
            if len(token) < MIN_TOKEN_LENGTH:
                raise ConfigError(
                    f"token {name!r} is shorter than {MIN_TOKEN_LENGTH} characters: use a "
                    "random one, e.g. `python -c 'import secrets; print(secrets.token_urlsafe())'`"
                )
            names.add(name)
            tokens.add(token)
        self._entries = [(t.encode(), Principal(n, r)) for n, r, t in entries]

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"TokenTable({', '.join(repr(p) for _, p in self._entries)})"

    def fingerprints(self, key: bytes) -> dict[str, tuple[Principal, bytes]]:
        """Each name's principal and HMAC-SHA256 of its token under ``key``: what a
        browser session is checked against, without keeping or showing the token."""
        return {
            p.name: (p, hmac.new(key, secret, "sha256").digest()) for secret, p in self._entries
        }

    def lookup(self, token: str) -> Principal | None:
        given = token.encode()
        found = None
        for secret, principal in self._entries:  # no early exit: time does not leak which
            if hmac.compare_digest(given, secret):
                found = principal
        return found


def _role(value: Any, where: str) -> Role:
    try:
        return Role(str(value).strip().lower())
    except ValueError:
        allowed = ", ".join(r.value for r in Role)
        raise ConfigError(f"{where}: role {value!r} is not one of {allowed}") from None


def _parse_env(value: str) -> list[tuple[str, Role, str]]:
    out = []
    for i, item in enumerate(p.strip() for p in value.split(",")):
        if not item:
            continue
        parts = item.split(":", 2)
        if len(parts) != 3 or not parts[0].strip() or not parts[2].strip():
            raise ConfigError(
                f"{ENV_TOKENS} entry {i + 1} is not name:role:token "
                "(e.g. FAUCET_TOKENS=alice:admin:<token>,ci:viewer:<token>)"
            )
        name, role, token = (p.strip() for p in parts)
        out.append((name, _role(role, f"{ENV_TOKENS} entry {name!r}"), token))
    return out


def _parse_file(path: Path) -> list[tuple[str, Role, str]]:
    try:
        text = path.read_text()
    except OSError as exc:
        raise ConfigError(f"cannot read the tokens file {path}: {exc.strerror}") from None
    data: Any
    if path.suffix.lower() in (".yaml", ".yml"):
        import yaml  # type: ignore[import-untyped]

        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise ConfigError(f"the tokens file {path} is not valid YAML: {exc}") from None
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"the tokens file {path} is not valid JSON: {exc}") from None
    items = data.get("tokens") if isinstance(data, Mapping) else data
    if not isinstance(items, list):
        raise ConfigError(f"the tokens file {path} holds no `tokens:` list of name/role/token")
    out = []
    for i, item in enumerate(items):
        where = f"{path} tokens[{i}]"
        if not isinstance(item, Mapping) or set(item) != {"name", "role", "token"}:
            raise ConfigError(f"{where}: give exactly name, role and token")
        name, token = str(item["name"]).strip(), str(item["token"]).strip()
        if not name or not token:
            raise ConfigError(f"{where}: name and token must not be empty")
        out.append((name, _role(item["role"], where), token))
    return out


def load_tokens(
    file: str | Path | None = None,
    env: Mapping[str, str] | None = None,
    *,
    required: bool = True,
) -> TokenTable:
    """Tokens of ``file`` plus ``$FAUCET_TOKENS``; at least one unless ``required`` is
    False (then the table may be empty)."""
    env = os.environ if env is None else env
    entries = _parse_env(env.get(ENV_TOKENS, ""))
    if file is not None:
        entries.extend(_parse_file(Path(file)))
    if not entries and required:
        raise ConfigError(
            f"faucet serve needs at least one token: set {ENV_TOKENS}=name:role:token "
            "or pass --tokens FILE"
        )
    return TokenTable(entries)
