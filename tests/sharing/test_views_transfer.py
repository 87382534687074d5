"""Export (JSON, CSV) and import (JSON upload) from the web."""

from __future__ import annotations

import csv
import gzip
import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import StreamingHttpResponse
from django.urls import reverse
from django.utils import timezone
from helpers import FIRST_8, FIRST_11, HX, app_url
from test_transfer import PLAIN, document, old_export_text, snapshot, tally

from scoring.engine.rules import Rules
from scoring.matches import services
from scoring.models import Match
from scoring.sharing import exchange

pytestmark = pytest.mark.django_db
IMPORT = reverse("scoring:match-import")


def downloaded(response) -> bytes:
    """The body of a download, streamed or not."""
    if response.streaming:
        return b"".join(response.streaming_content)
    return response.content


def upload(content: str | bytes | object, name: str = "matches.json") -> SimpleUploadedFile:
    if not isinstance(content, str | bytes):
        content = json.dumps(content)
    data = content.encode() if isinstance(content, str) else content
    return SimpleUploadedFile(name, data, content_type="application/json")


@pytest.fixture
def played(casino_match: Match) -> Match:
    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    services.hand_record(match=casino_match, number=2, tallies=FIRST_11)
    return casino_match


@pytest.fixture
def others_match(other_user) -> Match:
    mo, zed = (
        services.player_create(circle=other_user.personal_circle, name=name)
        for name in ("Mo", "Zed")
    )
    return services.match_start(
        circle=other_user.personal_circle, rules=Rules.make("royal"), sides=[[mo], [zed]]
    )


# --- export --------------------------------------------------------------------------------------


def test_export_all_downloads_my_matches_as_a_json_list(user_client, played, others_match):
    response = user_client.get(app_url("export-all"))
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith('attachment; filename="casino-matches-')
    (only,) = json.loads(downloaded(response))
    assert only["sides"] == [{"players": ["Ana"]}, {"players": ["Ben"]}]
    assert only["result"]["totals"] == [19, 3]


def test_export_one_match_is_one_document(user_client, played):
    response = user_client.get(app_url("export-match", played.pk))
    document_out = json.loads(response.content)
    assert response["Content-Disposition"] == (
        f'attachment; filename="casino-match-{played.pk}.json"'
    )
    assert document_out["format"] == "casino-score/1" and len(document_out["hands"]) == 2


def test_export_hands_csv_has_a_row_per_side_per_hand(user_client, played, others_match):
    response = user_client.get(app_url("export-hands"))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    body = downloaded(response).decode()
    rows = list(csv.DictReader(io.StringIO(body)))
    assert [(row["hand"], row["side"], row["points"]) for row in rows] == [
        ("1", "1", "8"),
        ("1", "2", "3"),
        ("2", "1", "11"),
        ("2", "2", "0"),
    ]
    one = user_client.get(app_url("export-match-hands", played.pk)).content.decode()
    assert one == body


def test_export_all_streams_the_same_file_as_before(user_client, user, played, monkeypatch):
    monkeypatch.setattr("scoring.web.chunks.PREFETCH_CHUNK", 1)
    emile = services.player_create(circle=user.personal_circle, name="Émile")
    ben = played.seats.get(seat=1).player
    services.match_start(
        circle=user.personal_circle, rules=Rules.make("dominican"), sides=[[emile], [ben]]
    )
    response = user_client.get(app_url("export-all"))
    assert isinstance(response, StreamingHttpResponse)
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == (
        f'attachment; filename="casino-matches-{timezone.localdate():%Y-%m-%d}.json"'
    )
    assert downloaded(response).decode() == old_export_text(user.personal_circle)


def test_export_hands_streams_the_csv(user_client, user, played):
    response = user_client.get(app_url("export-hands"))
    assert isinstance(response, StreamingHttpResponse)
    assert response["Content-Disposition"] == (
        f'attachment; filename="casino-hands-{timezone.localdate():%Y-%m-%d}.csv"'
    )
    assert downloaded(response).decode() == exchange.hands_csv(user.personal_circle)


def test_streamed_export_is_compressed_when_asked(user_client, played):
    plain = downloaded(user_client.get(app_url("export-all")))
    response = user_client.get(app_url("export-all"), headers={"Accept-Encoding": "gzip"})
    assert response["Content-Encoding"] == "gzip"
    assert gzip.decompress(downloaded(response)) == plain


