"""Browser sign-in, the session cookie, CSRF and roles, over the real app (TestClient)."""

from __future__ import annotations

import base64
import json
import re
import time

import httpx
import pytest
from starlette.testclient import TestClient

from faucet_core.catalog import Catalog
from faucet_core.errors import ConfigError
from faucet_dagster.location import CodeLocation
from faucet_dagster.serve import Role, TokenTable, create_app
from faucet_dagster.serve.console import COOKIE, ENV_SESSION_SECRET, Sessions, session_secret
from faucet_dagster.serve.console.session import safe_next, same_origin
from tests.faucet_dagster.console.conftest import Browser, MakeBrowser, audit_entries
from tests.faucet_dagster.server.conftest import TABLE, TOKENS

SECRET = "s" * 40


def _cookie(response: httpx.Response) -> str:
    headers = response.headers.get_list("set-cookie")
    (found,) = [h for h in headers if h.startswith(f"{COOKIE}=")]
    return str(found)


def _payload(value: str) -> dict[str, object]:
    body = value.split(".", 1)[0]
    return dict(json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))))


def test_unauthenticated_pages_redirect_to_signin_with_next(
    app_for: MakeBrowser, store: str
) -> None:
    browser = app_for(store)
    for path in ("/ui/datasets?q=a%20b", "/ui/impact", "/ui/audit"):
        response = browser.get(path)
        assert response.status_code == 303
        assert response.headers["location"].startswith("/ui/signin?next=%2Fui%2F")
    form = browser.get("/ui/signin?next=%2Fui%2Fimpact")
    assert form.status_code == 200
    assert 'name="next" value="/ui/impact"' in form.text
    assert 'type="password"' in form.text


def test_sign_in_sets_a_signed_cookie_without_the_token(app_for: MakeBrowser, store: str) -> None:
    browser = app_for(store)
    response = browser.sign_in("operator", "/ui/impact")
    assert response.status_code == 303
    assert response.headers["location"] == "/ui/impact"
    cookie = _cookie(response)
    flags = [f.strip().lower() for f in cookie.split(";")[1:]]
    assert "httponly" in flags
    assert "samesite=strict" in flags
    assert "path=/ui" in flags
    assert "max-age=28800" in flags
    assert "secure" not in flags  # plain http here
    value = cookie.split(";", 1)[0].split("=", 1)[1]
    payload = _payload(value)
    assert payload["n"] == "operator-user"
    assert payload["r"] == "operator"
    assert int(str(payload["e"])) - time.time() == pytest.approx(8 * 3600, abs=60)
    assert TOKENS["operator"] not in value
    assert TOKENS["operator"] not in json.dumps(payload)
    assert browser.get("/ui/impact").status_code == 200
    (entry,) = audit_entries(store, "ui.signin")
    assert (entry.actor, entry.outcome.value) == ("operator-user", "ok")


def test_the_cookie_is_secure_over_https(location: CodeLocation, store: str) -> None:
    with TestClient(create_app(location, TABLE, store), base_url="https://testserver") as client:
        browser = Browser(client, origin="https://testserver")
        response = browser.sign_in("viewer")
        assert response.status_code == 303
        assert "secure" in [f.strip().lower() for f in _cookie(response).split(";")]


@pytest.mark.parametrize(
    "target",
    [
        "//evil.example/ui/datasets",
        "https://evil.example/ui/datasets",
        "/\\evil.example",
        "/ui/../v1/audit",
        "/elsewhere",
        "javascript:alert(1)",
        "/ui/signin",
    ],
)
def test_next_never_leaves_the_console(app_for: MakeBrowser, store: str, target: str) -> None:
    response = app_for(store).sign_in("viewer", target)
    assert response.status_code == 303
    assert response.headers["location"] == "/ui/datasets"


def test_safe_next_keeps_local_console_paths() -> None:
    assert safe_next("/ui/datasets/abc?q=x") == "/ui/datasets/abc?q=x"
    assert safe_next("/ui") == "/ui"
    assert safe_next("/ui/x\r\nSet-Cookie: a=b") == "/ui/datasets"
    assert safe_next(None) == "/ui/datasets"


