"""What the search reads besides the texts: the stems of each hadith's Arabic, the vocabulary of the
Arabic stems and French words (search_term), and every name form of every narrator with its search
keys (narrator_search_form). Built from the rows of the earlier steps, with the normalizers of
app.text.arabic and app.text.latin, so that the importer and the API compare texts alike.

The name forms are the narrator_name_variant forms, the parts of a dataset name that the dataset
writes apart («أبو هريرة - عبد الرحمن بن صخر الدوسي», «Abu Karayb, Muhammad bin al-'Ala'»), and the
mentions located in the text at chain nodes whose mention names their narrator (confirmed, or probable
as a homonym's name too: the isnad's own «الزهري», «ابن شهاب», «سفيان»), kept when a narrator is named
so at least MIN_MENTIONS times, the mention names him in at least MIN_MENTION_SHARE of those occurrences,
and it is more than a kinship pronoun («أبيه») or a lone particle («ابن», app.text.arabic.NAME_PARTICLES).
`prior` ranks narrators who occur in more chains first when names tie: log(1 + chain nodes) / log(1 + the
largest count).
"""

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator

from app.text import arabic, latin
from ingest import chain_alignment
from ingest.chain_reading import CONFIRMED, HOMONYM, SINGLED_OUT
from ingest.context import ImportContext, Row
from ingest.isnad_parser import is_kinship_pronoun

MIN_MENTIONS = 3
MIN_MENTION_SHARE = 0.5
MENTION_KIND = "chain_mention"
MENTION_SOURCE = chain_alignment.SOURCE  # the dataset chains' nodes, as the project places and reads them
_PARTS = re.compile(r"\s+-\s+|[,،/()]")


def build(ctx: ImportContext) -> None:
    _index_hadith(ctx)
    _add_vocabulary(ctx)
    for narrator in ctx.tables["narrator"]:
        narrator["region_key"] = arabic.normalize(narrator["region"]) if narrator["region"] else None
    _add_name_forms(ctx)


# hadith ------------------------------------------------------------------------------------------


def _index_hadith(ctx: ImportContext) -> None:
    """The stems of each Arabic text, its words and pairs of words, the measure its scores divide by (the matn,
    else the text), and the words of its French."""
    for row in ctx.tables["hadith"]:
        normalized = row["text_ar_normalized"] or ""
        row["text_ar_stems"] = " ".join(arabic.stem(word) for word in normalized.split()) or None
        row["text_ar_pairs"] = arabic.word_pairs(normalized) or None
        row["matn_length"] = row.get("matn_length") or len(normalized) or None
        row["text_fr_normalized"] = " ".join(latin.words(row["text_fr"] or "")) or None


def _documents(ctx: ImportContext) -> Iterator[tuple[str, Iterable[str]]]:
    for row in ctx.tables["hadith"]:
        yield "ar", set((row["text_ar_stems"] or "").split())
        yield "fr", set((row["text_fr_normalized"] or "").split())


def _add_vocabulary(ctx: ImportContext) -> None:
    counts: Counter[tuple[str, str]] = Counter()
    for language, terms in _documents(ctx):
        counts.update((language, term) for term in terms)
    for (language, term), documents in sorted(counts.items()):
        ctx.add("search_term", {"language": language, "term": term, "doc_count": documents})


# narrators ---------------------------------------------------------------------------------------


def _parts(form: str) -> list[str]:
    """The parts a name writes apart, when there are several."""
    parts = [part.strip() for part in _PARTS.split(form) if len(part.strip()) > 1]
    return parts if len(parts) > 1 else []


def _variant_forms(ctx: ImportContext) -> Iterator[Row]:
    for variant in ctx.tables["narrator_name_variant"]:
        yield variant
        if variant["kind"] == "dataset_name":
            for part in _parts(variant["form"]):
                yield {**variant, "form": part}


NAMING = frozenset({CONFIRMED[1], SINGLED_OUT[1], HOMONYM[1]})  # the methods of a mention that names him


def _mention_forms(ctx: ImportContext) -> Iterator[Row]:
    """One form per narrator and mention key, written as the text most often writes it."""
    written: dict[tuple[int, str], Counter[str]] = defaultdict(Counter)
    first_node: dict[tuple[int, str], str] = {}
    named: Counter[str] = Counter()
    for node in ctx.tables["chain_node"]:
        mention = node["mention_ar"]
        if node["method"] not in NAMING or not mention or is_kinship_pronoun(mention):
            continue
        key = (node["narrator_id"], arabic.name_key(mention))
        written[key][mention] += 1
        first_node.setdefault(key, node["source_key"])
        named[key[1]] += 1
    for (narrator, name), forms in written.items():
        count = sum(forms.values())
        if name not in arabic.NAME_PARTICLES and count >= MIN_MENTIONS and count / named[name] >= MIN_MENTION_SHARE:
            yield {
                "narrator_id": narrator,
                "form": forms.most_common(1)[0][0],
                "script": "ar",
                "kind": MENTION_KIND,
                "source_id": MENTION_SOURCE,
                "source_key": first_node[(narrator, name)],
            }


def _priors(ctx: ImportContext) -> dict[int, float]:
    counts = {row["narrator_id"]: row["chain_node_count"] for row in ctx.tables["narrator"]}
    scale = math.log1p(max(counts.values(), default=0)) or 1.0
    return {narrator: round(math.log1p(count) / scale, 4) for narrator, count in counts.items()}


def _search_form(form: Row, prior: float) -> Row:
    keyed, skeleton = (arabic.name_key, arabic.skeleton) if form["script"] == "ar" else (latin.name_key, latin.skeleton)
    return {
        "narrator_id": form["narrator_id"],
        "form": form["form"],
        "search_key": keyed(form["form"]),
        "skeleton": skeleton(form["form"]),
        "script": form["script"],
        "kind": form["kind"],
        "prior": prior,
        "source_id": form["source_id"],
        "source_key": form["source_key"],
    }


def _add_name_forms(ctx: ImportContext) -> None:
    """Every form once per narrator and search key, the dataset's first, then the rijal's, then the isnad's."""
    priors = _priors(ctx)
    seen: set[tuple[int, str]] = set()
    for form in (*_variant_forms(ctx), *_mention_forms(ctx)):
        row = _search_form(form, priors[form["narrator_id"]])
        if row["search_key"] and (row["narrator_id"], row["search_key"]) not in seen:
            seen.add((row["narrator_id"], row["search_key"]))
            ctx.add("narrator_search_form", row)
