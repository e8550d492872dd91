"""Text values as an Arrow string array (:func:`string_array`).

How a value becomes JSON text is :mod:`faucet_core.profile.jsontext`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pyarrow as pa

from faucet_core.profile.names import scrub_text

__all__ = ["string_array"]


def string_array(values: Iterable[Any], arrow_type: pa.DataType | None = None) -> pa.Array:
    """An Arrow string array of ``values`` (str or None); text Arrow refuses as invalid
    UTF-8 (lone surrogates) is scrubbed with :func:`scrub_text` first."""
    values = values if isinstance(values, list) else list(values)
    target = arrow_type or pa.string()
    try:
        return pa.array(values, target)
    except UnicodeEncodeError:
        return pa.array([v if not isinstance(v, str) else scrub_text(v) for v in values], target)