def test_a_bad_token_is_refused_and_audited(app_for: MakeBrowser, store: str) -> None:
    browser = app_for(store)
    form = browser.get("/ui/signin")
    csrf = re.search(r'name="csrf" value="([^"]+)"', form.text)
    assert csrf is not None
    wrong = "not-a-token-0123456789"
    response = browser.post("/ui/signin", {"token": wrong, "csrf": csrf.group(1)})
    assert response.status_code == 401
    assert "that token is not valid" in response.text
    assert wrong not in response.text
    assert COOKIE not in response.headers.get("set-cookie", "").split("=")[0]
    again = re.search(r'name="csrf" value="([^"]+)"', response.text)  # a fresh form
    assert again is not None
    ingest = browser.post("/ui/signin", {"token": TOKENS["ingest"], "csrf": again.group(1)})
    assert ingest.status_code == 401  # an ingest token has no console
    (entry,) = audit_entries(store, "ui.signin")  # repeats counted
    assert (entry.actor, entry.outcome.value, entry.status) == ("-", "denied", 401)


def test_sign_in_needs_its_form_token_and_origin(app_for: MakeBrowser, store: str) -> None:
    browser = app_for(store)
    csrf = re.search(r'name="csrf" value="([^"]+)"', browser.get("/ui/signin").text)
    assert csrf is not None
    token = TOKENS["admin"]
    forged = browser.post("/ui/signin", {"token": token, "csrf": "forged"})
    assert forged.status_code == 403
    foreign = browser.post(
        "/ui/signin", {"token": token, "csrf": csrf.group(1)}, origin="http://evil.example"
    )
    assert foreign.status_code == 403
    fresh = app_for(store)  # no nonce cookie: a form posted from elsewhere
    assert fresh.post("/ui/signin", {"token": token, "csrf": csrf.group(1)}).status_code == 403


def test_sign_out_clears_the_session(app_for: MakeBrowser, store: str) -> None:
    browser = app_for(store)
    browser.sign_in("viewer")
    csrf = browser.csrf()
    assert browser.post("/ui/signout", {"csrf": "wrong"}).status_code == 403
    response = browser.post("/ui/signout", {"csrf": csrf})
    assert response.status_code == 303
    assert response.headers["location"] == "/ui/signin"
    assert "max-age=0" in _cookie(response).lower()
    assert browser.get("/ui/datasets").status_code == 303


def _owners_post(
    browser: Browser, store: str, *, csrf: str | None = None, origin: str | None = ""
) -> httpx.Response:
    with Catalog(store) as catalog:
        ledger = catalog.resolve("dagster://ledger")
    data = {"action": "add", "owner": "team:new"}
    if csrf is not None:
        data["csrf"] = csrf
    return browser.post(f"/ui/datasets/{ledger}/owners", data, origin=origin)


def _owners(store: str) -> tuple[str, ...]:
    with Catalog(store) as catalog:
        return catalog.dataset("dagster://ledger").owners


@pytest.mark.parametrize(
    ("form", "origin"),
    [
        ({}, ""),  # no CSRF token
        ({"csrf": "AAAA"}, ""),  # a wrong one
        ({"csrf": "VALID"}, "http://evil.example"),  # the right one from another site
        ({"csrf": "VALID"}, None),  # the right one without an Origin (nor Referer)
    ],
)
def test_csrf_refusals_change_nothing_and_are_audited(
    app_for: MakeBrowser, store: str, form: dict[str, str], origin: str | None
) -> None:
    browser = app_for(store)
    browser.sign_in("operator")
    if form.get("csrf") == "VALID":
        form = {"csrf": browser.csrf()}
    response = _owners_post(browser, store, csrf=form.get("csrf"), origin=origin)
    assert response.status_code == 403
    assert "Traceback" not in response.text
    assert "team:new" not in _owners(store)
    (entry,) = audit_entries(store, "catalog.annotate")
    assert (entry.actor, entry.outcome.value, entry.status) == ("operator-user", "denied", 403)


def test_a_csrf_token_is_bound_to_its_session(app_for: MakeBrowser, store: str) -> None:
    first = app_for(store)
    first.sign_in("operator")
    stolen = first.csrf()
    second = app_for(store)
    second.sign_in("operator")
    assert second.csrf() != stolen
    assert _owners_post(second, store, csrf=stolen).status_code == 403
    assert _owners_post(second, store, csrf=second.csrf()).status_code == 303
    assert "team:new" in _owners(store)


