"""``faucet profile FILE`` on bad files: ``Error: <one line>`` and exit 1, never a traceback;
any faucet command whose reader goes away (``| head``) exits 141 without a word."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from faucet_dagster.cli import main
from faucet_dagster.cli.main import SIGPIPE_EXIT
from tests.faucet_core.profile.badfiles import BAD_FILES, expected_errors, write_bad_file

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED = expected_errors()
SMALL = [name for name in BAD_FILES if not name.startswith("late-")]


def faucet_command() -> list[str]:
    """The installed console script (run with this tree first on the path), else the same
    two lines it runs."""
    script = Path(sys.executable).parent / "faucet"
    if script.exists():
        return [str(script)]
    return [
        sys.executable,
        "-c",
        "import sys; from faucet_dagster.cli import main; sys.exit(main())",
    ]


def run_faucet(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [*faucet_command(), *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=180,
        check=False,
    )


@pytest.mark.parametrize("name", SMALL)
def test_profile_prints_our_one_line_error(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write_bad_file(tmp_path, name)
    monkeypatch.chdir(tmp_path)
    code = main(["profile", name])
    out, err = capsys.readouterr()
    assert (code, out, err) == (1, "", f"Error: {EXPECTED[name]}\n")


@pytest.mark.parametrize("name", ["empty.csv", "ragged.csv", "bad.jsonl"])
def test_the_console_script_shows_no_traceback(name: str, tmp_path: Path) -> None:
    write_bad_file(tmp_path, name)
    done = run_faucet(["profile", name], tmp_path)
    assert "Traceback" not in done.stdout + done.stderr
    assert (done.returncode, done.stdout, done.stderr) == (1, "", f"Error: {EXPECTED[name]}\n")


def test_a_closed_pipe_ends_the_command_quietly(tmp_path: Path) -> None:
    wide = tmp_path / "wide.jsonl"
    with wide.open("w") as fh:
        for row in range(20):
            fh.write(json.dumps({f"c{j}": row * j for j in range(200)}) + "\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [*faucet_command(), "profile", "--json", str(wide)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdout is not None
    assert proc.stderr is not None
    assert proc.stdout.readline() == b"{\n"  # like `| head -1`: read a line, then go away
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=180) == SIGPIPE_EXIT
    assert err == ""


def test_every_command_handles_the_closed_pipe_in_main(monkeypatch: pytest.MonkeyPatch) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody reads: writing fails with EPIPE, as after `| head` exits
    pipe = io.TextIOWrapper(os.fdopen(write_end, "wb"), encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", pipe)
    try:
        assert main(["schema", "profiling"]) == SIGPIPE_EXIT
    finally:
        monkeypatch.undo()
        with contextlib.suppress(OSError):  # the flush of what main could not write
            pipe.close()


def test_profile_of_a_good_file_still_prints_it(tmp_path: Path) -> None:
    path = tmp_path / "good.csv"
    path.write_text("a,b\n1,x\n2,y\n")
    done = run_faucet(["profile", "--json", path.name], tmp_path)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["row_count"] == 2
    assert [c["name"] for c in data["columns"]] == ["a", "b"]


def _regions(path: Path) -> None:
    """A column of 7 values, the fifth a 17 % one (hidden by a view of the first four)."""
    counts = {"north": 22, "south": 21, "east": 20, "west": 18, "centre": 17}
    counts.update({f"isle-{i}": 1 for i in range(2)})
    rows = [f"{i},{region}" for region, n in counts.items() for i in range(n)]
    path.write_text("id,region\n" + "\n".join(rows) + "\n")


def test_profile_lists_every_top_value_the_profile_kept(tmp_path: Path) -> None:
    _regions(tmp_path / "regions.csv")
    done = run_faucet(["profile", "regions.csv"], tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == (FIXTURES / "profile_top_values.txt").read_text()


def test_a_compact_column_view_counts_the_top_values_it_leaves_out(tmp_path: Path) -> None:
    from faucet_core.profile.files import profile_file
    from faucet_dagster.cli.render import render_column

    _regions(tmp_path / "regions.csv")
    region = profile_file(str(tmp_path / "regions.csv")).columns["region"]
    assert len(region.top_values or ()) == 7
    top = render_column(region).splitlines()[1]
    assert top == (
        '      top "north" 22.0%, "south" 21.0%, "east" 20.0%, "west" 18.0%, … and 3 more '
        "(19.0% of the rows; --full lists them)"
    )
