"""Passkeys (django-allauth's MFA app, WebAuthn only): its pages need a login, are the app's own pages
with no inline code, and manage only one's own passkeys. The browser's part (creating and using a
passkey) is in tests/browser/test_passkey_flow.py."""

from __future__ import annotations

import hashlib
import json
import os
from html.parser import HTMLParser
from typing import Any

import pytest
from allauth.mfa.models import Authenticator
from cryptography.hazmat.primitives.asymmetric import ec
from django.test import Client
from django.urls import reverse
from django.utils import translation
from fido2.cose import ES256
from fido2.webauthn import (
    AttestationObject,
    AttestedCredentialData,
    AuthenticatorAttestationResponse,
    AuthenticatorData,
    CollectedClientData,
    RegistrationResponse,
)

pytestmark = pytest.mark.django_db
PASSWORD = "casino-pass-1"  # the `user` fixture's
LOGIN = reverse("account_login")


def _passkey(user: Any, name: str = "Ana’s phone") -> Authenticator:
    """A passkey stored as allauth keeps one: the registration response of a made-up authenticator
    (a fresh key pair, no attestation) for the test client's host, with the "resident key" flag."""
    credential_id = os.urandom(16)
    public_key = ES256.from_cryptography_key(ec.generate_private_key(ec.SECP256R1()).public_key())
    flags = AuthenticatorData.FLAG
    authenticator_data = AuthenticatorData.create(
        hashlib.sha256(b"testserver").digest(),
        flags.UP | flags.UV | flags.AT,
        0,
        AttestedCredentialData.create(bytes(16), credential_id, public_key),
    )
    response = RegistrationResponse(
        raw_id=credential_id,
        response=AuthenticatorAttestationResponse(
            client_data=CollectedClientData.create(
                "webauthn.create", os.urandom(32), "http://testserver"
            ),
            attestation_object=AttestationObject.create("none", authenticator_data, {}),
        ),
        client_extension_results={"credProps": {"rk": True}},
    )
    credential = json.loads(json.dumps(dict(response)))
    return Authenticator.objects.create(
        user=user,
        type=Authenticator.Type.WEBAUTHN,
        data={"name": name, "credential": credential},
    )


def _reauthenticated(client: Client) -> Client:
    """allauth asks for the password again before passkeys are added, renamed or removed."""
    response = client.post(reverse("account_reauthenticate"), {"password": PASSWORD})
    assert response.status_code == 302
    return client


class Page(HTMLParser):
    """What a page holds that the tests look at: its inline code (which the Content-Security-Policy
    would block), the ids of its elements, its JSON data blocks, links and <noscript> text."""

    def __init__(self, body: str) -> None:
        super().__init__()
        self.problems: list[str] = []
        self.ids: set[str] = set()
        self.links: dict[str, str] = {}
        self.data_blocks: list[tuple[dict[str, str], str]] = []
        self.noscript = ""
        self.main = ""
        self._script: dict[str, str] | None = None
        self._link: str | None = None
        self._in_noscript = False
        self._in_main = False
        self.feed(body)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if "id" in values:
            self.ids.add(values["id"])
        if tag == "script":
            self._script = values
            if not values.get("src") and values.get("type") != "application/json":
                self.problems.append("inline <script>")
        if tag == "style":
            self.problems.append("<style> element")
        for name in values:
            if name.startswith("on"):
                self.problems.append(f"event handler attribute {name} on <{tag}>")
            if name == "style":
                self.problems.append(f"style attribute on <{tag}>")
        if tag == "a" and "href" in values:
            self._link = values["href"]
            self.links.setdefault(values["href"], "")
        if tag == "noscript":
            self._in_noscript = True
        if tag == "main":
            self._in_main = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = None
        if tag == "a":
            self._link = None
        if tag == "noscript":
            self._in_noscript = False
        if tag == "main":
            self._in_main = False

    def handle_data(self, data: str) -> None:
        if self._script is not None and data.strip():
            if self._script.get("type") == "application/json":
                self.data_blocks.append((self._script, data))
            elif not self._script.get("src"):
                self.problems.append("inline script code")
        if self._link is not None:
            self.links[self._link] += data.strip()
        if self._in_noscript and self._in_main:
            self.noscript += data.strip()
        if self._in_main:
            self.main += data


def _page(response: Any) -> Page:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    return Page(response.content.decode())


def _in_the_app_layout(page: Page) -> None:
    """The app's base.html around allauth's page: skip link, header, main part, stylesheet."""
    assert {"main", "language-select"} <= page.ids
    assert "#main" in page.links
    assert reverse("scoring:home") in page.links
    assert page.problems == []


@pytest.mark.parametrize(
    "name", ["mfa_index", "mfa_list_webauthn", "mfa_add_webauthn", "mfa_reauthenticate_webauthn"]
)
def test_passkey_pages_need_a_login(client, name):
    response = client.get(reverse(name), follow=True)
    assert response.redirect_chain, "shown to a visitor who is not logged in"
    assert response.redirect_chain[-1][0].startswith(f"{LOGIN}?next=")
    assert response.request["PATH_INFO"] == LOGIN


@pytest.mark.parametrize("name", ["mfa_edit_webauthn", "mfa_remove_webauthn"])
def test_a_passkey_of_someone_is_not_shown_to_a_visitor(client, user, name):
    passkey = _passkey(user)
    response = client.get(reverse(name, kwargs={"pk": passkey.pk}), follow=True)
    assert response.request["PATH_INFO"] == LOGIN
    assert "Ana’s phone" not in response.content.decode()


