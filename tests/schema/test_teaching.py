"""A narrator's teachers and students on his profile (the web's, beyond the contract): the relations that sources
record with him on that side, as the database holds them, attested first, then by the other narrator's id and the
source; each keeps the status its source gives (a probable relation is possible, never attested), with the count
of them all and its other narrator reached by navigation."""

from typing import Any

import httpx
import pytest

from ingest.run import ImportReport
from tests.graphql_client import data_of, execute, rows

ITEM = (
    "relation_status normalized_status evidence_status teacher_id student_id"
    " provenance { object_id object_type source_id source_key }"
)
TEACHING = f"""query teaching($narrator_id: Int!, $limit: Int) {{
  get_narrator_profile(narrator_id: $narrator_id) {{
    teachers(limit: $limit) {{ count truncated items {{ {ITEM} teacher {{ narrator_id }} }} }}
    students(limit: $limit) {{ count truncated items {{ {ITEM} student {{ narrator_id }} }} }}
  }}
}}"""
SIDES = {"teachers": ("student_id", "teacher_id"), "students": ("teacher_id", "student_id")}  # (his, the other's)
RELATIONS = """SELECT relation_id, teacher_id, student_id, status, source_id, source_key FROM transmission_relation
 WHERE {his} = $1 AND teacher_id <> student_id
 ORDER BY array_position(ARRAY['attested', 'probable', 'ambiguous', 'unresolved'], status), {other}, source_id"""
# The narrator with the most relations on one side, within a page of 50, that holds attested and probable ones.
MIXED = """SELECT {his} AS id FROM transmission_relation WHERE teacher_id <> student_id GROUP BY 1
 HAVING bool_or(status = 'attested') AND bool_or(status = 'probable') AND count(*) <= 50
 ORDER BY count(*) DESC, 1 LIMIT 1"""
# A pair that two sources record with two statuses, one of them probable.
TWICE = """SELECT student_id FROM transmission_relation t WHERE teacher_id <> student_id
 GROUP BY teacher_id, student_id HAVING count(DISTINCT status) > 1 AND bool_or(status = 'probable')
 ORDER BY (SELECT count(*) FROM transmission_relation r WHERE r.student_id = t.student_id), 1 LIMIT 1"""
WITHOUT = """SELECT narrator_id FROM narrator n WHERE NOT EXISTS (SELECT FROM transmission_relation r
 WHERE n.narrator_id IN (r.teacher_id, r.student_id)) ORDER BY narrator_id LIMIT 1"""
MAPPING = {"attested": ("attested", "fact"), "probable": ("possible", "inference")}


async def _teaching(client: httpx.AsyncClient, narrator_id: int, limit: int | None = 50) -> Any:
    return data_of(await execute(client, TEACHING, narrator_id=narrator_id, limit=limit), "get_narrator_profile")


def _expected(relation: dict[str, Any], other: str) -> dict[str, Any]:
    status = relation["status"]
    normalized, evidence = MAPPING[status]
    provenance = {"object_id": relation["relation_id"], "object_type": "relation", "source_id": relation["source_id"]}
    return {
        "relation_status": status,
        "normalized_status": normalized,
        "evidence_status": evidence,
        "teacher_id": relation["teacher_id"],
        "student_id": relation["student_id"],
        "provenance": [{**provenance, "source_key": relation["source_key"]}],
        other.removesuffix("_id"): {"narrator_id": relation[other]},
    }


@pytest.mark.parametrize("side", sorted(SIDES))
async def test_his_teachers_and_students_are_the_recorded_relations_attested_first(
    client: httpx.AsyncClient, imported: ImportReport, database_url: str, side: str
) -> None:
    his, other = SIDES[side]
    (mixed,) = await rows(database_url, MIXED.format(his=his))
    recorded = await rows(database_url, RELATIONS.format(his=his, other=other), mixed["id"])

    listed = (await _teaching(client, mixed["id"]))[side]

    assert listed["items"] == [_expected(relation, other) for relation in recorded]
    assert (listed["count"], listed["truncated"]) == (len(recorded), False)
    assert {item["relation_status"] for item in listed["items"]} == {"attested", "probable"}


async def test_a_pair_recorded_probable_and_attested_is_listed_twice_each_as_its_source_says(
    client: httpx.AsyncClient, imported: ImportReport, database_url: str
) -> None:
    (pair,) = await rows(database_url, TWICE)

    teachers = (await _teaching(client, pair["student_id"]))["teachers"]["items"]

    statuses: dict[int, list[tuple[str, str, str]]] = {}
    for item in teachers:
        statuses.setdefault(item["teacher_id"], []).append(
            (item["relation_status"], item["normalized_status"], item["evidence_status"])
        )
    twice = [found for found in statuses.values() if len(found) > 1]
    assert twice and all(("probable", "possible", "inference") in found for found in twice)
    assert all(("probable", "attested", "fact") not in found for found in statuses.values())


async def test_a_narrator_without_a_recorded_relation_has_none_listed(
    client: httpx.AsyncClient, imported: ImportReport, database_url: str
) -> None:
    (alone,) = await rows(database_url, WITHOUT)

    profile = await _teaching(client, alone["narrator_id"], None)

    empty = {"count": 0, "truncated": False, "items": []}
    assert (profile["teachers"], profile["students"]) == (empty, empty)


async def test_the_default_page_is_ten_and_says_it_is_cut(
    client: httpx.AsyncClient, imported: ImportReport, database_url: str
) -> None:
    (mixed,) = await rows(database_url, MIXED.format(his="student_id"))
    whole = (await _teaching(client, mixed["id"]))["teachers"]

    first = (await _teaching(client, mixed["id"], None))["teachers"]

    assert first["items"] == whole["items"][:10]
    assert (first["count"], first["truncated"]) == (whole["count"], True)
