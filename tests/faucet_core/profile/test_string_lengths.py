"""String lengths are characters, whether read from the offsets (ASCII) or counted by Arrow,
and a tracked column's lengths (from its distinct values and counts) equal the rows'."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc
import pytest

from faucet_core import profile
from faucet_core.profile.arrow_path import char_lengths

TEXTS = ["", "a", "abc", "é", "日本語", "😀x", "plain ascii text", ""]


@pytest.mark.parametrize("arrow_type", [pa.string(), pa.large_string()])
@pytest.mark.parametrize("texts", [TEXTS, [t for t in TEXTS if t.isascii()], [], [""]])
def test_char_lengths_count_characters(arrow_type: pa.DataType, texts: list[str]) -> None:
    array = pa.array(["ü-skipped", *texts, "ü-after"], arrow_type).slice(1, len(texts))
    assert char_lengths(array).tolist() == [len(t) for t in texts]
    assert char_lengths(array).tolist() == pc.utf8_length(array).to_pylist()


@pytest.mark.parametrize("rows", [50, 200_000])
def test_tracked_and_untracked_lengths_agree(rows: int) -> None:
    texts = [TEXTS[i % len(TEXTS)] + ("x" * (i % 3)) for i in range(rows)]
    stats = profile(pa.table({"t": texts}))["t"].string
    assert stats is not None
    lengths = [len(t) for t in texts]
    assert (stats.len_min, stats.len_max) == (min(lengths), max(lengths))
    assert stats.len_mean == pytest.approx(sum(lengths) / rows, rel=1e-12)
    unique = [f"{t}-{i}" for i, t in enumerate(texts)]  # high-cardinality: untracked
    stats = profile(pa.table({"t": unique}))["t"].string
    assert stats is not None
    lengths = [len(t) for t in unique]
    assert (stats.len_min, stats.len_max) == (min(lengths), max(lengths))
    assert stats.len_mean == pytest.approx(sum(lengths) / rows, rel=1e-12)
