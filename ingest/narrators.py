"""Narrators from the muslimscholars dataset: narrator, its dataset name variants and legacy fields, and
the teacher -> student relations of the dataset's student lists.

One narrator row per `scholar_indx` of the narrator index, with its row of all_rawis.csv (ingest.narrator_table,
which computes the table from the upstream copies). `name_ar` loses the honorific
formulas (رضي الله عنه, صلى الله عليه وسلم, عليه السلام, including the dataset's truncated and Urdu
spellings); `generation` is the number in the bracket of the dataset's class label ('[3rd Generation]').

Birth years are kept only where they read as years after the hijra. The dataset gives the birth years of
Companions, of the Prophet and of his family without a sign: 'Umar's "41.0" (born 40 before the hijra) is
later than his death in 23, and 'Ali's "23.0" is also a year before the hijra. Those classes, and any
birth later than the death, keep a null birth year; the raw values stay as legacy fields. A death year of
0 means unknown.

Legacy fields keep the dataset's values as given: the class label, the two dates, and the reliability
grade that the takhrij-backend repository's author derived ("Thiqa" for every Companion, "Unknown" for
everyone else; "Unknown" is not a verdict and is left out).

`grade_tier` is the search tier of a narrator's Taqrib verdict, set by the rijal step from the table
GRADE_TIERS below; this step leaves it null.
"""

import logging
import re
from collections.abc import Iterable
from typing import Any

from app.text.arabic import normalize
from app.text.latin import fold
from ingest.context import ImportContext, Row
from ingest.narrator_table import NarratorSource, narrator_sources
from ingest.verdicts import own_text

log = logging.getLogger(__name__)

STUDENT_LISTS_FILE = "narrators/kaggle_muslimscholars/all_rawis_students_edges.csv.gz"
SOURCE = "muslimscholars"  # the dataset whose all_rawis.csv gives each narrator (scholar_indx, names, dates)

NameKey = tuple[str, ...]
NAME_KEY_TOKENS = 3

_HONORIFIC = re.compile(
    r"رضي الله عنه(?:ما|ا)?"
    r"|صل\u0651?[ىی] الل[هہ] عل[يی][هہ](?: وآل[هہ])?(?: وس\S*)?"
    r"|عليه السلام"
)
_GENERATION = re.compile(r"\[(\d{1,2})(?:st|nd|rd|th) generation\]", re.IGNORECASE)
COMPANION_CLASS = "Comp."
_UNSIGNED_BIRTH_CLASSES = (COMPANION_CLASS, "Rasool Allah", "Prophet's Relative")
NOT_A_GRADE = "Unknown"
NO_STUDENTS = "NA"

