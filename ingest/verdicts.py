"""Ibn Hajar's verdict read whole from a Taqrib notice, and the tabaqa he states in words.

A Taqrib notice runs: the name and its notes, the verdict, the tabaqa («من السادسة»), the death, the
book sigla. The verdict is read verbatim from the notice text, from its first verdict word to the
tabaqa; when words follow the tabaqa before the death or the sigla («من رؤوس الطبقة السابعة وكان ربما
دلس»), the verdict runs on to them, so that no qualifier is cut. Without a tabaqa it ends at the death
or the sigla. A notice where no verdict word opens a verdict has none: the assertion is then absent,
never guessed. Cross-references after «[]» are other notices and are not read.

A verdict opens with a term of Ibn Hajar's twelve ranks or its feminine (RANK_WORDS), another
critic's verdict that he reports (REPORTED_VERDICTS: «وثقه العجلي», «تركه الدارقطني»), or a form he
keeps for the leading imams (IMAM_FORMS: «أحد الأئمة», «إمام حجة», «رأس المتقنين», «متفق على
جلالته», «أمير المؤمنين في الحديث»). The epithets «الفقيه», «الحافظ», «الإمام» written just before
such a form belong to it (al-Zuhri: «الفقيه الحافظ متفق على جلالته وإتقانه»). «إمام» alone is not an
opening: it also names an office («إمام مسجد ...»), nor is «لا يعرف اسمه» (his name is unknown).
"""

import re

from ingest.sigla import SIGLA

_WORD_START = r"(?<![^\s\[])"
_WORD_END = r"(?![^\s\]])"


def _words(*forms: str) -> str:
    return _WORD_START + "(?:" + "|".join(forms) + ")" + _WORD_END


RANK_WORDS = (
    "ثقة",
    "ثبت",
    "متقن",
    "صدوقة?",
    "لا بأس به",
    "ليس به بأس",
    "مقبولة?",
    "مستورة?",
    "مجهولة?",
    "لا يعرفو?(?! اسمه)",
    "لا تعرف(?! اسمها)",
    "ضعيفة?",
    "لين(?: الحديث)?",
    "فيه لين",
    "في حديثه لين",
    "فيه ضعف",
    "ليس بالقوي",
    "منكر الحديث",
    "متروكة?",
    "متهم",
    "كذاب",
    "صحابية?",
)
REPORTED_VERDICTS = ("وثقه", "ضعفه", "تركه", "كذبه", "لينه", "تكلم فيه")
IMAM_FORMS = (
    "أحد الأئمة",
    "أحد الأعلام",
    "أحد الحفاظ",
    "إمام (?:حجة|حافظ|ثبت|مشهور|دار الهجرة|أهل)",
    "رأس المتقنين",
    "متفق على (?:جلالته|إمامته|توثيقه)",
    "أمير المؤمنين في الحديث",
)
_EPITHETS = r"(?:(?:الفقيه|الحافظ|الإمام) )*"
VERDICT_OPENING = re.compile(
    _WORD_START + _EPITHETS + "(?:" + _words(*RANK_WORDS, *REPORTED_VERDICTS) + "|" + _words(*IMAM_FORMS) + ")"
)

_ORDINALS = (
    "الأولى",
    "الثانية",
    "الثالثة",
    "الرابعة",
    "الخامسة",
    "السادسة",
    "السابعة",
    "الثامنة",
    "التاسعة",
    "العاشرة",
    "الحادية عشرة",
    "الثانية عشرة",
)
# «من الرابعه»: the edition sometimes writes the final ة as ه.
_ORDINAL = "|".join(ordinal.replace("ة", "[ةه]") for ordinal in sorted(_ORDINALS, key=len, reverse=True))
_NUMBER_OF_ORDINAL = {ordinal.replace("ة", "ه"): number for number, ordinal in enumerate(_ORDINALS, start=1)}
TABAQA = re.compile(
    r"(?<!\S)(?:وهو )?\[?(?:من|رأس) (?:(?:رؤوس|كبار|صغار|أوساط|أواسط) )?(?:الطبقة )?(" + _ORDINAL + r")\]?(?![^\s.])"
)
DEATH = re.compile(r"(?<!\S)(?:و?مات|و?توفي|و?قتل|و?استشهد)(?!\S)")
_CROSS_REFERENCES = "[]"
# Trailing words that end a notice without being part of the verdict: «أيضا» after the tabaqa, the
# book sigla, «تمييز» (a namesake listed only to tell him apart).
_TAIL_WORDS = SIGLA | {"أيضا", "تمييز"}


def own_text(text: str) -> str:
    """The notice without the cross-references to other notices that follow «[]»."""
    return text.split(_CROSS_REFERENCES, 1)[0]


def stated_tabaqa(text: str) -> int | None:
    """The tabaqa the notice states in words («من السادسة», «من رؤوس الطبقة السابعة»), 1-12."""
    match = TABAQA.search(own_text(text))
    return _NUMBER_OF_ORDINAL[match.group(1).replace("ة", "ه")] if match else None


def _is_tail(words: list[str]) -> bool:
    return all(word.strip("[]") in _TAIL_WORDS for word in words)


def _end(text: str, start: int) -> int:
    """Where the verdict that opens at `start` ends (see the module docstring)."""
    death = DEATH.search(text, start)
    stop = death.start() if death else len(text)
    tabaqa = TABAQA.search(text, start, stop)
    if tabaqa and _is_tail(text[tabaqa.end() : stop].split()):
        return tabaqa.start()
    words = text[start:stop].split()
    while words and _is_tail(words[-1:]):
        words.pop()
    return start + len(" ".join(words)) if words else start


def read_verdict(text: str) -> str | None:
    """Ibn Hajar's verdict in a Taqrib notice, verbatim; None when no verdict word opens one."""
    notice = " ".join(own_text(text).split())
    opening = VERDICT_OPENING.search(notice)
    if opening is None:
        return None
    verdict = notice[opening.start() : _end(notice, opening.start())].strip()
    return verdict or None
