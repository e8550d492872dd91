from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.faucet_core.notify.fake_http import FakeHttp, fake_http


@pytest.fixture
def http() -> Iterator[FakeHttp]:
    with fake_http() as server:
        yield server
