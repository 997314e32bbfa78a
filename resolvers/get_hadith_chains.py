"""get_hadith_chains: the observed chains of a hadith, each node keeping its own resolution status."""

from app.data.records import ChainRecord, HadithRecord, NodeRecord
from app.errors import NotFound
from app.limits import HADITH_CHAINS
from resolvers.arguments import require_id
from resolvers.provenance import Sources, provenance
from schema.chain import Chain, ChainNode, HadithChains, ResolutionStatus
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
    )


def _chain(chain: ChainRecord, nodes: list[NodeRecord], hadith: HadithRecord, sources: Sources) -> Chain:
    """A dataset chain is a fact of the dataset; a chain read from the text by the importer is not."""
    text = hadith.sources[0]
    return Chain(
        chain_id=chain.chain_id,
        chain_number=chain.chain_number,
        nodes=[_node(node) for node in nodes],
        evidence_status=EvidenceStatus.fact if chain.origin == DATASET else EvidenceStatus.insufficient_evidence,
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


async def _hadith(info: Info, hadith_id: int) -> HadithRecord:
    record = await info.context.loaders.hadith_by_id.load(hadith_id)
    if record is None:
        raise NotFound("No hadith has this id.")
    return record


async def chains_of_hadith(info: Info, hadith_id: int, limit: int | None) -> HadithChains:
    bound = HADITH_CHAINS.resolve(limit)
    loaders = info.context.loaders
    hadith = await _hadith(info, hadith_id)
    page = await loaders.chains_by_hadith_id.load((hadith_id, bound))
    nodes = await loaders.nodes_by_chain_id.load_many([chain.chain_id for chain in page.items])
    sources = await info.context.sources.load(info.context.db)
    return HadithChains(
        hadith_id=hadith_id,
        chains=[
            _chain(chain, chain_nodes, hadith, sources) for chain, chain_nodes in zip(page.items, nodes, strict=True)
        ],
        truncated=page.truncated,
    )


async def get_hadith_chains(info: Info, hadith_id: int, limit: int | None) -> HadithChains:
    return await chains_of_hadith(info, require_id(hadith_id, "hadith_id"), limit)
