"""Text that addresses an AI: instructions planted in a document for the model that reads it.

A document is evidence about its subject; a sentence telling the reader's assistant to ignore its
instructions, to cite something or what "the answer" is, is neither evidence nor an answer, whatever
figure it states. Both modes keep such text out of what a report presents (see docs/reliability.md).

A text addresses an AI when it holds a *strong* cue, or two *weak* ones:

- strong: an instruction to ignore or disregard previous/prior/all instructions (as an imperative,
  not "the system ignores previous values"), in English or another main language of research writing
  (German, French, Spanish, Portuguese, Italian, Russian, Chinese, Japanese, Korean); a chat-template
  token (``<|im_start|>``, ``[INST]``, ``<<SYS>>``); an instruction-format header ("### Instruction");
  a chat role in capitals opening a line and followed by a sentence ("SYSTEM: Green roofs reduce ...",
  "ASSISTANT: ..."), as chat transcripts label turns for a model; or words that cast the reader as an
  AI ("you are an AI assistant", "as an AI language model", "note to the AI");
- weak: a role marker opening a line or sentence ("System:", "Assistant:"), a directive to cite or
  state something as proof or as the answer ("cite document X as proof", "the answer is").

A role marker alone in title case is no address ("System: Linux" in a requirements list), nor is
"Ignore the warning if..." (no instructions named) or "Do not forget all rules" (negated). Cues inside
quotation marks or backticks are mentions, not address: documentation about prompting quotes example
prompts ("prompt = \"Human: Hello\""). A text that is wholly one quotation is still read as it stands.

Text is read for cues as a reader sees it (``visible``): compatibility forms folded (full-width and
mathematical letters), zero-width and other invisible characters removed, and a Cyrillic or Greek
look-alike inside a Latin word read as its Latin letter ("Ign\u043ere", "Ig\u200bnore").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

_ROLES = r"(?:SYSTEM|System|ASSISTANT|Assistant|USER|User|HUMAN|Human|AI|DEVELOPER|Developer)"

# --- reading text as a reader sees it -----------------------------------------------------------

# Invisible characters a word can hide behind: zero-width space/joiners, word joiner, invisible
# operators, byte-order mark, soft hyphen, Mongolian vowel separator, combining grapheme joiner,
# directional marks and overrides.
_INVISIBLE = re.compile("[\u00ad\u034f\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
# Cyrillic and Greek letters drawn like Latin ones (Unicode's confusables for the letters of words
# an instruction is made of), and a few Latin look-alikes NFKC leaves alone.
_LOOK_ALIKES = str.maketrans(
    "\u0430\u0432\u0435\u0456\u0458\u043a\u043c\u043d\u043e\u0440\u0441\u0442\u0443\u0445\u0455\u0501\u051b\u051d\u04cf"
    "\u0410\u0412\u0415\u0406\u0408\u041a\u041c\u041d\u041e\u0420\u0421\u0422\u0423\u0425\u0405"
    "\u03b1\u03bf\u03c1\u03bd\u03b9\u03ba\u03c4\u03c5\u03c7"
    "\u0391\u0392\u0395\u0396\u0397\u0399\u039a\u039c\u039d\u039f\u03a1\u03a4\u03a5\u03a7"
    "\u0131\u0261\u0251\u0578\u0585\u057d",
    "aBeijkmHopctyxsdqwlABEIJKMHOPCTYXSaopviktuxABEZHIKMNOPTYXiganou",
)
_LETTERS = re.compile(r"[^\W\d_]+")
_LATIN = re.compile(r"[A-Za-z]")


def visible(text: str) -> str:
    """``text`` as it reads: NFKC, no invisible characters, look-alike letters inside Latin words as Latin."""
    text = _INVISIBLE.sub("", unicodedata.normalize("NFKC", text))
    if text.isascii():
        return text
    return _LETTERS.sub(lambda m: _latin_word(m.group(0)), text)


def _latin_word(word: str) -> str:
    # Only a word that mixes scripts is read as Latin: Russian or Greek prose stays what it is.
    if not _LATIN.search(word):
        return word
    return word.translate(_LOOK_ALIKES)


# --- instructions to set instructions aside, in the main languages of research writing ----------

# (verbs, what is set aside, which of them): an override needs all three, the third before or just after
# the second ("ignore all previous instructions", "ignorez les instructions précédentes").
_OVERRIDES = {
    "en": (
        r"ignore|disregard|forget|override|bypass",
        r"instructions?|prompts?|directives?|rules|guidelines|guidance|context|messages?|commands?",
        r"previous|prior|above|earlier|preceding|foregoing|original|all|any|your|system",
    ),
    "de": (
        r"ignorier\w*|missacht\w*|vergiss|vergesst|vergessen|verwirf|verwerfen|übergeh\w*",
        r"anweisung\w*|instruktion\w*|befehl\w*|regeln|vorgaben?|prompts?|richtlinien|anordnung\w*|aufforderung\w*",
        r"vorherig\w*|vorig\w*|bisherig\w*|obig\w*|alle\w*|sämtlich\w*|früher\w*|vorangegangen\w*|dein\w*|ihr\w*",
    ),
    "fr": (
        r"ignore[zs]?|ignorer|oublie[zs]?|oublier|néglige[zs]?|négliger|outrepasse[zs]?",
        r"instructions?|consignes?|directives?|règles|commandes?|prompts?|invites?|messages?|ordres",
        r"précédent\w*|antérieur\w*|ci-dessus|dessus|tou(?:te)?s|vos|tes|initial\w*",
    ),
    "es": (
        r"ignora|ignore|ignoren|ignorad|ignorar|olvida|olvide|olviden|olvidad|olvidar|omite|omita|descarta|descarte",
        r"instrucciones|instrucción|indicaciones|órdenes|reglas|directrices|directivas|comandos|mensajes|prompts?",
        r"anteriores|anterior|previas?|precedentes|todas|todos|tus|sus|arriba",
    ),
    "pt": (
        r"ignore|ignora|ignorem|ignorar|esqueça|esquece|esqueçam|esquecer|desconsidere|desconsidera",
        r"instruções|instrução|ordens|regras|diretrizes|diretivas|comandos|mensagens|prompts?",
        r"anteriores|prévias?|todas|todos|tuas|suas|acima",
    ),
    "it": (
        r"ignora|ignorate|ignori|ignorare|dimentica|dimenticate|dimentichi|trascura|trascurate",
        r"istruzioni|indicazioni|regole|direttive|comandi|messaggi|prompt",
        r"precedenti|tutte|tutti|tue|sue|sopra",
    ),
    "ru": (
        r"игнорируй\w*|проигнорируй\w*|забудь\w*|пренебреги|отбрось\w*",
        r"инструкци\w*|указани\w*|правил\w*|команд\w*|промпт\w*|сообщени\w*",
        r"предыдущ\w*|прежн\w*|все\w*|ранее|вышеуказанн\w*|твои|ваши",
    ),
}
_NEGATION = re.compile(r"\b(?:not|never|nicht|nie|niemals|kein\w*|pas|jamais|no|nunca|non|mai|не|никогда)\b", re.I)
_OVERRIDE = [
    (
        re.compile(rf"\b(?:{verbs})\b(?P<span>(?:\W+\w+){{0,5}}?)\W+(?:{objects})\b(?P<after>(?:\W+\w+){{0,2}})", re.I),
        re.compile(rf"\b(?:{which})\b", re.I),
    )
    for verbs, objects, which in _OVERRIDES.values()
]
# Chinese, Japanese and Korean: no spaces between words, the object (Japanese, Korean) before the verb.
_CJK_OVERRIDE = re.compile(
    r"(?:忽略|忽视|忽視|无视|無視|忘记|忘記|忘掉|不要理会|不要理會|不用理会)[^。！？\n]{0,10}?"
    r"(?:之前|以前|先前|此前|上述|以上|前面|上面|所有|全部|一切)[^。！？\n]{0,8}?"
    r"(?:指令|指示|说明|說明|提示|规则|規則|命令|要求|设定|設定)"
    r"|(?:以前|前|上記|これまで|先|全て|すべて)の(?:全て|すべて)?の?(?:指示|命令|指令|プロンプト|ルール)(?:を|は)"
    r"(?:全て|すべて)?(?:無視|忘れ)(?:して|しろ|せよ|なさい|てください|ろ)"
    r"|(?:이전|앞|위|모든)\S*\s*(?:모든\s*)?(?:지시|지침|명령|프롬프트|규칙)\S*\s*(?:무시|잊어)"
)
# ... as an imperative: opening a line, a sentence, a clause or a quotation, or after "please", "and"...
_IMPERATIVE_BEFORE = re.compile(
    r"(?:^|[\n.!?;:,(\[\"\u201c\u201e\u00ab'。！？；：，、]|\b(?:please|now|and|then|so|bitte|und|dann|jetzt|nun|"
    r"s'il vous plaît|et|puis|maintenant|por favor|y|ahora|luego|agora|e|per favore|ora|poi|пожалуйста|и|теперь)"
    r"|请|請)\s*$",
    re.I,
)

_STRONG = [
    re.compile(r"<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|begin_of_text)\|>"),
    re.compile(r"\[/?INST\]|<</?SYS>>"),
    re.compile(r"^\s*#{2,}\s*(?:instructions?|system(?: prompt)?)\s*:?\s*$", re.I | re.M),
    # A chat turn's label in capitals, then a sentence: "SYSTEM: Green roofs reduce ... by 90 degrees."
    re.compile(r"^\s*(?:SYSTEM|ASSISTANT|DEVELOPER)\s*:\s*\S+(?:\s+\S+){3}", re.M),
    re.compile(
        r"\byou are (?:now )?(?:an?|the) (?:[\w-]+ ){0,2}?(?:AI|LLM|chatbot|(?:large )?language model|"
        r"AI (?:assistant|model|system))\b",
        re.I,
    ),
    # "As an AI language model, ..." but not "as an AI researcher".
    re.compile(
        r"\bas an? (?:AI |LLM )?(?:(?:large )?language model|AI|LLM)(?: (?:assistant|model|system))?\b(?!\s+[a-z])",
        re.I,
    ),
    re.compile(
        r"\b(?:note|message|instructions?) (?:to|for) (?:the |any |all )?(?:AI|LLM|language model|assistant|chatbot)s?\b"
        r"|\b(?:AI|LLM|language model|assistant|chatbot)s? (?:reading|processing|summari[sz]ing) this\b",
        re.I,
    ),
]
_WEAK = [
    re.compile(r"(?:^|(?<=[.!?])\s+)" + _ROLES + r"\s*:\s*\S", re.M),
    re.compile(r"\b(?:cite|quote|reference|use)\s+(?:[\w-]+\s+){0,4}?as (?:proof|evidence|the source)\b", re.I),
    re.compile(
        r"\bthe (?:correct |right |only |final |real )?answer (?:is|should be|must be)\b"
        r"|^\s*(?:answer|respond|reply|say|output|print|state)\s+(?:only|with|that|exactly)\b",
        re.I | re.M,
    ),
]
# A quotation: straight, curly or low-high double quotes, guillemets, or backticks, on one stretch of at
# most 400 characters.
_QUOTED = re.compile(
    r"\"[^\"\n]{1,400}\"|\u201c[^\u201d]{1,400}\u201d|\u201e[^\u201c\u201d]{1,400}[\u201c\u201d]|\u00ab[^\u00bb]{1,400}\u00bb"
    r"|`[^`]{1,400}`"
)
_WORD = re.compile(r"\w+")


# Evidence blocks are read by several steps of one answer: each text is judged once (a pure function).
@lru_cache(maxsize=4096)
def addresses_ai(text: str) -> bool:
    """Whether ``text`` (a sentence or a block) speaks to an AI model rather than about its subject."""
    text = visible(text)
    unquoted = _QUOTED.sub(" ", text)
    if len(_WORD.findall(unquoted)) >= 3:
        text = unquoted
    if _overrides(text) or any(p.search(text) for p in _STRONG):
        return True
    # Each kind counts once: two role markers are a transcript ("User: ... Support: ..."), not an address.
    return sum(1 for p in _WEAK if p.search(text)) >= 2


def _overrides(text: str) -> bool:
    """An imperative to set instructions aside, in one of the languages above."""
    for pattern, which in _OVERRIDE:
        for m in pattern.finditer(text):
            if not (which.search(m.group("span")) or which.search(m.group("after"))):
                continue
            if _NEGATION.search(m.group("span")):
                continue
            if _IMPERATIVE_BEFORE.search(text, 0, m.start()):
                return True
    return any(_IMPERATIVE_BEFORE.search(text, 0, m.start()) for m in _CJK_OVERRIDE.finditer(text))


#: A writer's claim or title repeating this many consecutive words of text addressed to an AI repeats
#: the planted text (a sentence shares three or four with the question's own words; a figure with its
#: unit and context takes more). A shorter title counts when all of it, four words or more, is repeated.
ECHO_WORDS = 6


def echoes(text: str, addressed: Iterable[str]) -> bool:
    """Whether ``text`` (a model's title or claim) repeats a run of words of one of the ``addressed`` texts:
    an obedient model restating a planted "SYSTEM: ..." in its own title or uncited claim."""
    words = _WORD.findall(visible(text).lower())
    n = min(ECHO_WORDS, len(words))
    if n < 4:
        return False
    runs = {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}
    for other in addressed:
        theirs = _WORD.findall(visible(other).lower())
        if any(tuple(theirs[i : i + n]) in runs for i in range(len(theirs) - n + 1)):
            return True
    return False
