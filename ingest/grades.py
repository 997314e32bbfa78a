"""The class of a hadith grade: the grader's wording, looked up in a table of the wordings the sources use.

A grade is kept as its source words it; its class only groups the wordings that say the same thing, so that a
reader can filter on it. The class is read from the table below, never guessed: a wording the table does not
hold is `unclassified` (a grade with a reservation on part of the text, two verdicts for two narrations, a
takhrij with a verdict on the isnad), and the verbatim grade is the only thing to read then.

The table's keys are the wordings with their spaces collapsed and their case folded. hadith-api words its
graders' verdicts in transliterated English (`Sahih`, `Isnaad Hasan`, `Mauquf Daif`); the LK corpus in Arabic
(`صحيح الإسناد`), with a few rows in English (`Daif - Weak`). A verdict on a companion's word (mawquf) or a
successor's (maqtu) keeps that scope in its class: `sahih_mawquf` is no verdict on the Prophet's word.
Zubair Ali Zai's `Sahih Bukhari (1023) Sahih Muslim (894)` refers the hadith to the two Sahihs by number:
its class `in_sahihayn` says that, and no more.
"""

import re

UNCLASSIFIED = "unclassified"
NO_GRADE = "no_grade"  # the source's grade field holds a placeholder, not a grade

WORDINGS: dict[str, tuple[str, ...]] = {
    "sahih": (
        "Sahih",
        "Sahih Hadith",
        "Sahih - Agreed Upon",
        "Sahih - Bukhari And Muslim",
        "Sahih Mutawatir",
        "Sahih - Authentic",
        "صحيح",
        "صحيح متواتر",
        "صحيح مرفوع",
    ),
    "sahih_li_ghayrihi": ("Sahih Lighairihi", "صحيح لغيره"),
    "sahih_matn": ("Sahih Matn",),
    "hasan_sahih": ("Hasan Sahih", "حسن صحيح"),
    "hasan": ("Hasan", "حسن"),
    "hasan_li_ghayrihi": ("Hasan Lighairihi", "حسن لغيره"),
    "daif": ("Daif", "Daif - Weak", "ضعيف"),
    "very_daif": ("Very Daif", "ضعيف جدا"),
    "munkar": ("Munkar", "Daif Munkar", "Munkar Daif", "منكر", "ضعيف منكر"),
    "shadh": ("Shadh", "شاذ"),
    "mawdu": ("Mawdu", "Maudu - Fabricated", "موضوع"),
    "batil": ("Batil",),
    "sahih_isnad": ("Isnaad Sahih", "Sahih Isnaad", "صحيح الإسناد"),
    "hasan_sahih_isnad": ("Hasan Sahih Isnaad", "حسن صحيح الإسناد"),
    "hasan_isnad": ("Isnaad Hasan", "Hasan Isnaad", "حسن الإسناد"),
    "daif_isnad": ("Daif Isnaad", "Isnaad Daif", "Sanad Daif", "ضعيف الإسناد"),
    "very_daif_isnad": ("Very Daif Isnaad",),
    "sahih_mawquf": ("Mauquf Sahih", "Sahih Muquf", "صحيح موقوف"),
    "sahih_li_ghayrihi_mawquf": ("Mauquf Sahih Lighairihi",),
    "hasan_mawquf": ("Mauquf Hasan", "حسن موقوف"),
    "daif_mawquf": ("Mauquf Daif", "Daif Muquf", "ضعيف موقوف"),
    "sahih_isnad_mawquf": ("Sahih Isnaad Mauquf", "صحيح الإسناد موقوف"),
    "hasan_isnad_mawquf": ("حسن الإسناد موقوف",),
    "daif_isnad_mawquf": ("ضعيف الإسناد موقوف",),
    "sahih_maqtu": ("Maqtu Sahih", "Sahih Maqtu", "صحيح مقطوع"),
    "hasan_maqtu": ("Maqtu Hasan", "Hasan Maqtu", "حسن مقطوع"),
    "daif_maqtu": ("Maqtu Daif", "Daif Maqtu", "ضعيف مقطوع"),
    "sahih_isnad_maqtu": ("Sahih Isnaad Maqtu", "صحيح الإسناد مقطوع"),
    "hasan_isnad_maqtu": ("حسن الإسناد مقطوع",),
    "daif_isnad_maqtu": ("Daif Isnaad Maqtu", "ضعيف الإسناد مقطوع"),
    "sahih_isnad_mursal": ("Sahih Isnaad Mursal",),
    "daif_mursal": ("ضعيف مرسل",),
    "mawquf": ("Mauquf", "موقوف"),
    "maqtu": ("Maqtu", "مقطوع"),
    "mursal": ("Mursal",),
    NO_GRADE: ("-",),
}
CLASSES: tuple[str, ...] = (*WORDINGS, "in_sahihayn", UNCLASSIFIED)

# One or both of 'Sahih Bukhari' and 'Sahih Muslim', each with its numbers or none, and nothing else.
SAHIHAYN_REFERENCE = re.compile(r"(?:sahih (?:bukhari|muslim)(?: \([^()]*\))? ?)+")


def _key(wording: str) -> str:
    return " ".join(wording.split()).casefold()


CLASS_OF_WORDING: dict[str, str] = {_key(w): name for name, wordings in WORDINGS.items() for w in wordings}


def grade_class(wording: str) -> str:
    """The class of a grade as its source words it; `unclassified` where the table does not know the wording."""
    key = _key(wording)
    if key in CLASS_OF_WORDING:
        return CLASS_OF_WORDING[key]
    return "in_sahihayn" if SAHIHAYN_REFERENCE.fullmatch(key) else UNCLASSIFIED
