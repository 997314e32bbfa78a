"""The Arabic normalizer and the Latin folding: the rules the importer indexes with and every query meets."""

import pytest

from app.text import arabic, latin


@pytest.mark.parametrize(
    ("written", "normalized"),
    [
        ("إِنَّمَا الأَعْمَالُ بِالنِّيَّاتِ", "انما الاعمال بالنيات"),  # tashkil, hamza on alef
        ("بِسْمِ ٱللَّهِ ٱلرَّحْمَٰنِ ٱلرَّحِيمِ", "بسم الله الرحمن الرحيم"),  # alef wasla, superscript alef
        ("صَلَّى اللَّهُ عَلَيْهِ وَسَلَّمَ", "صلي الله عليه وسلم"),  # alef maqsura -> ya
        ("آمَنَ بِاللهِ", "امن بالله"),  # alef madda
        ("مُؤْمِنٌ", "مومن"),
        ("شَيْئًا", "شييا"),
        ("الـــرحمـــن", "الرحمن"),  # tatweel
        ("فاطمة", "فاطمه"),  # ta marbuta
        ("ذَٰلِكَ لَا رَيْبَ ۛ فِيهِ ۛ هُدًى", "ذلك لا ريب فيه هدي"),  # Quranic pause marks
        ("کتاب یوسف", "كتاب يوسف"),  # Persian keheh and yeh
        ("ہدایۃ", "هدايه"),  # Urdu heh goal, teh marbuta goal
        ("حديث ١٢٣ و ۴۵", "حديث 123 و 45"),  # Eastern Arabic and Persian digits
        ("«قَالَ»: نَعَمْ، (حَسَنٌ)؛ صَحِيحٌ!", "قال نعم حسن صحيح"),  # punctuation and quotation marks
        ("حدثنا\u200f الحميدي", "حدثنا الحميدي"),  # a right-to-left mark is no word
        ("بال\u200cنيات", "بالنيات"),  # nor is a zero-width non-joiner: it does not split the word
        ("رسول الله ﷺ", "رسول الله صلي الله عليه وسلم"),  # presentation forms, the ligature spelled out
        ("ﻻ إله", "لا اله"),
    ],
)
def test_normalize_folds_what_people_type_and_sources_print_alike(written: str, normalized: str) -> None:
    assert arabic.normalize(written) == normalized


def test_normalize_is_idempotent_and_tokens_are_its_words() -> None:
    text = "حَدَّثَنَا الْحُمَيْدِيُّ عَبْدُ اللَّهِ بْنُ الزُّبَيْرِ، قَالَ:"
    assert arabic.normalize(arabic.normalize(text)) == arabic.normalize(text)
    assert arabic.tokens(text) == ["حدثنا", "الحميدي", "عبد", "الله", "بن", "الزبير", "قال"]


@pytest.mark.parametrize(
    ("word", "stem"),
    [
        ("بالنيات", "نيات"),
        ("النيات", "نيات"),
        ("نيات", "نيات"),
        ("والاعمال", "اعمال"),
        ("فقال", "قال"),
        ("وبالله", "الله"),  # و + ب: what is left would be too short without the article
        ("الله", "الله"),
        ("للناس", "ناس"),  # ل + ال written لل
        ("كالبحر", "بحر"),
        ("ولد", "ولد"),  # a root letter is no prefix when too little would be left
        ("كتب", "كتب"),
        ("بيت", "بيت"),
    ],
)
def test_stem_drops_the_attached_prefixes(word: str, stem: str) -> None:
    assert arabic.stem(word) == stem


def test_stems_are_the_stems_of_the_normalized_words() -> None:
    assert arabic.stems("إنما الأعمالُ بالنيّات") == ["انما", "اعمال", "نيات"]


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("عن أبي هريرة", "عن أبو هريرة"),  # the case forms of ابو
        ("ذي الخويصرة", "ذو الخويصرة"),
        ("عبد الله ابن عمر", "عبد الله بن عمر"),
        ("عبدالله بن مسعود", "عبد الله بن مسعود"),
        ("سمعت أنسًا", "سمعت انس"),  # the alif of an accusative tanwin
        ("سمعت عَلِيًّا", "سمعت علي"),  # the tanwin written before the shadda
        ("سمعت عَلِيًّا", "سمعت علي"),  # or after it
        ("الزُّهْرِيِّ", "الزهري"),
    ],
)
def test_arabic_name_keys_meet_across_case_forms_and_spellings(one: str, other: str) -> None:
    assert arabic.name_key(one) == arabic.name_key(other)


@pytest.mark.parametrize(
    ("arabic_name", "latin_name"),
    [
        ("ابن شهاب", "Ibn Shihab"),
        ("الزهري", "az-Zuhri"),
        ("أبو هريرة", "Abu Hurairah"),
        ("عبد الله بن عمر", "Abdullah ibn Umar"),
        ("عبد الرحمن بن عوف", "Abdur Rahman ibn Awf"),
        ("مالك بن أنس", "Malik ibn Anas"),
        ("سفيان الثوري", "Sufyan ath-Thawri"),
        ("طلحة", "Talha"),
    ],
)
def test_arabic_and_latin_skeletons_meet(arabic_name: str, latin_name: str) -> None:
    assert arabic.skeleton(arabic_name) == latin.skeleton(latin_name)