# The search tier of an Ibn Hajar verdict read whole (ingest.verdicts). The tiers follow his twelve
# ranks loosely: Companions; the thiqa ranks (2-3) with the forms of the leading imams; saduq and its
# qualified forms (4-5); maqbul (6); mastur / majhul al-hal and majhul (7, 9); da'if and layyin (8);
# matruk, muttaham, kadhdhab (10-12). The verdict's first rank word (HEAD_WORDS) gives its head tier;
# without one, a form kept for the leading imams (IMAM_WORDS) gives 'thiqa'. Then the qualifiers of
# TIER_MOVES anywhere in the verdict move it down to their tier when that is lower: «صدوق اختلط جدا ولم
# يتميز حديثه فترك» is 'matruk'. The qualifiers that Ibn Hajar himself keeps inside a rank (يدلس، يرسل،
# ربما وهم، يخطئ، له أوهام، سيء الحفظ، تغير بأخرة، اختلط without «لم يتميز») leave the tier where his
# rank word puts it; they are what QUALIFIERS counts. A verdict that is another critic's word
# («وثقه العجلي») and no rank word gives no tier. Words are compared normalized (app.text.arabic.normalize).
GRADE_TIERS = ("companion", "thiqa", "saduq", "maqbul", "majhul", "daif", "matruk")
HEAD_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("companion", ("صحابي", "صحابية")),
    ("thiqa", ("ثقة", "ثبت", "متقن", "حجة", "حافظ")),
    ("saduq", ("صدوق", "صدوقة", "لا بأس به", "ليس به بأس", "محله الصدق")),
    ("maqbul", ("مقبول", "مقبولة")),
    ("majhul", ("مجهول", "مجهولة", "مستور", "مستورة", "لا يعرف", "لا تعرف", "لا يعرفو")),
    ("daif", ("ضعيف", "ضعيفة", "لين", "فيه لين", "في حديثه لين", "فيه ضعف", "ليس بالقوي", "منكر الحديث")),
    ("matruk", ("متروك", "متروكة", "متهم", "كذاب")),
)
IMAM_WORDS = ("أحد الأئمة", "أحد الأعلام", "أحد الحفاظ", "إمام", "رأس المتقنين", "متفق على", "أمير المؤمنين في الحديث")
TIER_MOVES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("daif", ("لم يتميز", "كثير الخطأ", "كثير الغلط", "كثير الوهم", "فاحش الخطأ", "فاحش الغلط", "فضعف")),
    ("matruk", ("فترك", "تركوه", "كذبوه", "يضع الحديث")),
)
QUALIFIERS = (
    "اختلط",
    "تغير",
    "يدلس",
    "دلس",
    "التدليس",
    "يرسل",
    "الإرسال",
    "يهم",
    "وهم",
    "أوهام",
    "يخطىء",
    "يخطئ",
    "الخطأ",
    "الغلط",
    "سيء الحفظ",
    "ضعيف الحفظ",
    "رمي",
    "يغرب",
    "يتشيع",
    "التشيع",
    "لم يتميز",
    "فترك",
    "عمي",
    "يلقن",
)


def _phrases(words: tuple[str, ...]) -> re.Pattern[str]:
    """Any of these words or phrases as whole words of a normalized text."""
    alternatives = sorted({normalize(word) for word in words}, key=len, reverse=True)
    return re.compile(r"(?<!\S)(?:" + "|".join(map(re.escape, alternatives)) + r")(?!\S)")


_HEADS = [(tier, _phrases(words)) for tier, words in HEAD_WORDS]
_IMAM = _phrases(IMAM_WORDS)
_MOVES = [(tier, _phrases(words)) for tier, words in TIER_MOVES]
_QUALIFIER = _phrases(QUALIFIERS)
_SEVERITY = {tier: rank for rank, tier in enumerate(GRADE_TIERS)}
# «لا يعرف اسمه» says that his name is unknown, not that he is: «أبو حية ابن قيس لا يعرف اسمه مقبول».
_NAME_UNKNOWN = re.compile(r"لا [يت]عرف اسمها?")
# Without a verdict, a notice that has no tabaqa and states companionship without hedging
# («قيل» / «يقال» / «زعم أن» ...) is a Companion's. Ibn Hajar's first tabaqa is the Companions.
_COMPANION_TABAQA = 1
_COMPANIONSHIP = re.compile(
    r"(?<!قيل )(?<!يقال )(?<!أن )(?<!إن )(?<!تثبت )(?<!تصح )(?<!ليست )(?:و?لها?|و?لها? ولأبيه) صحبة"
    r"|(?<!\S)(?:صحابية|الصحابي)(?!\S)"
    r"|من (?:كبار|صغار|أعيان|فضلاء) الصحابة"
)


def head_tier(verdict: str) -> str | None:
    """The tier of the verdict's first rank word; else 'thiqa' for a form of the leading imams."""
    words = _NAME_UNKNOWN.sub("", normalize(verdict))
    found = [(match.start(), tier) for tier, phrases in _HEADS if (match := phrases.search(words))]
    if found:
        return min(found)[1]
    return "thiqa" if _IMAM.search(words) else None


