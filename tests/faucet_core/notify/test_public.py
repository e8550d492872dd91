"""faucet_core.notify's public names, and what importing it loads."""

from __future__ import annotations

import subprocess
import sys

import faucet_core.notify as notify


def test_all_names_are_strings_that_resolve():
    assert all(isinstance(n, str) for n in notify.__all__)
    assert len(set(notify.__all__)) == len(notify.__all__)
    assert [n for n in notify.__all__ if not hasattr(notify, n)] == []


def test_importing_notify_loads_neither_dagster_nor_slack_sdk():
    code = (
        "import sys, faucet_core.notify; "
        "print('dagster' in sys.modules, 'slack_sdk' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False False"


def test_a_missing_slack_sdk_gives_an_install_hint():
    code = (
        "import sys; sys.modules['slack_sdk'] = None\n"
        "from faucet_core.notify import SlackWebhookSender\n"
        "try:\n    SlackWebhookSender('https://hooks.example/x')\n"
        "except Exception as exc:\n    print(type(exc).__name__, exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == (
        "NotifyError Slack notifications need slack_sdk: pip install 'faucet-dagster[slack]'"
    )
