"""Issue 11, "inputs that must get a one-line error naming the file and the problem":
``profile_file`` (and so ``faucet profile``) on each bad file of ``badfiles.py`` raises a
ProfilingInputError whose message is the line kept in ``fixtures/file_errors.txt``,
also when the problem is a million lines into the stream."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from faucet_core import ProfilingInputError
from faucet_core.profile.files import iter_file, profile_file
from tests.faucet_core.profile.badfiles import (
    BAD_FILES,
    LATE_LINE,
    expected_errors,
    write_bad_file,
)

EXPECTED = expected_errors()
SMALL = [name for name in BAD_FILES if not name.startswith("late-")]
LATE = [name for name in BAD_FILES if name.startswith("late-")]


def test_every_bad_file_has_an_expected_message() -> None:
    assert sorted(EXPECTED) == sorted(BAD_FILES)


@pytest.mark.parametrize("name", SMALL)
def test_a_bad_file_is_one_line_of_ours(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_bad_file(tmp_path, name)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ProfilingInputError) as caught:
        profile_file(name)
    assert str(caught.value) == EXPECTED[name]
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("name", LATE)
def test_a_problem_a_million_lines_in_is_still_ours(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_bad_file(tmp_path, name)
    monkeypatch.chdir(tmp_path)
    source = iter_file(name)  # lazy: nothing is wrong yet
    drain = source.read_all if isinstance(source, pa.RecordBatchReader) else lambda: list(source)
    with pytest.raises(ProfilingInputError) as caught:
        drain()
    assert str(caught.value) == EXPECTED[name]
    assert str(caught.value).startswith(f"{name}:{LATE_LINE}:")


def test_a_csv_column_whose_late_values_break_the_inferred_type_is_read_as_text(
    tmp_path: Path,
) -> None:
    path = tmp_path / "late-type.csv"
    rows = b"".join(b"%d,x\n" % i for i in range(200_000))
    path.write_bytes(b"a,b\n" + rows + b"oops,y\n")
    with pytest.raises(ProfilingInputError) as caught:
        iter_file(path).read_all()
    assert str(caught.value) == (
        f"{path}:200002: column 'a' holds 'oops', but its values before were read as int64 "
        "(CSV types are inferred from the first rows); profile_file reads such a column as text"
    )
    prof = profile_file(path)
    assert prof.row_count == 200_001
    assert prof["a"].types == {"string": 200_001}
    assert prof["b"].types == {"string": 200_001}


def test_header_only_csv_and_byte_order_marks(tmp_path: Path) -> None:
    header = tmp_path / "header.csv"
    header.write_bytes(b"a,b\n")
    prof = profile_file(header)
    assert (prof.row_count, list(prof.columns)) == (0, ["a", "b"])
    bom_csv = tmp_path / "bom.csv"
    bom_csv.write_bytes(b"\xef\xbb\xbfa,b\n1,2\n")
    assert list(profile_file(bom_csv).columns) == ["a", "b"]
    for name, body in (("bom.jsonl", b'{"a": 1}\n'), ("bom.json", b' [{"a": 1}]')):
        path = tmp_path / name
        path.write_bytes(b"\xef\xbb\xbf" + body)
        assert profile_file(path)["a"].types == {"integer": 1}


def test_a_directory_and_an_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(ProfilingInputError) as caught:
        profile_file(tmp_path)
    assert str(caught.value) == (
        f"{str(tmp_path)!r} is not a file; pass a .jsonl, .csv, .parquet or .arrow path"
    )
