"""What bench/load.py asks each server, and how it checks the answers: one common structure for the
anchor request (the floor's, PostGraphile's and the API's answers normalized to it and compared on the parts
each carries), and every other body answered 200 without errors."""

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import httpx

from bench.servers import JSON_HEADERS, Server
from bench.wrk import Run

Json = Any
Normalize = Callable[[Json], Json]  # a response's JSON -> the common structure (the parts it carries)


# -- the common structure ---------------------------------------------------------------------------
# {"hadith_id", "canonical_reference", "collection": {"code", "name"},
#  "chains": [{"chain_number", "nodes": [{"position", "narrator_id", "narrator": display | None}]}]}


def web(response: Json) -> Json:
    """The floor's and the web document's answer (the same shape)."""
    hadith = response["data"]["get_hadith"]
    chains = [
        {
            "chain_number": chain["chain_number"],
            "nodes": [
                {
                    "position": node["position"],
                    "narrator_id": node["narrator_id"],
                    "narrator": node["narrator"]["canonical_display"] if node["narrator"] else None,
                }
                for node in chain["nodes"]
            ],
        }
        for chain in hadith["chains"]["chains"]
    ]
    collection = hadith["collection"]
    return {
        "hadith_id": hadith["hadith_id"],
        "canonical_reference": hadith["canonical_reference"],
        "collection": {"code": collection["code"], "name": collection["name"]},
        "chains": chains,
    }


def get_hadith(response: Json) -> Json:
    hadith = response["data"]["get_hadith"]
    collection = hadith["collection"]
    return {
        "hadith_id": hadith["hadith_id"],
        "canonical_reference": hadith["canonical_reference"],
        "collection": {"code": collection["code"], "name": collection["name"]},
    }


def get_hadith_chains(response: Json) -> Json:
    answer = response["data"]["get_hadith_chains"]
    chains = [
        {
            "chain_number": chain["chain_number"],
            "nodes": [{"position": node["position"], "narrator_id": node["narrator_id"]} for node in chain["nodes"]],
        }
        for chain in answer["chains"]
    ]
    return {"hadith_id": answer["hadith_id"], "chains": chains}


def postgraphile(response: Json) -> Json:
    hadith = response["data"]["hadithByHadithId"]
    chains = [
        {
            "chain_number": chain["chainNumber"],
            "nodes": [
                {
                    "position": node["position"],
                    "narrator_id": node["narratorId"],
                    "narrator": node["narratorByNarratorId"]["canonicalDisplay"]
                    if node["narratorByNarratorId"]
                    else None,
                }
                for node in chain["chainNodesByChainId"]["nodes"]
            ],
        }
        for chain in hadith["chainsByHadithId"]["nodes"]
    ]
    collection = hadith["collectionByCollectionId"]
    return {
        "hadith_id": hadith["hadithId"],
        "canonical_reference": hadith["canonicalReference"],
        "collection": {"code": collection["code"], "name": collection["nameEn"]},
        "chains": chains,
    }


def project(reference: Json, like: Json) -> Json:
    """`reference` cut down to the keys of `like` (lists element by element, when their lengths agree)."""
    if isinstance(like, dict) and isinstance(reference, dict):
        return {key: project(reference.get(key), value) for key, value in like.items()}
    if isinstance(like, list) and isinstance(reference, list) and len(like) == len(reference):
        return [project(ref, item) for ref, item in zip(reference, like, strict=True)]
    return reference


Role = Literal["floor", "PostGraphile", "API", "anchor"]


@dataclass
class Configuration:
    name: str
    role: Role
    server: Server
    bodies: list[bytes]  # POST bodies: one per hadith id, or per argument set
    normalize: Normalize | None  # None: no equivalent of the anchor request (checked for errors only)
    runs: list[Run] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.port}/graphql"

    def median(self, read: Callable[[Run], float]) -> float:
        return statistics.median(read(run) for run in self.runs)


def answer(client: httpx.Client, config: Configuration, number: int) -> Json:
    """The JSON answer to the configuration's body `number`; exits unless it is 200 with data and no errors."""
    body = config.bodies[number]
    response = client.post(config.url, content=body, headers=JSON_HEADERS)
    payload = response.json() if response.status_code == 200 else None
    if not isinstance(payload, dict) or payload.get("errors") or not payload.get("data"):
        raise SystemExit(f"{config.name}, {body.decode()}: {response.status_code} {response.text[:500]}")
    return payload


def normalized(config: Configuration, normalize: Normalize, payload: Json, number: int) -> Json:
    try:
        return normalize(payload)
    except (KeyError, TypeError) as missing:
        raise SystemExit(f"{config.name}, {config.bodies[number].decode()}: no {missing} in {payload}") from None


def check_same(configs: Sequence[Configuration], count: int) -> None:
    """Every configuration with an equivalent answers its first `count` bodies (one per hadith id) with
    the floor's data, on the parts it carries; else exit."""
    (floor, reference_of), *others = [(config, config.normalize) for config in configs if config.normalize]
    with httpx.Client(timeout=30.0) as client:
        for number in range(count):
            reference = normalized(floor, reference_of, answer(client, floor, number), number)
            for config, normalize in others:
                got = normalized(config, normalize, answer(client, config, number), number)
                if project(reference, got) != got:
                    raise SystemExit(
                        f"{config.name} differs from the floor for {floor.bodies[number].decode()}:\n"
                        f"  floor: {project(reference, got)}\n  {config.name}: {got}"
                    )


def check_answers(configs: Sequence[Configuration]) -> None:
    """Every body of the configurations without an equivalent is answered 200 without errors; else exit."""
    with httpx.Client(timeout=30.0) as client:
        for config in configs:
            if config.normalize is None:
                for number in range(len(config.bodies)):
                    answer(client, config, number)
