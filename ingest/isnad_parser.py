"""Reading an isnad from Arabic text: the (transmission term, narrator mention) pairs it names, in order.

The reading is lexical. The isnad is cut at the transmission terms (حدثنا, أخبرنا, عن, أن, قال ...);
the words after a term, up to the next term, a punctuation mark, an honorific formula or a verb
that opens the report, are the mention. Where the isnad switches chain with the tahwil sign «ح»,
only the last chain is read, the one that runs on to the Companion. Where two names share one term
(«حدثنا فلان، وفلان»), the mention is the first name when a comma separates them, and both names
otherwise (a mention that then matches no single narrator).
"""

import re
from dataclasses import dataclass
from functools import cache

from app.text.arabic import normalize

TERMS = frozenset(
    {
        "حدثنا", "حدثني", "حدثناه", "حدثنيه", "حدثه", "حدثهم", "حدثها", "حدثاه", "حدثته", "حدثكم",
        "حدثتني", "حدثتنا", "اخبرنا", "اخبرني", "اخبرناه", "اخبرنيه", "اخبره", "اخبرهم", "اخبراه",
        "اخبرته", "اخبرتني", "اخبرتنا", "انبانا", "انباني", "نبانا",
        "سمعت", "سمع", "سمعا", "سمعنا", "سمعته", "سمعناه",
        "عن", "ان", "قال", "قالت", "قالا", "قالوا",
    }
)  # fmt: skip
CONJUNCTIONS = ("و", "ف")
SAYING = frozenset({"قال", "قالت", "قالا", "قالوا"})  # the terms of saying
MENTION_ENDS = frozenset({"رضي", "صلي", "انه", "انها", "انهم", "انهما", "يقول", "تقول", "يحدث", "يرفعه"})
TAHWIL = "ح"
KINSHIP_PRONOUNS = frozenset(
    {"ابيه", "ابي", "ابيها", "ابيهم", "جده", "جدي", "جدها", "امه", "امي", "عمه", "عمي", "اخيه", "اخي"}
)
_CASE_FORMS = {"ابي": "ابو", "ابا": "ابو", "ذي": "ذو", "ذا": "ذو"}
MARKS = "\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed"  # the vowel marks, inside a word
TOKEN = re.compile(rf"[\w{MARKS}]+|[^\w\s{MARKS}]")  # a word with its marks, or one punctuation mark
_ACCUSATIVE_ALIF = re.compile(r"(?:\u064bا|ا\u064b)(?=\s|$)")

_Word = tuple[str, str]  # (as written, normalized)


@dataclass(frozen=True)
class Mention:
    """One link of an isnad: the term as the text writes it, and the words that name the narrator."""

    term: str
    text: str


@cache
def normal(token: str) -> str:
    return normalize(token)


def _words(text: str) -> list[_Word]:
    return [(token, normal(token)) for token in TOKEN.findall(text)]


def bare_term(word: str) -> str:
    """A term without the «و» or «ف» written before it («فقال» -> «قال»); any other word as it is."""
    return word[1:] if word[:1] in CONJUNCTIONS and word[1:] in TERMS else word


def is_term(word: str) -> bool:
    return bare_term(word) in TERMS


def _ends_mention(word: str) -> bool:
    """Punctuation (normalized to nothing), an honorific, «أنه», a verb opening the report."""
    return not word or word in MENTION_ENDS


def _last_chain(words: list[_Word]) -> list[_Word]:
    starts = [i for i, (_, word) in enumerate(words) if word == TAHWIL]
    return words[starts[-1] + 1 :] if starts else words


def parse_isnad(text: str) -> list[Mention]:
    """The mentions of an isnad, from the compiler's end; a term with no name after it is dropped."""
    links: list[tuple[str, list[str]]] = []
    open_mention = False
    for token, word in _last_chain(_words(text)):
        if word and is_term(word):
            links.append((token, []))
            open_mention = True
        elif _ends_mention(word):
            open_mention = False
        elif open_mention:
            links[-1][1].append(token)
    return [Mention(term, " ".join(tokens)) for term, tokens in links if tokens]


def is_kinship_pronoun(mention: str) -> bool:
    """«أبيه», «عن جده»: a narrator named only by his relation to the previous one."""
    return normal(mention) in KINSHIP_PRONOUNS


def name_key(name: str) -> str:
    """The key a mention and a name variant are matched on.

    The normalized words, with the case forms of أبو and ذو unified (the isnad writes «عن أبي
    هريرة», the name lists «أبو هريرة») and the alif of an accusative tanwin dropped («سمعت أنسًا»),
    joined without spaces («عبدالله» = «عبد الله»).
    """
    words = normal(_ACCUSATIVE_ALIF.sub("", name)).split()
    return "".join(_CASE_FORMS.get(word, word) for word in words)