def test_another_users_match_is_not_exportable(user_client, others_match):
    assert user_client.get(app_url("export-match", others_match.pk)).status_code == 404
    assert user_client.get(app_url("export-match-hands", others_match.pk)).status_code == 404
    assert json.loads(downloaded(user_client.get(app_url("export-all")))) == []
    assert "Mo" not in downloaded(user_client.get(app_url("export-hands"))).decode()


def test_export_needs_login(client, played):
    for url in (app_url("export-all"), app_url("export-match", played.pk), app_url("export-hands")):
        assert client.get(url).status_code == 302


def test_export_refuses_post(user_client, played):
    assert user_client.post(app_url("export-all")).status_code == 405
    assert user_client.post(app_url("export-match", played.pk)).status_code == 405
    assert user_client.post(app_url("export-match-hands", played.pk)).status_code == 405


def test_match_list_links_to_export_and_import(user_client, played):
    body = user_client.get(app_url("match-list")).content.decode()
    assert app_url("export-all") in body and app_url("export-hands") in body and IMPORT in body


# --- import --------------------------------------------------------------------------------------


def test_import_page_has_a_labelled_file_field(user_client):
    body = user_client.get(IMPORT).content.decode()
    assert '<label for="id_file">' in body and 'type="file"' in body
    assert 'enctype="multipart/form-data"' in body and f'action="{IMPORT}"' in body


def test_import_needs_login(client):
    assert client.get(IMPORT).status_code == 302
    assert client.post(IMPORT, {"file": upload(document())}).status_code == 302
    assert not Match.objects.exists()


def test_import_refuses_other_methods(user_client):
    assert user_client.put(IMPORT).status_code == 405
    assert user_client.delete(IMPORT).status_code == 405


def test_plain_import_saves_and_redirects_with_a_message(user_client, user):
    response = user_client.post(IMPORT, {"file": upload([document(), document()])}, follow=True)
    assert response.redirect_chain[-1][0] == app_url("match-list")
    assert "2 matches imported." in response.content.decode()
    assert Match.objects.filter(circle=user.personal_circle).count() == 2


def test_importing_one_match_opens_it(user_client, user):
    response = user_client.post(IMPORT, {"file": upload(document())})
    match = Match.objects.get(circle=user.personal_circle)
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()


def test_htmx_import_redirects_the_browser(user_client, user):
    response = user_client.post(IMPORT, {"file": upload(document())}, headers=HX)
    assert response.status_code == 200
    assert (
        response["HX-Redirect"] == Match.objects.get(circle=user.personal_circle).get_absolute_url()
    )


def test_imported_matches_belong_to_the_uploader(user_client, user, other_user):
    user_client.post(IMPORT, {"file": upload(document())})
    assert not Match.objects.filter(circle=other_user.personal_circle).exists()
    assert Match.objects.get().circle == user.personal_circle


BAD_UPLOADS = {
    "not json": (b"<html>not json</html>", "the file is not valid JSON (line 1, column 1)"),
    "wrong format tag": (
        {**document(), "format": "casino/0"},
        "format must be &quot;casino-score/1&quot;, not &quot;casino/0&quot;",
    ),
    "hand does not add up": (
        [document(), document([PLAIN, [tally(29, 8), tally(20, 5)]])],
        "match 2: hand 2: cards add up to 49, not 52",
    ),
    "too large": (
        b" " * (exchange.MAX_IMPORT_BYTES + 1),
        "This file is larger than 2.0\xa0MB, the most that can be imported at once.",
    ),
    "unknown variant": (
        document(variant="gin"),
        "rules.variant: &quot;gin&quot; is not one of casino, royal, dominican, swedish, finnish, spade",
    ),
    "not text": (b"\xff\xfe\x00\x01binary", "This file is not text (UTF-8)"),
}


@pytest.mark.parametrize("name", BAD_UPLOADS)
def test_bad_upload_is_refused_with_a_clear_message_and_nothing_saved(user_client, name):
    content, message = BAD_UPLOADS[name]
    before = snapshot()
    response = user_client.post(IMPORT, {"file": upload(content)})
    body = response.content.decode()
    assert response.status_code == 400
    assert message in body, body
    assert snapshot() == before


def test_refused_import_lists_every_problem_and_says_nothing_was_imported(user_client):
    bad = [document([[tally(29, 8), tally(20, 5)]]), document(variant="gin")]
    body = user_client.post(IMPORT, {"file": upload(bad)}).content.decode()
    assert "Nothing was imported." in body and 'role="alert"' in body
    assert "match 1: hand 1: cards add up to 49, not 52" in body
    assert "match 2: rules.variant" in body
    assert not Match.objects.exists()