def verdict_tier(verdict: str) -> str | None:
    """The tier of a verdict read whole: its head tier, moved down by the qualifiers of TIER_MOVES."""
    words = normalize(verdict)
    tier = head_tier(verdict)
    if tier is None or tier == "companion":
        return tier
    moves = [move for move, phrases in _MOVES if phrases.search(words)]
    return max([tier, *moves], key=_SEVERITY.__getitem__)


def is_qualified(verdict: str) -> bool:
    """The verdict says more than a rank: a qualifier of QUALIFIERS (اختلط، يدلس، ربما وهم ...)."""
    return bool(_QUALIFIER.search(normalize(verdict)))


def grade_tier(verdict: str | None, tabaqa: int | None, text: str) -> str | None:
    """The tier of a Taqrib notice: 'companion' for the first tabaqa, else its verdict's tier, else
    'companion' when a notice without verdict or tabaqa states companionship."""
    if tabaqa == _COMPANION_TABAQA:
        return "companion"
    if verdict is not None:
        return verdict_tier(verdict)
    if tabaqa is not None:
        return None
    return "companion" if _COMPANIONSHIP.search(own_text(text)) else None


def is_companion_label(label: str) -> bool:
    """The dataset's class label says Companion ('Comp.(RA) [1st Generation]')."""
    return label.startswith(COMPANION_CLASS)


def name_key(name: str) -> NameKey:
    """The first three normalized tokens of a name, with «ابن» written «بن» (as the Taqrib edition does)."""
    words = ["بن" if word == "ابن" else word for word in normalize(name).split()]
    return tuple(words[:NAME_KEY_TOKENS])


def clean_name_ar(name: str) -> str | None:
    """The dataset's Arabic name without the honorific formulas; None when nothing is left."""
    return " ".join(_HONORIFIC.sub(" ", name).split()) or None


def generation(label: str) -> int | None:
    match = _GENERATION.search(label)
    return int(match.group(1)) if match else None


def hijri_year(value: str) -> int | None:
    """'53.0' -> 53; empty, 0 and unreadable values -> None."""
    try:
        year = int(float(value))
    except (ValueError, OverflowError):
        return None
    return year or None


def birth_year(source: NarratorSource) -> int | None:
    """The birth year when it reads as a year after the hijra (see the module docstring)."""
    born, died = hijri_year(source.birth), hijri_year(source.death)
    if born is None or source.label.startswith(_UNSIGNED_BIRTH_CLASSES):
        return None
    return None if died is not None and born > died else born


def keep_first(rows: Iterable[Row], key: tuple[str, ...]) -> list[Row]:
    """The rows in order, without those whose key columns repeat an earlier row's."""
    seen: set[tuple[Any, ...]] = set()
    kept = []
    for row in rows:
        values = tuple(row[column] for column in key)
        if values not in seen:
            seen.add(values)
            kept.append(row)
    return kept


def dedupe_table(ctx: ImportContext, table: str, key: tuple[str, ...]) -> None:
    ctx.tables[table] = keep_first(ctx.tables[table], key)


def number_relations(ctx: ImportContext) -> None:
    """Dedupe on (teacher, student, source); relation_id = the rank by (source, teacher, student)."""
    rows = keep_first(ctx.tables["transmission_relation"], ("teacher_id", "student_id", "source_id"))
    rows.sort(key=lambda row: (row["source_id"], row["teacher_id"], row["student_id"]))
    for rank, row in enumerate(rows, start=1):
        row["relation_id"] = rank
    ctx.tables["transmission_relation"] = rows


def _narrator_row(source: NarratorSource) -> Row:
    return {
        "narrator_id": source.scholar_indx,
        "name_ar": clean_name_ar(source.name_ar),
        "name_latin": source.name_latin or None,
        "canonical_display": source.name_latin or None,
        "name_fr": None,
        "generation": generation(source.label),
        "grade_tier": None,
        "region": None,
        "birth_year_hijri": birth_year(source),
        "death_year_hijri": hijri_year(source.death),
        "chain_node_count": 0,
        "source_id": SOURCE,
        "source_key": f"scholar_indx={source.scholar_indx}",
    }


