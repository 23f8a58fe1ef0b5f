"""Nouns naming kinds of entities, and titles before a person's name."""

from __future__ import annotations

# General English nouns naming kinds of entities, by the kind of name their answers are (the values of
# ``question_types.Entity``).
# Source: hand-kept, general English.
ENTITY_NOUNS: dict[str, str] = {
    "person": "person people author artist writer director founder inventor creator composer singer actor "
    "actress player coach president leader ceo chairman chairperson editor producer scientist researcher "
    "architect designer owner manager painter poet novelist musician king queen minister mayor governor",
    "organisation": "company organisation organization firm corporation university institution institute "
    "agency team club band label publisher party provider vendor manufacturer school college network "
    "channel newspaper magazine airline brand bank government ministry department committee studio operator "
    "broadcaster carrier",
    "product": "product model software tool library framework package language app application platform "
    "device api sdk endpoint format version browser database engine compiler plan tier edition album film movie "
    "book novel "
    "song game ship car aircraft vehicle war battle award prize treaty license licence protocol standard",
    "method": "method algorithm technique architecture classifier baseline metric dataset corpus benchmark "
    "encoder decoder optimizer optimiser loss embedding embeddings",
    "category": "sport genre profession occupation job instrument religion nationality position medium "
    "style colour color species breed",
}

# Titles before a person's name: "Judge Howe" is the Howe a document calls "James Henry Howe".
# Source: hand-kept, general English: titles, ranks and offices.
HONORIFICS = frozenset(
    "mr mrs ms miss dr prof professor sir dame lord lady saint st general gen colonel col captain capt major "
    "lieutenant admiral sergeant judge justice senator governor mayor president king queen prince princess "
    "duke earl count emperor pope bishop reverend rev".split()
)

# Names of evaluation measures, as papers write them (upper-cased here; a suffix such as "-L", "-4" or
# "@10" is read off before the lookup). A measure is what a result is scored by: it answers a question
# asking for a metric, never one asking for a model, a dataset, a baseline or a person.
# Source: hand-kept, the standard measures of NLP, IR, ML and speech evaluation.
METRIC_NAMES = frozenset(
    "BLEU ROUGE METEOR CIDER SPICE TER CHRF SARI WER CER PER EM F1 F0.5 F2 AUC ROC PR-AUC MAP MRR NDCG DCG "
    "BERTSCORE MOVERSCORE BLEURT COMET PPL MAE MSE RMSE MAPE SMAPE IOU UAS LAS FID PSNR SSIM HITS "
    "PRECISION RECALL ACCURACY PERPLEXITY KAPPA PEARSON SPEARMAN KENDALL MCC".split()
)
# The nouns of a question asking for a measure ("which evaluation metrics", "what measure").
METRIC_NOUNS = frozenset(
    "metric metrics measure measures measurement measurements score scores criterion criteria".split()
)

# What a paper calls its artefacts, by kind: the noun after a name ("the Wren corpus", "the EGL approach")
# says which kind of thing the name is. A question asking for one kind ("which dataset") is not answered
# by a name its documents call another ("EGL", an approach).
# Source: hand-kept, general English of research writing.
ARTEFACT_KINDS: dict[str, frozenset[str]] = {
    kind: frozenset(nouns.split())
    for kind, nouns in {
        "data": "dataset datasets corpus corpora benchmark benchmarks treebank treebanks",
        "model": "model models network networks architecture architectures classifier classifiers method methods "
        "approach approaches algorithm algorithms baseline baselines technique techniques encoder decoder",
        "measure": "metric metrics measure measures score scores",
        "task": "task tasks",
        "tool": "tool tools toolkit toolkits library libraries framework frameworks package packages software",
    }.items()
}