def test_without_passkeys_the_passkeys_page_offers_to_add_one(user_client):
    page = _page(user_client.get(reverse("mfa_index")))
    _in_the_app_layout(page)
    assert "No passkeys yet." in page.main
    assert page.links[reverse("mfa_add_webauthn")] == "Add a passkey"
    assert reverse("mfa_list_webauthn") not in page.links


def test_the_passkeys_page_counts_them_and_the_list_names_them(user_client, user):
    passkey = _passkey(user)
    page = _page(user_client.get(reverse("mfa_index")))
    assert "You have 1 passkey." in page.main
    assert page.links[reverse("mfa_list_webauthn")] == "Manage"

    page = _page(user_client.get(reverse("mfa_list_webauthn")))
    _in_the_app_layout(page)
    assert "Ana’s phone" in page.main
    assert "Not used yet." in page.main
    assert page.links[reverse("mfa_edit_webauthn", kwargs={"pk": passkey.pk})] == "Rename"
    assert page.links[reverse("mfa_remove_webauthn", kwargs={"pk": passkey.pk})] == "Remove"
    assert "Security key" not in page.main  # it is a passkey: no other kind is named


def test_adding_a_passkey_asks_for_the_password_first(user_client):
    response = user_client.get(reverse("mfa_add_webauthn"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_reauthenticate"))


def test_the_add_page_gives_allauths_script_what_it_needs(user_client):
    """Its settings name elements that are on the page; every key made is a passkey (passwordless);
    without JavaScript the page says that it is needed."""
    response = _reauthenticated(user_client).get(reverse("mfa_add_webauthn"))
    page = _page(response)
    _in_the_app_layout(page)
    settings = [
        json.loads(text)
        for attrs, text in page.data_blocks
        if attrs.get("data-allauth-onload") == "allauth.webauthn.forms.addForm"
    ]
    assert len(settings) == 1
    ids = settings[0]["ids"]
    assert set(ids.values()) <= page.ids
    data = next(
        json.loads(text) for attrs, text in page.data_blocks if attrs.get("id") == "js_data"
    )
    assert data["creation_options"]["publicKey"]["rp"]["id"] == "testserver"
    assert f'id="{ids["passwordless"]}" checked hidden>' in response.content.decode()
    assert page.noscript == "This functionality requires JavaScript."


def test_a_passkey_is_renamed_and_removed_by_its_owner(user_client, user):
    passkey = _passkey(user)
    _reauthenticated(user_client)
    edit = reverse("mfa_edit_webauthn", kwargs={"pk": passkey.pk})
    _in_the_app_layout(_page(user_client.get(edit)))
    response = user_client.post(edit, {"name": "Kitchen tablet"})
    assert response["Location"] == reverse("mfa_list_webauthn")
    passkey.refresh_from_db()
    assert str(passkey) == "Kitchen tablet"

    remove = reverse("mfa_remove_webauthn", kwargs={"pk": passkey.pk})
    page = _page(user_client.get(remove))
    _in_the_app_layout(page)
    assert "Remove the passkey “Kitchen tablet”?" in page.main
    response = user_client.post(remove, follow=True)
    assert not Authenticator.objects.filter(pk=passkey.pk).exists()
    page = _page(response)
    assert "Passkey removed." in page.main
    assert "No passkeys yet." in page.main


def test_a_removed_passkey_is_told_to_the_accounts_address(user_client, user, mailoutbox):
    """A stranger who got in and removed a passkey is noticed (ACCOUNT_EMAIL_NOTIFICATIONS)."""
    user.email = "ana@example.com"
    user.save()
    passkey = _passkey(user)
    _reauthenticated(user_client)
    user_client.post(reverse("mfa_remove_webauthn", kwargs={"pk": passkey.pk}))
    assert [mail.to for mail in mailoutbox] == [["ana@example.com"]]
    assert "Passkey removed." in mailoutbox[0].subject
    assert "Passkey removed." in mailoutbox[0].body
    assert "security key" not in mailoutbox[0].body.lower()


def test_someone_elses_passkey_cannot_be_renamed_or_removed(user_client, other_user):
    passkey = _passkey(other_user, "Mallory’s key")
    _reauthenticated(user_client)
    for name in ("mfa_edit_webauthn", "mfa_remove_webauthn"):
        url = reverse(name, kwargs={"pk": passkey.pk})
        assert user_client.get(url).status_code == 404
        assert user_client.post(url, {"name": "Mine now"}).status_code == 404
    passkey.refresh_from_db()
    assert str(passkey) == "Mallory’s key"
    assert "Mallory’s key" not in user_client.get(reverse("mfa_list_webauthn")).content.decode()


def test_with_a_passkey_the_password_alone_still_logs_in(client, user):
    """A passkey is a way to log in instead of the password, not a second step after it: a lost
    phone never locks the account (and its matches) away."""
    _passkey(user)
    response = client.post(LOGIN, {"login": "ana", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] != reverse("mfa_authenticate")
    assert client.get(reverse("mfa_index")).status_code == 200  # logged in


def test_allauths_words_on_the_passkey_pages_come_translated(client, user, settings):
    """The buttons keep allauth's wording, which allauth's catalogues translate."""
    passkey = _passkey(user)
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    page = _page(client.get(reverse("mfa_list_webauthn")))
    with translation.override("es"):
        remove, added = (
            translation.gettext("Remove"),
            translation.gettext("Added on %(created_at)s"),
        )
    assert remove != "Remove" and added != "Added on %(created_at)s"
    assert page.links[reverse("mfa_remove_webauthn", kwargs={"pk": passkey.pk})] == remove
    assert added.split("%(created_at)s")[0].strip() in page.main
