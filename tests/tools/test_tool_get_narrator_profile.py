"""get_narrator_profile on known real narrators: identity, legacy fields, rijal entries and scholarly
assertions kept apart, each claim with its own evidence status and provenance."""

import httpx

from tests.graphql_client import nfc, provenance, rows, tool_data

YAHYA_AL_ANSARI = 11062  # LINKED to taqrib:7559; 10 AMBIGUOUS Kashif / Mughni candidates
ABU_AL_AHWAS = 20327  # Sallam b. Sulaym: one CONFLICTED Taqrib candidate (another Abu al-Ahwas), nothing LINKED
AL_TAYMI = 11213  # no rijal notice at all

CAPABILITY_NOTE_LINKED = (
    "No source gives a French form of this name. "
    "Assertions carry no confidence: the sources give none. Absence is never a negation."
)


def _legacy(field: str, value: str | None, source_id: str) -> dict[str, object]:
    return {
        "field": field,
        "value": value,
        "evidence_status": "insufficient_evidence" if value is None else "fact",
        "provenance": [
            provenance(YAHYA_AL_ANSARI, "narrator", source_id, source_key=f"scholar_indx={YAHYA_AL_ANSARI}")
        ],
    }


def _assertion(field: str, value: str) -> dict[str, object]:
    return {
        "field": field,
        "value": value,
        "evidence_status": "fact",
        "provenance": [
            provenance(YAHYA_AL_ANSARI, "narrator", "openiti-taqrib", source_key="taqrib:7559", locator="taqrib:7559")
        ],
    }


async def test_yahya_al_ansari_with_his_linked_taqrib_notice_is_the_whole_expected_profile(
    client: httpx.AsyncClient, database_url: str
) -> None:
    (notice,) = await rows(database_url, "SELECT text FROM rijal_notice WHERE entry_id = 'taqrib:7559'")

    profile = await tool_data(client, "get_narrator_profile", narrator_id=YAHYA_AL_ANSARI, entry_limit=1)

    assert nfc(profile) == nfc(
        {
            "narrator_id": 11062,
            "identity": {
                "name_ar": "يحيى بن سعيد الأنصاري",
                "name_fr": None,
                "canonical_display": "Yahya bin Sa'id al-Ansari",
                "variants": ["يحيى ابن سعيد ابن قيس الأنصاري المدني أبو سعيد القاضي"],
            },
            "legacy_scholarly_data": [
                _legacy("generation_label", "Follower(Tabi') [5th generation]", "muslimscholars"),
                _legacy("birth_date_hijri", "70.0", "muslimscholars"),
                _legacy("death_date_hijri", "144.0", "muslimscholars"),
                _legacy("reliability_grade", None, "takhrij-backend"),
            ],
            "source_entries": [
                {
                    "entry_id": "taqrib:7559",
                    "text": notice["text"],
                    "resolution_status": "LINKED",
                    "evidence_status": "fact",
                    "provenance": [
                        provenance(
                            "taqrib:7559",
                            "narrator_entry",
                            "openiti-taqrib",
                            source_key="taqrib:7559",
                            locator="taqrib:7559",
                        ),
                        provenance(11062, "narrator", "openiti-taqrib", source_key="link:name3_namesakes+tabaqa"),
                    ],
                }
            ],
            "canonical_assertions": [
                _assertion("ibn_hajar_tabaqa", "5"),
                _assertion("ibn_hajar_verdict", "ثقة ثبت"),
            ],
            "truncated": True,
            "capability_note": CAPABILITY_NOTE_LINKED,
        }
    )
    assert "ثقة ثبت من الخامسة" in profile["source_entries"][0]["text"]


async def test_entries_list_linked_first_and_only_linked_ones_are_facts(
    client: httpx.AsyncClient, database_url: str
) -> None:
    stored = await rows(database_url, "SELECT status FROM narrator_notice_link WHERE narrator_id = $1", YAHYA_AL_ANSARI)
    assert len(stored) == 11

    profile = await tool_data(client, "get_narrator_profile", narrator_id=YAHYA_AL_ANSARI, entry_limit=20)

    entries = profile["source_entries"]
    assert profile["truncated"] is False
    assert [e["entry_id"] for e in entries] == [
        "taqrib:7559",
        *(f"kashif:{n}" for n in range(6172, 6177)),
        *(f"mughni:{n}" for n in range(6970, 6975)),
    ]
    assert [(e["resolution_status"], e["evidence_status"]) for e in entries] == [("LINKED", "fact")] + [
        ("AMBIGUOUS", "insufficient_evidence")
    ] * 10
    assert all(len(e["provenance"]) == 2 for e in entries)
    assert {e["provenance"][0]["source_id"] for e in entries[1:]} == {"openiti-kashif", "openiti-mughni"}


async def test_entry_limit_defaults_to_ten_and_cuts_with_truncated(client: httpx.AsyncClient) -> None:
    default = await tool_data(client, "get_narrator_profile", narrator_id=YAHYA_AL_ANSARI)
    eleven = await tool_data(client, "get_narrator_profile", narrator_id=YAHYA_AL_ANSARI, entry_limit=11)

    assert len(default["source_entries"]) == 10
    assert default["truncated"] is True
    assert len(eleven["source_entries"]) == 11
    assert eleven["truncated"] is False


async def test_a_conflicted_notice_is_insufficient_evidence_and_nothing_is_asserted(
    client: httpx.AsyncClient,
) -> None:
    profile = await tool_data(client, "get_narrator_profile", narrator_id=ABU_AL_AHWAS)

    assert [(e["entry_id"], e["resolution_status"], e["evidence_status"]) for e in profile["source_entries"]] == [
        ("taqrib:7926", "CONFLICTED", "insufficient_evidence")
    ]
    assert profile["source_entries"][0]["provenance"][1] == provenance(
        20327, "narrator", "openiti-taqrib", source_key="link:name2(tabaqa_mismatch)"
    )
    assert profile["canonical_assertions"] == []
    assert "No rijal notice is linked" in profile["capability_note"]
    assert "No scholarly verdict" in profile["capability_note"]


async def test_a_narrator_without_notices_keeps_every_legacy_field_and_says_what_is_missing(
    client: httpx.AsyncClient,
) -> None:
    profile = await tool_data(client, "get_narrator_profile", narrator_id=AL_TAYMI)

    assert profile["identity"] == {
        "name_ar": "محمد بن إبراهيم بن الحارث",
        "name_fr": None,
        "canonical_display": "Muhammad bin Ibrahim bin al-Harith",
        "variants": [],
    }
    assert [(f["field"], f["value"], f["evidence_status"]) for f in profile["legacy_scholarly_data"]] == [
        ("generation_label", "Follower(Tabi') [4th generation]", "fact"),
        ("birth_date_hijri", None, "insufficient_evidence"),
        ("death_date_hijri", "120.0", "fact"),
        ("reliability_grade", None, "insufficient_evidence"),
    ]
    assert all(f["provenance"] for f in profile["legacy_scholarly_data"])
    assert profile["source_entries"] == []
    assert profile["canonical_assertions"] == []
    assert profile["truncated"] is False
    assert profile["capability_note"].startswith("No source gives a French form of this name.")