def _variant(narrator_id: int, form: str, script: str, normalized: str) -> Row:
    return {
        "narrator_id": narrator_id,
        "form": form,
        "form_normalized": normalized,
        "script": script,
        "kind": "dataset_name",
        "source_id": SOURCE,
        "source_key": f"scholar_indx={narrator_id}",
    }


def _dataset_variants(row: Row) -> list[Row]:
    variants = []
    if row["name_ar"]:
        variants.append(_variant(row["narrator_id"], row["name_ar"], "ar", normalize(row["name_ar"])))
    if row["name_latin"]:
        latin = row["name_latin"]
        variants.append(_variant(row["narrator_id"], latin, "latin", fold(latin)))
    return [variant for variant in variants if variant["form_normalized"]]


def _legacy_fields(source: NarratorSource) -> list[Row]:
    given = (
        ("generation_label", source.label, "muslimscholars"),
        ("birth_date_hijri", source.birth, "muslimscholars"),
        ("death_date_hijri", source.death, "muslimscholars"),
        ("reliability_grade", source.reliability, "takhrij-backend"),
    )
    return [
        {
            "narrator_id": source.scholar_indx,
            "field": field,
            "value": value.strip(),
            "source_id": source_id,
            "source_key": f"scholar_indx={source.scholar_indx}",
        }
        for field, value, source_id in given
        if value.strip() and value.strip() != NOT_A_GRADE
    ]


def _add_narrators(ctx: ImportContext) -> None:
    for source in narrator_sources(ctx):
        row = _narrator_row(source)
        ctx.add("narrator", row)
        for variant in _dataset_variants(row):
            ctx.add("narrator_name_variant", variant)
        for legacy in _legacy_fields(source):
            ctx.add("narrator_legacy_field", legacy)
    dedupe_table(ctx, "narrator", ("narrator_id",))
    dedupe_table(ctx, "narrator_name_variant", ("narrator_id", "form", "source_id"))
    dedupe_table(ctx, "narrator_legacy_field", ("narrator_id", "field", "source_id"))


def _student_ids(targets: str) -> list[int] | None:
    """'2, 3, 4' -> [2, 3, 4]; 'NA' (the dataset's empty list) -> []; None when an id is not a number."""
    parts = [part.strip() for part in targets.split(",") if part.strip() not in ("", NO_STUDENTS)]
    return [int(part) for part in parts] if all(part.isdigit() for part in parts) else None


def _relation(teacher: int, student: int) -> Row:
    return {
        "teacher_id": teacher,
        "student_id": student,
        "status": "attested",
        "method": "dataset_student_list",
        "confidence": None,
        "source_id": "muslimscholars",
        "source_key": f"all_rawis.csv#scholar_indx={teacher}",
    }


def _not_a_number(teacher: str) -> str:
    return "a student id is not a number" if teacher.isdigit() else f"teacher id {teacher!r} is not a number"


def _add_student_lists(ctx: ImportContext) -> None:
    known = {row["narrator_id"] for row in ctx.tables["narrator"]}
    gaps = {"unknown id": 0, "self-loop": 0}
    for line, record in ctx.csv(STUDENT_LISTS_FILE, "teacher -> student relations", "muslimscholars"):
        students = _student_ids(record["target"])
        if not record["source"].isdigit() or students is None:
            ctx.skip(STUDENT_LISTS_FILE, line, _not_a_number(record["source"]))
            continue
        teacher = int(record["source"])
        for student in students:
            if teacher not in known or student not in known:
                gaps["unknown id"] += 1
            elif teacher == student:
                gaps["self-loop"] += 1
            else:
                ctx.add("transmission_relation", _relation(teacher, student))
    log.info("student lists: links left out: %s", gaps)


def build(ctx: ImportContext) -> None:
    """Narrators, their dataset names and legacy fields, and the dataset's teacher -> student relations."""
    _add_narrators(ctx)
    _add_student_lists(ctx)
    number_relations(ctx)
