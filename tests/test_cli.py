"""The top-level CLI: help, version, and unknown commands."""

import subprocess
import sys

import pytest

from vision import __version__
from vision.cli import COMMANDS, main


def test_version_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert __version__ in capsys.readouterr().out


def test_no_command_prints_help_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    out = capsys.readouterr().out
    for name in COMMANDS:
        assert name in out


def test_unknown_command_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as exc:
        main(["no-such-command"])
    assert exc.value.code == 2


def test_console_module_runs() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "vision", "--help"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0
    assert "reconstruct" in proc.stdout