def test_a_viewer_sees_no_form_and_a_forged_post_is_refused(
    app_for: MakeBrowser, store: str
) -> None:
    viewer = app_for(store)
    viewer.sign_in("viewer")
    with Catalog(store) as catalog:
        ledger = catalog.resolve("dagster://ledger")
    page = viewer.get(f"/ui/datasets/{ledger}")
    assert page.status_code == 200
    assert 'id="add-owner"' not in page.text
    assert 'id="add-consumer"' not in page.text
    assert "/owners" not in page.text
    assert "/consumers" not in page.text
    response = _owners_post(viewer, store, csrf=viewer.csrf())
    assert response.status_code == 403
    assert "viewer-user (viewer) may not POST" in response.text
    assert "it needs operator or above" in response.text
    assert "team:new" not in _owners(store)
    (entry,) = audit_entries(store, "catalog.annotate")
    assert (entry.actor, entry.role, entry.outcome.value) == ("viewer-user", "viewer", "denied")
    assert viewer.get("/ui/audit").status_code == 403


def _mint(payload: dict[str, object], secret: bytes) -> str:
    import hashlib
    import hmac

    raw = json.dumps(payload, separators=(",", ":")).encode()
    key = hmac.new(secret, b"session", hashlib.sha256).digest()
    mac = hmac.new(key, raw, hashlib.sha256).digest()

    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    return f"{b64(raw)}.{b64(mac)}"


def test_expired_tampered_and_revoked_sessions_are_signed_out(
    location: CodeLocation, store: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_SESSION_SECRET, SECRET)
    with TestClient(create_app(location, TABLE, store)) as client:
        browser = Browser(client)
        response = browser.sign_in("viewer")
        value = _cookie(response).split(";", 1)[0].split("=", 1)[1]
        assert browser.get("/ui/datasets").status_code == 200

        payload = _payload(value)
        client.cookies.clear()
        client.cookies.set(COOKIE, _mint({**payload, "r": "admin"}, b"other-secret"), path="/ui")
        assert browser.get("/ui/audit").status_code == 303  # forged under another secret
        _body, mac = value.split(".")
        raised = _payload(value) | {"r": "admin"}
        tampered = base64.urlsafe_b64encode(json.dumps(raised).encode()).decode().rstrip("=")
        client.cookies.set(COOKIE, f"{tampered}.{mac}", path="/ui")
        assert browser.get("/ui/audit").status_code == 303  # role raised, signature broken
        client.cookies.set(COOKIE, value[:-2] + ("AA" if value[-2:] != "AA" else "BB"), path="/ui")
        assert browser.get("/ui/datasets").status_code == 303

        clocked = Sessions(TABLE, SECRET.encode(), clock=lambda: time.time() - 9 * 3600)
        found = clocked.sign_in(TOKENS["viewer"])
        assert found is not None
        client.cookies.set(COOKIE, found[1], path="/ui")  # signed right, 1 h past its expiry
        assert browser.get("/ui/datasets").status_code == 303
        client.cookies.set(COOKIE, value, path="/ui")
        assert browser.get("/ui/datasets").status_code == 200

    # the same secret, the viewer's token rotated: its old sessions end
    rotated = TokenTable([("viewer-user", Role.VIEWER, "a-new-viewer-token-0123456789")])
    with TestClient(create_app(location, rotated, store)) as client:
        client.cookies.set(COOKIE, value, path="/ui")
        assert Browser(client).get("/ui/datasets").status_code == 303


def test_session_secret_rules() -> None:
    assert session_secret({ENV_SESSION_SECRET: SECRET}) == SECRET.encode()
    assert len(session_secret({})) == 32
    assert session_secret({}) != session_secret({})
    with pytest.raises(ConfigError, match="FAUCET_SESSION_SECRET is 5 characters: give 32"):
        session_secret({ENV_SESSION_SECRET: "short"})


def test_same_origin_rule() -> None:
    assert same_origin({"origin": "http://h:1"}, "http", "h:1")
    assert not same_origin({"origin": "http://h:2"}, "http", "h:1")
    assert not same_origin({"origin": "https://h:1"}, "http", "h:1")
    assert same_origin({"referer": "http://h:1/ui/x"}, "http", "h:1")
    assert not same_origin({"origin": "null"}, "http", "h:1")
    assert not same_origin({}, "http", "h:1")
