"""Sending documents to the app, as a client would: the persisted tool documents, or any document."""

import unicodedata
from pathlib import Path
from typing import Any

import asyncpg
import httpx

from tests.conftest import LIVE_SCHEMA

PERSISTED = Path(__file__).resolve().parent.parent / "persisted"
EXPLORER = ("explore_hadith", "explore_narrator", "explore_relation", "explore_search", "explore_versions")
WEB_PAGES = (
    *EXPLORER,
    "web_book",
    "web_chapter",
    "web_collection",
    "web_hadith",
    "web_home",
)  # persisted/web/: no tools
# One real call of each tool, with arguments the test subset answers.
SAMPLE_CALLS: dict[str, dict[str, Any]] = {
    "search_hadith": {"query": "إنما الأعمال بالنيات"},
    "get_hadith": {"hadith_id": 100001},
    "get_hadith_chains": {"hadith_id": 100001},
    "search_narrator": {"query": "Abu Hurairah"},
    "get_narrator_profile": {"narrator_id": 11062},
    "get_narrator_hadiths": {"narrator_id": 11062},
    "get_transmission_relation": {"narrator_a_id": 11042, "narrator_b_id": 11213},
    "get_hadith_commentary": {"hadith_id": 100001},
}


def tool_document(tool: str) -> str:
    return (PERSISTED / f"{tool}.graphql").read_text(encoding="utf-8")


def web_document(page: str) -> str:
    return (PERSISTED / "web" / f"{page}.graphql").read_text(encoding="utf-8")


async def execute(client: httpx.AsyncClient, document: str, **variables: Any) -> dict[str, Any]:
    response = await client.post("/graphql", json={"query": document, "variables": variables})
    body: dict[str, Any] = response.json()
    return body


async def call_tool(client: httpx.AsyncClient, tool: str, **variables: Any) -> dict[str, Any]:
    """The tool's persisted document with these arguments; returns the whole GraphQL response."""
    return await execute(client, tool_document(tool), **variables)


def nfc(value: Any) -> Any:
    """The JSON value with every string in Unicode NFC: the sources keep their own order of Arabic marks
    (shadda before or after a vowel), which literal expectations in a test file cannot reproduce."""
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, list):
        return [nfc(item) for item in value]
    if isinstance(value, dict):
        return {key: nfc(item) for key, item in value.items()}
    return value


def data_of(body: dict[str, Any], field: str) -> Any:
    """`data.<field>` of a response that must have no error."""
    assert "errors" not in body, body.get("errors")
    return body["data"][field]


async def tool_data(client: httpx.AsyncClient, tool: str, **variables: Any) -> Any:
    """`data.<tool>` of the tool's persisted document: the contract's output JSON."""
    return data_of(await call_tool(client, tool, **variables), tool)


async def rows(database_url: str, sql: str, *args: Any) -> list[dict[str, Any]]:
    """Rows of the live schema, read apart from the app (to compare an answer with the database)."""
    conn = await asyncpg.connect(database_url)
    try:
        await conn.execute(f"SET search_path TO {LIVE_SCHEMA}, public")
        return [dict(row) for row in await conn.fetch(sql, *args)]
    finally:
        await conn.close()


# The sources the tests cite: source_type, title, and the citation the API builds ("author, title (repo@commit)").
SOURCES: dict[str, tuple[str, str, str]] = {
    "hadith-json": (
        "corpus",
        "hadith-json (sunnah.com Arabic and English, by chapter)",
        "hadith-json (sunnah.com Arabic and English, by chapter) (AhmedBaset/hadith-json@70b83d6d2199)",
    ),
    "hadith-api": (
        "corpus",
        "hadith-api editions (compressed SQLite export): Arabic, French, grades",
        "hadith-api editions (compressed SQLite export): Arabic, French, grades"
        " (IsmailHosenIsmailJames/compressed_hadith_sqlite@94169a6eaa71)",
    ),
    "lk-corpus": (
        "corpus",
        "LK Hadith Corpus (six books, kitab and bab, isnad and matn split)",
        "LK Hadith Corpus (six books, kitab and bab, isnad and matn split) (ShathaTm/LK-Hadith-Corpus@c45fa64aa40b)",
    ),
    "fawaz-hadith": (
        "corpus",
        "fawazahmed0/hadith CSV exports (numbering, references, grades)",
        "fawazahmed0/hadith CSV exports (numbering, references, grades) (fawazahmed0/hadith@b9a36de7364d)",
    ),
    "muslimscholars": (
        "dataset",
        "Hadith Narrators / Hadith dataset (Kaggle, fahd09, from muslimscholars.info)",
        "Hadith Narrators / Hadith dataset (Kaggle, fahd09, from muslimscholars.info)"
        " (mahidul-islam/arrijal@336df7cc97f7)",
    ),
    "muslimscholars-aligned": (
        "dataset",
        "Chains of the Kaggle dataset, aligned to hadith-json hadith by the project",
        "Chains of the Kaggle dataset, aligned to hadith-json hadith by the project"
        " (mahidul-islam/arrijal@336df7cc97f7)",
    ),
    "muslimscholars-derived": (
        "dataset",
        "Chain alignment and located mentions reconstructed from the Kaggle dataset (data scout)",
        "Chain alignment and located mentions reconstructed from the Kaggle dataset (data scout)",
    ),
    "ar-sanad-lite": (
        "dataset",
        "AR-Sanad (Lite): narrators, isnad name forms, Ibn Hajar and al-Dhahabi ranks, relations",
        "AR-Sanad (Lite): narrators, isnad name forms, Ibn Hajar and al-Dhahabi ranks, relations"
        " (somaia02/Narrator-Disambiguation@ddde1960dd4a)",
    ),
    "takhrij-backend": (
        "dataset",
        "all_rawis reduced copy with a reliability grade made by the repository's author",
        "all_rawis reduced copy with a reliability grade made by the repository's author"
        " (diarfitri88/takhrij-backend@8f6e8d1e78f1)",
    ),
    "rijal-links": (
        "dataset",
        "Candidate links between dataset narrators and Taqrib notices (data scout; not read: the oracle of the "
        "links the importer computes)",
        "Candidate links between dataset narrators and Taqrib notices (data scout; not read: the oracle of the "
        "links the importer computes)",
    ),
    "openiti-taqrib": (
        "scholarly_work",
        "Taqrib al-Tahdhib",
        "Ibn Hajar al-'Asqalani (d. 852 AH), Taqrib al-Tahdhib (OpenITI/0875AH@ca79d3381645)",
    ),
    "openiti-kashif": (
        "scholarly_work",
        "al-Kashif",
        "al-Dhahabi (d. 748 AH), al-Kashif (OpenITI/0750AH@6f11ba7ea313)",
    ),
    "openiti-mughni": (
        "scholarly_work",
        "al-Mughni fi al-Du'afa",
        "al-Dhahabi (d. 748 AH), al-Mughni fi al-Du'afa (OpenITI/0750AH@6f11ba7ea313)",
    ),
}


def provenance(
    object_id: int | str,
    object_type: str,
    source_id: str,
    *,
    source_key: str | None = None,
    edition_id: str | None = None,
    locator: str | None = None,
) -> dict[str, Any]:
    """The provenance entry the API gives for a record of a source in SOURCES."""
    source_type, title, citation = SOURCES[source_id]
    return {
        "object_id": object_id,
        "object_type": object_type,
        "source_type": source_type,
        "source_id": source_id,
        "source_key": source_key,
        "source_title": title,
        "edition_id": edition_id,
        "citation": citation,
        "locator": locator,
    }
