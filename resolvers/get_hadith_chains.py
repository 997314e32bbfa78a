"""get_hadith_chains: the observed chains of a hadith, each node keeping its own resolution status."""

from app.data.records import ChainRecord, HadithChainsRecord, NodeRecord
from app.errors import NotFound
from app.limits import HADITH_CHAINS
from resolvers.arguments import require_id
from resolvers.provenance import Sources, provenance
from schema.chain import Chain, ChainCheck, ChainCheckCode, ChainNode, HadithChains, ResolutionStatus
from schema.common import EvidenceStatus, ObjectType
from schema.info import Info

DATASET = "dataset"


def _node(node: NodeRecord) -> ChainNode:
    return ChainNode(
        position=node.position,
        narrator_id=node.narrator_id,
        mention_ar=node.mention_ar,
        transmission_term_ar=node.transmission_term_ar,
        resolution_status=ResolutionStatus(node.resolution_status),
        confidence=node.confidence,
        node_id=node.node_id,
        method=node.method,
    )


def chain_evidence(chain: ChainRecord) -> EvidenceStatus:
    """A dataset chain that passes its integrity checks is a fact of the dataset; one that fails a check, or a
    chain read from the text by the importer, is not."""
    is_fact = chain.origin == DATASET and not chain.checks
    return EvidenceStatus.fact if is_fact else EvidenceStatus.insufficient_evidence


def _chain(chain: ChainRecord, hadith: HadithChainsRecord, sources: Sources) -> Chain:
    text = hadith.text
    return Chain(
        chain_id=chain.chain_id,
        chain_number=chain.chain_number,
        nodes=[_node(node) for node in chain.nodes],
        evidence_status=chain_evidence(chain),
        failed_checks=[ChainCheck(code=ChainCheckCode(check.code), reason=check.reason) for check in chain.checks],
        provenance=[
            provenance(sources, chain.chain_id, ObjectType.chain, chain.source_id, source_key=chain.source_key),
            provenance(
                sources,
                hadith.hadith_id,
                ObjectType.hadith,
                text.source_id,
                source_key=text.source_key,
                edition_id=text.edition_id,
                locator=hadith.canonical_reference,
            ),
        ],
    )


async def chains_of_hadith(info: Info, hadith_id: int, limit: int | None) -> HadithChains:
    found = await info.context.loaders.chains_by_hadith_id.load((hadith_id, HADITH_CHAINS.resolve(limit)))
    if found is None:
        raise NotFound("No hadith has this id.")
    sources = await info.context.sources.load(info.context.db)
    return HadithChains(
        hadith_id=hadith_id,
        chains=[_chain(chain, found, sources) for chain in found.chains.items],
        truncated=found.chains.truncated,
    )


async def get_hadith_chains(info: Info, hadith_id: int, limit: int | None) -> HadithChains:
    return await chains_of_hadith(info, require_id(hadith_id, "hadith_id"), limit)
