"""The citation tool: find the block(s) a quoted span really comes from.

Cited text is the source of truth. The block id the model gives is only a hint about where to look
first; the block whose text best matches the quote wins, whatever the hint said. There is one
resolution path for every citation:

1. Normalise the quote and the blocks the same way (NFKD + case fold, so ligatures and accents
   fold; Unicode quotes and dashes; hyphenation at line breaks, ``retriev- al`` and ``retriev-\\nal``;
   numbers kept whole, ``78.4`` -> ``784``; other punctuation and whitespace collapse to single
   spaces). ``normalise_with_map`` keeps, for every
   normalised character, its offset in the original text, so the match is reported as an exact
   substring of the block's own text.
2. Look in widening scopes: the hinted block (and its neighbours), then the hinted block's document,
   then the blocks the agent retrieved, then the whole corpus. Inside a scope the candidates are the
   blocks sharing the quote's rarest word pairs and words (an inverted index, so only a few dozen
   blocks are ever scored with rapidfuzz, whatever the corpus size). A scope that yields an exact
   normalised match ends the search; otherwise every scope is searched and the best match overall
   wins (ties go to the earlier scope, so the hint only ever breaks ties).
3. Score a candidate with rapidfuzz: ``partial_ratio_alignment`` locates the quote in the block,
   ``Indel.opcodes`` over a slightly wider window finds the exact matched region (dropped words make
   the source longer than the quote), and the score is the better of the two similarities. Two more
   conditions: the quote's words must be found, in order, in the region (``MIN_WORD_COVERAGE``),
   which separates "a quote with a few words left out" from "half a real sentence glued to
   something else"; and the quote's numbers must all be in the region, in order ("78.4%" is no
   quote of "71.2%", however close the rest).
4. A quote that runs from the end of one block into the start of the next in the same document is
   matched against the two blocks' text joined, and resolves to both ids.
5. Quotes under ``SHORT_QUOTE_WORDS`` words or ``SHORT_QUOTE_CHARS`` characters only resolve to an
   exact normalised match (a fuzzy match of three words means nothing), and only when the match is
   unambiguous: the hinted block, else the occurrence nearest to it in its document, else a single
   occurrence among the retrieved blocks or in the corpus.

Anything that does not pass returns ``None``: the caller flags or drops the claim, it never shows it
as cited. Where the matched words are on a PDF page is found when the citation is shown
(``word_boxes``), from the page's text layer inside the resolved block's box, or on a page read by
OCR from the words the block kept.
"""
