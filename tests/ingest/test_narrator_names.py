"""Whether a mention names a narrator, on mentions and names as the texts and the dataset write them."""

import pytest

from ingest.narrator_names import NameForms

HISHAM = 11065  # هشام بن عروة
URWA = 10511  # عروة بن الزبير
NAMES = {
    19911: "شعيب بن محمد بن عبد الله بن عمرو",
    11213: "محمد بن إبراهيم بن الحارث",
    30022: "زهير بن حرب بن شداد أبو خثيمة",
    11161: "ذكوان أبو صالح السمان",
    18: "عبد الله بن عمر بن الخطاب",
    10567: "أبو سلمة بن عبد الرحمن بن عوف",
    11222: "محمد بن يحيى بن حبان",
    53: "أمّ المؤمنين عائشة بنت أبي بكر الصديق",
    HISHAM: "هشام بن عروة",
    URWA: "عروة بن الزبير",
}
FORMS = NameForms(NAMES.items(), [])


@pytest.mark.parametrize(
    ("mention", "narrator"),
    [
        ("مُحَمَّدُ بْنُ إِبْرَاهِيمَ التَّيْمِيُّ", 11213),  # a nisba his forms lack
        ("أَبُو خَيْثَمَةَ، زُهَيْرُ بْنُ حَرْبٍ", 30022),  # the dataset spells the kunya خثيمة
        ("أَبِي، سَلَمَةَ", 10567),  # a comma inside the kunya
        ("عَائِشَةَ، زَوْجَ النَّبِيِّ", 53),  # a description after the name
        ("عَبْدِ اللَّهِ بْنِ عُمَرَ", 18),
        ("ابْنِ عُمَرَ", 18),
    ],
)
def test_a_mention_names_the_man_it_names(mention: str, narrator: int) -> None:
    assert FORMS.names(mention, narrator)


@pytest.mark.parametrize(
    ("mention", "narrator"),
    [
        ("عَمْرِو بْنِ شُعَيْبٍ", 19911),  # his son: the nasab read the wrong way
        ("مُحَمَّدُ بْنُ يَحْيَى بْنِ فَارِسٍ", 11222),  # another Muhammad b. Yahya
        ("سَلْمَانَ", 11161),  # one letter from السمان, in a name too short to be a spelling
        ("تَعْبُدَ اللَّهَ", 18),  # «that you worship God», not a name
        ("أَبِي", 10567),  # a kunya cut short
        ("أَبِيهِ", URWA),  # a relation names nobody by itself
    ],
)
def test_a_mention_does_not_name_another_man(mention: str, narrator: int) -> None:
    assert not FORMS.names(mention, narrator)


def test_a_relation_is_read_through_the_narrator_before_it() -> None:
    assert FORMS.relation_holds("أَبِيهِ", HISHAM, URWA)
    assert not FORMS.relation_holds("أَبِيهِ", URWA, HISHAM)


HOMONYMS = NameForms(
    {
        11062: "يحيى بن سعيد بن قيس الأنصاري",
        20031: "يحيى بن سعيد بن فروخ القطان",
        400: "البراء بن عازب بن الحارث",
        10795: "عبيد بن البراء بن عازب الأنصاري الحارثي",
        17: "عبد الله بن العباس بن عبد المطلب",
        100: "العباس بن عبد المطلب بن هاشم",
        29: "عبد الله بن عمرو بن العاص",
        34: "جابر بن عبد الله بن عمرو السلمي الأنصاري",
    }.items(),
    [(34, "عبد الله")],  # an isnad form of Jabir's, as AR-Sanad gives it
)


@pytest.mark.parametrize(
    ("mention", "named"),
    [
        ("يَحْيَى بْنُ سَعِيدٍ", {11062, 20031}),  # the homonyms: nothing in the words tells them apart
        ("يَحْيَى بْنُ سَعِيدٍ الْأَنْصَارِيُّ", {11062}),  # the nisba is al-Ansari's alone
        ("الْبَرَاءَ", {400}),  # not his son 'Ubayd b. al-Bara': a forebear's name opens no form of his
        ("ابْنِ عَبَّاسٍ", {17}),  # the son of al-'Abbas, not al-'Abbas himself
        ("عَبْدِ اللَّهِ بْنِ عَمْرٍو", {29}),  # no one form of Jabir's says it
        ("أَبِيهِ", set()),  # a relation names nobody by itself
    ],
)
def test_a_mention_names_word_for_word_every_narrator_whose_forms_carry_it(mention: str, named: set[int]) -> None:
    assert HOMONYMS.named(mention) == named
