"""Word-level helpers shared by the offline strategy: stopwords, light stemming, content words and
the sentence filters that keep fragments, headings and table dumps out of answers.

Everything here is plain string processing, so it is deterministic and needs no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from corpus.text import stopwords, word_tokens
from strategies.reading.lexicon.function_words import QUESTION_AUXILIARIES
from strategies.reading.lexicon.instructions import INJECTION_WORDS
from strategies.reading.lexicon.negation import MARKED_IMPERATIVE
from strategies.reading.lexicon.question_words import OUTCOME_VERBS, QUESTION_WORDS
from strategies.reading.lexicon.stoplists import GENERIC_WORDS
from strategies.reading.lexicon.verbs import VERBISH
from strategies.reading.tuning import TUNING

_SUFFIXES = ("ations", "ation", "ings", "ing", "tions", "tion", "ied", "ies", "ed", "es", "s", "ly", "e")
# Derivations the suffix strip cannot join (retain/retention).
_STEM_EQUIVALENTS = {"reten": "retai"}


# Stand-alone separator glyphs of menus, breadcrumbs and link lists ("Home · Docs › Guide"): two of
# them make a "sentence" navigation, not prose.
_SEPARATOR = re.compile(r"(?:^|\s)[•·›»^](?=\s|$)")

_WORD = re.compile(r"[^\W\d_][\w'’]*(?:-[^\W_]+)*", re.UNICODE)
# A content word: ``corpus.text.word_tokens``'s, but a measure at a cut-off ("R@10", "nDCG@5") is one
# word: "R@3" and "R@10" name different columns.
_CONTENT_TOKEN = re.compile(r"\w+(?:@\d+)?")
_NUMERIC = re.compile(r"^[\d.,%-]+$")
_REFERENCE_LINE = re.compile(r"^\s*\[\d+\]|\(\d{4}\)\.\s")
_LABEL = re.compile(r"^\s*[\w ]{1,30}:\s")
_FIGURE_REFERENCE = re.compile(r"^(?:Table|Figure|Fig\.|Tab\.)\s*\d", re.IGNORECASE)


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    if "-" in w:
        w = w.split("-", 1)[0] or w  # "pedestrian-level" -> "pedestrian"
    for suffix in _SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            if suffix == "s" and w.endswith(("ss", "us")):
                continue
            w = w[: -len(suffix)] + ("y" if suffix in ("ies", "ied") else "")
            break
    w = w[: TUNING.sentences.stem_length]
    return _STEM_EQUIVALENTS.get(w, w)


# An abbreviation: two to six capitals ("SOTA", "LLM"); a run of words, for its initials.
_CAPITALS = re.compile(r"\b([A-Z]{2,6})s?\b")
_LETTERS = re.compile(r"[A-Za-z]+")
# "the CorvidBERT paper", "this study", "Lumen's survey", "the Lumen authors": a determiner or a name,
# then a document noun or the document's writers.
_DOCUMENT_REFERENCE = re.compile(
    r"\b((?:the|this|that|its|their|our)\s+(?:[A-Z0-9][\w-]*['’]?s?\s+){0,3}|[A-Z][\w-]*['’]s\s+)"
    r"(?:paper|article|preprint|study|survey|report|authors)\b"
)

# A part of a named document a question reads from: "Lumen's comparison table", "Lumen's Figure 2".
# The name says which document; the part's words ("comparison table") are no words of what is asked.
_SOURCE_PART = re.compile(r"\b([A-Z][\w-]*['’]s)\s+(?:[a-z]+\s+){0,2}(?:table|figure|appendix)s?\b")

# "according to X": X is where the answer is to be read, up to the clause's end.
_ACCORDING_TO = re.compile(r"\s*\baccording\s+to\b[^,;?]*", re.I)

# A verb of two words a question uses for one: its light verb ("took" of "took part") is no term, and
# the one word says what the sentences say ("participants", "performed").
# Source: standard English phrasal verbs.
_PHRASAL_VERBS = (
    (re.compile(r"\b(?:take|takes|taking|took|taken)\s+part\b", re.I), "participate"),
    (re.compile(r"\bcarr(?:y|ies|ied|ying)\s+out\b", re.I), "perform"),
    (re.compile(r"\b(?:make|makes|making|made)\s+use\s+of\b", re.I), "use"),
    # "papers that come with full text" are papers that have it (a table prints "w/", "with").
    (re.compile(r"\b(?:come|comes|coming|came)\s+with\b", re.I), "have"),
)


def one_word_verbs(question: str) -> str:
    """``question`` with each verb of two words written as one ("participate" for "take part")."""
    for pattern, verb in _PHRASAL_VERBS:
        question = pattern.sub(verb, question)
    return question


def stems_match(a: str, b: str) -> bool:
    if a == b:
        return True
    if min(len(a), len(b)) < TUNING.sentences.min_prefix_match:
        return False
    return a.startswith(b) or b.startswith(a)


def words(text: str) -> list[str]:
    """Word tokens, lower-cased, hyphenated words kept whole ("street-level")."""
    return [w.lower() for w in _WORD.findall(text)]


def content_words(text: str, extra_stop: frozenset[str] = frozenset()) -> list[str]:
    """Lower-cased tokens that are neither stopwords nor numbers, in order, without repeats."""
    stop = stopwords() | GENERIC_WORDS | extra_stop
    seen: dict[str, None] = {}
    for tok in _CONTENT_TOKEN.findall(text.lower()):
        if tok in stop or len(tok) < 2 or tok.isdigit() or _NUMERIC.match(tok):
            continue
        seen.setdefault(tok, None)
    return list(seen)


def content_stems(text: str, extra_stop: frozenset[str] = frozenset()) -> list[str]:
    """Stems of the content words, in order of first appearance, without repeats."""
    return list(dict.fromkeys(stem(w) for w in content_words(text, extra_stop)))


# A version written as its number ("GROBID v0.5.5", "V2.1") says the word "version": a question asking
# which version is answered by it, whose own sentence never writes the word.
_VERSION_NUMBER = re.compile(r"(?<![\w.])[vV]\d+(?:\.\d+)+\b")


def sentence_stems(text: str) -> frozenset[str]:
    """The content stems of a sentence as the question's terms are matched against it: its words', and
    the word a number says (``_VERSION_NUMBER``)."""
    stems = content_stems(text)
    if _VERSION_NUMBER.search(text):
        stems.append(stem("version"))
    return frozenset(stems)


def abbreviations(question: str) -> dict[str, str]:
    """What an abbreviation may stand for in the question: the initials of each run of two to five of
    its words that starts and ends on a content word, lower-cased, with the run ("sota": "state of the
    art"; never "ai": "an image")."""
    words = _LETTERS.findall(question)
    runs: dict[str, str] = {}
    for n in range(5, 1, -1):
        for i in range(len(words) - n + 1):
            run = words[i : i + n]
            if run[0].lower() not in stopwords() and run[-1].lower() not in stopwords():
                runs.setdefault("".join(w[0].lower() for w in run), " ".join(run))
    return runs


def spelled_out(question: str, text: str) -> str:
    """``text`` with each abbreviation that stands for a run of the question's words written as that
    run ("new SOTA results" for "Does X achieve a new state of the art?" reads "new state of the art
    results"), so a sentence is read in the question's words."""
    runs = abbreviations(question)
    return _CAPITALS.sub(lambda m: runs.get(m.group(1).lower(), m.group(0)), text)


def without_source(question: str) -> str:
    """The question without the document it names as its source ("… in the CorvidBERT paper", "…
    according to the dataset comparison table"): what it asks of the text, not which text."""
    return _SOURCE_PART.sub("", _DOCUMENT_REFERENCE.sub("", _ACCORDING_TO.sub("", question)))


def source_names(question: str) -> tuple[str, ...]:
    """The words of the names of the documents ``question`` reads from, lower-cased: ("longeval",) of
    "What is X in LongEval's table of datasets?", of "the LongEval authors" (``_DOCUMENT_REFERENCE``,
    ``_SOURCE_PART``); none of "this study"."""
    found = [*_DOCUMENT_REFERENCE.finditer(question), *_SOURCE_PART.finditer(question)]
    said = dict.fromkeys(w for m in found for w in word_tokens(m.group(1)))
    return tuple(w for w in said if w not in QUESTION_WORDS and w not in stopwords() and w != "s")


def question_terms(question: str) -> list[str]:
    """The content words of a question, without the question template ("what does the evidence say")
    and without the noun of a document it names as its source ("in *the CorvidBERT paper*", "this
    study"): the name says which document, the noun nothing about what is asked."""
    # A yes/no question opens with an auxiliary ("Does X achieve …?"): its verb is what it asks.
    opening = question.split(maxsplit=1)[:1]
    asking = (
        QUESTION_WORDS if opening and opening[0].lower() in QUESTION_AUXILIARIES else QUESTION_WORDS | OUTCOME_VERBS
    )
    # "according to X" says where to read, not what: X's words are in every sentence of it.
    question = one_word_verbs(_ACCORDING_TO.sub("", question))
    return content_words(_SOURCE_PART.sub(r"\1", _DOCUMENT_REFERENCE.sub(r"\1", question)), asking)


def matched(term_stem: str, stems: set[str] | frozenset[str]) -> bool:
    return term_stem in stems or any(stems_match(term_stem, s) for s in stems)


def is_listed_verb(word: str) -> bool:
    return word in VERBISH


def is_past_form(word: str) -> bool:
    return len(word) >= 5 and word.endswith("ed")


def is_verbish(word: str) -> bool:
    return is_listed_verb(word) or is_past_form(word)


# A finite verb the list does not hold, read from its place: a word in -s/-es right after a noun
# phrase and right before what a verb takes as object or complement (an article, a possessive, a
# figure, a quantifier: "AdaSD *achieves* a speedup", "the layer *absorbs* 40%"). A plural noun seldom
# stands there ("roofs the"), and a verb list, however long, always misses the next paper's verb.
_OBJECT_START = (
    r"(?:a|an|the|its|their|his|her|our|this|these|those|no|some|most|many|much|more|less|fewer|up to|"
    r"over|under|about|around|nearly|almost|roughly|approximately|only|both|each|every|all|several)\b|"
    r"[$€£]?\d"
)
_THIRD_PERSON = re.compile(
    rf"(?<![\w'’-])(?!(?:is|was|has|does|this|thus|its|us|as|plus|less|always|perhaps|whereas|yes|"
    rf"various|previous|numerous|famous|serious|analysis|basis|thesis|axis|series|species|news|"
    rf"means|ways|times|years|days|hours)\s)[a-z]{{2,}}s(?<![su]s)(?<!ics)\s+(?:{_OBJECT_START})",
)
# A plural subject opening the sentence takes its verb in the base form, which the -s rule above
# cannot see: "Tokens *expire* after 30 days", "Users *need* an API key". A verb stands right after it
# when what follows is an object or a time ("after", "before", "within", "until").
_PLURAL_SUBJECT = re.compile(
    rf"^(?:(?:the|these|those|all|most|many|some|our|your|their)\s+)?(?:[a-z][\w-]*\s+)?[a-z][\w-]*[a-z]s\s+"
    rf"(?!(?:of|and|or|in|on|for|to|with|from|by|at|as|is|are|were|was|have|had|do|did|can|may|will)\s)"
    rf"[a-z]{{3,}}\s+(?:{_OBJECT_START}|(?:after|before|within|until)\b)",
    re.I,
)
# A third-person verb making a named thing do something: "Prefilling { *forces* Claude to skip the
# preamble", "the flag *lets* BERT attend to…" (a name after a verb of causing, then "to" and a verb).
_CAUSING = re.compile(r"(?<![\w'’-])[a-z]{2,}s(?<![su]s)\s+[A-Z][\w.-]*\s+to\s+[a-z]{2,}\b")
# A subject pronoun is followed by its verb: "We introduce X, a …", "they report …" (an adverb may
# stand between). Papers state what they contribute this way, with verbs no list holds.
_PRONOUN_SUBJECT = re.compile(
    r"(?:^|[,;:]\s+|\b(?:and|then|here|first|finally)\s*,?\s+)(?:we|they)\s+(?:[a-z]+ly\s+|also\s+|then\s+)?"
    r"(?!(?:all|both|each|and|or|too)\b)[a-z]{3,}\b",
    re.I,
)
# Modals take a verb's base form: "the model can outperform", "it will cost".
_MODAL = re.compile(r"\b(?:can|could|may|might|must|shall|should|will|would)\s+(?:not\s+)?[a-z]{2,}\b", re.I)
# A verb of amounting before its figure: "the hours used for training all models *sum to* roughly
# 300 hours", "the fees *come to* $40", "the costs *add up to* 12%" (after a subject of any length, where the
# plural-subject rule cannot reach; "sum", "total" and "amount" are nouns too, so only with "to" and a figure).
_AMOUNTS_TO = re.compile(
    r"\b(?:sums?|summed|amounts?|amounted|comes?|came|adds?\s+up|added\s+up|totals?|totall?ed)\s+to\s+"
    r"(?:[a-z]+\s+){0,2}[$€£]?\d",
    re.I,
)


def has_verb(text: str) -> bool:
    """The text holds a finite verb: a listed verb or auxiliary, a past form, a modal with its verb, a
    third-person verb before its object (``_THIRD_PERSON``) or making a named thing act (``_CAUSING``), a
    plural subject's verb (``_PLURAL_SUBJECT``), a verb of amounting before its figure (``_AMOUNTS_TO``),
    or an imperative marked as one ("Never send…", "Always pass…": ``MARKED_IMPERATIVE``)."""
    if any(is_verbish(w) for w in words(text)):
        return True
    return bool(
        _MODAL.search(text)
        or _THIRD_PERSON.search(text)
        or _CAUSING.search(text)
        or _PLURAL_SUBJECT.match(text)
        or _PRONOUN_SUBJECT.search(text)
        or _AMOUNTS_TO.search(text)
        or MARKED_IMPERATIVE.match(text)
    )


def has_injection_word(phrase: str) -> bool:
    return any(w in INJECTION_WORDS for w in word_tokens(phrase))


def is_statement(sentence: str, opens_page_block: bool = True) -> bool:
    """False for fragments, headings, labels, reference entries and table dumps. A sentence opening
    in lower case is the tail of one a page or column break cut when it opens a block laid out on a
    page (``opens_page_block``) or opens with a function word ("of the model, which…"); otherwise it
    opens with a name written in lower case ("corvidkit is released under…")."""
    text = sentence.strip()
    toks = text.split()
    # Checked first: the tests after it read the first and last character, so the text is not empty.
    if _too_short(text, toks):
        return False
    return not (
        _broken_off(text, toks, opens_page_block)
        or _table_or_listing(text, toks)
        or is_code(text)
        or _label_or_heading(text, toks)
    )


def _too_short(text: str, toks: list[str]) -> bool:
    """A question, or too few words to state anything (a short line states something only as a
    sentence closed by a full stop around a verb)."""
    if text.endswith("?") or len(toks) < TUNING.sentences.min_verb_sentence_words:
        return True
    return len(toks) < TUNING.sentences.min_sentence_words and not (text.endswith(".") and has_verb(text))


def _broken_off(text: str, toks: list[str], opens_page_block: bool) -> bool:
    """The tail of a sentence or line that a break cut from its start (see ``is_statement``)."""
    if text[0].islower() and (opens_page_block or toks[0].lower() in stopwords()):
        return True
    return text[0] in ")]}"  # the tail of a code line ("  ) # Check the prediction."), never prose


def _table_or_listing(text: str, toks: list[str]) -> bool:
    """A table row, a reference entry, a pointer to a table or a menu rather than prose."""
    if _FIGURE_REFERENCE.match(text):
        return True  # "Table 1 summarises ...": points at a table, states nothing
    if "|" in text or re.search(r"\S {3,}\S.* {3,}", text) or _REFERENCE_LINE.search(text):
        return True
    numeric = sum(1 for t in toks if _NUMERIC.match(t.strip("();,")))
    if numeric / len(toks) > TUNING.sentences.max_numeric_share:
        return True
    return len(_SEPARATOR.findall(text)) >= 2  # a menu or breadcrumb trail scraped with the page


def _label_or_heading(text: str, toks: list[str]) -> bool:
    """A label, a heading or a cut-off fragment: no verb, no closing punctuation or Title Case."""
    if not has_verb(text) and (len(toks) < TUNING.sentences.long_sentence_words or _LABEL.match(text)):
        return True
    if text[-1] not in ".!;:)\"'”’" and len(toks) < TUNING.sentences.max_fragment_words:
        return True  # a line of a heading or a cut-off fragment
    capitalised = sum(1 for t in toks if t[:1].isupper())
    if text[-1] not in ".!" and capitalised / len(toks) > TUNING.sentences.title_case_share:
        return True  # Title Case Heading
    # A table of contents or a menu on one line: headings one after another.
    return (
        len(toks) >= TUNING.sentences.max_unpunctuated_words
        and not re.search(r"[.,;:!?]", text)
        and capitalised / len(toks) >= TUNING.sentences.menu_capitalised_share
    )


# Source code quoted in documentation: an assignment of a string, list, dict or method call (not
# "batch size = 32" in a paper), a comment marker or command at the start, or symbols far denser
# than in prose.
_ASSIGNMENT = re.compile(r"(?:^|\s)[A-Za-z_][\w.\[\]\"']*\s*=\s*(?:[\"'\[{]|\w+[._][\w.]*\()")
_CODE_START = re.compile(r"^(?:#|//|/\*|\$ |>>> |import |from \S+ import |def |class |return |curl |pip |npm )")
_CODE_SYMBOLS = re.compile(r"[{}\[\]()<>=;\\#`|\"]")


def is_code(text: str) -> bool:
    """Source code, a command line or a data literal rather than prose (see the patterns above)."""
    stripped = text.strip()
    if _CODE_START.match(stripped) or _ASSIGNMENT.search(stripped):
        return True
    return len(_CODE_SYMBOLS.findall(stripped)) / max(1, len(stripped)) > TUNING.sentences.max_symbol_share


def is_code_line(text: str) -> bool:
    """Source code or a command by its shape alone (an assignment, a comment marker or command at the
    start), not by symbol density: a lead-in quoting an identifier ('Use the "x-api-key" header:') is
    dense in symbols and still prose."""
    stripped = text.strip()
    return bool(_CODE_START.match(stripped) or _ASSIGNMENT.search(stripped))


def normalise_space(text: str) -> str:
    return " ".join(text.split())


_LEADING = re.compile(
    r"^\s*(?:(?:what|which|who|how|why|when|where|whether|does|do|did|is|are|was|were|can|could|"
    r"should|would|will|the|evidence|documents?|sources?|say|says|report|reports|tell|us|"
    r"about|much|many|known|there|any)\b[\s,]*)+",
    re.IGNORECASE,
)


_INNER_QUESTION = re.compile(
    r"\b(?:(?:what|which|who|how|why|when|where)(?:\s+(?:is|are|was|were|do|does|did|much|many))?|do|does|did)\b\s*",
    re.IGNORECASE,
)


def strip_question(question: str) -> str:
    """The question without its question words: "What does the evidence say about X?" -> "X"."""
    text = normalise_space(question).rstrip("?.! ")
    rest = _LEADING.sub("", text)
    rest = _INNER_QUESTION.sub(" ", rest)
    rest = re.sub(r"^(?:an?|the)\s+", "", rest, flags=re.IGNORECASE)
    rest = normalise_space(rest).strip(" ,;")
    return rest or text


def lemma(word: str) -> str:
    """A word without its inflection ("applied", "applies", "applying" -> "apply"; "covered" -> "cover"),
    cut to the stem length, for matching a verb across its forms (``stem`` cuts "apply" to "app")."""
    w = word.lower().replace("’", "'")
    for suffix, repl in (("ied", "y"), ("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3 and not w.endswith(("ss", "us")):
            w = w[: -len(suffix)] + repl
            break
    return w[: TUNING.sentences.stem_length]


def lemmas(text: str) -> frozenset[str]:
    """The ``lemma`` of every word of ``text`` but its stopwords."""
    stops = stopwords()
    return frozenset(lemma(w) for w in words(text) if w not in stops)