def test_skeletons_keep_different_names_apart() -> None:
    assert arabic.skeleton("أبو هريرة") != latin.skeleton("Abu Bakr")
    assert arabic.skeleton("عبد الله بن عباس") != latin.skeleton("Abdullah ibn Umar")


@pytest.mark.parametrize(
    ("text", "is_arabic"),
    [
        ("إنما الأعمال بالنيات", True),
        ("صحيح البخاري 1", True),
        ("Le Prophète (ﷺ) a dit", False),  # a ligature in French text is no Arabic query
        ("Bukhari ١", False),
        ("az-Zuhri", False),
    ],
)
def test_the_script_of_a_query_is_the_script_of_most_of_its_letters(text: str, is_arabic: bool) -> None:
    assert arabic.is_arabic(text) is is_arabic


@pytest.mark.parametrize(
    ("name", "folded"),
    [
        ("ʿĀʾisha", "aisha"),
        ("Sa‘id bin Abi Waqqas", "said bin abi waqqas"),
        ("  Abû   Hurayra ", "abu hurayra"),
        ("ʿUmar", "umar"),
        ("Œuvre", "oeuvre"),
    ],
)
def test_fold_lowers_and_drops_diacritics_and_apostrophes(name: str, folded: str) -> None:
    assert latin.fold(name) == folded


@pytest.mark.parametrize(
    "spellings",
    [
        ("Abu Hurairah", "Abu Hurayra", "Abu Huraira", "abou hourayra", "Aboo Hurayrah", "Abi Hurairah"),
        ("az-Zuhri", "al-Zuhri", "Zuhri", "al Zohri", "ez-Zouhri"),
        ("Abdullah", "Abd Allah", "Abdallah", "'Abdoullah"),
        ("Abdur Rahman", "Abd al-Rahman", "Abdul Rahman", "Abdurrahman", "'Abd ar-Rahman"),
        ("Ibn Umar", "bin Umar", "b. Umar", "ben Omar", "Ibn 'Umar"),
        ("Dhahabi", "Zahabi", "adh-Dhahabi"),
        ("Sufyan ath-Thawri", "Sufyan al-Sawri", "Soufyane ath-Thawri"),
        ("Aisha", "Aïcha", "Aishah", "'A'ishah"),
        ("Uthman", "Othman", "Osman", "'Uthmaan"),
        ("Ayyub", "Ayoub", "Ayub"),
        ("Dawud", "Daoud", "Dawood", "Daud"),
        ("Imam Maalik", "Malik"),
        ("Qatada", "Qatadah", "Katada"),
        ("Muhammad", "Mohammed", "Muhammed"),
    ],
)
def test_latin_name_keys_meet_across_transliterations(spellings: tuple[str, ...]) -> None:
    assert len({latin.name_key(spelling) for spelling in spellings}) == 1, [latin.name_key(s) for s in spellings]


def test_latin_name_keys_keep_different_names_apart() -> None:
    assert latin.name_key("Hasan") != latin.name_key("Husayn")
    assert latin.name_key("Umar") != latin.name_key("Amr")
    assert latin.name_key("Anas ibn Malik") != latin.name_key("Malik ibn Anas")


def test_words_of_a_french_text_are_folded_and_split_at_apostrophes() -> None:
    assert latin.words("L’intention des Prières, « à Médine »") == ["l", "intention", "des", "prieres", "a", "medine"]


def test_word_pairs_are_the_words_and_each_two_that_stand_together_once_each() -> None:
    text = "عن عبد الله عن عبد الله بن عمر"
    phrase = "عبد الله بن"

    assert arabic.word_pairs("عن عبد الله") == ["الله", "عبد", "عبد الله", "عن", "عن عبد"]
    assert set(arabic.word_pairs(phrase)) <= set(arabic.word_pairs(text))  # a text holds its phrases' pairs
    assert not set(arabic.word_pairs("الله عمر")) <= set(arabic.word_pairs(text))  # not standing together
    assert arabic.word_pairs("") == []


def test_a_phrase_is_looked_up_by_its_pairs_which_find_the_texts_its_words_and_pairs_find() -> None:
    texts = ["عن عبد الله عن عبد الله بن عمر", "عبد بن الله", "الله عبد", "عبد الله"]
    phrases = ["عبد الله بن", "عبد الله", "الله عبد", "بن عمر عن", "عبد", "عمر"]

    assert arabic.phrase_pairs("عن عبد الله") == ["عبد الله", "عن عبد"]
    assert arabic.phrase_pairs("عبد") == ["عبد"]
    assert arabic.phrase_pairs("") == []
    for phrase in phrases:
        by_pairs = [text for text in texts if set(arabic.phrase_pairs(phrase)) <= set(arabic.word_pairs(text))]
        by_words_and_pairs = [text for text in texts if set(arabic.word_pairs(phrase)) <= set(arabic.word_pairs(text))]
        assert by_pairs == by_words_and_pairs, phrase