def test_htmx_refused_import_returns_the_form_fragment(user_client):
    response = user_client.post(IMPORT, {"file": upload("nope")}, headers=HX)
    body = response.content.decode()
    assert response.status_code == 400 and body.lstrip().startswith('<div id="import"')
    assert "not valid JSON" in body


def test_long_problem_lists_are_cut_short(user_client):
    # One problem per match: the second side's cards are 3 short.
    short = [tally(29, 8, big=True, aces="SH"), tally(20, 5, little=True, aces="CD")]
    bad = [document([short]) for _ in range(60)]
    body = user_client.post(IMPORT, {"file": upload(bad)}).content.decode()
    assert "match 50: hand 1" in body and "match 51: hand 1" not in body
    assert "and 10 more problems." in body


def test_upload_without_a_file_asks_for_one(user_client):
    response = user_client.post(IMPORT, {})
    assert response.status_code == 400 and "This field is required." in response.content.decode()


def test_web_round_trip_into_an_empty_account(client, user_client, played, other_user):
    exported = downloaded(user_client.get(app_url("export-all")))
    client.force_login(other_user)
    client.post(IMPORT, {"file": upload(exported)})
    assert json.loads(downloaded(client.get(app_url("export-all")))) == json.loads(exported)


# --- input that used to be a server error, and long matches --------------------------------------


def test_upload_that_used_to_be_a_server_error_is_refused_with_its_message(user_client):
    from django.utils.html import escape
    from test_matchdoc import CRASHES

    before = snapshot()
    for name, text, lines in CRASHES:
        response = user_client.post(IMPORT, {"file": upload(text)})
        body = response.content.decode()
        assert response.status_code in (200, 400), name
        assert "Nothing was imported." in body, name
        for line in lines:
            assert escape(line) in body, (name, line)
    assert snapshot() == before


@pytest.mark.slow
def test_hand_numbers_above_999_work_on_the_scoreboard(user_client, user):
    # 999 level hands (difference scoring: nobody is credited), then hand 1000 from the web.
    level = [tally(26, 6, big=True, aces="SC"), tally(26, 7, little=True, aces="HD")]
    doc = document([level] * 999)
    doc["rules"]["scoring"] = "difference"
    user_client.post(IMPORT, {"file": upload(doc)})
    match = Match.objects.get(circle=user.personal_circle)
    assert match.hand_count == 999
    post = {
        "number": "1000",
        "cards_0": "29",
        "spades_0": "8",
        "card_10D": "0",
        "card_AS": "0",
        "card_AH": "0",
    }
    response = user_client.post(app_url("hand-create", match.pk), post)
    assert response.status_code == 302, response.content.decode()
    match.refresh_from_db()
    assert match.hand_count == 1000
    assert list(match.sides.order_by("position").values_list("total", flat=True)) == [5, 0]
    # Hand 1000 can be corrected too.
    response = user_client.get(app_url("hand-edit", match.pk, 1000))
    assert response.status_code == 200
    edit = {**post, "card_AH": "1"}
    response = user_client.post(app_url("hand-edit", match.pk, 1000), edit)
    assert response.status_code == 302, response.content.decode()
    match.refresh_from_db()
    assert list(match.sides.order_by("position").values_list("total", flat=True)) == [3, 0]
    # Hand 1001 is past the most a match can hold.
    post["number"] = "1001"
    response = user_client.post(app_url("hand-create", match.pk), post)
    assert response.status_code in (200, 400)
    assert "less than or equal to 1000" in str(response.context["form"].errors["number"])
    assert Match.objects.get(pk=match.pk).hand_count == 1000
    # The scoreboard says the match is full instead of offering a form that cannot be saved.
    body = user_client.get(app_url("match", match.pk)).content.decode()
    assert "This match holds 1000 hands, the most one match can" in body
    assert 'name="cards_0"' not in body


@pytest.mark.parametrize(
    "name",
    ["export-all", "export-hands", "export-match", "export-match-hands", "account-export"],
)
def test_private_downloads_are_never_kept_by_a_cache(user_client, user, casino_match, name):
    """Downloads × a shared phone or a proxy: a circle's matches are not for the next visitor."""
    args = {
        "export-match": [casino_match.pk],
        "export-match-hands": [casino_match.pk],
        "account-export": [user.personal_circle.pk],
    }.get(name, [])
    response = user_client.get(reverse(f"scoring:{name}", args=args))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    assert response["Cache-Control"] == "private, no-store"
