"""Expected outputs kept as JSON fixture files, compared exactly.

Regenerate after an intended change with ``FAUCET_UPDATE_FIXTURES=1 pytest ...`` and
review the diff.
"""

from __future__ import annotations

import json
import os
import pathlib
from typing import Any

import pytest


def assert_fixture(path: pathlib.Path, actual: Any) -> None:
    text = json.dumps(actual, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
    if os.environ.get("FAUCET_UPDATE_FIXTURES") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"{path} is missing: run with FAUCET_UPDATE_FIXTURES=1 to write it")
    assert json.loads(path.read_text(encoding="utf-8")) == actual, f"differs from {path.name}"
