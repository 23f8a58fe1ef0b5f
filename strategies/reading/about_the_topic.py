"""Whether a topic report's finding says something about the topic, not about the document it is from.

A topic report's reader wants what is known about the topic. A sentence about its own document says
nothing of it, however well it matches the topic's words:

- the text itself (``answerhood.about_the_text``): its layout ("In Section 2, we give some details of
  …"), its authors' plans ("We will also continue to …"), its release ("… is available at https://…");
- a table or figure as the subject, with no value of its own ("Table 3 shows the results of …"), or
  the authors pointing elsewhere in their text ("So far, we have focused on …", "We comment on X in
  Appendix C"); their hopes for others' use of it ("We envision the dataset can be used …");
- commentary on the literature that names nothing and gives no figure or claim ("Recent works provide
  mixed but increasingly nuanced answers."): a "that"-clause, a figure or a name makes it a finding.

A question about the document itself (``prp ask "where is the code released?"``) is answered by such
sentences, so this reads only the findings of topic reports.
"""

from __future__ import annotations

import re

from strategies.reading.answerhood import about_the_text
from strategies.reading.lexicon.documents import TEXT_PART

_PART = TEXT_PART
_PART_AS_SUBJECT = re.compile(
    rf"^\W*(?:as\s+(?:shown|seen|reported)\s+in\s+)?{_PART},?\s+(?:\w+ly\s+)?(?:shows?|lists?|gives?|presents?|"
    r"reports?|summari[sz]es|compares?|illustrates?|depicts?|contains?|provides?|displays?|plots?)\b",
    re.IGNORECASE,
)
# The literature as a sentence's subject: "Recent works …", "Prior studies …", "Many approaches …".
_LITERATURE = re.compile(
    r"^\W*(?:(?:more|most|the)\s+)?(?:recent|prior|previous|earlier|existing|related|other|many|several|some)\s+"
    r"(?:\w+\s+)?(?:works?|studies|research|papers|literature|approaches|methods|authors|efforts)\b",
    re.IGNORECASE,
)
# The authors pointing elsewhere in their text: "So far, we have focused on …", "We further comment on
# X in Appendix C", "We next turn to …", "As discussed above, …".
_POINTER = re.compile(
    r"^\W*(?:(?:so|thus)\s+far|until\s+now|up\s+to\s+now),?\s+we\b"
    r"|^\W*we\s+(?:now|next|then)\s+turn\b"
    rf"|^\W*(?:(?:here|first|next|finally|also|further),?\s+)?we\s+(?:\w+ly\s+|further\s+|also\s+)?\w+\b[^.]*"
    rf"\b(?:in|see)\s+(?:the\s+)?{_PART}\W*$",
    re.IGNORECASE,
)
# The authors' hopes for what others will do with their work: "We envision the dataset can also be used …".
_ENVISION = re.compile(r"^\W*we\s+(?:also\s+)?(?:envision|envisage|foresee)\b", re.IGNORECASE)
_CLAIM_CLAUSE = re.compile(r"\b(?:that|whether|because|since|by|from|to)\b", re.IGNORECASE)


def about_its_document(text: str) -> bool:
    """``text`` (a finding's first line) is about its document or says nothing of its own (see above)."""
    sentence = " ".join(text.split())
    if about_the_text(sentence) or _ENVISION.match(sentence):
        return True
    valued = re.search(r"\d", re.sub(_PART, "", sentence, flags=re.IGNORECASE))
    if (_PART_AS_SUBJECT.match(sentence) or _POINTER.search(sentence)) and not valued:
        return True
    return bool(_LITERATURE.match(sentence)) and not (valued or _names(sentence) or _CLAIM_CLAUSE.search(sentence))


def _names(sentence: str) -> bool:
    """A word written as a name after the first: a capital, or a capital inside it ("BERT", "CorvidBERT")."""
    return any(w[:1].isupper() for w in re.findall(r"[\w-]+", sentence)[1:])
